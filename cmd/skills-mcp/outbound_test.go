package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"

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

// vmHWM returns the peak resident memory of process pid, in bytes, from
// /proc/PID/status.
func vmHWM(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmHWM", pid)
}

// runMeasured is runTimed that also returns the process's peak resident
// memory: VmHWM from /proc/PID/status, read every 5 ms while it runs (the
// high-water mark of the process's own memory since its exec; rusage's
// maxrss is not used, since it counts the test process's memory, which the
// child shared until exec).
func runMeasured(t *testing.T, limit time.Duration, env []string, args ...string) (string, time.Duration, int64, error) {
	t.Helper()
	cmd := exec.Command(cli(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			if hwm, err := vmHWM(cmd.Process.Pid); err == nil && hwm > peak.Load() {
				peak.Store(hwm)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	close(done)
	timer.Stop()
	return stderr.String(), time.Since(start), peak.Load(), err
}

// zeros is a reader of n zero bytes.
func zeros(n int64) io.Reader { return io.LimitReader(zeroReader{}, n) }

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// skillMD is a SKILL.md of the skill name.
func skillMD(name string) string {
	return "---\nname: " + name + "\ndescription: A skill of a hostile site.\n---\nBody.\n"
}

// tarGz returns a gzip'd tar of SKILL.md for name and of files, each of
// the given size of zeros.
func tarGz(t *testing.T, name string, files map[string]int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	md := skillMD(name)
	tw.WriteHeader(&tar.Header{Name: "SKILL.md", Mode: 0o644, Size: int64(len(md)), Typeflag: tar.TypeReg})
	io.WriteString(tw, md)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		tw.WriteHeader(&tar.Header{Name: p, Mode: 0o644, Size: files[p], Typeflag: tar.TypeReg})
		if _, err := io.Copy(tw, zeros(files[p])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

// zipBomb returns a zip of SKILL.md for name and one entry of n zeros,
// deflated, that declares it holds declared bytes.
func zipBomb(t *testing.T, name string, n, declared int64) []byte {
	t.Helper()
	var def bytes.Buffer
	fw, _ := flate.NewWriter(&def, flate.BestCompression)
	crc := crc32.NewIEEE()
	if _, err := io.Copy(io.MultiWriter(fw, crc), zeros(n)); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("SKILL.md")
	io.WriteString(w, skillMD(name))
	raw, err := zw.CreateRaw(&zip.FileHeader{Name: "bomb.bin", Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(def.Len()), UncompressedSize64: uint64(declared)})
	if err != nil {
		t.Fatal(err)
	}
	raw.Write(def.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hostileSite serves a discovery index of the artifacts given, each under
// its name, with its true digest; an artifact's handler, when given, answers
// in its place (to lie about the body).
type hostileArtifact struct {
	data  []byte
	serve http.HandlerFunc
}

func hostileSite(t *testing.T, arts map[string]hostileArtifact) string {
	t.Helper()
	mux := http.NewServeMux()
	var entries []map[string]string
	for _, name := range slices.Sorted(maps.Keys(arts)) {
		a := arts[name]
		digest := manifest.Sum(a.data).String()
		entries = append(entries, map[string]string{"name": name, "type": "archive", "description": "Hostile.",
			"url": "/artifacts/" + name, "digest": digest})
		h := a.serve
		if h == nil {
			h = func(w http.ResponseWriter, r *http.Request) { w.Write(a.data) }
		}
		mux.HandleFunc("/artifacts/"+name, h)
	}
	index, _ := json.Marshal(map[string]any{"$schema": wellknown.Schema, "skills": entries})
	mux.HandleFunc("/.well-known/agent-skills/index.json", func(w http.ResponseWriter, r *http.Request) { w.Write(index) })
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// trustSite writes the TLS certificate of the httptest servers to a file
// for SSL_CERT_FILE, so that the binary trusts them and nothing else.
func trustSite(t *testing.T, dir string) string {
	t.Helper()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	p := filepath.Join(dir, "ca.pem")
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHostileSite: a discovery site that sends archives inflating to
// hundreds of megabytes, a zip bomb (declared honestly, or declaring a
// kilobyte), an endless or lying body, or nothing at all, cannot take pull
// (nor build --lib NS=…/index.json) past 128 MiB of resident memory: every
// artifact streams to disk, declared sizes are checked before inflating,
// and every file is streamed; the command fails within its deadline, and
// nothing but complete skills is written to --to, nothing outside --to and
// the cache.
func TestHostileSite(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates some hundreds of megabytes")
	}
	const peakLimit = 128 << 20
	six := map[string]hostileArtifact{}
	for i := range 6 {
		name := fmt.Sprintf("big-%d", i)
		six[name] = hostileArtifact{data: tarGz(t, name, map[string]int64{"a.bin": 12 << 20, "b.bin": 12 << 20})}
	}
	// Over the 256 MiB an archive may inflate to, 16 MiB at a time.
	over := map[string]int64{}
	for i := range 17 {
		over[fmt.Sprintf("part%02d.bin", i)] = 16 << 20
	}
	six["over"] = hostileArtifact{data: tarGz(t, "over", over)}
	endless := func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("PK\x03\x04"))
		io.Copy(w, zeros(1<<40))
	}
	lying := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(int64(10)<<30))
		w.Write([]byte("PK\x03\x04"))
	}
	stalled := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte("PK\x03\x04"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	attacks := []struct {
		name  string
		arts  map[string]hostileArtifact
		want  string // in stderr
		clean bool   // every skill refused: nothing in --to
	}{
		{"six archives of 24 MiB and one over the limit", six, `archive entry "part15.bin": declares 16777216 bytes, more than the 16777151 left of 268435456 (rule too-large)`, false},
		{"zip bomb", map[string]hostileArtifact{"bomb": {data: zipBomb(t, "bomb", 300<<20, 300<<20)}}, "archive declares more than", true},
		{"zip bomb declaring 1 KiB", map[string]hostileArtifact{"bomb": {data: zipBomb(t, "bomb", 300<<20, 1<<10)}}, "zip: not a valid zip file", true},
		{"endless body", map[string]hostileArtifact{"endless": {data: []byte("x"), serve: endless}}, "too-large", true},
		{"lying length", map[string]hostileArtifact{"lying": {data: []byte("x"), serve: lying}}, "too-large", true},
		{"stalled body", map[string]hostileArtifact{"stalled": {data: []byte("x"), serve: stalled}}, "fetch-stalled", true},
	}
	for _, a := range attacks {
		site := hostileSite(t, a.arts)
		dir := t.TempDir()
		to, cache := filepath.Join(dir, "to"), filepath.Join(dir, "cache")
		env := []string{"SKILLS_CACHE_DIR=" + cache, "TMPDIR=" + filepath.Join(dir, "tmp"), "SSL_CERT_FILE=" + trustSite(t, dir)}
		os.Mkdir(filepath.Join(dir, "tmp"), 0o700)
		for _, args := range [][]string{
			{"pull", "--from", site, "--to", to, "--all", "--stall-timeout", "2s", "--max-download-bytes", "67108864"},
			{"build", "--lib", "h=" + site + "/.well-known/agent-skills/index.json", "-o", filepath.Join(dir, "out.skb"),
				"--stall-timeout", "2s", "--max-download-bytes", "67108864", "--no-lint"},
		} {
			stderr, took, peak, err := runMeasured(t, 2*time.Minute, env, args...)
			t.Logf("%s: %s: exit %v after %v, peak RSS %.1f MiB", a.name, args[0], err, took.Round(10*time.Millisecond), float64(peak)/(1<<20))
			if peak > peakLimit {
				t.Errorf("%s: %s: peak resident memory %d MiB, over %d MiB", a.name, args[0], peak>>20, peakLimit>>20)
			}
			if !slices.ContainsFunc(strings.Split(a.want, "|"), func(w string) bool { return strings.Contains(stderr, w) }) {
				t.Errorf("%s: %s: stderr does not say %q:\n%s", a.name, args[0], a.want, stderr)
			}
			if a.clean && err == nil && args[0] == "pull" {
				t.Errorf("%s: pull exited 0", a.name)
			}
			if tmp, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(tmp) > 0 {
				t.Errorf("%s: %s: left %d entries in the temporary folder", a.name, args[0], len(tmp))
			}
		}
		ents, _ := os.ReadDir(to)
		if a.clean && len(ents) > 0 {
			t.Errorf("%s: pull wrote %d entries to --to", a.name, len(ents))
		}
		for _, e := range ents { // complete skills only, and pull's lock file
			if e.Name() == "skills.lock.json" && !a.clean {
				continue
			}
			if e.Name() == "over" || !strings.HasPrefix(e.Name(), "big-") {
				t.Errorf("%s: pull wrote %s", a.name, e.Name())
				continue
			}
			for f, want := range map[string]int64{"a.bin": 12 << 20, "b.bin": 12 << 20} {
				if fi, err := os.Stat(filepath.Join(to, e.Name(), f)); err != nil || fi.Size() != want {
					t.Errorf("%s: %s/%s: %v", a.name, e.Name(), f, err)
				}
			}
		}
		if left, _ := filepath.Glob(filepath.Join(cache, "wellknown", ".*")); len(left) > 0 {
			t.Errorf("%s: litter in the cache: %q", a.name, left)
		}
	}
}

// hostileOrigin answers every request the way its behaviour says, whatever
// the path: the one server every outbound client is driven through.
func hostileOrigin(t *testing.T, behaviour string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch behaviour {
		case "silent": // accepts, reads the request, never answers
			// Until the client gives up: net/http then sends an empty 200,
			// which a TLS client may still read between its close_notify
			// and its close; the stall must be what it reports.
			<-r.Context().Done()
		case "stall-body": // headers, a few bytes, then nothing
			w.Header().Set("Content-Length", "100000")
			w.Write([]byte("PK\x03\x04"))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "huge-length": // declares 10 GiB
			w.Header().Set("Content-Length", fmt.Sprint(int64(10)<<30))
			w.Write([]byte("PK\x03\x04"))
		case "endless": // chunked bytes without end, until the client goes
			chunk := make([]byte, 32<<10)
			for r.Method != http.MethodHead && r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "redirect-loop":
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
		case "redirect-http": // to plain http on another host
			http.Redirect(w, r, "http://example.com"+r.URL.Path, http.StatusFound)
		}
	})
	srv = httptest.NewTLSServer(h)
	return srv
}

// TestOutboundBounds drives every outbound client of the real binary (an
// https library, an https bundle, a discovery site for pull and for build,
// an OAuth issuer's discovery, an OCI registry) through a server that
// stalls before or after its headers, declares 10 GiB, sends bytes without
// end, or redirects in a loop or to plain http, in a random order, and
// asserts the bounds for each: the command fails, within (tries × stall
// timeout + pauses), under 128 MiB of resident memory, naming the rule.
func TestOutboundBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("some 40 runs of the binary")
	}
	dir := t.TempDir()
	ca := trustSite(t, dir)
	const stall = 500 * time.Millisecond
	pin := "#sha256=" + strings.Repeat("ab", 32)
	clients := []struct {
		name string
		args func(base string) []string
	}{
		{"https library", func(b string) []string {
			return []string{"build", "--root", b + "/lib.zip" + pin, "-o", filepath.Join(dir, "x.skb")}
		}},
		{"https bundle", func(b string) []string {
			return []string{"pull", "--from", b + "/x.skb" + pin, "--to", filepath.Join(dir, "to"), "--all"}
		}},
		{"site for pull", func(b string) []string {
			return []string{"pull", "--from", b, "--to", filepath.Join(dir, "to"), "--all"}
		}},
		{"site for build", func(b string) []string {
			return []string{"build", "--lib", "h=" + b + "/.well-known/agent-skills/index.json", "-o", filepath.Join(dir, "x.skb")}
		}},
		{"oauth issuer", func(b string) []string {
			return []string{"serve", "--http", "127.0.0.1:0", "--oauth-issuer", b, "--oauth-audience", "https://x/mcp", "--root", "../../testdata/example/acme"}
		}},
		{"oci registry", func(b string) []string {
			return []string{"inspect", "oci://" + strings.TrimPrefix(b, "https://") + "/skills/acme:v1"}
		}},
	}
	// What the error must say: the bound's rule, or a check of the client's
	// own that refused the answer by its headers first (an issuer's
	// metadata must be JSON, a registry's HEAD must name a type and a digest).
	const byHeaders = "|bad content type|missing required header|`Content-Type` header"
	behaviours := map[string]string{
		"silent":        "fetch-stalled",
		"stall-body":    "fetch-stalled" + byHeaders,
		"huge-length":   "too-large|too large|larger than|more than" + byHeaders,
		"endless":       "too-large|too large|larger than|more than" + byHeaders,
		"redirect-loop": "fetch-redirect|redirects",
		"redirect-http": "https",
	}
	type run struct{ client, behaviour int }
	var runs []run
	names := slices.Sorted(maps.Keys(behaviours))
	for c := range clients {
		for b := range names {
			runs = append(runs, run{c, b})
		}
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rand.New(rand.NewPCG(seed, 2)).Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
	for _, r := range runs {
		c, behaviour := clients[r.client], names[r.behaviour]
		srv := hostileOrigin(t, behaviour)
		os.RemoveAll(filepath.Join(dir, "to"))
		env := []string{"SSL_CERT_FILE=" + ca, "SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SKILLS_MAX_DOWNLOAD_BYTES=67108864"}
		args := append(c.args(srv.URL), "--stall-timeout", stall.String())
		stderr, took, peak, err := runMeasured(t, time.Minute, env, args...)
		srv.CloseClientConnections()
		srv.Close()
		t.Logf("%s, %s: exit %v after %v, peak %.1f MiB", c.name, behaviour, err, took.Round(10*time.Millisecond), float64(peak)/(1<<20))
		// Three tries of a stalled request, and the pauses between them;
		// the process's own start and end.
		if bound := 3*stall + 600*time.Millisecond + 3*time.Second; took > bound {
			t.Errorf("%s, %s: took %v, over %v", c.name, behaviour, took, bound)
		}
		if peak > 128<<20 {
			t.Errorf("%s, %s: peak resident memory %d MiB", c.name, behaviour, peak>>20)
		}
		ok := slices.ContainsFunc(strings.Split(behaviours[behaviour], "|"), func(w string) bool { return strings.Contains(stderr, w) })
		if err == nil && c.name != "site for build" || !ok {
			t.Errorf("%s, %s: exit %v, stderr does not say %q:\n%s", c.name, behaviour, err, behaviours[behaviour], stderr)
		}
	}
}

// TestPullBundleTempInCache: pull --from https://…skb#sha256=… downloads
// into the cache (SKILLS_CACHE_DIR/downloads), never into the system's
// temporary folder: nothing is written outside --to and the cache.
func TestPullBundleTempInCache(t *testing.T) {
	dir := t.TempDir()
	skb := filepath.Join(dir, "acme.skb")
	tmp, cache := filepath.Join(dir, "tmp"), filepath.Join(dir, "cache")
	os.Mkdir(tmp, 0o700)
	env := []string{"SKILLS_CACHE_DIR=" + cache, "TMPDIR=" + tmp, "SSL_CERT_FILE=" + trustSite(t, dir), "SOURCE_DATE_EPOCH="}
	if out, _, err := runTimed(t, time.Minute, env, "build", "--lib", "acme=../../testdata/example/acme", "-o", skb); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(skb)
	if err != nil {
		t.Fatal(err)
	}
	half, release := make(chan struct{}), make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		close(half)
		<-release
		w.Write(data[len(data)/2:])
	}))
	defer srv.Close()
	done := make(chan error, 1)
	var stderr string
	go func() {
		var err error
		stderr, _, err = runTimed(t, time.Minute, env, "pull", "--from", srv.URL+"/acme.skb#sha256="+manifest.Sum(data).Hex(), "--to", filepath.Join(dir, "to"), "--all")
		done <- err
	}()
	<-half
	time.Sleep(300 * time.Millisecond) // the first half written
	inTmp, _ := os.ReadDir(tmp)
	inCache, _ := filepath.Glob(filepath.Join(cache, "downloads", "skills-mcp-pull-*.skb"))
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("pull: %v\n%s", err, stderr)
	}
	if len(inTmp) > 0 || len(inCache) != 1 {
		t.Errorf("while downloading: %d entries in TMPDIR, %d downloads in the cache; want 0 and 1", len(inTmp), len(inCache))
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "downloads", "skills-mcp-pull-*")); len(left) > 0 {
		t.Errorf("left in the cache after pull: %q", left)
	}
}

