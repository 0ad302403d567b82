package build

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// origin is a TLS test server that records every request it gets.
type origin struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int      // requests by path
	auth map[string][]string // Authorization header values by path
}

func newOrigin(t *testing.T, routes map[string]http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{hits: map[string]int{}, auth: map[string][]string{}}
	o.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.hits[r.URL.Path]++
		o.auth[r.URL.Path] = append(o.auth[r.URL.Path], r.Header.Get("Authorization"))
		o.mu.Unlock()
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *origin) count(path string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.hits[path]
}

func (o *origin) total() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, c := range o.hits {
		n += c
	}
	return n
}

func (o *origin) authAt(path string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.auth[path]
}

// urlAs returns the server's URL for path under another host name: the test
// certificate is valid for 127.0.0.1 and example.com, and testClient dials
// example.com at 127.0.0.1.
func (o *origin) urlAs(host, path string) string {
	_, port, _ := net.SplitHostPort(o.Listener.Addr().String())
	return "https://" + net.JoinHostPort(host, port) + path
}

// testClient trusts the httptest certificate and resolves example.com and
// its subdomains to 127.0.0.1, so that servers can have several host names.
func testClient(o *origin) *http.Client {
	tr := o.Client().Transport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, port, err := net.SplitHostPort(addr); err == nil && strings.HasSuffix(host, "example.com") {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: tr}
}

// logSink collects Logf lines.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logSink) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func fetchOptions(t *testing.T, o *origin, logs *logSink) FetchOptions {
	return FetchOptions{CacheDir: t.TempDir(), Client: testClient(o), Timeout: 5 * time.Second, Logf: logs.logf}
}

// payload is a real zip library, and its digest.
func payload(t *testing.T) ([]byte, manifest.Digest) {
	b := makeZip(t, zent{name: "pack/s/SKILL.md", body: "---\nname: s\ndescription: d\n---\n"})
	return b, manifest.Sum(b)
}

func serve(b []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.Write(b) }
}

func sidecar(d manifest.Digest) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "%s  pack.zip\n", d.Hex()) }
}

// downloads lists what Fetch left in the cache directory.
func downloads(t *testing.T, cacheDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(cacheDir, "downloads"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func wantNothingKept(t *testing.T, cacheDir string) {
	t.Helper()
	for _, n := range downloads(t, cacheDir) {
		if strings.HasSuffix(n, ".zip") || strings.HasPrefix(n, ".tmp-") {
			t.Errorf("left behind: %s", n)
		}
	}
}

func wantErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", subs)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}

func TestFetchPinnedAndCached(t *testing.T) {
	zb, d := payload(t)
	bad := manifest.Sum([]byte("something else"))
	o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": serve(zb), "/pack.zip.sha256": sidecar(bad)})
	logs := &logSink{}
	opt := fetchOptions(t, o, logs)

	p, got, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got != d || p != filepath.Join(opt.CacheDir, "downloads", d.Hex()+".zip") {
		t.Errorf("got %s at %s", got, p)
	}
	if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, zb) {
		t.Errorf("cached file differs: %v", err)
	}
	if n := o.count("/pack.zip.sha256"); n != 0 {
		t.Errorf("a pinned fetch asked for the sidecar %d times", n)
	}

	before := o.total()
	if _, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt); err != nil {
		t.Fatal(err)
	}
	if n := o.total() - before; n != 0 {
		t.Errorf("a cached pinned fetch made %d requests, want 0", n)
	}

	// A cache file that no longer hashes to its name is fetched again.
	os.WriteFile(p, []byte("tampered"), 0o600)
	if _, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, zb) {
		t.Error("the tampered cache file was served")
	}
	if n := o.count("/pack.zip"); n != 2 {
		t.Errorf("%d downloads, want 2", n)
	}
	if !strings.Contains(logs.text(), "does not match its digest") {
		t.Errorf("no warning about the tampered cache: %q", logs.text())
	}
}

