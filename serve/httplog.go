package serve

// What the HTTP layers learn about a request, for its access log line.

import "context"

// reqInfo is filled in by the layers a request goes through: the token's
// name by authorization, the refusal reason when refused.
type reqInfo struct {
	token     string
	authFail  string
	limit     string // the limit that refused it
	mcpMethod string // the JSON-RPC method, set by accessMiddleware
}

type reqInfoKey struct{}

// infoFrom returns the reqInfo of a request's context, or nil.
func infoFrom(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(reqInfoKey{}).(*reqInfo)
	return ri
}