// TestPullCheckHTTPSETag: pull --check of an unpinned https bundle whose
// server gave a strong ETag costs one HEAD while the file is unchanged, and
// downloads it only when the tag moved.
func TestPullCheckHTTPSETag(t *testing.T) {
	dir := t.TempDir()
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SSL_CERT_FILE=" + trustSite(t, dir), "SOURCE_DATE_EPOCH="}
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(cli(t), args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	exitCode := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 0
	}
	key := filepath.Join(dir, "rel")
	lib := filepath.Join(dir, "lib")
	if err := os.CopyFS(lib, os.DirFS("../../testdata/example/acme")); err != nil {
		t.Fatal(err)
	}
	bundle := func(name string) []byte {
		t.Helper()
		p := filepath.Join(dir, name)
		if out, err := run("build", "--lib", "acme="+lib, "-o", p, "--sign", key); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if out, err := run("keygen", "-o", key); err != nil {
		t.Fatalf("keygen: %v\n%s", err, out)
	}
	var mu sync.Mutex
	data, etag, methods := bundle("v1.skb"), `"v1"`, []string{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		methods = append(methods, r.Method)
		w.Header().Set("ETag", etag)
		if r.Method == http.MethodGet {
			w.Write(data)
		}
	}))
	defer srv.Close()
	requests := func() string {
		mu.Lock()
		defer mu.Unlock()
		m := strings.Join(methods, " ")
		methods = nil
		return m
	}
	to := filepath.Join(dir, "to")
	if out, err := run("pull", "--from", srv.URL+"/acme.skb", "--trust", key+".allowed_signers", "--all", "--to", to); err != nil {
		t.Fatalf("pull: %v\n%s", err, out)
	}
	requests()
	if out, err := run("pull", "--check", "--trust", key+".allowed_signers", "--to", to); err != nil || !strings.Contains(out, "up to date") {
		t.Fatalf("check: %v\n%s", err, out)
	}
	if got := requests(); got != "HEAD" {
		t.Errorf("an unchanged file cost --check %q, want one HEAD", got)
	}
	if err := os.WriteFile(filepath.Join(lib, "release-notes", "SKILL.md"), []byte("---\nname: release-notes\ndescription: Changed.\n---\nChanged.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v2 := bundle("v2.skb")
	mu.Lock()
	data, etag = v2, `"v2"`
	mu.Unlock()
	out, err := run("pull", "--check", "--trust", key+".allowed_signers", "--to", to)
	if code := exitCode(err); code != 1 || !strings.Contains(out, "update available") {
		t.Errorf("check after a release: exit %d\n%s", code, out)
	}
	if got := requests(); got != "HEAD GET" {
		t.Errorf("a changed file cost --check %q, want a HEAD then the download", got)
	}
}
