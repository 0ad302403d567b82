package wire

// Pre-encoded answers over stateless streamable HTTP: which requests are
// answered exactly as the SDK answered the one kept (Headers, Answerable),
// and the writer that keeps the SDK's answer (Capture).

import (
	"bytes"
	"io"
	"net/http"
)

// Protocol revisions whose answers are kept over HTTP.
const (
	Revision20251125 = "2025-11-25"
	Revision20260728 = "2026-07-28"
)

// Headers reports whether r's headers are ones under which the SDK's
// stateless handler answers a recognised request as it answered the one
// whose answer was kept: a POST of application/json that accepts JSON and
// event streams, a revision it serves, no session and no stream to resume.
// It returns the revision.
func Headers(r *http.Request) (string, bool) {
	h := r.Header
	if r.Method != http.MethodPost || r.Body == nil || len(h["Last-Event-Id"]) > 0 || len(h["Mcp-Session-Id"]) > 0 {
		return "", false
	}
	if ct := h["Content-Type"]; len(ct) != 1 || ct[0] != "application/json" {
		return "", false
	}
	if acc := h["Accept"]; len(acc) != 1 || acc[0] != "application/json, text/event-stream" && acc[0] != "text/event-stream, application/json" {
		return "", false
	}
	v := h["Mcp-Protocol-Version"]
	if len(v) != 1 || v[0] != Revision20251125 && v[0] != Revision20260728 {
		return "", false
	}
	return v[0], true
}

// Answerable reports whether the recognised request q, under HTTP
// revision rev with headers h, is one the SDK answers by its handlers (not
// refused for its headers or its _meta), as the SDK checks them: at
// 2026-07-28 the request's _meta names the same revision and Mcp-Method
// (and, for resources/read, Mcp-Name) repeat the body's; before it, the
// request names no revision of its own.
func Answerable(rev string, h http.Header, q *Request) bool {
	if rev != Revision20260728 {
		return q.Version == nil
	}
	if string(q.Version) != rev {
		return false
	}
	m := h["Mcp-Method"]
	if len(m) != 1 || m[0] != q.Method {
		return false
	}
	if q.Method == "resources/read" {
		n := h["Mcp-Name"]
		return len(n) == 1 && n[0] == string(q.URI)
	}
	return true
}

// The headers of an answer, as the SDK's stateless JSON handler sets them.
var (
	cacheControl = []string{"no-cache, no-transform"}
	contentJSON  = []string{"application/json"}
)

// ReadCapped reads r whole, or its first max+1 bytes when max > 0.
func ReadCapped(r io.Reader, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	return io.ReadAll(r)
}

// Capture passes an SDK answer on and keeps a copy of it.
type Capture struct {
	http.ResponseWriter
	status  int
	flushed bool
	body    bytes.Buffer
}

func (c *Capture) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *Capture) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(p)
	return c.ResponseWriter.Write(p)
}

// Flush passes a flush on; an answer that was flushed is not kept.
func (c *Capture) Flush() {
	c.flushed = true
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (c *Capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Keep reports whether the answer is one to keep: 200, one JSON body with
// the headers the kept answers are sent with, no flush and nothing else set.
func (c *Capture) Keep() bool {
	h := c.Header()
	return c.status == http.StatusOK && !c.flushed &&
		len(h["Content-Type"]) == 1 && h["Content-Type"][0] == contentJSON[0] &&
		len(h["Cache-Control"]) == 1 && h["Cache-Control"][0] == cacheControl[0] &&
		len(h["Mcp-Session-Id"]) == 0
}

// Body returns the answer written so far.
func (c *Capture) Body() []byte { return c.body.Bytes() }

// SetHeaders sets the headers a kept answer is sent with, as the SDK's
// stateless JSON handler sets them.
func SetHeaders(h http.Header) {
	h["Cache-Control"] = cacheControl
	h["Content-Type"] = contentJSON
}
