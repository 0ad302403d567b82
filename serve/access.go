package serve

// Per-namespace access: what one caller may read (its view of the catalog
// is view.go).

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
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
