package teamserver

// What the HTTP layers learn about a request, for its access log line.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// reqInfo is filled in by the layers a request goes through: the token's
// name by authorization, the refusal reason when refused.
type reqInfo struct {
	token     string
	authFail  string
	limit     string // the limit that refused it
	mcpMethod string // the JSON-RPC method of a call, set by callObserver
	// verified is the token authorization accepted, handed to the SDK's
	// auth.RequireBearerToken, which puts it on the request for the MCP
	// handlers.
	verified *auth.TokenInfo
	// rpcResult is how the MCP handlers answered (resultNone until they do),
	// set by callObserver when they return: atomic, as a stream's
	// handler may return after the HTTP request ended.
	rpcResult atomic.Uint32

	// The first bytes of a POST body, kept by watchBody for a notification:
	// the SDK answers it 202 before any handler sees it, so its method is
	// found here instead.
	body  io.ReadCloser
	head  [headBytes]byte
	headN int
}

// headBytes is how much of a body watchBody keeps: a JSON-RPC
// notification names its method in its first few dozen bytes.
const headBytes = 256

type reqInfoKey struct{}

// infoFrom returns the reqInfo of a request's context, or nil.
func infoFrom(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(reqInfoKey{}).(*reqInfo)
	return ri
}

// watchBody makes r's body, if it is a POST's, keep its first bytes in ri
// as it is read.
func (ri *reqInfo) watchBody(r *http.Request) {
	if r.Method == http.MethodPost && r.Body != nil && r.Body != http.NoBody {
		ri.body = r.Body
		r.Body = (*headReader)(ri)
	}
}

// headReader is a request body that keeps its first headBytes in the
// reqInfo.
type headReader reqInfo

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.body.Read(p)
	if h.headN < len(h.head) {
		h.headN += copy(h.head[h.headN:], p[:n])
	}
	return n, err
}

func (h *headReader) Close() error { return h.body.Close() }

// clientNotifications are the notifications a client sends a server, the
// only names a notification's log line and metrics take: the body's first
// "method" is not always the one the SDK decodes (a duplicate key wins
// there), so a name read here must come from a fixed set, or any client
// could make a new series with each request.
var clientNotifications = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"notifications/initialized": true, "notifications/cancelled": true, "notifications/progress": true,
		"notifications/roots/list_changed": true,
	}
}}

// notification returns the method of the notification whose body was
// kept (the first one, of a batch), or "" when the kept bytes do not name
// one.
func (ri *reqInfo) notification() string {
	dec := json.NewDecoder(bytes.NewReader(ri.head[:ri.headN]))
	tok, err := dec.Token()
	if tok == json.Delim('[') {
		tok, err = dec.Token()
	}
	if err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "method" {
			m, _ := dec.Token()
			if s, ok := m.(string); ok && clientNotifications.Get()[s] {
				return s
			}
			return ""
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// exchange is what Handler keeps of one request, in one allocation: the
// writer that counts the response, what the layers learn, and the context
// that carries the latter to them.
type exchange struct {
	cw  countingWriter
	ri  reqInfo
	ctx infoContext
}

// infoContext is its parent with ri as the value of reqInfoKey{}: what
// context.WithValue makes, without an allocation of its own.
type infoContext struct {
	context.Context
	ri *reqInfo
}

func (c *infoContext) Value(key any) any {
	if key == (reqInfoKey{}) {
		return c.ri
	}
	return c.Context.Value(key)
}

// callObserver notes, in the reqInfo of the HTTP request a call came in,
// the call's method and outcome (serve.CallObserver), for its access line
// and metrics; calls from elsewhere (stdio) have no reqInfo.
type callObserver struct{}

func (callObserver) Call(ctx context.Context, method string) {
	if ri := infoFrom(ctx); ri != nil {
		ri.mcpMethod = method
	}
}

func (callObserver) Answered(ctx context.Context, err error) {
	if ri := infoFrom(ctx); ri != nil {
		ri.rpcResult.Store(rpcResult(err))
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
