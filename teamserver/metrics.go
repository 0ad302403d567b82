package teamserver

// Operations of the HTTP endpoint: Prometheus metrics (client_golang), the
// health and readiness endpoints, and one access-log line per request.

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/skills-mcp/skills-mcp/serve"
)

// Health and metrics paths. /healthz and /readyz are answered outside
// authorization and the host check, for load balancers that probe by
// address; they tell nothing about the catalog.
const (
	HealthPath  = "/healthz"
	ReadyPath   = "/readyz"
	MetricsPath = "/metrics"
)

// Metrics are the server's Prometheus metrics, on a registry of their own
// (with the Go runtime and process collectors). One Metrics serves one
// serve.Server.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	bytes        prometheus.Counter
	conns        prometheus.Gauge
	authFailures *prometheus.CounterVec
	limited      *prometheus.CounterVec
	rebuilds     *prometheus.CounterVec
	rebuildTime  prometheus.Histogram
	srv          atomic.Pointer[serve.Server] // whose catalog id skills_mcp_catalog_info shows

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
	requests prometheus.Counter
	duration prometheus.Observer
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
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_http_requests_total", Help: "HTTP requests by HTTP method, MCP method, status code and JSON-RPC result.",
	}, []string{"method", "mcp_method", "code", "result"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "skills_mcp_http_request_duration_seconds", Help: "Time to answer an HTTP request, by MCP method.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
	}, []string{"mcp_method"})
	m.bytes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "skills_mcp_http_response_bytes_total", Help: "Bytes of HTTP response bodies served.",
	})
	m.conns = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "skills_mcp_http_active_connections", Help: "Open HTTP connections.",
	})
	m.authFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_auth_failures_total", Help: "Requests refused by authorization, by reason.",
	}, []string{"reason"})
	m.limited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_limit_refusals_total", Help: "Requests and connections refused by a limit, by limit.",
	}, []string{"limit"})
	m.rebuilds = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_live_rebuilds_total", Help: "Builds of live libraries, by result (ok, error).",
	}, []string{"result"})
	m.rebuildTime = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "skills_mcp_live_rebuild_duration_seconds", Help: "Time to build a live library.",
		Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 10),
	})
	catalog := prometheus.NewDesc("skills_mcp_catalog_info", "The served catalog (its id labels a constant 1).", []string{"catalog"}, nil)
	m.reg.MustRegister(m.requests, m.duration, m.bytes, m.conns, m.authFailures, m.limited, m.rebuilds, m.rebuildTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		catalogCollector{m, catalog})
	return m
}

// catalogCollector reports the id of the catalog served at scrape time.
type catalogCollector struct {
	m    *Metrics
	desc *prometheus.Desc
}

func (c catalogCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c catalogCollector) Collect(ch chan<- prometheus.Metric) {
	if s := c.m.srv.Load(); s != nil {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, 1, s.Snapshot().ID().String())
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// ObserveRebuild records one build of a live library (LiveOptions.Observe).
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

// countingWriter records a response's status and body bytes.
type countingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *countingWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Flush passes flushes on, for event streams.
func (w *countingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe serves a request through cw, then logs its access line (logfmt,
// at info level: method, path, MCP method, status, duration, bytes, token
// name, never the token) and counts it in m (when not nil).
func (s *server) observe(m *Metrics, cw *countingWriter, r *http.Request, ri *reqInfo, next func(http.ResponseWriter, *http.Request)) {
	start := time.Now()
	next(cw, r)
	took := time.Since(start)
	if cw.status == 0 {
		cw.status = http.StatusOK
	}
	note := ""
	if ri.mcpMethod == "" && cw.status == http.StatusAccepted {
		note = ri.notification()
	}
	method := ri.mcpMethod
	if method == "" {
		method = r.Header.Get("Mcp-Method")
	}
	if method == "" {
		method = note
	}
	if m != nil {
		// Labels only from bounded sets: each value is a series kept for
		// good, and the client picks the HTTP method and the Mcp-Method
		// header. ri.mcpMethod is a method the server dispatched, note one
		// the SDK accepted (202).
		label := ri.mcpMethod
		if label == "" {
			label = note
		}
		if r.URL.Path != Endpoint {
			label = "-"
		} else if label == "" {
			label = "unknown"
		}
		rs := m.seriesFor(seriesKey{methodLabel(r.Method), label, cw.status, ri.rpcResult.Load()})
		rs.requests.Inc()
		rs.duration.Observe(took.Seconds())
		m.bytes.Add(float64(cw.bytes))
	}
	ctx := context.Background()
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	// Typed attributes in an array of their own: no value is boxed and
	// nothing is allocated for a line the handler does not keep.
	var buf [10]slog.Attr
	attrs := append(buf[:0], slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("mcp", method),
		slog.Int("status", cw.status), slog.Duration("took", took.Round(time.Microsecond)), slog.Int64("bytes", cw.bytes),
		slog.String("remote", r.RemoteAddr))
	if ri.token != "" {
		attrs = append(attrs, slog.String("token", ri.token))
	}
	if ri.authFail != "" {
		attrs = append(attrs, slog.String("auth", ri.authFail))
	}
	if ri.limit != "" {
		attrs = append(attrs, slog.String("limit", ri.limit))
	}
	s.log.LogAttrs(ctx, slog.LevelInfo, "http", attrs...)
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

// health answers /healthz: the process is alive and serving.
func health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// ready answers /readyz: the catalog is loaded (bundles mapped, live
// libraries built once, which serve.New and serve.NewLive do before a server exists)
// and no served bundle file has changed under its mapping, which it checks
// with one fstat a bundle. Losing readiness is logged once, with the file.
func (s *server) ready(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.mcp.Snapshot().Changed(); err != nil {
		if s.unready.CompareAndSwap(false, true) {
			s.log.Warn("not ready: a served bundle file changed under the server", "err", err)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: a bundle file changed under the server\n"))
		return
	}
	if s.unready.Load() {
		s.unready.Store(false)
	}
	_, _ = w.Write([]byte("ready\n"))
}
