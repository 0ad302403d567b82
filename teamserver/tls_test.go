package teamserver

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/serve"
)

// writeCert writes a self-signed certificate for 127.0.0.1 with the given
// serial number, and its key, as PEM files in dir; it returns their paths
// and the certificate.
func writeCert(t testing.TB, dir string, serial int64) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "skills-mcp test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	return certFile, keyFile, cert
}

// serveTLS serves the example fixture over TLS with cert and limits on a
// loopback port until the test ends, and returns its https URL.
func serveTLS(t *testing.T, cert *Certificate, lim Limits) string {
	t.Helper()
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- wrapServer(s).serveListener(ctx, ln, Options{TLS: cert, Limits: lim, ShutdownTimeout: -1})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return "https://" + ln.Addr().String() + Endpoint
}

// tlsClient trusts roots only and speaks HTTP/2 (h2 true) or HTTP/1.1.
func tlsClient(roots *x509.Certificate, h2 bool) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(roots)
	p := new(http.Protocols)
	if h2 {
		p.SetHTTP2(true)
	} else {
		p.SetHTTP1(true)
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, Protocols: p}}
}

// TestTLS serves the endpoint over TLS: the Go SDK's client reads a skill
// over HTTP/2 (ALPN h2) and over HTTP/1.1, plain HTTP to the port gets
// 400, and a Reload presents the new certificate to new connections while
// a failed one keeps the old.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, x1 := writeCert(t, dir, 1)
	cert, err := NewCertificate(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	url := serveTLS(t, cert, Limits{})
	for _, h2 := range []bool{true, false} {
		cl := tlsClient(x1, h2)
		cs, err := newClient(t, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: cl}, nil)
		if err != nil {
			t.Fatalf("h2 %v: %v", h2, err)
		}
		if _, err := getSkill(context.Background(), cs, "skill://community/git-workflow/SKILL.md"); err != nil {
			t.Errorf("h2 %v: skills/get: %v", h2, err)
		}
		cs.Close()
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := cl.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]string{true: "HTTP/2.0", false: "HTTP/1.1"}[h2]; resp.Proto != want {
			t.Errorf("h2 %v: answered over %s, want %s", h2, resp.Proto, want)
		}
	}
	resp, err := http.Post("http"+strings.TrimPrefix(url, "https"), "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("plain HTTP to the TLS port: %d %s", resp.StatusCode, body)
	}

	served := func() *big.Int {
		t.Helper()
		conn, err := tls.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "https://"), Endpoint), &tls.Config{InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber
	}
	if got := served(); got.Cmp(x1.SerialNumber) != 0 {
		t.Fatalf("served certificate %v, want %v", got, x1.SerialNumber)
	}
	_, _, x2 := writeCert(t, dir, 2)
	if err := cert.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := served(); got.Cmp(x2.SerialNumber) != 0 {
		t.Errorf("after Reload: served certificate %v, want %v", got, x2.SerialNumber)
	}
	if err := os.WriteFile(keyFile, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cert.Reload(); err == nil || !strings.Contains(err.Error(), keyFile) {
		t.Errorf("Reload of a broken key: %v, want an error naming %s", err, keyFile)
	}
	if got := served(); got.Cmp(x2.SerialNumber) != 0 {
		t.Errorf("after a failed Reload: served certificate %v, want %v (kept)", got, x2.SerialNumber)
	}
}

// TestTLSPerClientCap: over TLS, a new connection past the per-client cap
// closes the client's connection idle longest, never one serving a
// request: the cap follows each connection's state through
// http.Server.ConnState, which hands it the TLS connection.
func TestTLSPerClientCap(t *testing.T) {
	certFile, keyFile, x1 := writeCert(t, t.TempDir(), 1)
	cert, err := NewCertificate(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	url := serveTLS(t, cert, Limits{MaxConnsPerClient: 2})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), Endpoint)
	pool := x509.NewCertPool()
	pool.AddCert(x1)
	// A request in flight: its headers sent, its body not yet whole.
	const body = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	busy, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if _, err := io.WriteString(busy, "POST "+Endpoint+" HTTP/1.1\r\nHost: "+addr+
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body[:10]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the server has read the headers: the connection is active
	ping := func(cl *http.Client) error {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := cl.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	// Two more clients, one connection each: the second is past the cap
	// and closes the first's, idle since its request, not the busy one.
	for i := range 2 {
		if err := ping(tlsClient(x1, i == 0)); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	if _, err := io.WriteString(busy, body[10:]); err != nil {
		t.Fatalf("the request in flight: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil {
		t.Fatalf("the request in flight got no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the request in flight: %s", resp.Status)
	}
}
