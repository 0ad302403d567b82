package serve

// What the pre-encoded answers (package answers) ask of the Server: its
// snapshot, the caller's view, and what to tell of an answer they gave.

import (
	"context"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/skills-mcp/skills-mcp/serve/answers"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// DefaultAnswerBytes is the byte budget of the pre-encoded answers when
// Options.AnswerBytes is 0.
const DefaultAnswerBytes = answers.DefaultBytes

// answerHost is a Server as the answers see it (answers.Host).
type answerHost struct{ s *Server }

// Current returns the snapshot served now, and whether it may be answered
// from: not when the file under it changed (the SDK path answers -32603).
func (h answerHost) Current() (*Snapshot, bool) {
	snap := h.s.snap.Load()
	return snap, snap.Fault() == nil
}

// View returns the key of the caller's access, and false for none.
func (h answerHost) View(ctx context.Context) (string, bool) {
	if a := callerAccess(ctx); a != nil {
		return a.key(), true
	}
	return "", false
}

// Answered tells the observers, the debug log and the usage observers of
// a call answered from the kept answers.
func (h answerHost) Answered(ctx context.Context, base *Snapshot, q *wire.Request, revision string, start time.Time) {
	h.s.observeFast(ctx, q.Method, start)
	h.s.usedFast(ctx, base, q, revision)
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
