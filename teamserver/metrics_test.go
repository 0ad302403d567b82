package teamserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/live"
	"github.com/skills-mcp/skills-mcp/serve"
)

// scrape fetches url with an optional token and parses it with
// Prometheus' own text parser.
func scrape(t testing.TB, url, token string) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	return fams
}

// metricValue returns the value of the series of fam whose labels include
// labels (name, value pairs), or -1.
func metricValue(fams map[string]*dto.MetricFamily, fam string, labels ...string) float64 {
	f := fams[fam]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		for i := 0; i < len(labels); i += 2 {
			found := false
			for _, l := range m.Label {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

func TestMetricsHealthAccessLog(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	var logs servetest.Buffer
	s := newServer(t, serve.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, b)
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "ops": "*"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: m, Limits: Limits{Rate: 0.01, Burst: 3}}))
	defer ts.Close()
	for range 3 {
		post(t, ts.URL, "tok-alice", listBody).Body.Close()
	}
	post(t, ts.URL, "tok-alice", listBody).Body.Close() // past the burst
	post(t, ts.URL, "tok-mallory", listBody).Body.Close()
	post(t, ts.URL, "", listBody).Body.Close()
	// Health and readiness: outside authorization and the host check.
	for _, path := range []string{HealthPath, ReadyPath} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Host = "10.1.2.3:3939"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(string(body), "skill") {
			t.Errorf("%s: %s %q", path, resp.Status, body)
		}
	}
	if resp := get401(t, ts.URL+MetricsPath); resp != 401 {
		t.Errorf("metrics without a token: %d", resp)
	}
	fams := scrape(t, ts.URL+MetricsPath, "tok-ops")
	for _, c := range []struct {
		fam    string
		labels []string
		want   float64
	}{
		{"skills_mcp_http_requests_total", []string{"mcp_method", "skills/list", "code", "200"}, 3},
		{"skills_mcp_http_requests_total", []string{"mcp_method", "unknown", "code", "429"}, 1},
		{"skills_mcp_http_requests_total", []string{"mcp_method", "unknown", "code", "401"}, 2},
		{"skills_mcp_http_requests_total", []string{"mcp_method", "-", "code", "401"}, 1},
		{"skills_mcp_auth_failures_total", []string{"reason", "unknown_token"}, 1},
		{"skills_mcp_auth_failures_total", []string{"reason", "missing"}, 2},
		{"skills_mcp_limit_refusals_total", []string{"limit", "rate"}, 1},
		{"skills_mcp_catalog_info", []string{"catalog", s.Snapshot().ID().String()}, 1},
	} {
		if got := metricValue(fams, c.fam, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.fam, c.labels, got, c.want)
		}
	}
	if n := metricValue(fams, "skills_mcp_http_request_duration_seconds", "mcp_method", "skills/list"); n < 3 {
		t.Errorf("latency histogram of skills/list holds %v requests", n)
	}
	if metricValue(fams, "skills_mcp_http_response_bytes_total") <= 0 || fams["go_goroutines"] == nil {
		t.Errorf("bytes served or Go runtime metrics missing")
	}
	// One logfmt access line per request, with the token's name and never
	// the token.
	lines := regexp.MustCompile(`(?m)^.*msg=http .*$`).FindAllString(logs.String(), -1)
	if len(lines) < 9 {
		t.Errorf("%d access lines:\n%s", len(lines), logs.String())
	}
	want := regexp.MustCompile(`method=POST path=/mcp mcp=skills/list status=200 took=\S+ bytes=\d+ remote=\S+ token=alice`)
	if !want.MatchString(logs.String()) {
		t.Errorf("no access line like %s:\n%s", want, logs.String())
	}
	if !strings.Contains(logs.String(), "status=401") || !strings.Contains(logs.String(), "auth=unknown_token") ||
		!strings.Contains(logs.String(), "status=429") || strings.Contains(logs.String(), "tok-") {
		t.Errorf("access log:\n%s", logs.String())
	}
}