func TestFetchPinBeatsHostileSidecar(t *testing.T) {
	_, d := payload(t)
	evil := []byte("PK\x05\x06 evil")
	o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": serve(evil), "/pack.zip.sha256": sidecar(manifest.Sum(evil))})
	opt := fetchOptions(t, o, &logSink{})
	_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt)
	wantErr(t, err, "sha256 mismatch", "pinned sha256", d.String())
	wantNothingKept(t, opt.CacheDir)
	if n := o.count("/pack.zip.sha256"); n != 0 {
		t.Errorf("sidecar asked %d times despite the pin", n)
	}
}

func TestFetchSidecar(t *testing.T) {
	zb, d := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": serve(zb), "/pack.zip.sha256": sidecar(d)})
	logs := &logSink{}
	opt := fetchOptions(t, o, logs)
	for range 2 {
		_, got, err := Fetch(t.Context(), o.URL+"/pack.zip", nil, opt)
		if err != nil || got != d {
			t.Fatalf("got %s, %v", got, err)
		}
	}
	if n := o.count("/pack.zip"); n != 1 {
		t.Errorf("downloaded %d times; the sidecar named a cached copy the second time", n)
	}
	if logs.text() != "" {
		t.Errorf("unexpected warnings: %q", logs.text())
	}
}

func TestFetchWrongSidecarRefused(t *testing.T) {
	zb, _ := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip":        serve(zb),
		"/pack.zip.sha256": sidecar(manifest.Sum([]byte("the zip that was published"))),
	})
	opt := fetchOptions(t, o, &logSink{})
	_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", nil, opt)
	wantErr(t, err, "sha256 mismatch", "sha256 sidecar")
	wantNothingKept(t, opt.CacheDir)
}

func TestFetchSidecarWithoutDigest(t *testing.T) {
	zb, _ := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip": serve(zb),
		"/pack.zip.sha256": func(w http.ResponseWriter, r *http.Request) {
			// 128 hex digits are a SHA-512, not a SHA-256.
			fmt.Fprintln(w, strings.Repeat("ab", 64))
		},
	})
	_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", nil, fetchOptions(t, o, &logSink{}))
	wantErr(t, err, "holds no 64-hex digest")
	if n := o.count("/pack.zip"); n != 0 {
		t.Errorf("downloaded %d times after a bad sidecar", n)
	}
}

func TestFetchMissingSidecarTrustsOnFirstUse(t *testing.T) {
	zb, d := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": serve(zb)})
	logs := &logSink{}
	_, got, err := Fetch(t.Context(), o.URL+"/pack.zip", nil, fetchOptions(t, o, logs))
	if err != nil || got != d {
		t.Fatalf("got %s, %v", got, err)
	}
	for _, s := range []string{"no sha256 sidecar", "unverified", "#sha256=" + d.Hex()} {
		if !strings.Contains(logs.text(), s) {
			t.Errorf("warning %q does not say %q", logs.text(), s)
		}
	}
}

func TestFetchRefusesPlainHTTP(t *testing.T) {
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	_, _, err := Fetch(t.Context(), plain.URL+"/pack.zip", nil, FetchOptions{CacheDir: t.TempDir()})
	wantErr(t, err, "https is required")
}

func TestFetchRefusesRedirectToHTTP(t *testing.T) {
	var plainHits atomic.Int64
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { plainHits.Add(1) }))
	defer plain.Close()
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, plain.URL+"/pack.zip", http.StatusFound)
		},
	})
	d := manifest.Sum(nil)
	opt := fetchOptions(t, o, &logSink{})
	opt.Token = "secret-token"
	_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt)
	wantErr(t, err, "refusing redirect to http://", "https is required")
	if n := plainHits.Load(); n != 0 {
		t.Errorf("the plaintext server got %d requests", n)
	}
	wantNothingKept(t, opt.CacheDir)
}

func TestFetchTokenSameHost(t *testing.T) {
	zb, d := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/releases/pack.zip", http.StatusFound)
		},
		"/releases/pack.zip": serve(zb),
	})
	opt := fetchOptions(t, o, &logSink{})
	opt.Token = "tok"
	if _, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt); err != nil {
		t.Fatal(err)
	}
	if got := o.authAt("/releases/pack.zip"); len(got) != 1 || got[0] != "Bearer tok" {
		t.Errorf("same-host redirect got Authorization %q, want the token", got)
	}
}

