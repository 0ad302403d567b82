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
// Only a request the recogniser (wire.Recognise) knows exactly, with a key
// that holds everything its answer depends on (fastKey), is answered so;
// anything else goes to the SDK. The kept answers have a byte budget
// (Options.AnswerBytes) they never exceed, and Swap drops them all.

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// fastKey appends to dst the key of request r: everything its answer
// depends on besides the snapshot. transport is the revision the transport
// gave (the HTTP header, or the stdio session's negotiated version), a the
// caller's access (nil: everything, publicly cacheable).
func fastKey(dst []byte, transport string, a *Access, r *wire.Request) []byte {
	dst = append(dst, transport...)
	dst = append(dst, 0)
	dst = append(dst, r.Method...)
	dst = append(dst, 0)
	if r.HasURI {
		dst = append(dst, 'u')
		dst = append(dst, r.URI...)
	}
	dst = append(dst, 0)
	if r.HasCursor {
		dst = append(dst, 'c')
		dst = append(dst, r.Cursor...)
	}
	dst = append(dst, 0)
	dst = append(dst, r.Meta...)
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
