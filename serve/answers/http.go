package answers

// Pre-encoded answers over stateless streamable HTTP: the handler in front
// of the SDK's.

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
type fastHTTP[S comparable] struct {
	a       *Answers[S]
	sdk     http.Handler
	maxBody int64 // the SDK's cap on a body; <= 0: none
}

func (f *fastHTTP[S]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	a := f.a
	base, ok := a.host.Current()
	if !ok { // the SDK path answers -32603
		f.sdk.ServeHTTP(w, r)
		return
	}
	ctx := r.Context()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	view, hasView := a.host.View(ctx)
	key := keyOf((*bp)[:0], rev, view, hasView, &q)
	if tail, ok := a.cache.get(base, key); ok {
		buf := wire.Append(key, q.ID, tail) // after the key, in the same buffer
		wire.SetHeaders(w.Header())
		w.Write(buf[len(key):])
		a.host.Answered(ctx, base, &q, rev, start)
		*bp = buf[:0]
		return
	}
	cw := &wire.Capture{ResponseWriter: w}
	f.sdk.ServeHTTP(cw, r)
	if now, _ := a.host.Current(); cw.Keep() && now == base {
		if tail := wire.Tail(cw.Body(), q.ID); tail != nil {
			a.cache.put(base, key, bytes.Clone(tail))
		}
	}
	*bp = key[:0]
}

// Handler returns sdk, the SDK's stateless HTTP handler, behind the
// answers: the requests recognised exactly are answered from them, and
// the first of each key is kept as sdk answers it. maxBody is sdk's cap on
// a request body (<= 0: none).
func (a *Answers[S]) Handler(sdk http.Handler, maxBody int64) http.Handler {
	return &fastHTTP[S]{a: a, sdk: sdk, maxBody: maxBody}
}
