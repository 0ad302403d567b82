package main

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/oci/ocitest"
)

// cli returns the path of the binary under test (this test binary, as
// testscript.Main links it).
func cli(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("skills-mcp")
	if err != nil {
		t.Skip(err)
	}
	return bin
}

// stallingRegistry is a proxy on loopback in front of a real registry that
// answers everything honestly but a GET of a blob: mode "silent" sends
// nothing at all, "headers" sends the blob's headers and no body.
func stallingRegistry(t *testing.T, upstream, mode string) string {
	t.Helper()
	up, _ := url.Parse("http://" + upstream)
	rp := httputil.NewSingleHostReverseProxy(up)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/blobs/sha256:") {
			rp.ServeHTTP(w, r)
			return
		}
		if mode == "headers" {
			// The blob's true headers: its size as the manifest says.
			head, err := http.Head("http://" + upstream + r.URL.Path)
			if err != nil {
				t.Error(err)
				return
			}
			head.Body.Close()
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", head.Header.Get("Content-Length"))
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})}
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// runTimed runs the binary with args and returns its exit error, stderr
// and how long it took; it kills it after limit.
func runTimed(t *testing.T, limit time.Duration, env []string, args ...string) (string, time.Duration, error) {
	t.Helper()
	cmd := exec.Command(cli(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	return stderr.String(), time.Since(start), err
}

// TestStalledRegistry: a registry that answers /v2/ and the manifests, then
// stalls on a blob (no answer at all, or headers and no body), makes serve
// oci:// and pull fail within seconds (--stall-timeout, and a bounded number
// of tries), naming the registry and the blob, with nothing written to --to.
func TestStalledRegistry(t *testing.T) {
	reg := ocitest.StartTest(t, false)
	dir := t.TempDir()
	skb := filepath.Join(dir, "acme.skb")
	cache := filepath.Join(dir, "cache")
	env := []string{"SKILLS_CACHE_DIR=" + cache, "SOURCE_DATE_EPOCH="}
	if out, _, err := runTimed(t, time.Minute, env, "build", "--lib", "acme=../../testdata/example/acme", "-o", skb); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if out, _, err := runTimed(t, time.Minute, env, "push", skb, "oci://"+reg.Host+"/skills/acme:v1", "--plain-http"); err != nil {
		t.Fatalf("push: %v\n%s", err, out)
	}
	blob := regexp.MustCompile(`/blobs/sha256:[0-9a-f]{64}`)
	for _, mode := range []string{"silent", "headers"} {
		host := stallingRegistry(t, reg.Host, mode)
		ref := "oci://" + host + "/skills/acme:v1"
		to := filepath.Join(dir, "to-"+mode)
		// The stall timeout is 1 s: a silent blob is tried three times
		// (1 + 2 retries, pauses of 0.2 and 0.4 s); a body that stalls
		// after its headers fails at once.
		for _, args := range [][]string{
			{"pull", "--from", ref, "--to", to, "--plain-http", "--stall-timeout", "1s"},
			{"serve", ref, "--plain-http", "--stall-timeout", "1s"},
		} {
			os.RemoveAll(cache)
			stderr, took, err := runTimed(t, 30*time.Second, env, args...)
			t.Logf("%s %s: failed after %v", mode, args[0], took.Round(10*time.Millisecond))
			if err == nil {
				t.Fatalf("%s %s: succeeded against a stalled registry", mode, args[0])
			}
			if took > 10*time.Second {
				t.Errorf("%s %s: took %v to give up", mode, args[0], took)
			}
			if !strings.Contains(stderr, host) || !blob.MatchString(stderr) || !strings.Contains(stderr, "fetch-stalled") {
				t.Errorf("%s %s: the error does not name the registry, the blob and the rule:\n%s", mode, args[0], stderr)
			}
			if ents, _ := os.ReadDir(to); len(ents) > 0 {
				t.Errorf("%s %s: wrote %d entries to --to", mode, args[0], len(ents))
			}
		}
	}
}

// listen listens on a free loopback port for the test.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
