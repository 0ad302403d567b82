package answers

// Pre-encoded answers over stdio: the reader answers a line it
// recognises from the kept answers, and the writer keeps the SDK's answer
// to the first line of each key.

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// stdioFast is the state of the pre-encoded answers of one stdio session.
//
// An answer over stdio depends on the session too: the revision it
// negotiated (or the first 2026-07-28 request set), which the SDK keeps in
// the session's InitializeParams. The key holds that revision and the
// identity of those params, and nothing is answered before they are set,
// or at all once a second initialize was seen (it could change them under
// lines already read).
type stdioFast[S comparable] struct {
	a      *Answers[S]
	ctx    context.Context // the session's context: the caller's access
	ss     atomic.Pointer[mcp.ServerSession]
	reinit bool // a second initialize line was read: no more answers

	inits int // initialize lines read (by the reader goroutine only)

	mu      sync.Mutex
	pending map[string]*stdioCapture[S] // id key (see idKey) → the capture of its answer; nil: two in flight, keep none
}

// stdioCapture is what is needed to keep an answer when the SDK writes it.
type stdioCapture[S comparable] struct {
	base S
	key  []byte
	id   []byte
}

// Answer answers line from the kept answers and reports whether it did;
// else, for a line it recognises, it arranges for the SDK's answer to be
// kept. It runs in the reader before the line goes to the SDK; idk is the
// key of the line's id (idKey), "" for none.
func (f *stdioFast[S]) Answer(line []byte, idk string, w *wire.Writer) bool {
	c, answered := f.lookup(line, w)
	if !answered && idk != "" {
		f.expect(idk, c, w)
	}
	return answered
}

// expect arranges for the SDK's next answer under the id idk to be kept
// by c (nil: not kept). An answer is only known by its id, so while
// another request with that id is owed an answer or has its capture
// pending (a client's mistake: JSON-RPC forbids it), no answer under it
// is kept, not c's nor the other's: either could be written first, and a
// ping's result kept as a resources/read's would be served for it.
func (f *stdioFast[S]) expect(idk string, c *stdioCapture[S], w *wire.Writer) {
	owed := w.Owes(idk) // before f.mu: Write holds w.mu while it takes f.mu
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, pending := f.pending[idk]; pending || owed {
		f.pending[idk] = nil
	} else if c != nil {
		f.pending[idk] = c
	}
}

// lookup answers line from the kept answers if it can (answered); else it
// returns the capture that would keep the SDK's answer to it, nil for a
// line that is not recognised or whose answer is not kept.
func (f *stdioFast[S]) lookup(line []byte, w *wire.Writer) (c *stdioCapture[S], answered bool) {
	if hasInitialize(line) {
		if f.inits++; f.inits > 1 {
			f.reinit = true
		}
		return nil, false
	}
	ss := f.ss.Load()
	if f.reinit || ss == nil {
		return nil, false
	}
	q, ok := wire.Recognise(line)
	if !ok {
		return nil, false
	}
	ip := ss.InitializeParams()
	if ip == nil {
		return nil, false
	}
	a := f.a
	base, ok := a.host.Current()
	if !ok {
		return nil, false
	}
	start := time.Now()
	session := fmt.Appendf(nil, "stdio %s %p", ip.ProtocolVersion, ip)
	view, hasView := a.host.View(f.ctx)
	key := keyOf(nil, string(session), view, hasView, &q)
	if tail, ok := a.cache.get(base, key); ok {
		out := wire.Append(nil, q.ID, tail)
		w.WriteRaw(out)
		a.host.Answered(f.ctx, base, &q, ip.ProtocolVersion, start)
		return nil, true
	}
	return &stdioCapture[S]{base: base, key: key, id: q.ID}, false
}

// hasInitialize reports whether line may be an initialize request: it
// holds the method's name as a JSON string (an over-estimate that costs a
// session only its pre-encoded answers).
func hasInitialize(line []byte) bool {
	const m = `"initialize"`
	for i := 0; i+len(m) <= len(line); i++ {
		if line[i] == '"' && string(line[i:i+len(m)]) == m {
			return true
		}
	}
	return false
}

// Written keeps the SDK's answer p (one message, its newline included) if
// it answers a request whose capture is pending. idk is its id's key.
func (f *stdioFast[S]) Written(idk string, p []byte) {
	f.mu.Lock()
	c, ok := f.pending[idk]
	if ok {
		delete(f.pending, idk)
	}
	f.mu.Unlock()
	if now, _ := f.a.host.Current(); c == nil || now != c.base {
		return
	}
	if tail := wire.Tail(p, c.id); tail != nil {
		f.a.cache.put(c.base, c.key, append([]byte(nil), tail...))
	}
}

// ServeStdio serves one session of sdk over in and out, with the answers,
// until the client closes in or ctx is cancelled (see wire.NewStdio).
func (a *Answers[S]) ServeStdio(ctx context.Context, sdk *mcp.Server, in io.Reader, out io.Writer) error {
	f := &stdioFast[S]{a: a, ctx: ctx, pending: map[string]*stdioCapture[S]{}}
	t := wire.NewStdio(in, out, f)
	ss, err := sdk.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	f.ss.Store(ss)
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}
