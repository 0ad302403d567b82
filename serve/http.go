package serve

// The MCP surface over streamable HTTP: the handler the HTTP endpoint
// (package teamserver) mounts, and what it learns of each call.

import (
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPHandler returns the streamable HTTP handler of MCP, in stateless mode:
// every POST is answered on its own, so both protocol revisions work
// (2026-07-28 is stateless by design, and 2025-11-25 clients are answered
// without a session) and replicas behind any load balancer serve the same
// answers. maxBodyBytes caps a request body (negative: no cap).
//
// A request is answered with one application/json body, not an event
// stream: no handler sends a notification within a request (no progress,
// no log), so the stream would only ever carry the response, at the cost of
// an extra write and its framing. subscriptions/listen still streams (the
// SDK always answers it with an event stream).
//
// The SDK's own localhost protection is off: the endpoint in front
// (teamserver) checks the Host and Origin headers against its allow-list.
// It answers any path; the endpoint mounts it at its MCP path.
//
// Unless Options.AnswerBytes is negative, the requests whose answers never
// change (resources/read, skills/get, skills/list and
// resources/directory/read, package answers) are answered, from the second of a
// kind on, with the bytes the SDK answered the first.
func (s *Server) MCPHandler(maxBodyBytes int64) http.Handler {
	sdk := s.sdkHandler(maxBodyBytes)
	if s.answers == nil {
		return sdk
	}
	return s.answers.Handler(sdk, maxBodyBytes)
}

// sdkHandler is the SDK's stateless streamable HTTP handler of s.
func (s *Server) sdkHandler(maxBodyBytes int64) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		DisableLocalhostProtection: true,
		Logger:                     s.sdkLog,
		MaxRequestBodyBytes:        maxBodyBytes,
	})
}

// ObserveCalls makes o learn of every call from now on; nil stops it.
func (s *Server) ObserveCalls(o CallObserver) {
	if o == nil {
		s.calls.Store(nil)
		return
	}
	s.calls.Store(&o)
}

// Logger returns the logger of the server (Options.Logger), for the layers
// in front of it to log to the same place.
func (s *Server) Logger() *slog.Logger { return s.log }
