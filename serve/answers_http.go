package serve

// Pre-encoded answers over stateless streamable HTTP (answers.go): the
// handler in front of the SDK's.

import (
	"bytes"
	"io"
	"net/http"
	"time"
)

// Protocol revisions whose answers are kept over HTTP.
const (
	revision20251125 = "2025-11-25"
	revision20260728 = "2026-07-28"
)

// fastHTTP answers the requests it recognises exactly from the kept
// answers, and passes everything else, and the first request of each key,
// to the SDK's handler.
type fastHTTP struct {
	s       *Server
	sdk     http.Handler
	maxBody int64 // the SDK's cap on a body; <= 0: none
}

// fastHeaders reports whether r's headers are ones under which the SDK's
// stateless handler answers a recognised request as it answered the one
// whose answer was kept: a POST of application/json that accepts JSON and
// event streams, a revision it serves, no session and no stream to resume.
// It returns the revision.
func fastHeaders(r *http.Request) (string, bool) {
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
	if len(v) != 1 || v[0] != revision20251125 && v[0] != revision20260728 {
		return "", false
	}
	return v[0], true
}

// fastRevision reports whether the recognised request q, under HTTP
// revision rev with headers h, is one the SDK answers by its handlers (not
// refused for its headers or its _meta), as the SDK checks them: at
// 2026-07-28 the request's _meta names the same revision and Mcp-Method
// (and, for resources/read, Mcp-Name) repeat the body's; before it, the
// request names no revision of its own.
func fastRevision(rev string, h http.Header, q *fastReq) bool {
	if rev != revision20260728 {
		return q.version == nil
	}
	if string(q.version) != rev {
		return false
	}
	m := h["Mcp-Method"]
	if len(m) != 1 || m[0] != q.method {
		return false
	}
	if q.method == "resources/read" {
		n := h["Mcp-Name"]
		return len(n) == 1 && n[0] == string(q.uri)
	}
	return true
}

func (f *fastHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rev, ok := fastHeaders(r)
	if !ok {
		f.sdk.ServeHTTP(w, r)
		return
	}
	start := time.Now()
	body, err := readCapped(r.Body, f.maxBody)
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || f.maxBody > 0 && int64(len(body)) > f.maxBody {
		f.sdk.ServeHTTP(w, r) // the SDK answers the error, or 413
		return
	}
	q, ok := recognise(body)
	if !ok || !fastRevision(rev, r.Header, &q) {
		f.sdk.ServeHTTP(w, r)
		return
	}
	s := f.s
	base := s.snap.Load()
	if base.Fault() != nil { // the SDK path answers -32603
		f.sdk.ServeHTTP(w, r)
		return
	}
	ctx := r.Context()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	key := fastKey((*bp)[:0], rev, callerAccess(ctx), &q)
	if tail, ok := s.answers.get(base, key); ok {
		buf := appendAnswer(key, q.id, tail) // after the key, in the same buffer
		h := w.Header()
		h["Cache-Control"] = cacheControl
		h["Content-Type"] = contentJSON
		w.Write(buf[len(key):])
		s.observeFast(ctx, q.method, start)
		s.usedFast(ctx, base, &q, rev)
		*bp = buf[:0]
		return
	}
	cw := &captureWriter{ResponseWriter: w}
	f.sdk.ServeHTTP(cw, r)
	if cw.keep() && s.snap.Load() == base {
		if tail := tailOf(cw.body.Bytes(), q.id); tail != nil {
			s.answers.put(base, key, bytes.Clone(tail))
		}
	}
	*bp = key[:0]
}

// The headers of an answer, as the SDK's stateless JSON handler sets them.
var (
	cacheControl = []string{"no-cache, no-transform"}
	contentJSON  = []string{"application/json"}
)

// readCapped reads r whole, or its first max+1 bytes when max > 0.
func readCapped(r io.Reader, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	return io.ReadAll(r)
}

// captureWriter passes an SDK answer on and keeps a copy of it.
type captureWriter struct {
	http.ResponseWriter
	status  int
	flushed bool
	body    bytes.Buffer
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(p)
	return c.ResponseWriter.Write(p)
}

// Flush passes a flush on; an answer that was flushed is not kept.
func (c *captureWriter) Flush() {
	c.flushed = true
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// keep reports whether the answer is one to keep: 200, one JSON body with
// the headers the kept answers are sent with, no flush and nothing else set.
func (c *captureWriter) keep() bool {
	h := c.Header()
	return c.status == http.StatusOK && !c.flushed &&
		len(h["Content-Type"]) == 1 && h["Content-Type"][0] == contentJSON[0] &&
		len(h["Cache-Control"]) == 1 && h["Cache-Control"][0] == cacheControl[0] &&
		len(h["Mcp-Session-Id"]) == 0
}
