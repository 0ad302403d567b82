package serve

// Pre-encoded answers. A snapshot never changes, so the JSON-RPC answer to
// resources/read, skills/get, a skills/list page or a
// resources/directory/read page is, for one view of one snapshot and one
// protocol revision, a fixed byte string. The first time such a request is
// seen it goes to the SDK as any other, and the answer the SDK wrote is
// kept with the request's id cut out; a later request with the same key is
// answered with those bytes around its own id, without the SDK. The bytes
// are always the SDK's own, so an answer from the cache is the answer the
// SDK would give.
//
// Only a request the recogniser (recognise.go) knows exactly, with a key
// that holds everything its answer depends on (answerKey), is answered so;
// anything else goes to the SDK. The kept answers have a byte budget
// (Options.AnswerBytes) they never exceed, and Swap drops them all.

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// DefaultAnswerBytes is the byte budget of the pre-encoded answers when
// Options.AnswerBytes is 0.
const DefaultAnswerBytes = 32 << 20

// answerHead is how every answer the SDK writes starts, before its id.
const answerHead = `{"jsonrpc":"2.0","id":`

// entryOverhead is what one kept answer costs besides its key and bytes
// (the map's entry and the slice header), counted against the budget.
const entryOverhead = 64

// answers are the pre-encoded answers of one snapshot: key (fastKey) →
// the answer's bytes after its id.
type answerCache struct {
	mu     sync.RWMutex
	base   *Snapshot // the snapshot the answers are of
	m      map[string][]byte
	size   int // bytes counted against budget
	budget int
}

// newAnswers returns the cache of answers of base, nil if budget is
// negative (no cache).
func newAnswers(budget int, base *Snapshot) *answerCache {
	if budget < 0 {
		return nil
	}
	if budget == 0 {
		budget = DefaultAnswerBytes
	}
	return &answerCache{base: base, m: map[string][]byte{}, budget: budget}
}

// get returns the kept answer of key for snapshot base.
func (a *answerCache) get(base *Snapshot, key []byte) ([]byte, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if a.base != base {
		return nil, false
	}
	v, ok := a.m[string(key)]
	return v, ok
}

// put keeps the answer of key for snapshot base, unless the cache is of
// another snapshot by now (a Swap came in between) or the answer alone
// exceeds the budget; to make room it drops answers at random (the map's
// iteration order).
func (a *answerCache) put(base *Snapshot, key, tail []byte) {
	cost := len(key) + len(tail) + entryOverhead
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.base != base || cost > a.budget {
		return
	}
	if _, ok := a.m[string(key)]; ok {
		return
	}
	for k, v := range a.m {
		if a.size+cost <= a.budget {
			break
		}
		a.size -= len(k) + len(v) + entryOverhead
		delete(a.m, k)
	}
	a.m[string(key)] = tail
	a.size += cost
}

// reset drops every answer: the server now serves next.
func (a *answerCache) reset(next *Snapshot) {
	a.mu.Lock()
	a.base, a.m, a.size = next, map[string][]byte{}, 0
	a.mu.Unlock()
}

// stats returns the number of answers kept and the bytes they count.
func (a *answerCache) stats() (n, size int) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.m), a.size
}

// fastKey appends to dst the key of request r: everything its answer
// depends on besides the snapshot. transport is the revision the transport
// gave (the HTTP header, or the stdio session's negotiated version), a the
// caller's access (nil: everything, publicly cacheable).
func fastKey(dst []byte, transport string, a *Access, r *fastReq) []byte {
	dst = append(dst, transport...)
	dst = append(dst, 0)
	dst = append(dst, r.method...)
	dst = append(dst, 0)
	if r.hasURI {
		dst = append(dst, 'u')
		dst = append(dst, r.uri...)
	}
	dst = append(dst, 0)
	if r.hasCursor {
		dst = append(dst, 'c')
		dst = append(dst, r.cursor...)
	}
	dst = append(dst, 0)
	dst = append(dst, r.meta...)
	dst = append(dst, 0)
	if a != nil {
		dst = append(dst, 'a')
		dst = append(dst, a.key()...)
	}
	return dst
}

// callerAccess is the access a request is answered with, as
// accessMiddleware sets it: the verified token's, else the context's.
func callerAccess(ctx context.Context) *Access {
	if ti := auth.TokenInfoFromContext(ctx); ti != nil {
		return AccessOf(ti)
	}
	return accessFrom(ctx)
}

// tailOf returns the part of an answer the SDK wrote after the id, if the
// answer is a result under exactly id: nil for anything else (an error, or
// an id written otherwise), which is not kept.
func tailOf(answer, id []byte) []byte {
	if len(answer) < len(answerHead)+len(id) || string(answer[:len(answerHead)]) != answerHead {
		return nil
	}
	rest := answer[len(answerHead):]
	if string(rest[:len(id)]) != string(id) {
		return nil
	}
	tail := rest[len(id):]
	const result = `,"result":`
	if len(tail) < len(result) || string(tail[:len(result)]) != result {
		return nil
	}
	return tail
}

// appendAnswer appends the kept answer tail under id.
func appendAnswer(dst, id, tail []byte) []byte {
	dst = append(dst, answerHead...)
	dst = append(dst, id...)
	return append(dst, tail...)
}

// observeFast does for an answer from the cache what accessMiddleware and
// logMiddleware do for one from the SDK: tell the CallObserver, and log the
// request at debug level.
func (s *Server) observeFast(ctx context.Context, method string, start time.Time) {
	if o := s.calls.Load(); o != nil {
		(*o).Call(ctx, method)
		(*o).Answered(ctx, nil)
	}
	if s.log.Enabled(ctx, slog.LevelDebug) {
		s.log.Debug("request", "method", method, "took", time.Since(start), "err", nil, "answer", "pre-encoded")
	}
}

// bufPool holds the buffers answers are put together in.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}
