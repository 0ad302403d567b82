package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/oci/ocitest"
)

// replica is a serve --http process of the test binary.
type replica struct {
	name   string
	base   string // http://127.0.0.1:PORT
	log    *servetest.Buffer
	cmd    *exec.Cmd
	exited chan struct{}
}

var servedTook = regexp.MustCompile(`msg="release served".* took=([0-9.]+m?s)`)

var listeningOn = regexp.MustCompile(`listening on (http://127\.0\.0\.1:[0-9]+)/mcp`)

// startReplica starts serve --http 127.0.0.1:0 ARGS... and waits until it
// listens; the test's end kills it.
func startReplica(t *testing.T, name string, env []string, args ...string) *replica {
	t.Helper()
	r := &replica{name: name, log: &servetest.Buffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command(cli(t), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.Stderr = r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.exited
		if t.Failed() {
			t.Logf("%s log:\n%s", r.name, r.log.String())
		}
	})
	deadline := time.After(30 * time.Second)
	for {
		if m := listeningOn.FindStringSubmatch(r.log.String()); m != nil {
			r.base = m[1]
			return r
		}
		select {
		case <-r.exited:
			t.Fatalf("%s exited:\n%s", name, r.log.String())
		case <-deadline:
			t.Fatalf("%s did not listen:\n%s", name, r.log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// metrics scrapes the replica's /metrics with Prometheus' text parser.
func (r *replica) metrics(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(r.base + "/metrics")
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("%s: /metrics: %v", r.name, err)
	}
	return fams
}

// metricValue is the value of the series of family name whose labels
// include want, and whether there is one.
func metricValue(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		}
	}
	return 0, false
}

// labelOf is the value of label of the first series of family name.
func labelOf(fams map[string]*dto.MetricFamily, name, label string) string {
	if f := fams[name]; f != nil && len(f.Metric) > 0 {
		for _, l := range f.Metric[0].Label {
			if l.GetName() == label {
				return l.GetValue()
			}
		}
	}
	return ""
}

// catalog is the catalog id the replica serves, from skills_mcp_catalog_info.
func (r *replica) catalog(t *testing.T) string {
	return labelOf(r.metrics(t), "skills_mcp_catalog_info", "catalog")
}

// rpc posts one stateless (2026-07-28) request and returns its result, or
// the JSON-RPC error as an error.
func rpc(hc *http.Client, base, method, name, params string) (json.RawMessage, error) {
	req, err := servetest.StatelessRequest(base+"/mcp", 1, method, name, params)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s: %s %s", method, resp.Status, data)
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %v in %s", method, err, data)
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%s: error %d: %s", method, out.Error.Code, out.Error.Message)
	}
	return out.Result, nil
}

// writeLibrary writes a library of one skill per name into dir, replacing
// what was there.
func writeLibrary(t *testing.T, dir string, names []string) {
	t.Helper()
	os.RemoveAll(dir)
	for _, n := range names {
		p := filepath.Join(dir, n, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\nname: %s\ndescription: Does %s things for the release test.\n---\n# %s\n\nBody of %s.\n", n, n, n, n)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func skillNames(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", prefix, i)
	}
	return out
}

// countingProxy is a reverse proxy on loopback in front of a registry that
// counts the requests it passes, and can be taken down (503 to everything).
type countingProxy struct {
	host string
	down atomic.Bool
	mu   sync.Mutex
	reqs []string // "METHOD PATH"
}

func startCountingProxy(t *testing.T, upstream string) *countingProxy {
	t.Helper()
	up, _ := url.Parse("http://" + upstream)
	rp := httputil.NewSingleHostReverseProxy(up)
	p := &countingProxy{}
	ln := listen(t)
	p.host = ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.reqs = append(p.reqs, r.Method+" "+r.URL.Path)
		p.mu.Unlock()
		if p.down.Load() {
			http.Error(w, "down for the test", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return p
}

// since returns the requests from mark on.
func (p *countingProxy) since(mark int) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs[mark:])
}

func (p *countingProxy) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.reqs)
}

// readLoop reads one resource from every replica, one request after
// another, until stop is closed, recording each request's latency and
// start, and every error.
type readLoop struct {
	mu     sync.Mutex
	lat    []time.Duration
	starts []time.Time
	errs   []error
}

func (l *readLoop) run(hc *http.Client, bases []string, uri string, stop <-chan struct{}, done *sync.WaitGroup) {
	defer done.Done()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		start := time.Now()
		_, err := rpc(hc, bases[i%len(bases)], "resources/read", uri, fmt.Sprintf(`"uri":%q,`, uri))
		took := time.Since(start)
		l.mu.Lock()
		l.lat, l.starts = append(l.lat, took), append(l.starts, start)
		if err != nil {
			l.errs = append(l.errs, err)
		}
		l.mu.Unlock()
	}
}

