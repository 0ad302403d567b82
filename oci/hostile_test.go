package oci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// liar is a reverse proxy on loopback in front of a real registry that
// changes one kind of answer: the blob target (or, for "manifest-type",
// the manifests).
type liar struct {
	host   string
	mode   string
	target string // a blob digest
}

func startLiar(t *testing.T, reg *testRegistry, mode, target string, redirectTo string) *liar {
	t.Helper()
	up, _ := url.Parse("http://" + reg.Host)
	rp := httputil.NewSingleHostReverseProxy(up)
	l := &liar{mode: mode, target: target}
	rp.ModifyResponse = func(resp *http.Response) error {
		p := resp.Request.URL.Path
		switch {
		case mode == "head-size" && strings.Contains(p, "/manifests/") && resp.Request.Method == http.MethodHead:
			// The tag resolves to the manifest's digest with another size.
			resp.Header.Set("Content-Length", fmt.Sprint(resp.ContentLength+1))
		case mode == "manifest-type" && strings.Contains(p, "/manifests/"):
			resp.Header.Set("Content-Type", "application/vnd.docker.distribution.manifest.v2+json")
		case mode == "manifest-size" && strings.Contains(p, "/manifests/") && resp.Request.Method == http.MethodGet:
			// The same manifest with one layer's size changed.
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			resp.Body.Close()
			body = bytes.Replace(body, []byte(`"size":`), []byte(`"size":1`), 2)
			resp.ContentLength = int64(len(body))
			resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
			resp.Body = io.NopCloser(bytes.NewReader(body))
		case resp.Request.Method == http.MethodGet && strings.HasSuffix(p, "/blobs/"+target):
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			resp.Body.Close()
			switch mode {
			case "flip":
				body[len(body)/2] ^= 1
			case "truncate":
				body = body[:len(body)/2]
				resp.Header.Del("Content-Length")
				resp.ContentLength = -1
			case "longer":
				body = append(body, "extra"...)
				resp.Header.Del("Content-Length")
				resp.ContentLength = -1
			case "endless":
				resp.Header.Del("Content-Length")
				resp.ContentLength = -1
				resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), endless{}))
				return nil
			}
			if resp.ContentLength >= 0 {
				resp.ContentLength = int64(len(body))
				resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
			}
			resp.Body = io.NopCloser(bytes.NewReader(body))
		}
		return nil
	}
	h := http.Handler(rp)
	if mode == "redirect" {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/blobs/"+target) {
				http.Redirect(w, r, redirectTo+r.URL.Path, http.StatusTemporaryRedirect)
				return
			}
			rp.ServeHTTP(w, r)
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	l.host = ln.Addr().String()
	return l
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'A'
	}
	return len(p), nil
}

// TestLyingRegistry fetches through a registry that lies: each lie is
// refused with an error naming the reference and the rule, and the cache
// stays as it was.
func TestLyingRegistry(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 3, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/lies:v1"))
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	sk, _ := b.Skill(1)
	target := sk.Entry.Resources[0].Digest.String()
	for mode, want := range map[string]string{
		"flip":          "digest",
		"truncate":      "expected content size",
		"longer":        "trailing data",
		"endless":       "trailing data",
		"manifest-type": `manifest media type "application/vnd.docker.distribution.manifest.v2+json"`,
		"manifest-size": "manifest does not match its digest",
	} {
		t.Run(mode, func(t *testing.T) {
			l := startLiar(t, reg, mode, target, "")
			o := testOptions(t)
			lref := Scheme + l.host + "/skills/lies@" + res.Digest
			_, err := Fetch(ctx, lref, o)
			if err == nil || !strings.Contains(err.Error(), lref) || !strings.Contains(err.Error(), want) {
				t.Errorf("fetch: %v; want an error naming %s and %q", err, lref, want)
			}
			assertEmptyCache(t, o.CacheDir)
		})
	}
}

