package teamserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// rssMiB returns a process's resident and peak resident memory, in MiB.
func rssMiB(t testing.TB, pid int) (rss, peak float64) {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return rss, peak
}

// dialFrom opens a TCP connection to addr from the loopback address src,
// so that tests can play clients of several addresses.
func dialFrom(src, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// goodClient is a well-behaved client: an SDK session over HTTP from
// 127.0.0.1 that reads one file and reports how long each read took.
type goodClient struct {
	cs *mcp.ClientSession
}

func newGoodClient(t testing.TB, base string) *goodClient {
	t.Helper()
	cs, err := newClient(t, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + Endpoint},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &goodClient{cs}
}

func (g *goodClient) read(t testing.TB) time.Duration {
	t.Helper()
	start := time.Now()
	if _, err := g.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://acme/pdf-processing/SKILL.md"}); err != nil {
		t.Fatalf("the good client's read: %v", err)
	}
	return time.Since(start)
}

// slowBody opens a connection from src and sends a POST whose body is
// declared (or, with size < 0, chunked) and sent but for its last byte.
// It returns the connection, still open unless the server closed it.
func slowBody(src, addr string, size int) (net.Conn, error) {
	c, err := dialFrom(src, addr)
	if err != nil {
		return nil, err
	}
	hdr := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	if size >= 0 {
		hdr += "Content-Length: " + strconv.Itoa(size) + "\r\n\r\n"
	} else {
		hdr += "Transfer-Encoding: chunked\r\n\r\n"
	}
	c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, hdr); err != nil {
		return c, nil
	}
	chunk := make([]byte, 64<<10)
	for i := range chunk {
		chunk[i] = ' '
	}
	n := size - 1
	if size < 0 {
		n = 4 << 20
	}
	for n > 0 {
		k := min(n, len(chunk))
		var err error
		if size < 0 {
			_, err = fmt.Fprintf(c, "%x\r\n%s\r\n", k, chunk[:k])
		} else {
			_, err = c.Write(chunk[:k])
		}
		if err != nil {
			break // the server refused and closed: what a limit does
		}
		n -= k
	}
	return c, nil
}

// closedWithin reports whether the server closes c (a read returns) within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	ne, ok := err.(net.Error)
	return !ok || !ne.Timeout()
}

// TestLimitsSlowBodyAttack: 200 connections that each send a large body
// and withhold its last byte (declared, just under the body limit, and
// chunked) leave the real server under 100 MiB resident, a good client
// answered within 100 ms, and every attacking connection closed.
func TestLimitsSlowBodyAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("sends some 250 MiB over loopback")
	}
	_, bundle := fileBundle(t, exampleFixture())
	base, cmd, stderr := servetest.StartHTTP(t, Endpoint, "--read-timeout", "5s", bundle)
	addr := strings.TrimPrefix(base, "http://")
	good := newGoodClient(t, base)
	good.read(t)
	before, _ := rssMiB(t, cmd.Process.Pid)
	var conns []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 200 {
		size := []int{3_900_000, 1<<20 - 1, -1}[i%3]
		wg.Go(func() {
			c, err := slowBody("127.0.0.2", addr, size)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		})
	}
	// Once the attack holds its connections, the good client is answered
	// at once. (The machine is shared, so 2 reads of 20 may be late.)
	wg.Wait()
	var reads []time.Duration
	late := 0
	for range 20 {
		d := good.read(t)
		reads = append(reads, d.Round(10*time.Microsecond))
		if d > 100*time.Millisecond {
			late++
		}
		time.Sleep(20 * time.Millisecond)
	}
	rss, peak := rssMiB(t, cmd.Process.Pid)
	t.Logf("resident %.1f MiB before, %.1f MiB under attack, peak %.1f MiB; good reads %v", before, rss, peak, reads)
	if peak > 100 {
		t.Errorf("peak resident %.1f MiB under the slow-body attack, want < 100", peak)
	}
	if late > 2 {
		t.Errorf("%d of 20 good reads took over 100 ms", late)
	}
	// Every attacking connection is closed by the read timeout.
	deadline := time.Now().Add(6 * time.Second)
	for _, c := range conns {
		if !closedWithin(c, time.Until(deadline)) {
			t.Errorf("an attacking connection is still open past the read timeout\n%s", stderr.String())
			break
		}
		c.Close()
	}
}

