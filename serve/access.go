package serve

// Per-namespace access: what one caller may read, and the view of the
// catalog that caller is answered from.

import (
	"context"
	"crypto/sha256"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// AllNamespaces is the namespace that, in a token's list, grants every
// namespace.
const AllNamespaces = "*"

// Access is what one caller may read: every namespace, or only those it
// lists. The namespace of a skill, or of any file or folder, is the first
// segment of its path (skill://NS/…): the library namespace, or for an
// un-namespaced library the top folder. A nil *Access reads everything.
type Access struct {
	all bool
	ns  []string // sorted, unique; unused when all
}

// NewAccess returns the access of a caller that may read the namespaces
// ns; AllNamespaces among them grants every namespace. Empty names are
// ignored, and no names grant nothing.
func NewAccess(ns ...string) *Access {
	a := &Access{}
	for _, n := range ns {
		n = strings.TrimSpace(n)
		switch n {
		case "":
		case AllNamespaces:
			return &Access{all: true}
		default:
			a.ns = append(a.ns, n)
		}
	}
	slices.Sort(a.ns)
	a.ns = slices.Compact(a.ns)
	return a
}

// None reports whether a grants no namespace at all.
func (a *Access) None() bool { return a != nil && !a.all && len(a.ns) == 0 }

// All reports whether a grants every namespace.
func (a *Access) All() bool { return a == nil || a.all }

// Namespaces returns the namespaces a grants, or [AllNamespaces].
func (a *Access) Namespaces() []string {
	if a.All() {
		return []string{AllNamespaces}
	}
	return slices.Clone(a.ns)
}

// Allows reports whether a grants the namespace ns.
func (a *Access) Allows(ns string) bool {
	if a.All() {
		return true
	}
	_, ok := slices.BinarySearch(a.ns, ns)
	return ok
}

// AllowsURI reports whether a grants the namespace of a skill:// URI.
func (a *Access) AllowsURI(uri string) bool {
	if a.All() {
		return true
	}
	rest, ok := strings.CutPrefix(uri, manifest.URIScheme)
	if !ok {
		return false
	}
	ns, _, _ := strings.Cut(rest, "/")
	return a.Allows(ns)
}

// key identifies the access among views of one snapshot.
func (a *Access) key() string {
	if a.All() {
		return AllNamespaces
	}
	return strings.Join(a.ns, "\n")
}

// AccessExtra is the key, in auth.TokenInfo.Extra, of the *Access a token
// verifier grants: the HTTP endpoint's verifier sets it, and a request
// that comes with the token is answered from the view of the snapshot that
// access grants.
const AccessExtra = "skills-mcp/access"

type accessKey struct{}

// WithAccess returns a context whose requests are answered as for a caller
// with access a. Over HTTP with authorization, the verified token's access
// is set for every request; without, the caller reads everything.
func WithAccess(ctx context.Context, a *Access) context.Context {
	return context.WithValue(ctx, accessKey{}, a)
}

// accessFrom returns the access of the caller of ctx, nil for everything.
func accessFrom(ctx context.Context) *Access {
	a, _ := ctx.Value(accessKey{}).(*Access)
	return a
}

// AccessOf returns the access a verified token grants (AccessExtra): none
// when its verifier set none.
func AccessOf(ti *auth.TokenInfo) *Access {
	if a, ok := ti.Extra[AccessExtra].(*Access); ok {
		return a
	}
	return NewAccess()
}

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

// maxViews bounds the views kept per snapshot; past it the cache starts
// afresh. Views are keyed by namespace set, so a deployment has as many as
// it has distinct grants.
const maxViews = 256

// viewCache keeps the views of the current snapshot, so that a caller's
// catalog (and the discovery tools' index over it) is built once per
// namespace set, not per request. Views of an older snapshot are dropped
// when a request first sees a new one.
type viewCache struct {
	mu    sync.Mutex
	base  *Snapshot
	views map[string]*Snapshot
}

func (c *viewCache) get(base *Snapshot, a *Access) *Snapshot {
	k := a.key()
	c.mu.Lock()
	if c.base != base || len(c.views) >= maxViews {
		c.base, c.views = base, map[string]*Snapshot{}
	}
	v, ok := c.views[k]
	if !ok {
		v = base.view(a)
		c.views[k] = v
	}
	c.mu.Unlock()
	return v
}

// view returns the snapshot of the skills of s that a grants, numbered in
// the same URI order. Its id differs from s's (cursors of one view are
// refused by another), lookups of other skills find nothing, and its
// libraries are only those a grants.
func (s *Snapshot) view(a *Access) *Snapshot {
	v := &Snapshot{bundles: s.bundles, showDisabled: s.showDisabled, base: s, access: a}
	h := sha256.New()
	h.Write(s.id[:])
	h.Write([]byte("\nview\n" + a.key()))
	h.Sum(v.id[:0])
	var keep []int
	for _, ns := range a.ns {
		prefix := manifest.URIScheme + ns + "/"
		for k := s.Search(prefix); k < s.n && strings.HasPrefix(s.URI(k), prefix); k++ {
			keep = append(keep, k)
		}
	}
	slices.Sort(keep)
	v.n = len(keep)
	v.order = make([]skillRef, len(keep))
	v.pos = make([][]int32, len(s.bundles))
	for b, bu := range s.bundles {
		v.pos[b] = make([]int32, bu.NumSkills())
		for i := range v.pos[b] {
			v.pos[b][i] = -1
		}
	}
	for j, k := range keep {
		r := skillRef{0, int32(k)}
		if s.order != nil {
			r = s.order[k]
		}
		v.order[j] = r
		v.pos[r.b][r.i] = int32(j)
	}
	v.files = make([]atomic.Pointer[skillFiles], v.n)
	return v
}

// allowsLibrary reports whether the caller of snapshot s may see the
// namespaced library ns: every library in a full snapshot; in a view, those
// its access grants. An un-namespaced library is seen through its skills
// (catalog.library).
func (s *Snapshot) allowsLibrary(ns string) bool {
	if s.access.All() {
		return true
	}
	return ns != "" && s.access.Allows(ns)
}

// allowsWithheld reports whether the caller of snapshot s may see withheld
// skill w: by its library's namespace, or for an un-namespaced library by
// the top folder of its path, which is the namespace it would have had.
func (s *Snapshot) allowsWithheld(w manifest.Withheld) bool {
	if s.access.All() || w.Library != "" {
		return s.allowsLibrary(w.Library)
	}
	top, _, _ := strings.Cut(w.Path, "/")
	return s.access.Allows(top)
}
