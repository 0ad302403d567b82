package serve

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/answers"
)

// Defaults for Options.
const (
	// DefaultName is the server name announced when Options.Name is empty.
	DefaultName = "skills-mcp"
	// DefaultPageSize is the number of skills in a skills/list page (and of
	// items in a resources/list or resources/directory/read page) when
	// Options.PageSize is 0: the reference server's skills/list page. A skill
	// entry is typically 0.3–2 KiB, so a page is some 15–100 KiB. The SDK
	// checks a page's JSON twice on its way out, and that, not our handler,
	// is most of a page's cost: about 0.5 ms of server CPU for 50 entries of
	// 600 bytes, 1 ms for 100. A 10,000-skill catalog lists in 200 round
	// trips.
	DefaultPageSize = 50
	// CacheTTL is the ttlMs hint on every cacheable result. A served bundle
	// never changes; the catalog changes only when the server swaps bundles
	// (a new release), and a host that holds a stale entry finds out when a
	// digest no longer matches. One hour bounds how long a host may keep an
	// old listing after a release.
	CacheTTL = time.Hour
	// CacheScope is the cacheScope hint on every cacheable result: the
	// catalog is the same for every client, so shared caches may keep it.
	CacheScope = "public"
)

// maxPageBytes caps the entry bytes in one skills/list page, so that a page
// of very large entries (512 files each) stays far below the 16 MiB line
// limit of stdio transports. A page always holds at least one entry.
const maxPageBytes = 4 << 20

// Options configure a Server. The zero value serves with the defaults.
type Options struct {
	Name         string       // server name (serverInfo.name); DefaultName if empty
	Title        string       // human-readable server title (serverInfo.title)
	Version      string       // server version (serverInfo.version); "dev" if empty
	ShowDisabled bool         // list hidden skills (disable-model-invocation) too
	PageSize     int          // items per page of skills/list and resources lists; DefaultPageSize if 0
	Instructions string       // instructions for the client, sent at initialization; built from the catalog if empty
	Logger       *slog.Logger // where the server logs; discarded if nil

	// Discovery tools (tools.go).
	Prefix         string                          // tool name prefix; Name with - → _ if empty
	DescribeSkills bool                            // list the skills in get_skill's description (capped at MaxDescribeBytes)
	Refresh        func(context.Context) error     // reloads live libraries or followed releases for catalog_status refresh=true, called for every such call: it must share and space its runs itself (package live's Gate); nil: fixed bundles
	LiveStatus     func() LiveStatus               // the live libraries' watch and scan state for catalog_status; nil: fixed bundles
	SignedBy       func(*manifest.Bundle) []string // trusted keys whose signatures on a bundle verified (--trust); nil: not checked

	// Per-skill prompts (prompts.go) and the catalog in the instructions (instructions.go).
	PromptLimit int         // one prompt per skill while a session sees at most this many; DefaultPromptLimit if 0; negative: none
	Catalog     CatalogMode // list the skills in the instructions: CatalogAuto if empty, CatalogAlways or CatalogNever

	// AnswerBytes is the byte budget of the pre-encoded answers
	// (package answers); DefaultAnswerBytes if 0, negative: none kept.
	AnswerBytes int
}

// Server serves a catalog of bundles over MCP with the SEP-2640 Skills
// extension. It is safe for concurrent use; one Server serves any number of
// sessions over stdio and HTTP.
type Server struct {
	mcp      *mcp.Server
	log      *slog.Logger
	sdkLog   *slog.Logger // log, warn level and up, for the SDK
	pageSize int
	show     bool
	snap     atomic.Pointer[Snapshot]

	swapMu    sync.Mutex                   // serializes Swap
	subsMu    sync.Mutex                   // guards subs
	subs      map[string]struct{}          // resource URIs clients subscribed to
	afterSwap []func(old, next *Snapshot)  // run by Swap after a change, under swapMu
	discovery *discovery                   // the discovery tools and prompt (tools.go)
	views     viewCache                    // per-namespace views of the current snapshot (access.go)
	calls     atomic.Pointer[CallObserver] // learns of each call (ObserveCalls); nil: nothing does
	answers   *answers.Answers[*Snapshot]  // pre-encoded answers of the current snapshot (answerhost.go); nil: none
	usage     usageState                   // who learns of each skill use (ObserveUsage, usage.go)
	verify    verification                 // Verified (serve.go)
}

// verification is what Server.Verified (serve.go) waits for, once.
type verification struct {
	once    sync.Once
	pending []*manifest.Bundle // the bundles of New
	served  func()             // logs that they are served
	err     error
}

func (s *Server) cacheable() mcp.Cacheable {
	return mcp.Cacheable{TTLMs: int(CacheTTL / time.Millisecond), CacheScope: CacheScope}
}

// MCP returns the underlying SDK server, for adding tools and prompts.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Snapshot returns the catalog being served now. It never changes; a Swap
// installs a new one.
func (s *Server) Snapshot() *Snapshot { return s.snap.Load() }

