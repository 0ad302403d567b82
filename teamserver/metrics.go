package teamserver

// Operations of the HTTP endpoint: Prometheus metrics (internal/promtext), the
// health and readiness endpoints, and one access-log line per request.

import (
	"errors"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/skills-mcp/skills-mcp/internal/promtext"
	"github.com/skills-mcp/skills-mcp/live"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// Metrics are the server's Prometheus metrics, on a registry of their own
// (with the Go runtime and process collectors). One Metrics serves one
// serve.Server.
type Metrics struct {
	reg          *promtext.Registry
	requests     *promtext.CounterVec
	duration     *promtext.HistogramVec
	bytes        promtext.Counter
	conns        promtext.Gauge
	authFailures *promtext.CounterVec
	limited      *promtext.CounterVec
	rebuilds     *promtext.CounterVec
	rebuildTime  promtext.Observer
	srv          atomic.Pointer[serve.Server] // whose catalog id skills_mcp_catalog_info shows
	follow       *followMetrics               // serve --follow (followmetrics.go)
	usage        *usageMetrics                // skill uses (usagemetrics.go)

	// series are the request counters and latency histograms resolved so
	// far, by label values: read without a lock, copied to add one. The
	// labels come from bounded sets, so it stays small.
	series   atomic.Pointer[map[seriesKey]*requestSeries]
	seriesMu sync.Mutex
}

// seriesKey are the label values of one request series.
type seriesKey struct {
	method, mcpMethod string
	code              int
	result            uint32 // in rpcResults
}

// requestSeries are the metrics one request of a seriesKey counts in.
type requestSeries struct {
	requests promtext.Counter
	duration promtext.Observer
}

// seriesFor returns the series of k, resolving them on first use: what
// WithLabelValues returns, without hashing and checking the label values
// again at every request.
func (m *Metrics) seriesFor(k seriesKey) *requestSeries {
	if p := m.series.Load(); p != nil {
		if rs := (*p)[k]; rs != nil {
			return rs
		}
	}
	m.seriesMu.Lock()
	defer m.seriesMu.Unlock()
	var next map[seriesKey]*requestSeries
	if p := m.series.Load(); p != nil {
		if rs := (*p)[k]; rs != nil {
			return rs
		}
		next = maps.Clone(*p)
	} else {
		next = map[seriesKey]*requestSeries{}
	}
	rs := &requestSeries{
		requests: m.requests.WithLabelValues(k.method, k.mcpMethod, strconv.Itoa(k.code), rpcResults[k.result]),
		duration: m.duration.WithLabelValues(k.mcpMethod),
	}
	next[k] = rs
	m.series.Store(&next)
	return rs
}

// NewMetrics returns the metrics, registered.
func NewMetrics() *Metrics {
	r := promtext.NewRegistry()
	m := &Metrics{reg: r}
	m.requests = r.NewCounterVec("skills_mcp_http_requests_total", "HTTP requests by HTTP method, MCP method, status code and JSON-RPC result.",
		"method", "mcp_method", "code", "result")
	m.duration = r.NewHistogramVec("skills_mcp_http_request_duration_seconds", "Time to answer an HTTP request, by MCP method.",
		[]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}, "mcp_method")
	m.bytes = r.NewCounter("skills_mcp_http_response_bytes_total", "Bytes of HTTP response bodies served.")
	m.conns = r.NewGauge("skills_mcp_http_active_connections", "Open HTTP connections.")
	m.authFailures = r.NewCounterVec("skills_mcp_auth_failures_total", "Requests refused by authorization, by reason.", "reason")
	m.limited = r.NewCounterVec("skills_mcp_limit_refusals_total", "Requests and connections refused by a limit, by limit.", "limit")
	m.rebuilds = r.NewCounterVec("skills_mcp_live_rebuilds_total", "Builds of live libraries, by result (ok, error).", "result")
	m.rebuildTime = r.NewHistogram("skills_mcp_live_rebuild_duration_seconds", "Time to build a live library.", promtext.ExponentialBuckets(0.005, 2.5, 10))
	// The id of the catalog served at scrape time.
	r.NewGaugeFunc("skills_mcp_catalog_info", "The served catalog (its id labels a constant 1).", []string{"catalog"}, func(emit func(float64, ...string)) {
		if s := m.srv.Load(); s != nil {
			emit(1, s.Snapshot().ID().String())
		}
	})
	promtext.RegisterRuntime(r)
	m.follow = newFollowMetrics(r)
	m.usage = newUsageMetrics(r)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return m.reg.Handler()
}