// TestRedirectDropsCredentials: a registry that redirects a blob to another
// host gets the request there without the credentials.
func TestRedirectDropsCredentials(t *testing.T) {
	reg := startRegistry(t, true)
	t.Setenv(EnvUser, reg.User)
	t.Setenv(EnvPassword, reg.Pass)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 2, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/redirect:v1"))
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	sk, _ := b.Skill(0)
	target := sk.Entry.Resources[0].Digest.String()
	data, _ := b.ReadBlob(sk.Entry.Resources[0].Digest)
	var leaked, served atomic.Int32
	other := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		served.Add(1)
		w.Write(data)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go other.Serve(ln)
	defer other.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	l := startLiar(t, reg, "redirect", target, "http://localhost:"+port)
	o := testOptions(t)
	if _, err := Fetch(ctx, Scheme+l.host+"/skills/redirect@"+res.Digest, o); err != nil {
		t.Fatal(err)
	}
	if served.Load() == 0 {
		t.Fatal("the redirect was not followed")
	}
	if leaked.Load() != 0 {
		t.Error("credentials were sent to the host the registry redirected to")
	}
}

// TestBadReferrerSignature: a referrer whose signature does not verify is
// refused under trust (and nothing cached); without trust the bundle is
// fetched, and its bad signature travels in it to be refused by verify.
func TestBadReferrerSignature(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	sign, trusted, _ := signer(t)
	_, b := buildBundle(t, genLibrary(t, 2, ""), func(b *manifest.Bundle) []manifest.Signature {
		sigs := sign(b)
		for i := range sigs {
			sigs[i].Data = bytes.Clone(sigs[i].Data)
		}
		// Sign other bytes: a valid signature by the trusted key over the
		// wrong message.
		return sigs
	})
	_, other := buildBundle(t, genLibrary(t, 1, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/badsig:v1"))
	o := testOptions(t)
	res, err := Push(ctx, other, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	// Attach b's signatures (over b's manifest) to other's artifact.
	repo, _ := o.repository(ref)
	p := &pusher{repo: repo, res: &PushResult{}, o: &o}
	desc, _ := repo.Resolve(ctx, "v1")
	sigUps, sigLayers := signatureUploads(b.Signatures())
	if _, err := p.signatures(ctx, desc, sigUps, sigLayers); err != nil {
		t.Fatal(err)
	}
	o = testOptions(t)
	o.Trusted = trusted
	_, err = Fetch(ctx, res.Ref.String(), o)
	if !errors.Is(err, manifest.ErrBadSignature) && !errors.Is(err, manifest.ErrUntrusted) {
		t.Errorf("fetch with trust: %v, want a bad signature", err)
	}
	if err != nil && !strings.Contains(err.Error(), res.Ref.String()) {
		t.Errorf("error %q does not name %s", err, res.Ref)
	}
	assertEmptyCache(t, o.CacheDir)
}

// TestRegistryAuth pushes to and fetches from a registry with basic auth:
// with SKILLS_REGISTRY_USER/PASSWORD, with a docker config.json, and with
// a wrong password, which fails without the password in the error.
func TestRegistryAuth(t *testing.T) {
	reg := startRegistry(t, true)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 2, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/auth:v1"))
	t.Setenv("DOCKER_CONFIG", t.TempDir())

	t.Setenv(EnvUser, reg.User)
	t.Setenv(EnvPassword, "wrong-"+reg.Pass)
	var logs strings.Builder
	o := testOptions(t)
	o.Logf = func(f string, a ...any) { fmt.Fprintf(&logs, f+"\n", a...) }
	_, err := Push(ctx, b, ref, nil, o)
	if err == nil || strings.Contains(err.Error(), reg.Pass) || strings.Contains(logs.String(), reg.Pass) {
		t.Fatalf("push with a wrong password: %v (logs %q)", err, logs.String())
	}
	if !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("push with a wrong password: %v, want it to say unauthorized", err)
	}

	t.Setenv(EnvUser, reg.User)
	t.Setenv(EnvPassword, reg.Pass)
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}

	// The docker config, as docker login (or oras login) writes it.
	t.Setenv(EnvUser, "")
	t.Setenv(EnvPassword, "")
	o = testOptions(t)
	if _, err := Fetch(ctx, res.Ref.String(), o); err == nil {
		t.Fatal("fetch without credentials succeeded")
	}
	dir := t.TempDir()
	auth := base64Auth(reg.User + ":" + reg.Pass)
	cfg := fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, reg.Host, auth)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_CONFIG", dir)
	if _, err := Fetch(ctx, res.Ref.String(), o); err != nil {
		t.Fatalf("fetch with the docker config: %v", err)
	}

	// Podman's auth file, when the docker config has nothing.
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	podman := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(podman, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("REGISTRY_AUTH_FILE", podman)
	if _, err := Fetch(ctx, res.Ref.String(), testOptions(t)); err != nil {
		t.Fatalf("fetch with the Podman auth file: %v", err)
	}
}
