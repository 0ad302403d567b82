package pull

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// LegacyProtocol is the protocol revision most clients and servers speak
// today, before the stateless 2026-07-28 revision the Go SDK tries first.
const LegacyProtocol = "2025-11-25"

// Defaults for ConnectOptions.
const (
	// DefaultRequestTimeout bounds each request to a live server.
	DefaultRequestTimeout = time.Minute
	// DefaultMaxPages bounds a skills/list walk, so that a server that
	// keeps returning cursors cannot keep pull busy.
	DefaultMaxPages = 1000
)

// ConnectOptions configure Connect.
type ConnectOptions struct {
	// Name is what to call the server in messages (a URL or a command).
	Name string
	// ProtocolVersion forces a protocol revision, such as LegacyProtocol.
	// Empty lets the SDK negotiate: it tries 2026-07-28, then falls back.
	ProtocolVersion string
	// Version is the client version announced to the server.
	Version string
	// RequestTimeout bounds each request (initialize, every skills/list
	// page, skills/get, every resources/read): DefaultRequestTimeout if 0,
	// none if negative. The caller's context bounds the whole pull.
	RequestTimeout time.Duration
	// MaxPages bounds the skills/list pages walked: DefaultMaxPages if 0.
	MaxPages int
	// HTTPClient makes the requests of ConnectHTTP; a fresh one if nil.
	// Either way they go through internal/fetch: the sign-in's requests
	// under all its bounds (idle time, RequestTimeout, DefaultMaxMessage),
	// the MCP server's under its redirect policy, with RequestTimeout and
	// the wire's budgets bounding each answer instead (a server's event
	// stream may rightly stay quiet).
	HTTPClient *http.Client
	// Header is added to every request of ConnectHTTP, such as
	// Authorization: Bearer for a protected server. Its values appear in
	// no error or log.
	Header http.Header
	// OAuth, when set, makes ConnectHTTP sign in when the server answers
	// 401 naming an OAuth authorization server in its Protected Resource
	// Metadata (see OAuthOptions). The connect request may then take the
	// sign-in timeout on top of the request timeout. Header must not hold
	// an Authorization then.
	OAuth *OAuthOptions
}

func (o *ConnectOptions) requestTimeout() time.Duration {
	switch {
	case o.RequestTimeout == 0:
		return DefaultRequestTimeout
	case o.RequestTimeout < 0:
		return 0
	}
	return o.RequestTimeout
}

// ConnectHTTP connects to a server over streamable HTTP (see Connect).
// Every answer is counted as it arrives and refused the moment it is larger
// than it can be: for resources/read, what the file's listed size takes
// encoded; for anything else, DefaultMaxMessage.
func ConnectHTTP(ctx context.Context, endpoint string, opt ConnectOptions) (*Source, error) {
	w := &wire{}
	t := httpTransport(endpoint, opt.HTTPClient, opt.Header, w)
	var si *signIn
	if opt.OAuth != nil {
		if opt.OAuth.Open == nil {
			return nil, fmt.Errorf("server %s: OAuthOptions.Open is required", opt.Name)
		}
		if opt.Header.Get("Authorization") != "" {
			return nil, fmt.Errorf("server %s: an Authorization header and an OAuth sign-in exclude each other", opt.Name)
		}
		// The authorization server's requests carry neither the headers
		// nor the budgets meant for the MCP server.
		c := fetch.Client(opt.HTTPClient, fetch.Policy{Timeout: opt.requestTimeout(), MaxBytes: DefaultMaxMessage})
		si = &signIn{opt: *opt.OAuth, client: c}
		t.OAuthHandler = si
	}
	src, err := connect(ctx, t, w, opt)
	if err != nil && si != nil {
		if serr := si.failure(); serr != nil {
			return nil, fmt.Errorf("server %s: sign-in: %w", opt.Name, serr)
		}
	}
	return src, err
}

// ConnectCommand starts cmd and connects to it over its stdin and stdout
// (see Connect), counting every line it prints as ConnectHTTP counts
// answers. Closing the source closes the server's stdin, and kills it if it
// has not exited five seconds later.
func ConnectCommand(ctx context.Context, cmd *exec.Cmd, opt ConnectOptions) (*Source, error) {
	w := &wire{}
	w.budget.Store(DefaultMaxMessage)
	return connect(ctx, &commandTransport{cmd: cmd, w: w}, w, opt)
}

