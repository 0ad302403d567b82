package serve

// Views: the catalog one caller is answered from, a snapshot restricted to
// the namespaces its Access grants, kept per namespace set.

import (
	"crypto/sha256"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// maxViews bounds the views kept per snapshot; past it the cache starts
// afresh. Views are keyed by namespace set, so a deployment has as many as
// it has distinct grants.
const maxViews = 256

// viewCache keeps the views of the current snapshot, so that a caller's
// catalog (and the discovery tools' index over it) is built once per
// namespace set, not per request. Swap drops them (reset); a view of an
// older snapshot a request still made is dropped when a request first sees
// the new one.
type viewCache struct {
	mu    sync.Mutex
	base  *Snapshot
	views map[string]*Snapshot
}

// reset drops the views, for Swap: they hold their base snapshot, and with
// it the bundles a swap replaced, until the next request with an access
// would have noticed.
func (c *viewCache) reset() {
	c.mu.Lock()
	c.base, c.views = nil, nil
	c.mu.Unlock()
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