// ObserveRebuild records one build of a live library (live.Options.Observe).
func (m *Metrics) ObserveRebuild(took time.Duration, err error) {
	if m == nil {
		return
	}
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.rebuilds.WithLabelValues(result).Inc()
	m.rebuildTime.Observe(took.Seconds())
}

func (m *Metrics) authFailed(reason string) {
	if m != nil {
		m.authFailures.WithLabelValues(reason).Inc()
	}
}

func (m *Metrics) limitHit(limit string) {
	if m != nil {
		m.limited.WithLabelValues(limit).Inc()
	}
}

// connState follows http.Server.ConnState to count open connections.
func (m *Metrics) connState(_ any, st http.ConnState) {
	switch st {
	case http.StateNew:
		m.conns.Inc()
	case http.StateClosed, http.StateHijacked:
		m.conns.Dec()
	}
}

// methodLabel is the metrics label of an HTTP method: itself if HTTP
// defines it (RFC 9110, and PATCH), else "other".
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return m
	}
	return "other"
}

// The result label of requests: how the MCP handlers answered, by JSON-RPC
// error code, a bounded set that says nothing of the catalog (a URI refused
// to a token and one that does not exist are both invalid_params).
// resultNone ("-") is a request they did not answer: refused over HTTP
// (authorization, a limit, the host check), off /mcp, a notification
// (answered 202), or refused by the SDK before dispatch (an unknown method,
// a malformed message).
const (
	resultNone uint32 = iota
	resultOK
	resultInvalidParams
	resultMethodNotFound
	resultInvalidRequest
	resultInternalError
	resultError // any other code, or none
)

// rpcResults are the label values, by result.
var rpcResults = [...]string{resultNone: "-", resultOK: "ok", resultInvalidParams: "invalid_params", resultMethodNotFound: "method_not_found",
	resultInvalidRequest: "invalid_request", resultInternalError: "internal_error", resultError: "error"}

// rpcResult is the result of a handler's outcome.
func rpcResult(err error) uint32 {
	if err == nil {
		return resultOK
	}
	var jerr *jsonrpc.Error
	if !errors.As(err, &jerr) {
		return resultError
	}
	switch jerr.Code {
	case jsonrpc.CodeInvalidParams:
		return resultInvalidParams
	case jsonrpc.CodeMethodNotFound:
		return resultMethodNotFound
	case jsonrpc.CodeInvalidRequest:
		return resultInvalidRequest
	case jsonrpc.CodeInternalError:
		return resultInternalError
	}
	return resultError
}

var _ live.FollowObserver = (*Metrics)(nil)

// FollowChecked counts a check (live.FollowObserver).
func (m *Metrics) FollowChecked(source, outcome string) {
	m.follow.checks.WithLabelValues(source, outcome).Inc()
}

// FollowRefused counts a refusal (live.FollowObserver).
func (m *Metrics) FollowRefused(source, reason string) {
	m.follow.refusals.WithLabelValues(source, reason).Inc()
}

// FollowServed records the release served for source (live.FollowObserver);
// after the first, each is an update.
func (m *Metrics) FollowServed(source, digest string, since time.Time) {
	f := m.follow
	f.mu.Lock()
	_, update := f.served[source]
	f.served[source] = servedRelease{digest, since}
	f.mu.Unlock()
	if update {
		f.updates.WithLabelValues(source).Inc()
	} else {
		f.updates.WithLabelValues(source).Add(0)
	}
}

var _ usage.Observer = (*Metrics)(nil)

// SkillUsed counts a use (usage.Observer).
func (m *Metrics) SkillUsed(u *usage.Use) {
	m.usage.counter(u.Skill, u.Kind).Inc()
}
