// Package teamserver is the HTTP endpoint of a skills server for teams: it
// wraps the MCP handler a serve.Server provides (serve.Server.MCPHandler)
// in what a shared deployment needs, and nothing of MCP itself.
//
//   - Handler and ListenAndServe: MCP at Endpoint (/mcp), beside the Agent
//     Skills discovery site below /.well-known/agent-skills/ (wellknown.go),
//     the Protected Resource Metadata (ProtectedResourcePath), MetricsPath,
//     HealthPath and ReadyPath (http.go).
//   - Host and origin policy: the Host header, and the Origin header when
//     present, must name a loopback host or one of Options.AllowedHosts,
//     else 403 with no body; this replaces the SDK's own DNS rebinding
//     check, which has no allow-list. Health and readiness skip it, for
//     probes by address.
//   - Authorization (auth.go): with an Authorizer the endpoint is an OAuth
//     2.1 resource server: static bearer tokens from a file of hashes
//     (tokens.go) and JWT access tokens of one issuer (oauth.go), a 401
//     challenge that points at the Protected Resource Metadata (RFC 9728,
//     RFC 6750), and 403 for a token that may read nothing.
//   - Hard limits (limits.go): timeouts, connection caps, body and header
//     sizes, a shared budget for large bodies, a request rate per token.
//   - Operations (metrics.go, httplog.go): Prometheus metrics on a registry
//     of their own, one access-log line per request, /healthz and /readyz.
//
// # Invariants
//
//   - The endpoint's one output to serve is the caller's namespaces: a
//     verified token's auth.TokenInfo carries a *serve.Access under
//     serve.AccessExtra, and serve answers the request from that view. A
//     request without a valid token never reaches serve's handler when
//     authorization is on.
//   - What serve tells the endpoint (each call's method and outcome, for
//     the access line and the metrics) comes through the serve.CallObserver
//     the endpoint installs (callObserver): serve never imports this
//     package, its metrics or the JWT library.
//   - Metric labels come only from bounded sets (HTTP methods, the MCP
//     methods the server dispatched or a fixed set of client
//     notifications, status codes, JSON-RPC result classes, refusal
//     reasons), so no client can make a new series.
//   - A token is never logged or counted: only its name (the token file's
//     name, or oauth:SUBJECT).
//   - Binding anything but a loopback address requires authorization or
//     Options.NoAuth; binding every interface requires AllowedHosts.
package teamserver
