package oci

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci/ocitest"
)

// need is ocitest.Need: the path of a tool, the test skipped (failed under
// CI) when it is missing.
func need(t testing.TB, tool string) string {
	t.Helper()
	return ocitest.Need(t, tool)
}

// testRegistry is a real registry for one test.
type testRegistry struct{ *ocitest.Registry }

// startRegistry starts a registry for the test; withAuth turns on htpasswd
// basic auth for one user.
func startRegistry(t testing.TB, withAuth bool) *testRegistry {
	t.Helper()
	return &testRegistry{ocitest.StartTest(t, withAuth)}
}

// counter counts what a client sends and receives: request bodies and
// response bodies, and requests by method.
type counter struct {
	base     http.RoundTripper
	sent     atomic.Int64
	received atomic.Int64
	requests atomic.Int64
	mu       sync.Mutex
	methods  map[string]int
}

func newCounter() *counter { return &counter{base: http.DefaultTransport, methods: map[string]int{}} }

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	c.requests.Add(1)
	c.mu.Lock()
	c.methods[req.Method]++
	c.mu.Unlock()
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = &countingBody{req.Body, &c.sent}
	}
	resp, err := c.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		resp.Body = &countingBody{resp.Body, &c.received}
	}
	return resp, err
}

func (c *counter) client() *http.Client { return &http.Client{Transport: c} }

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// genLibrary writes n skills of four files each into a new folder, the
// shape of build's benchmarks: SKILL.md, a reference, a script and an asset.
// variant changes the SKILL.md of skill 0 alone.
func genLibrary(t testing.TB, n int, variant string) string {
	t.Helper()
	root := t.TempDir()
	writeLibrary(t, root, n, variant)
	return root
}

func writeLibrary(t testing.TB, root string, n int, variant string) {
	t.Helper()
	body := strings.Repeat("Step: do the thing carefully and check the result.\n", 60)
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		dir := filepath.Join(root, fmt.Sprintf("cat-%02d", i%50), name)
		extra := ""
		if i == 0 {
			extra = variant
		}
		files := map[string]string{
			"SKILL.md":             fmt.Sprintf("---\nname: %s\ndescription: Generated skill %d.\n---\n%s%s", name, i, body, extra),
			"references/REF.md":    strings.Repeat(fmt.Sprintf("Reference line %d.\n", i), 300),
			"scripts/run.py":       fmt.Sprintf("print(%d)\n", i) + strings.Repeat("# comment\n", 100),
			"assets/data-file.bin": strings.Repeat(string(rune('a'+i%26)), 4096) + fmt.Sprint(i),
		}
		for p, c := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// buildBundle builds the library at root into a bundle file, signed with
// key when key is not nil, and opens it.
func buildBundle(t testing.TB, root string, sigs func(*manifest.Bundle) []manifest.Signature) (string, *manifest.Bundle) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bundle.skb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := build.Build(build.Options{Libraries: []build.Library{{Namespace: "gen", Root: root}}, NoLint: true}, f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sigs != nil {
		signed := path + ".signed"
		err := manifest.WriteFileAtomic(signed, 0o644, func(w io.Writer) error { return b.WriteSigned(w, sigs(b)) })
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		path = signed
		if b, err = manifest.OpenFile(path); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { b.Close() })
	return path, b
}

func testOptions(t testing.TB) Options {
	return Options{CacheDir: t.TempDir(), PlainHTTP: true, Logf: t.Logf}
}

var _ = context.Background

// ref returns an oci:// reference to repo:tag in the registry.
func (r *testRegistry) ref(repoTag string) string { return Scheme + r.Host + "/" + repoTag }

func base64Auth(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