func TestFetchTokenDroppedCrossHost(t *testing.T) {
	zb, d := payload(t)
	var a *origin
	// b stands for a signed object store on another host; it sends the
	// client back to a, which must not get the token again either.
	b := newOrigin(t, map[string]http.HandlerFunc{
		"/object": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, a.URL+"/final.zip", http.StatusFound)
		},
	})
	a = newOrigin(t, map[string]http.HandlerFunc{
		"/assets/1": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.urlAs("example.com", "/object?X-Signature=abc"), http.StatusFound)
		},
		"/final.zip": serve(zb),
	})
	opt := fetchOptions(t, a, &logSink{})
	opt.Token = "tok"
	if _, _, err := Fetch(t.Context(), a.URL+"/assets/1", &d, opt); err != nil {
		t.Fatal(err)
	}
	if got := a.authAt("/assets/1"); len(got) != 1 || got[0] != "Bearer tok" {
		t.Errorf("the library host got Authorization %q, want the token", got)
	}
	if got := b.authAt("/object"); len(got) != 1 || got[0] != "" {
		t.Errorf("the other host got Authorization %q, want none", got)
	}
	if got := a.authAt("/final.zip"); len(got) != 1 || got[0] != "" {
		t.Errorf("back on the first host after leaving it, Authorization %q, want none", got)
	}
}

// Go's client keeps Authorization on a redirect to a subdomain; Fetch does not.
func TestFetchTokenDroppedOnSubdomain(t *testing.T) {
	zb, d := payload(t)
	var o *origin
	o = newOrigin(t, map[string]http.HandlerFunc{
		"/assets/1": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, o.urlAs("objects.example.com", "/pack.zip"), http.StatusFound)
		},
		"/pack.zip": serve(zb),
	})
	opt := fetchOptions(t, o, &logSink{})
	opt.Token = "tok"
	if _, _, err := Fetch(t.Context(), o.urlAs("example.com", "/assets/1"), &d, opt); err != nil {
		t.Fatal(err)
	}
	if got := o.authAt("/assets/1"); len(got) != 1 || got[0] != "Bearer tok" {
		t.Errorf("the library host got Authorization %q, want the token", got)
	}
	if got := o.authAt("/pack.zip"); len(got) != 1 || got[0] != "" {
		t.Errorf("the subdomain got Authorization %q, want none", got)
	}
}

func TestFetchRedirectLoopBounded(t *testing.T) {
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/loop": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) },
	})
	d := manifest.Sum(nil)
	_, _, err := Fetch(t.Context(), o.URL+"/loop", &d, fetchOptions(t, o, &logSink{}))
	wantErr(t, err, "more than 5 redirects")
	if n := o.count("/loop"); n != 6 {
		t.Errorf("%d requests, want 6 (the first and 5 redirects)", n)
	}
}

// TestFetchOverDownloadLimit: a body over MaxBytes is refused whether its
// Content-Length declares it or a chunked body runs past the limit, and
// nothing of it is kept.
func TestFetchOverDownloadLimit(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		serve      http.HandlerFunc
	}{
		{"lying Content-Length", "declares 1073741824 bytes, more than the 1048576 allowed (rule fetch-too-large)",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", fmt.Sprint(1<<30))
				w.Write([]byte("PK"))
			}},
		{"chunked body over the cap", "more than the 1048576 bytes allowed (rule fetch-too-large)",
			func(w http.ResponseWriter, r *http.Request) {
				chunk := bytes.Repeat([]byte("x"), 64<<10)
				for range 32 { // 2 MiB, no Content-Length
					if _, err := w.Write(chunk); err != nil {
						return
					}
					w.(http.Flusher).Flush()
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": tc.serve})
			d := manifest.Sum(nil)
			opt := fetchOptions(t, o, &logSink{})
			opt.MaxBytes = 1 << 20
			_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt)
			wantErr(t, err, tc.want)
			wantNothingKept(t, opt.CacheDir)
		})
	}
}