func get401(t testing.TB, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeOpsCurl: the real binary's health, metrics (on --metrics-addr)
// and 401 challenge, as curl sees them. curl is required when CI is set
// (.ci/run installs it).
func TestServeOpsCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("curl is required when CI is set (Debian package curl): %v", err)
		}
		t.Skip("no curl")
	}
	_, bundle := fileBundle(t, exampleFixture())
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	base, _, stderr := servetest.StartHTTP(t, Endpoint, "--auth-tokens", p, "--metrics-addr", "127.0.0.1:0", bundle)
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(curl, append([]string{"-sS", "--max-time", "10"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("curl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run(base + HealthPath); out != "ok\n" {
		t.Errorf("healthz: %q", out)
	}
	if out := run(base + ReadyPath); out != "ready\n" {
		t.Errorf("readyz: %q", out)
	}
	hdr := run("-D", "-", "-o", "/dev/null", "-X", "POST", base+Endpoint)
	if !strings.Contains(hdr, "HTTP/1.1 401") || !strings.Contains(strings.ToLower(hdr), strings.ToLower(`WWW-Authenticate: Bearer resource_metadata="`+base+ProtectedResourcePath+Endpoint+`"`)) {
		t.Errorf("401 headers:\n%s", hdr)
	}
	run("-o", "/dev/null", "-H", "Authorization: Bearer tok-alice", "-H", "Content-Type: application/json",
		"-H", "Accept: application/json, text/event-stream", "--data", listBody, base+Endpoint)
	var maddr string
	for range 100 {
		if m := regexp.MustCompile(`metrics on (http://[0-9.:]+)/metrics`).FindStringSubmatch(stderr.String()); m != nil {
			maddr = m[1]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if maddr == "" {
		t.Fatalf("no metrics address logged:\n%s", stderr.String())
	}
	text := run(maddr + MetricsPath)
	fams, err := func() (map[string]*dto.MetricFamily, error) {
		p := expfmt.NewTextParser(model.UTF8Validation)
		return p.TextToMetricFamilies(strings.NewReader(text))
	}()
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	if metricValue(fams, "skills_mcp_http_requests_total", "mcp_method", "skills/list", "code", "200") != 1 ||
		metricValue(fams, "skills_mcp_auth_failures_total", "reason", "missing") != 1 ||
		metricValue(fams, "skills_mcp_http_active_connections") < 0 {
		t.Errorf("metrics:\n%s", text)
	}
	if run("-o", "/dev/null", "-w", "%{http_code}", base+MetricsPath) != "404" {
		t.Error("with --metrics-addr, /metrics is also served on --http")
	}
	// Open connections are counted as they open and as they close (scrapes
	// on --metrics-addr are not).
	active := func() float64 {
		p := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := p.TextToMetricFamilies(strings.NewReader(run(maddr + MetricsPath)))
		if err != nil {
			t.Fatal(err)
		}
		return metricValue(fams, "skills_mcp_http_active_connections")
	}
	waitActive := func(what string, ok func(float64) bool) {
		t.Helper()
		var n float64
		for range 250 {
			if n = active(); ok(n) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("skills_mcp_http_active_connections %v: %s", n, what)
	}
	waitActive("curl's connections are not counted closed", func(n float64) bool { return n == 0 })
	var conns []net.Conn
	for range 7 {
		c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	waitActive("7 open connections are not counted", func(n float64) bool { return n == 7 })
	for _, c := range conns {
		c.Close()
	}
	waitActive("closed connections are still counted", func(n float64) bool { return n == 0 })
}

// TestMetricsLiveRebuilds: every build of a live library that ran is
// counted, with its time; a rescan that finds nothing changed is not.
func TestMetricsLiveRebuilds(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"a/SKILL.md": servetest.SkillMD("a", "first")})
	m := NewMetrics()
	l := startLive(t, live.Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}, Observe: m.ObserveRebuild})
	ts := httptest.NewServer(Handler(l.Server(), Options{Metrics: m}))
	defer ts.Close()
	builds := func() float64 {
		return metricValue(scrape(t, ts.URL+MetricsPath, ""), "skills_mcp_live_rebuilds_total", "result", "ok")
	}
	if n := builds(); n != 1 {
		t.Fatalf("%v builds counted at start, want 1", n)
	}
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := builds(); n != 1 {
		t.Errorf("an unchanged rescan counted: %v", n)
	}
	servetest.WriteFiles(t, dir, map[string]string{"b/SKILL.md": servetest.SkillMD("b", "second")})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	fams := scrape(t, ts.URL+MetricsPath, "")
	if n := metricValue(fams, "skills_mcp_live_rebuilds_total", "result", "ok"); n != 2 {
		t.Errorf("%v builds after a change, want 2", n)
	}
	if n := metricValue(fams, "skills_mcp_live_rebuild_duration_seconds"); n != 2 {
		t.Errorf("rebuild histogram holds %v builds", n)
	}
	if metricValue(fams, "skills_mcp_catalog_info", "catalog", l.Server().Snapshot().ID().String()) != 1 {
		t.Error("catalog_info does not follow the swap")
	}
}

// TestAccessLogNotifications: a notification is answered 202 before any
// handler sees it; its access line and its metrics still name its method.
func TestAccessLogNotifications(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	var logs servetest.Buffer
	s := newServer(t, serve.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, b)
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Metrics: m}))
	defer ts.Close()
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"params":{"requestId":7,"reason":"the user left"},"jsonrpc":"2.0","method":"notifications/cancelled"}`,
	} {
		resp := post(t, ts.URL, "", body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("%s: %s", body, resp.Status)
		}
	}
	for _, method := range []string{"notifications/initialized", "notifications/cancelled"} {
		want := regexp.MustCompile(`msg=http method=POST path=/mcp mcp=` + method + ` status=202 `)
		if !want.MatchString(logs.String()) {
			t.Errorf("no access line like %s:\n%s", want, logs.String())
		}
		if n := metricValue(scrape(t, ts.URL+MetricsPath, ""), "skills_mcp_http_requests_total", "mcp_method", method, "code", "202"); n != 1 {
			t.Errorf("requests_total{mcp_method=%q,code=202} = %v, want 1", method, n)
		}
	}
}

// TestReadyzBundleChanged: the real server's /readyz turns 503 as soon as
// a served bundle file is truncated in place, with no other request
// reading it first, and logs which file.
func TestReadyzBundleChanged(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	base, _, stderr := servetest.StartHTTP(t, Endpoint, bundle)
	ready := func() (int, string) {
		t.Helper()
		resp, err := http.Get(base + ReadyPath)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(body)
	}
	if st, body := ready(); st != 200 || body != "ready\n" {
		t.Fatalf("readyz: %d %q", st, body)
	}
	fi, err := os.Stat(bundle)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(bundle, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	if st, body := ready(); st != 503 || strings.Contains(body, "skill") {
		t.Errorf("readyz after the bundle was truncated: %d %q, want 503", st, body)
	}
	logged := func() bool {
		return strings.Contains(stderr.String(), `msg="not ready: a served bundle file changed under the server" err="bundle `+bundle+`: the file changed since it was opened`)
	}
	for i := 0; i < 100 && !logged(); i++ {
		time.Sleep(20 * time.Millisecond) // stderr is copied by a goroutine
	}
	if !logged() {
		t.Errorf("no log line naming the changed bundle:\n%s", stderr.String())
	}
	if resp := get401(t, base+HealthPath); resp != 200 {
		t.Errorf("healthz: %d (the process is alive)", resp)
	}
}

