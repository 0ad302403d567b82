package teamserver

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// Cache-Control of a well-known site's files: artifacts are named by their
// digest and never change; the index, the manifest and signatures keep
// their URL across releases, so caches must ask again (a 304 is cheap).
const (
	ArtifactCacheControl = "public, max-age=31536000, immutable"
	IndexCacheControl    = "public, no-cache"
)

// wellKnownAccess returns which namespaces (the first segment of a skill
// path, see wellknown.Namespace) the client of r may see, or nil for all of
// them: under authorization, those of its token, by the rule MCP answers it
// by (serve.Access), so an un-namespaced library's skills are listed by their
// top folders as they are served.
func (s *server) wellKnownAccess(r *http.Request) func(namespace string) bool {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return nil
	}
	a := serve.AccessOf(ti)
	if a.All() {
		return nil
	}
	return a.Allows
}

// serveWellKnown answers GET and HEAD below /.well-known/agent-skills/:
// the index and every artifact of the current snapshot's site, with ETag
// the quoted digest, If-None-Match → 304, and byte ranges (http.ServeContent).
// A client that may read only some namespaces is answered from its view of
// the site (wellknown.View): its skills alone, named over them alone.
func (s *server) serveWellKnown(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	site, err := s.mcp.Snapshot().Site()
	if err != nil {
		s.log.Error("well-known site", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	lookup := site.Lookup
	allow := s.wellKnownAccess(r)
	if allow != nil {
		v, err := site.View(allow)
		if err != nil {
			s.log.Error("well-known site", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		lookup = v.Lookup
	}
	f, ok := lookup(strings.TrimPrefix(r.URL.Path, wellknown.Dir))
	if !ok {
		http.NotFound(w, r)
		return
	}
	data, err := f.Bytes()
	if err != nil {
		s.log.Error("well-known site", "path", f.Path, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("ETag", `"`+f.Digest.String()+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	switch {
	case f.Immutable && auth.TokenInfoFromContext(r.Context()) != nil:
		// Behind authorization no shared cache may keep it: "public" would
		// let one serve it to a client without a token.
		h.Set("Cache-Control", "private, max-age=31536000, immutable")
	case f.Immutable:
		h.Set("Cache-Control", ArtifactCacheControl)
	case allow != nil:
		h.Set("Cache-Control", "private, no-cache")
	default:
		h.Set("Cache-Control", IndexCacheControl)
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}