// TestLimitsRateAndBody: past its rate a token gets 429 with Retry-After
// while another token is served; a declared body over the limit gets 413.
func TestLimitsRateAndBody(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "bob": "acme"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Limits: Limits{Rate: 5, Burst: 5, MaxBodyBytes: 4096}}))
	defer ts.Close()
	for i := range 5 {
		if resp := post(t, ts.URL, "tok-alice", listBody); resp.StatusCode != 200 {
			t.Fatalf("request %d within the burst: %s", i, resp.Status)
		}
	}
	resp := post(t, ts.URL, "tok-alice", listBody)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("past the burst: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	if resp := post(t, ts.URL, "tok-bob", listBody); resp.StatusCode != 200 {
		t.Errorf("another token: %s", resp.Status)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"` + strings.Repeat("x", 5000) + `"}}`
	if resp := post(t, ts.URL, "tok-bob", big); resp.StatusCode != 413 {
		t.Errorf("a body over the limit: %s", resp.Status)
	}
	// Chunked, the limit holds as the body is read.
	req, _ := http.NewRequest("POST", ts.URL+Endpoint, bufio.NewReader(strings.NewReader(big)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tok-bob")
	time.Sleep(time.Second) // bob's rate
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode < 400 {
		t.Errorf("a chunked body over the limit: %s", r2.Status)
	}
}

// BenchmarkIdleConns1000 measures what 1,000 idle connections cost the
// real server in resident memory (MiB/1000-idle).
func BenchmarkIdleConns1000(b *testing.B) {
	_, bundle := fileBundle(b, exampleFixture())
	srv := startHTTP(b, bundle)
	addr := strings.TrimPrefix(strings.TrimSuffix(srv.url, Endpoint), "http://")
	for b.Loop() {
		before, _ := rssMiB(b, srv.cmd.Process.Pid)
		var conns []net.Conn
		for i := range 1000 {
			c, err := dialFrom(fmt.Sprintf("127.0.1.%d", 1+i%5), addr)
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, c)
		}
		time.Sleep(500 * time.Millisecond) // accepted and parked
		after, _ := rssMiB(b, srv.cmd.Process.Pid)
		b.ReportMetric(after-before, "MiB/1000-idle")
		b.ReportMetric(after, "MiB-resident")
		for _, c := range conns {
			c.Close()
		}
	}
}

// BenchmarkSlowBodyAttack measures the real server's resident memory under
// 200 connections each withholding the last byte of a large body.
func BenchmarkSlowBodyAttack(b *testing.B) {
	_, bundle := fileBundle(b, exampleFixture())
	srv := startHTTP(b, bundle)
	addr := strings.TrimPrefix(strings.TrimSuffix(srv.url, Endpoint), "http://")
	for b.Loop() {
		before, _ := rssMiB(b, srv.cmd.Process.Pid)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var conns []net.Conn
		for i := range 200 {
			size := []int{3_900_000, 1<<20 - 1, -1}[i%3]
			wg.Go(func() {
				if c, err := slowBody("127.0.0.2", addr, size); err == nil {
					mu.Lock()
					conns = append(conns, c)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		rss, peak := rssMiB(b, srv.cmd.Process.Pid)
		b.ReportMetric(before, "MiB-before")
		b.ReportMetric(rss, "MiB-under-attack")
		b.ReportMetric(peak, "MiB-peak")
		for _, c := range conns {
			c.Close()
		}
	}
}