func TestFetchSlowBodyTimesOut(t *testing.T) {
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("PK\x03\x04 a start"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		},
	})
	d := manifest.Sum(nil)
	opt := fetchOptions(t, o, &logSink{})
	opt.Timeout = 300 * time.Millisecond
	start := time.Now()
	_, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt)
	wantErr(t, err, "no complete answer within 300ms (rule fetch-timeout)")
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	wantNothingKept(t, opt.CacheDir)
}

func TestFetchNotFound(t *testing.T) {
	o := newOrigin(t, nil)
	d := manifest.Sum(nil)
	_, _, err := Fetch(t.Context(), o.URL+"/gone.zip", &d, fetchOptions(t, o, &logSink{}))
	wantErr(t, err, "404 Not Found")
}

func TestFetchFallsBackToCache(t *testing.T) {
	zb, d := payload(t)
	var down atomic.Bool
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/pack.zip": func(w http.ResponseWriter, r *http.Request) {
			if down.Load() {
				http.Error(w, "maintenance", http.StatusServiceUnavailable)
				return
			}
			w.Write(zb)
		},
	})
	logs := &logSink{}
	opt := fetchOptions(t, o, logs)
	u := o.URL + "/pack.zip?sig=SECRET-SIG#frag-secret"
	p1, d1, err := Fetch(t.Context(), u, nil, opt)
	if err != nil || d1 != d {
		t.Fatalf("first fetch: %s, %v", d1, err)
	}

	down.Store(true)
	p2, d2, err := Fetch(t.Context(), u, nil, opt)
	if err != nil {
		t.Fatalf("refresh failure with a cached copy: %v", err)
	}
	if p2 != p1 || d2 != d {
		t.Errorf("served %s at %s, want the cached %s at %s", d2, p2, d, p1)
	}
	log := logs.text()
	for _, s := range []string{"could not be refreshed", "503 Service Unavailable", "serving the cached copy " + d.String()} {
		if !strings.Contains(log, s) {
			t.Errorf("warnings %q do not say %q", log, s)
		}
	}
	if strings.Contains(log, "SECRET") || strings.Contains(log, "frag-secret") {
		t.Errorf("a warning shows the query or fragment: %q", log)
	}

	// Another URL has no earlier download to fall back on.
	_, _, err = Fetch(t.Context(), o.URL+"/pack.zip?sig=other", nil, opt)
	wantErr(t, err, "503")
}

func TestFetchErrorsAreRedacted(t *testing.T) {
	o := newOrigin(t, map[string]http.HandlerFunc{
		"/slow.zip": func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
		"/redir.zip": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.1:1/x.zip?token=SECRET-REDIRECT", http.StatusFound)
		},
	})
	closed := newOrigin(t, nil)
	closed.Close()
	d := manifest.Sum(nil)
	opt := fetchOptions(t, o, &logSink{})
	opt.Timeout = 200 * time.Millisecond
	for _, u := range []string{
		o.URL + "/missing.zip?sig=SECRET#SECRET",
		o.URL + "/slow.zip?sig=SECRET",
		o.URL + "/redir.zip?sig=SECRET",
		closed.URL + "/pack.zip?sig=SECRET",
		"http://host/pack.zip?sig=SECRET",
		"https://user:SECRET@host/pack.zip",
		"https://host/pack.zip?sig=SECRET%zz",
		"https://ho st/pack.zip?sig=SECRET",
	} {
		for _, pin := range []*manifest.Digest{&d, nil} {
			_, _, err := Fetch(t.Context(), u, pin, opt)
			if err == nil {
				t.Fatalf("%s: no error", redactRawURL(u))
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error shows a secret: %v", err)
			}
		}
	}
}

