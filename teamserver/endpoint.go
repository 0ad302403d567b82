package teamserver

// What the endpoint's files share: its paths, the state of one endpoint
// around a serve.Server, and the health and readiness answers.

import (
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/serve"
)

// Endpoint is the HTTP path of MCP; a path Handler does not serve is 404.
const Endpoint = "/mcp"

// server is the endpoint around one serve.Server: what its handlers share.
type server struct {
	mcp      *serve.Server
	log      *slog.Logger // the serve.Server's
	unready  atomic.Bool  // /readyz answers 503, and said why in the log
	draining atomic.Bool  // shutting down: /readyz answers 503 until the end
}

func wrapServer(srv *serve.Server) *server { return &server{mcp: srv, log: srv.Logger()} }

// Health and metrics paths. /healthz and /readyz are answered outside
// authorization and the host check, for load balancers that probe by
// address; they tell nothing about the catalog.
const (
	HealthPath  = "/healthz"
	ReadyPath   = "/readyz"
	MetricsPath = "/metrics"
)

// health answers /healthz: the process is alive and serving.
func health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// ready answers /readyz: the server is not shutting down, the catalog is loaded (bundles mapped, live
// libraries built once, which serve.New and live.New do before a server exists)
// and no served bundle file has changed under its mapping, which it checks
// with one fstat a bundle. Losing readiness is logged once, with the file.
func (s *server) ready(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: shutting down\n"))
		return
	}
	if err := s.mcp.Snapshot().Changed(); err != nil {
		if s.unready.CompareAndSwap(false, true) {
			s.log.Warn("not ready: a served bundle file changed under the server", "err", err)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: a bundle file changed under the server\n"))
		return
	}
	if s.unready.Load() {
		s.unready.Store(false)
	}
	_, _ = w.Write([]byte("ready\n"))
}

// ProtectedResourcePath is where the Protected Resource Metadata of
// Endpoint is served (RFC 9728 §3.1: the well-known prefix inserted before
// the resource's path); it is also served without the path suffix.
const ProtectedResourcePath = "/.well-known/oauth-protected-resource"