// p99 is the 99th percentile of the latencies of requests that started in
// one of the windows (from a push until both replicas served it), or
// outside all when !near.
func (l *readLoop) p99(windows [][2]time.Time, near bool) (time.Duration, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var sel []time.Duration
	for i, s := range l.starts {
		in := slices.ContainsFunc(windows, func(w [2]time.Time) bool { return s.After(w[0]) && s.Before(w[1]) })
		if in == near {
			sel = append(sel, l.lat[i])
		}
	}
	if len(sel) == 0 {
		return 0, 0
	}
	slices.Sort(sel)
	return sel[len(sel)*99/100], len(sel)
}

// eventually waits up to 20 seconds for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestFollowReplicas: two real serve processes follow one tag of a real
// registry (docker-registry, behind a proxy that counts its requests)
// while the test pushes releases: signed ones are served by both within an
// interval, jitter and a fetch; an unsigned one is refused under --trust,
// logged once and counted, and the previous release keeps serving; the
// registry going down is survived the same way. A Go SDK client subscribed
// on one replica hears resources/list_changed and prompts/list_changed; a
// reader on both sees no error through every swap; a steady state costs one
// manifest HEAD per interval; a cursor minted by one replica is accepted by
// the other while both serve the same catalog, and refused once the
// catalog moved on.
func TestFollowReplicas(t *testing.T) {
	reg := ocitest.StartTest(t, false)
	proxy := startCountingProxy(t, reg.Host)
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	key := filepath.Join(dir, "k")
	ref := "oci://" + proxy.host + "/skills/team:live"
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache-push"), "SOURCE_DATE_EPOCH="}
	run := func(args ...string) string { t.Helper(); return mustRun(t, env, args...) }
	run("keygen", "-o", key, "--principal", "ci@example")
	release := func(signed bool, names []string) time.Time {
		t.Helper()
		writeLibrary(t, lib, names)
		args := []string{"build", "--root", lib, "-o", ref, "--plain-http"}
		if signed {
			args = append(args, "--sign", key)
		}
		run(args...)
		return time.Now()
	}
	release(true, append([]string{"alpha"}, skillNames("one", 59)...))

	const interval = 200 * time.Millisecond
	var rs []*replica
	for _, name := range []string{"a", "b"} {
		rs = append(rs, startReplica(t, name, []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache-"+name)},
			ref, "--follow", interval.String(), "--trust", key+".allowed_signers", "--plain-http"))
	}
	var listChanged, promptsChanged atomic.Int32
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "follow-test", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged.Add(1) },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { promptsChanged.Add(1) },
	}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: rs[0].base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	hc := &http.Client{Timeout: 10 * time.Second}
	var loop readLoop
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go loop.run(hc, []string{rs[0].base, rs[1].base}, "skill://alpha/SKILL.md", stop, &readers)
	}
	stopReaders := sync.OnceFunc(func() { close(stop); readers.Wait() })
	defer stopReaders()

	first := rs[0].catalog(t)
	if first == "" || rs[1].catalog(t) != first {
		t.Fatalf("replicas start on catalogs %q and %q", first, rs[1].catalog(t))
	}
	// converge waits until both replicas serve one catalog other than from,
	// and returns it and how long that took.
	converge := func(from string, pushed time.Time) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			a, b := rs[0].catalog(t), rs[1].catalog(t)
			if a != from && a == b {
				// The target: within an interval, its jitter and the
				// fetch (as each replica logged it), and some slack for
				// the scrapes of a loaded machine.
				took := time.Since(pushed)
				var fetch time.Duration
				for _, r := range rs {
					for _, m := range servedTook.FindAllStringSubmatch(r.log.String(), -1) {
						d, _ := time.ParseDuration(m[1])
						fetch = max(fetch, d)
					}
				}
				t.Logf("release served by both replicas %v after the push (slowest fetch so far %v)", took.Round(time.Millisecond), fetch)
				if took > interval+interval/10+fetch+time.Second {
					t.Errorf("release took %v to reach both replicas", took)
				}
				return a
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("replicas did not converge: %s, %s", rs[0].catalog(t), rs[1].catalog(t))
		return ""
	}
	// The steady state: nothing but manifest HEADs of the tag, about one
	// per interval per replica.
	mark := proxy.mark()
	time.Sleep(5 * interval)
	steady := proxy.since(mark)
	for _, r := range steady {
		if r != "HEAD /v2/skills/team/manifests/live" {
			t.Errorf("steady state: %s", r)
		}
	}
	if n := len(steady); n < 2*3 || n > 2*6 {
		t.Errorf("steady state: %d requests in 5 intervals by 2 replicas", n)
	}

	// A cursor of one replica is accepted by the other: same catalog.
	res, err := rpc(hc, rs[0].base, "skills/list", "", "")
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		NextCursor string `json:"nextCursor"`
	}
	json.Unmarshal(res, &page)
	if page.NextCursor == "" {
		t.Fatalf("skills/list of 60 skills has no next page: %s", res)
	}
	cursor := fmt.Sprintf(`"cursor":%q,`, page.NextCursor)
	if _, err := rpc(hc, rs[1].base, "skills/list", "", cursor); err != nil {
		t.Errorf("replica b refuses the cursor of replica a on the same catalog: %v", err)
	}

	var swaps [][2]time.Time
	pushed := release(true, append([]string{"alpha", "beta"}, skillNames("two", 59)...))
	second := converge(first, pushed)
	swaps = append(swaps, [2]time.Time{pushed, time.Now()})
	eventually(t, "resources/list_changed and prompts/list_changed", func() bool { return listChanged.Load() > 0 && promptsChanged.Load() > 0 })
	if _, err := rpc(hc, rs[1].base, "skills/list", "", cursor); err == nil || !strings.Contains(err.Error(), "-32602") {
		t.Errorf("a cursor of the previous catalog: %v, want -32602", err)
	}

	// An unsigned release is refused by both, logged once, counted; the
	// signed one keeps serving.
	release(false, append([]string{"alpha", "gamma"}, skillNames("three", 59)...))
	for _, r := range rs {
		eventually(t, r.name+" refuses the unsigned release", func() bool {
			v, _ := metricValue(r.metrics(t), "skills_mcp_follow_refusals_total", map[string]string{"reason": "signature"})
			return v == 1
		})
	}
	time.Sleep(5 * interval)
	for _, r := range rs {
		if n := strings.Count(r.log.String(), "release refused"); n != 1 {
			t.Errorf("%s logged %d refusals of one release", r.name, n)
		}
		if c := r.catalog(t); c != second {
			t.Errorf("%s serves %s after refusing, want %s", r.name, c, second)
		}
		fams := r.metrics(t)
		if v, _ := metricValue(fams, "skills_mcp_follow_checks_total", map[string]string{"outcome": "refused"}); v < 3 {
			t.Errorf("%s: %v checks counted refused", r.name, v)
		}
		if age, ok := metricValue(fams, "skills_mcp_follow_release_age_seconds", map[string]string{"source": ref}); !ok || age <= 0 {
			t.Errorf("%s: release age %v %v", r.name, age, ok)
		}
	}

	// The registry going down is survived, logged once.
	proxy.down.Store(true)
	time.Sleep(5 * interval)
	proxy.down.Store(false)
	// One line, or two when a check's HEAD passed just before the outage
	// and its fetch failed (a release check failed with a digest).
	for _, r := range rs {
		if n := strings.Count(r.log.String(), "release check failed"); n < 1 || n > 2 {
			t.Errorf("%s logged %d failed checks for one outage", r.name, n)
		}
		if v, _ := metricValue(r.metrics(t), "skills_mcp_follow_refusals_total", map[string]string{"reason": "unreachable"}); v < 1 || v > 2 {
			t.Errorf("%s: %v unreachable checks counted", r.name, v)
		}
	}

	pushed = release(true, append([]string{"alpha", "delta"}, skillNames("four", 59)...))
	third := converge(second, pushed)
	swaps = append(swaps, [2]time.Time{pushed, time.Now()})
	for _, r := range rs {
		fams := r.metrics(t)
		if v, _ := metricValue(fams, "skills_mcp_follow_updates_total", map[string]string{"source": ref}); v != 2 {
			t.Errorf("%s: %v updates, want 2", r.name, v)
		}
		if d := labelOf(fams, "skills_mcp_follow_release_info", "digest"); !strings.HasPrefix(d, "sha256:") || !strings.Contains(r.log.String(), d) {
			t.Errorf("%s: served digest %q not logged", r.name, d)
		}
	}
	res, err = rpc(hc, rs[1].base, "skills/list", "", "")
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(res, &page)
	if _, err := rpc(hc, rs[0].base, "skills/list", "", fmt.Sprintf(`"cursor":%q,`, page.NextCursor)); err != nil {
		t.Errorf("replica a refuses the cursor of replica b on catalog %s: %v", third, err)
	}
	time.Sleep(5 * interval)
	stopReaders()
	if len(loop.errs) > 0 {
		t.Errorf("%d of %d reads failed through the swaps; first: %v", len(loop.errs), len(loop.lat), loop.errs[0])
	}
	near, nn := loop.p99(swaps, true)
	far, nf := loop.p99(swaps, false)
	t.Logf("reads: p99 %v around swaps (%d reads), %v steady (%d reads)", near, nn, far, nf)
}
