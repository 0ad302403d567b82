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

// answerHead is how every answer the SDK writes starts, before its id.
const answerHead = `{"jsonrpc":"2.0","id":`

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