type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listResult struct {
	mcp.ResultBase
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

type getParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getResult struct {
	mcp.ResultBase
	Skill json.RawMessage `json:"skill"`
}

// Connect opens an MCP session over t and walks skills/list to the end,
// within opt's request timeout and page limit. It refuses a server that does
// not declare the io.modelcontextprotocol/skills extension before calling
// any skills/ method: over HTTP a Go server answers an unknown method in a
// way that ends the session. Entries that are invalid or "dynamic" are
// skipped with a warning. The digests a server lists are unsigned
// (SEP-2640): they prove that the bytes arrived as listed, not who wrote
// them. Messages are counted against their budgets only with ConnectHTTP
// and ConnectCommand: any other transport decodes them out of pull's sight.
func Connect(ctx context.Context, t mcp.Transport, opt ConnectOptions) (*Source, error) {
	return connect(ctx, t, nil, opt)
}

func connect(ctx context.Context, t mcp.Transport, w *wire, opt ConnectOptions) (*Source, error) {
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "skills-mcp-pull", Version: version}, nil)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*listParams, *listResult](client, "skills/list"),
		mcp.AddSendingCustomMethod[*getParams, *getResult](client, "skills/get"),
	} {
		if err != nil {
			return nil, fmt.Errorf("server %s: %w", opt.Name, err)
		}
	}
	lb := &liveBackend{name: opt.Name, timeout: opt.requestTimeout(), wire: w}
	if opt.OAuth != nil && lb.timeout > 0 {
		// The person signs in during the first request.
		lb.timeout += opt.OAuth.timeout()
	}
	rctx, cancel := lb.request(ctx)
	cs, err := client.Connect(rctx, t, &mcp.ClientSessionOptions{ProtocolVersion: opt.ProtocolVersion})
	err = lb.explain(rctx, err)
	cancel()
	lb.timeout = opt.requestTimeout()
	if err != nil {
		return nil, fmt.Errorf("server %s: connect: %w%s", opt.Name, err, w.authHint(opt.OAuth != nil))
	}
	lb.cs = cs
	maxPages := opt.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	src := &Source{Name: opt.Name, Kind: "server", back: lb}
	if err := src.list(ctx, lb, maxPages); err != nil {
		cs.Close()
		return nil, err
	}
	return src, nil
}

// errRequestTimeout is the cause of a request's context when the request
// timeout ran out.
type errRequestTimeout time.Duration

func (e errRequestTimeout) Error() string {
	return fmt.Sprintf("no answer within %v (the request timeout)", time.Duration(e))
}

// request returns the context for one request: ctx with the request
// timeout.
func (lb *liveBackend) request(ctx context.Context) (context.Context, context.CancelFunc) {
	if lb.timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, lb.timeout, errRequestTimeout(lb.timeout))
}

// explain replaces the error of a request that timed out, was cancelled
// or whose answer was too large with one that says so.
func (lb *liveBackend) explain(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if lb.wire != nil {
		if n := lb.wire.tripped.Load(); n > 0 {
			return fmt.Errorf("the server sent more than %d bytes for one message; reading stopped there, and the connection with it", n)
		}
	}
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	return err
}

// authHint explains a connection refused with 401 or 403, if it was: what
// the server said, and, with no sign-in asked for, how to get in.
func (w *wire) authHint(signingIn bool) string {
	if w == nil {
		return ""
	}
	r := w.refused.Load()
	switch {
	case r == nil:
		return ""
	case r.code != "":
		return fmt.Sprintf(" (the server refused the token: %d%s)", r.status, r.describe())
	case r.status != http.StatusUnauthorized || signingIn:
		return ""
	case r.metadata:
		return " (the server requires a bearer token: give one with SKILLS_PULL_TOKEN or --header, or sign in with --oauth)"
	}
	return " (the server requires a bearer token: give one with SKILLS_PULL_TOKEN or --header)"
}