// TestMetricsBoundedLabels: clients choose the HTTP method, the
// Mcp-Method header and the methods of notifications, and every label
// value is a series kept for good, so requests no MCP method answered
// count as mcp_method "unknown", and methods outside HTTP's own as
// "other": a flood of made-up ones adds no series.
func TestMetricsBoundedLabels(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "ops": "*"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: -1}}))
	defer ts.Close()
	for i := range 100 {
		for _, tok := range []string{"", "tok-alice"} {
			req, _ := http.NewRequest(fmt.Sprintf("M%d", i), ts.URL+Endpoint, strings.NewReader(listBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Method", fmt.Sprintf("made/up%d", i))
			if tok != "" {
				req.Header.Set("Authorization", "Bearer "+tok)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
	}
	for i := range 100 { // notifications the server does not know
		post(t, ts.URL, "tok-alice", fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/made-up%d"}`, i)).Body.Close()
		// The SDK takes the last of two "method" keys, a scan the first.
		post(t, ts.URL, "tok-alice", fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/made-up%d","method":"notifications/initialized"}`, i)).Body.Close()
	}
	post(t, ts.URL, "tok-alice", listBody).Body.Close()
	fams := scrape(t, ts.URL+MetricsPath, "tok-ops")
	if n := len(fams["skills_mcp_http_requests_total"].GetMetric()); n > 5 {
		t.Errorf("400 requests of made-up methods left %d series of skills_mcp_http_requests_total", n)
	}
	if n := len(fams["skills_mcp_http_request_duration_seconds"].GetMetric()); n > 3 {
		t.Errorf("400 requests of made-up methods left %d latency histograms", n)
	}
	for _, c := range [][]string{
		{"method", "other", "mcp_method", "unknown", "code", "401"},
		{"method", "POST", "mcp_method", "skills/list", "code", "200"},
	} {
		if metricValue(fams, "skills_mcp_http_requests_total", c...) <= 0 {
			t.Errorf("no series %v", c)
		}
	}
}

// TestMetricsResult: requests count by their JSON-RPC result, HTTP 200 or
// not: a resources/read refused to a token counts as invalid_params, as
// does one of a URI that does not exist, and a request no handler answered
// as "-"; the label takes only its few values.
func TestMetricsResult(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "ops": "*"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: m}))
	defer ts.Close()
	read := func(uri string) string {
		resp := post(t, ts.URL, "tok-alice", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"`+uri+`"}}`)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("resources/read %s: %s %s", uri, resp.Status, body)
		}
		return string(body)
	}
	if body := read("skill://acme/pdf-processing/references/FORMS.md"); !strings.Contains(body, `"result"`) {
		t.Fatalf("alice's own file: %s", body)
	}
	for _, uri := range []string{"skill://community/git-workflow/SKILL.md", "skill://acme/nope/SKILL.md"} {
		if body := read(uri); !strings.Contains(body, `"code":-32602`) {
			t.Fatalf("%s: %s, want a -32602 error", uri, body)
		}
	}
	post(t, ts.URL, "tok-alice", `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{}}`).Body.Close()
	post(t, ts.URL, "", listBody).Body.Close()
	fams := scrape(t, ts.URL+MetricsPath, "tok-ops")
	for _, c := range []struct {
		labels []string
		want   float64
	}{
		{[]string{"mcp_method", "resources/read", "code", "200", "result", "ok"}, 1},
		{[]string{"mcp_method", "resources/read", "code", "200", "result", "invalid_params"}, 2},
		{[]string{"mcp_method", "unknown", "code", "401", "result", "-"}, 1},
		{[]string{"mcp_method", "unknown", "code", "400", "result", "-"}, 1}, // the SDK refuses no/such
	} {
		if got := metricValue(fams, "skills_mcp_http_requests_total", c.labels...); got != c.want {
			t.Errorf("skills_mcp_http_requests_total%v = %v, want %v", c.labels, got, c.want)
		}
	}
	for _, series := range fams["skills_mcp_http_requests_total"].Metric {
		for _, l := range series.Label {
			if l.GetName() == "result" && !slices.Contains(rpcResults[:], l.GetValue()) {
				t.Errorf("result %q", l.GetValue())
			}
		}
	}
}
