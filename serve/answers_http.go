package serve

// Pre-encoded answers over stateless streamable HTTP (answers.go): the
// handler in front of the SDK's.

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// fastHTTP answers the requests it recognises exactly from the kept
// answers, and passes everything else, and the first request of each key,
// to the SDK's handler.
type fastHTTP struct {
	s       *Server
	sdk     http.Handler
	maxBody int64 // the SDK's cap on a body; <= 0: none
}

func (f *fastHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rev, ok := wire.Headers(r)
	if !ok {
		f.sdk.ServeHTTP(w, r)
		return
	}
	start := time.Now()
	body, err := wire.ReadCapped(r.Body, f.maxBody)
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || f.maxBody > 0 && int64(len(body)) > f.maxBody {
		f.sdk.ServeHTTP(w, r) // the SDK answers the error, or 413
		return
	}
	q, ok := wire.Recognise(body)
	if !ok || !wire.Answerable(rev, r.Header, &q) {
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
		buf := wire.Append(key, q.ID, tail) // after the key, in the same buffer
		wire.SetHeaders(w.Header())
		w.Write(buf[len(key):])
		s.observeFast(ctx, q.Method, start)
		s.usedFast(ctx, base, &q, rev)
		*bp = buf[:0]
		return
	}
	cw := &wire.Capture{ResponseWriter: w}
	f.sdk.ServeHTTP(cw, r)
	if cw.Keep() && s.snap.Load() == base {
		if tail := wire.Tail(cw.Body(), q.ID); tail != nil {
			s.answers.put(base, key, bytes.Clone(tail))
		}
	}
	*bp = key[:0]
}