func TestFetchLeavesCallerClientAlone(t *testing.T) {
	zb, d := payload(t)
	o := newOrigin(t, map[string]http.HandlerFunc{"/pack.zip": serve(zb)})
	c := testClient(o)
	opt := FetchOptions{CacheDir: t.TempDir(), Client: c}
	if _, _, err := Fetch(t.Context(), o.URL+"/pack.zip", &d, opt); err != nil {
		t.Fatal(err)
	}
	if c.CheckRedirect != nil {
		t.Error("Fetch changed the caller's client")
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://host/a/b.zip?sig=x#frag":         "https://host/a/b.zip",
		"https://user:pw@host:8443/a.zip?x=1":     "https://host:8443/a.zip",
		"https://host/a%20b.zip":                  "https://host/a%20b.zip",
		"https://host":                            "https://host",
		"https://api.github.com/repos/o/r/assets": "https://api.github.com/repos/o/r/assets",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := redactURL(u); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
		if got := redactRawURL(in); got != want && !strings.Contains(in, "%20") {
			t.Errorf("redactRawURL(%q) = %q, want %q", in, got, want)
		}
	}
	if got := redactRawURL("https://u:p@ho st/x?y"); got != "https://ho st/x" {
		t.Errorf("redactRawURL = %q", got)
	}
}

func TestParseLibraryURL(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	for _, c := range []struct {
		in, url, pin string // pin "" means none
	}{
		{"https://host/pack.zip", "https://host/pack.zip", ""},
		{"https://host/pack.zip#sha256=" + hex, "https://host/pack.zip", hex},
		{"https://host/pack.zip#sha256=" + strings.ToUpper(hex), "https://host/pack.zip", hex},
		{"HTTPS://host/pack.zip?v=2#sha256=" + hex, "https://host/pack.zip?v=2", hex},
		{"https://api.github.com/repos/o/r/releases/assets/42", "https://api.github.com/repos/o/r/releases/assets/42", ""},
	} {
		u, pin, err := ParseLibraryURL(c.in)
		if err != nil {
			t.Errorf("ParseLibraryURL(%q): %v", c.in, err)
			continue
		}
		gotPin := ""
		if pin != nil {
			gotPin = pin.Hex()
		}
		if u != c.url || gotPin != c.pin {
			t.Errorf("ParseLibraryURL(%q) = %q, %q; want %q, %q", c.in, u, gotPin, c.url, c.pin)
		}
	}
	for in, want := range map[string]string{
		"http://host/pack.zip#sha256=" + hex:              "https is required",
		"ftp://host/pack.zip":                             "https is required",
		"/srv/pack.zip":                                   "https is required",
		"https:///pack.zip":                               "no host",
		"https://u:SECRET@host/pack.zip":                  "credentials in the url",
		"https://host/pack.zip#sha256=" + hex[:63]:        "not a 64-char hex digest",
		"https://host/pack.zip#sha256=" + hex[:62] + "zz": "not a 64-char hex digest",
		"https://host/pack.zip#md5=abc":                   "unsupported fragment",
		"https://host/pack.zip?sig=SECRET#latest":         "unsupported fragment",
		"https://ho st/pack.zip?sig=SECRET":               "invalid character",
	} {
		_, _, err := ParseLibraryURL(in)
		wantErr(t, err, want)
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("error shows a secret: %v", err)
		}
	}
}

func FuzzParseLibraryURL(f *testing.F) {
	for _, s := range []string{
		"https://host/pack.zip#sha256=" + strings.Repeat("0f", 32),
		"https://u:p@host:8443/a/b.zip?sig=x#y",
		"http://host/x", "https://[::1]:443/x", "https://host/%zz", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, pin, err := ParseLibraryURL(s)
		if err != nil {
			if _, q, ok := strings.Cut(s, "?"); ok && len(q) >= 8 && !strings.ContainsAny(q, "#") && strings.Contains(err.Error(), "?"+q) {
				t.Fatalf("error shows the query: %v", err)
			}
			return
		}
		pu, err := url.Parse(u)
		if err != nil || pu.Scheme != "https" || pu.Host == "" || pu.Fragment != "" || pu.User != nil {
			t.Fatalf("ParseLibraryURL(%q) = %q, which is not a plain https url (%v)", s, u, err)
		}
		if pin != nil && !strings.Contains(strings.ToLower(s), pin.Hex()) {
			t.Fatalf("pin %s is not in %q", pin.Hex(), s)
		}
	})
}
