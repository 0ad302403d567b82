package pull

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
)

// Limits on what a live server sends. The SDK decodes a whole JSON-RPC
// message before pull sees it, so a file cannot be streamed off the wire;
// instead every message is counted as its bytes arrive, and reading stops
// the moment one exceeds its budget. The answer to resources/read for a
// file may take what the file's listed size can take when encoded (see
// answerBudget); any other message DefaultMaxMessage. Stopping in the middle
// of a message ends the connection: JSON-RPC has no way to skip the rest.

// DefaultMaxMessage bounds a message from a live server other than the
// answer to resources/read: listing pages, skills/get, notifications.
const DefaultMaxMessage = 16 << 20

// answerBudget is the most bytes the answer to resources/read for f may
// take on the wire: the file escaped as JSON text (at most 6 bytes per
// byte, \u00XX; base64 takes 4 per 3), its URI likewise, and the envelope.
func answerBudget(f *File) int64 {
	return 6*f.Size + 6*int64(len(f.URI)) + 64<<10
}

// errTooLarge is what a counted reader returns once a message exceeds its
// budget.
var errTooLarge = errors.New("message larger than its budget")

type budgetKey struct{}

// withBudget makes the request sent with ctx expect an answer of at most n
// bytes on the wire.
func withBudget(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, budgetKey{}, n)
}

func budgetOf(ctx context.Context) int64 {
	if n, ok := ctx.Value(budgetKey{}).(int64); ok {
		return n
	}
	return DefaultMaxMessage
}

// wire counts what one connection receives. tripped records the budget
// that was exceeded, for the error pull reports.
type wire struct {
	budget  atomic.Int64 // for the next message on a stream (stdio)
	tripped atomic.Int64
	refused atomic.Pointer[refusedAuth] // the last 401 or 403 (HTTP)
}

// refusedAuth is a 401 or 403 answer: its status and challenge.
type refusedAuth struct {
	status int
	challenge
}

func (w *wire) trip(budget int64) error {
	w.tripped.Store(budget)
	return fmt.Errorf("%w: more than %d bytes", errTooLarge, budget)
}

// counter limits each message of a byte stream. For newline-delimited JSON
// (stdio) a message ends at a newline; for server-sent events at a blank
// line; for a plain JSON body at its end.
type counter struct {
	r       io.Reader
	w       *wire
	budget  func() int64
	lines   bool // messages end at a newline
	sse     bool // messages end at a blank line
	n       int64
	lineLen int  // sse: bytes in the current line
	last    byte // sse: the byte before
}

func (c *counter) Read(p []byte) (int, error) {
	max := c.budget()
	if c.n > max {
		return 0, c.w.trip(max)
	}
	// Read at most one byte past the budget, so that the answer does not
	// depend on how the stream is split into reads: a message that
	// reaches its budget may still end with the next byte.
	if int64(len(p)) > max-c.n+1 {
		p = p[:max-c.n+1]
	}
	n, err := c.r.Read(p)
	for _, b := range p[:n] {
		c.n++
		switch {
		case c.lines:
			if b == '\n' {
				c.n = 0
			}
		case !c.sse:
		case b == '\n' && c.last == '\r': // the second byte of "\r\n"
		case b == '\n' || b == '\r':
			if c.lineLen == 0 {
				c.n = 0 // a blank line ends the event
			}
			c.lineLen = 0
		default:
			c.lineLen++
		}
		c.last = b
	}
	if c.n > max {
		return n, c.w.trip(max)
	}
	return n, err
}

// budgetRoundTripper counts every response body: a POST's against the
// budget of the request it answers, a GET's (the server's own stream)
// against DefaultMaxMessage per event.
type budgetRoundTripper struct {
	base http.RoundTripper
	w    *wire
}

func (b budgetRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		b.w.refused.Store(&refusedAuth{status: resp.StatusCode, challenge: challengeOf(resp)})
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	max := budgetOf(req.Context())
	resp.Body = struct {
		io.Reader
		io.Closer
	}{&counter{r: resp.Body, w: b.w, budget: func() int64 { return max }, sse: mt == "text/event-stream"}, resp.Body}
	return resp, nil
}

// httpTransport is a streamable HTTP client transport whose answers are
// counted.
func httpTransport(endpoint string, client *http.Client, header http.Header, w *wire) *mcp.StreamableClientTransport {
	c := fetch.Client(client, fetch.Policy{Timeout: -1, Idle: -1})
	base := c.Transport
	if len(header) > 0 {
		base = headerRoundTripper{base, header}
	}
	c.Transport = budgetRoundTripper{base, w}
	// The SDK's own cap on an event would refuse large files; the counter
	// above bounds every message instead.
	return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: c, MaxEventSize: -1}
}

// headerRoundTripper adds header to every request.
type headerRoundTripper struct {
	next   http.RoundTripper
	header http.Header
}

func (h headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range h.header {
		r.Header[k] = append([]string(nil), vs...)
	}
	return h.next.RoundTrip(r)
}

// commandTransport runs cmd and talks to it over its stdin and stdout,
// counting each line it prints. Close closes its stdin, and kills it if it
// has not exited a few seconds later.
type commandTransport struct {
	cmd *exec.Cmd
	w   *wire
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: t.cmd, stdin: stdin}
	r := &counter{r: stdout, w: t.w, budget: t.w.budget.Load, lines: true}
	io := &mcp.IOTransport{Reader: readCloser{r, p}, Writer: p, MaxLineLength: -1}
	conn, err := io.Connect(ctx)
	if err != nil {
		p.Close()
		return nil, err
	}
	return &budgetConn{conn, t.w}, nil
}

// budgetConn sets the budget of the next line from the server whenever a
// request goes out: pull sends one request at a time.
type budgetConn struct {
	mcp.Connection
	w *wire
}

func (c *budgetConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.w.budget.Store(budgetOf(ctx))
	}
	return c.Connection.Write(ctx, msg)
}

type readCloser struct {
	io.Reader
	io.Closer
}

// process is a server's stdin; closing it ends the server.
type process struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	once  sync.Once
	err   error
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p *process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case p.err = <-done:
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			p.err = <-done
		}
		var ee *exec.ExitError
		if errors.As(p.err, &ee) {
			p.err = nil // the server's exit status is its own business once pull is done
		}
	})
	return p.err
}