// logMiddleware logs every request at debug level, and failures other than
// refused input (-32602), such as an unreadable bundle, at error level.
func (s *Server) logMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		start := time.Now()
		res, err := next(ctx, method, req)
		var jerr *jsonrpc.Error
		switch {
		case err != nil && (!errors.As(err, &jerr) || jerr.Code != jsonrpc.CodeInvalidParams):
			s.log.Error("request failed", "method", method, "err", err)
		case s.log.Enabled(ctx, slog.LevelDebug):
			s.log.Debug("request", "method", method, "took", time.Since(start), "err", err)
		}
		return res, err
	}
}

// warnOnly passes the SDK's own log records on only from warn level up: its
// info records (one per session and subscription) would drown ours.
type warnOnly struct{ slog.Handler }

func (h warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}
func (h warnOnly) WithAttrs(a []slog.Attr) slog.Handler { return warnOnly{h.Handler.WithAttrs(a)} }
func (h warnOnly) WithGroup(n string) slog.Handler      { return warnOnly{h.Handler.WithGroup(n)} }

// accessMiddleware sets, for a request that came with a verified bearer
// token, the token's access in the context every handler gets, and tells
// the CallObserver (ObserveCalls) the method and the outcome, for the
// access line and metrics of an HTTP request. It is the outermost receiving
// middleware, so nothing answers before it.
func (s *Server) accessMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
			ctx = WithAccess(ctx, AccessOf(ex.TokenInfo))
		}
		// Not for a notification, which runs after its request was answered
		// (202) and logged.
		o := s.calls.Load()
		if o == nil || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		(*o).Call(ctx, method)
		res, err := next(ctx, method, req)
		(*o).Answered(ctx, err)
		return res, err
	}
}

// snapshotFor returns the catalog the caller of ctx is answered from: the
// current snapshot, or its view restricted to the caller's namespaces.
func (s *Server) snapshotFor(ctx context.Context) *Snapshot {
	base := s.snap.Load()
	a := accessFrom(ctx)
	if a.All() {
		return base
	}
	return s.views.get(base, a)
}

// cacheableFor is the caching hint of a result for the caller of ctx: public
// when every caller gets the same answer, private when it depends on the
// caller's token.
func (s *Server) cacheableFor(ctx context.Context) mcp.Cacheable {
	c := s.cacheable()
	if ctx != nil && accessFrom(ctx) != nil {
		c.CacheScope = "private"
	}
	return c
}

// CallObserver learns the method and the outcome of each call the server
// answers (not notifications): the HTTP endpoint's access log and metrics.
// Both methods get the context the call's handlers get, so an observer
// finds there what it put on the HTTP request.
type CallObserver interface {
	// Call is called before the call's handlers run.
	Call(ctx context.Context, method string)
	// Answered is called when they return, with their error (nil: a
	// result). It may come after the HTTP request ended, for a stream.
	Answered(ctx context.Context, err error)
}

// CatalogMode says whether the instructions list the skills.
type CatalogMode string

// Catalog modes.
const (
	// CatalogAuto lists every skill a session may see, path and first
	// sentence of its description, while the list fits MaxCatalogBytes;
	// otherwise it gives the number of skills and their categories with
	// counts, and says to search.
	CatalogAuto CatalogMode = "auto"
	// CatalogAlways lists every skill, whatever the size.
	CatalogAlways CatalogMode = "always"
	// CatalogNever lists none.
	CatalogNever CatalogMode = "never"
)

// discovery serves the tools, the use-skill prompt, argument completion and
// the default instructions of one Server.
type discovery struct {
	srv          *Server
	name         string // server name, in provenance lines
	title        string
	prefix       string
	describe     bool
	showDisabled bool
	instructions string                      // Options.Instructions; "" means built from the catalog
	refresh      func(context.Context) error // nil: fixed bundles
	liveStatus   func() LiveStatus
	signedBy     func(*manifest.Bundle) []string
	promptLimit  int         // per-skill prompts for at most this many skills; negative: none
	promptsMove  bool        // promptsChange: the per-skill prompts can change
	catalogMode  CatalogMode // the catalog in the instructions

	// register adds the tools and the prompt to the SDK server, once. A
	// server whose tools never change (toolsChange) does it on the first
	// request about tools or prompts (see middleware), not in New: some
	// 0.5 ms of a fresh process (the SDK decodes each schema as a tool is
	// added) that a host waiting for its first skills/list need not wait
	// for. Adding them then notifies no one, as the server declares its tool
	// and prompt lists fixed. Any other registers them at once, and re-adds
	// get_skill when its description changes (describeChanged), which
	// notifies sessions.
	register       func()
	registerPrompt func() // adds use-skill, once

	getSkillTool *mcp.Tool                  // as registered
	toolTypes    map[string][2]reflect.Type // tool name without the prefix → its input and output types

	mu  sync.Mutex
	cat *catalog // of the newest snapshot seen
}
