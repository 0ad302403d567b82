package answers

import (
	"context"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// Host is what the answers ask of the server they answer for, S being its
// snapshot (compared by identity: a snapshot never changes).
type Host[S comparable] interface {
	// Current returns the snapshot served now, and false when it cannot be
	// answered from (the file under it changed: the SDK answers the error).
	Current() (S, bool)
	// View returns the key of the view of the caller of ctx, and false for
	// no view (everything, publicly cacheable).
	View(ctx context.Context) (string, bool)
	// Answered tells of a request answered from the kept answers what the
	// SDK's middleware would have been told of it: that it was called and
	// answered, and which skill it used. base is the snapshot of the
	// answer, revision the protocol revision it was answered under.
	Answered(ctx context.Context, base S, q *wire.Request, revision string, start time.Time)
}

// Answers are the pre-encoded answers of a server: a cache of them under a
// byte budget, and the front ends that answer from it over HTTP (Handler)
// and stdio (ServeStdio).
type Answers[S comparable] struct {
	host  Host[S]
	cache *cache[S]
}

// New returns the answers of host, whose snapshot is base now, under a
// budget of bytes (DefaultBytes if 0); nil if budget is negative (none).
func New[S comparable](host Host[S], budget int, base S) *Answers[S] {
	if budget < 0 {
		return nil
	}
	return &Answers[S]{host: host, cache: newCache(budget, base)}
}

// Reset drops every answer: the server now serves next.
func (a *Answers[S]) Reset(next S) { a.cache.reset(next) }

// Stats returns the number of answers kept and the bytes they count.
func (a *Answers[S]) Stats() (n, size int) { return a.cache.stats() }

// keyOf appends to dst the key of request r: everything its answer depends
// on besides the snapshot. transport is the revision the transport gave
// (the HTTP header, or the stdio session's negotiated version), view the
// key of the caller's view if it has one (Host.View; none: everything,
// publicly cacheable).
func keyOf(dst []byte, transport, view string, hasView bool, r *wire.Request) []byte {
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
	if hasView {
		dst = append(dst, 'a')
		dst = append(dst, view...)
	}
	return dst
}

// bufPool holds the buffers answers are put together in.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}