func (s *Source) list(ctx context.Context, lb *liveBackend, maxPages int) error {
	cs := lb.cs
	init := cs.InitializeResult()
	if init == nil || init.Capabilities == nil || init.Capabilities.Extensions[manifest.ExtensionName] == nil {
		return fmt.Errorf("server %s does not declare the %s extension: it serves no skills/list (SEP-2640)", s.Name, manifest.ExtensionName)
	}
	seenCursor := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return fmt.Errorf("server %s: skills/list: still returning a cursor after %d pages (the page limit)", s.Name, maxPages)
		}
		rctx, cancel := lb.request(ctx)
		res, err := mcp.CallCustomMethod[*listParams, *listResult](rctx, cs, "skills/list", &listParams{Cursor: cursor})
		err = lb.explain(rctx, err)
		cancel()
		if err != nil {
			return fmt.Errorf("server %s: skills/list: %w", s.Name, err)
		}
		for _, raw := range res.Skills {
			sk, err := parseEntry(raw)
			if err != nil {
				var e struct{ URI string }
				json.Unmarshal(raw, &e)
				s.refuse(e.URI, err)
				continue
			}
			s.Skills = append(s.Skills, sk)
		}
		if res.NextCursor == "" {
			break
		}
		if seenCursor[res.NextCursor] {
			return fmt.Errorf("server %s: skills/list: cursor %q came back twice", s.Name, short(res.NextCursor))
		}
		seenCursor[res.NextCursor] = true
		cursor = res.NextCursor
	}
	slices.SortFunc(s.Skills, func(a, b *Skill) int { return strings.Compare(a.URI, b.URI) })
	for i := 1; i < len(s.Skills); i++ {
		if s.Skills[i].URI == s.Skills[i-1].URI {
			return fmt.Errorf("server %s: skills/list lists %s twice", s.Name, s.Skills[i].URI)
		}
	}
	return nil
}

type liveBackend struct {
	cs      *mcp.ClientSession
	name    string
	timeout time.Duration // per request; 0 for none
	wire    *wire         // counts what arrives; nil for other transports
}

func (lb *liveBackend) open(ctx context.Context, f *File) (io.ReadCloser, error) {
	if lb.wire != nil && lb.wire.tripped.Load() > 0 {
		return nil, fmt.Errorf("resources/read %s: not sent: the connection ended after an answer larger than its budget", f.URI)
	}
	budget := answerBudget(f)
	rctx, cancel := lb.request(withBudget(ctx, budget))
	defer cancel()
	res, err := lb.cs.ReadResource(rctx, &mcp.ReadResourceParams{URI: f.URI})
	if err != nil {
		if lb.wire != nil && lb.wire.tripped.Load() == budget {
			return nil, fmt.Errorf("size mismatch: the listing says %d bytes, the server sent more than the %d bytes those take encoded; reading stopped there, and the connection with it", f.Size, budget)
		}
		return nil, fmt.Errorf("resources/read %s: %w", f.URI, lb.explain(rctx, err))
	}
	if len(res.Contents) == 0 || res.Contents[0] == nil {
		return nil, fmt.Errorf("resources/read %s: no contents", f.URI)
	}
	c := res.Contents[0]
	if c.URI != f.URI {
		return nil, fmt.Errorf("resources/read %s: answered for %q", f.URI, short(c.URI))
	}
	if c.Blob != nil {
		return io.NopCloser(bytes.NewReader(c.Blob)), nil
	}
	return io.NopCloser(strings.NewReader(c.Text)), nil
}

func (lb *liveBackend) get(ctx context.Context, uri string) (*Skill, error) {
	rctx, cancel := lb.request(ctx)
	defer cancel()
	res, err := mcp.CallCustomMethod[*getParams, *getResult](rctx, lb.cs, "skills/get", &getParams{URI: uri})
	err = lb.explain(rctx, err)
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams {
			return nil, fmt.Errorf("server %s: skills/get %s: %w: %s", lb.name, uri, ErrNotFound, je.Message)
		}
		return nil, fmt.Errorf("server %s: skills/get %s: %w", lb.name, uri, err)
	}
	sk, err := parseEntry(res.Skill)
	if err != nil {
		return nil, err
	}
	if sk.URI != uri {
		return nil, fmt.Errorf("server %s: skills/get %s: answered with %s", lb.name, uri, sk.URI)
	}
	return sk, nil
}

func (lb *liveBackend) close() error { return lb.cs.Close() }
