package teamserver

// Authorization of the HTTP endpoint, as the MCP authorization spec has it:
// the server is an OAuth 2.1 resource server. It publishes its Protected
// Resource Metadata (RFC 9728), answers a request without a valid bearer
// token 401 with a WWW-Authenticate challenge pointing at that metadata
// (RFC 6750), and a valid token that may read nothing 403. The verified
// token reaches the MCP handlers through the Go SDK (auth.RequireBearerToken
// puts its TokenInfo on the request), where serve turns it into the
// caller's namespaces (serve.AccessExtra).

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/serve"
)

// AuthOptions configure the authorization of the HTTP endpoint. At least
// one of TokenFile and Issuer must be set.
type AuthOptions struct {
	// TokenFile is a file of static bearer tokens (see readTokenFile), read
	// at start and by ReloadTokens.
	TokenFile string
	// Issuer is the OAuth authorization server whose JWT access tokens
	// (RFC 9068) are accepted, and Audience the resource identifier they
	// must carry in aud. NamespacesClaim names the claim that lists the
	// readable namespaces; "" or "scope" means the scope values skills:NS.
	Issuer, Audience, NamespacesClaim string
	// HTTPClient fetches the issuer's metadata and keys; nil: a client with
	// a 10 second timeout. The issuer is the operator's choice, so private
	// addresses are allowed.
	HTTPClient *http.Client
	// Logger receives a line for every refused token, with the reason.
	Logger *slog.Logger
}

// Authorizer checks the bearer tokens of HTTP requests. It is safe for
// concurrent use.
type Authorizer struct {
	opt    AuthOptions
	log    *slog.Logger
	tokens atomic.Pointer[tokenTable]
	oauth  *oauthVerifier
	fail   func(reason string) // counts refusals (metrics); nil: none
}

// NewAuthorizer reads the token file and finds the issuer's metadata and
// keys, as the options say; any failure is an error naming the file or URL.
func NewAuthorizer(ctx context.Context, opt AuthOptions) (*Authorizer, error) {
	if opt.TokenFile == "" && opt.Issuer == "" {
		return nil, fmt.Errorf("serve: authorization needs a token file or an OAuth issuer")
	}
	a := &Authorizer{opt: opt, log: opt.Logger}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if opt.TokenFile != "" {
		t, err := readTokenFile(opt.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("serve: %w", err)
		}
		a.tokens.Store(t)
	}
	if opt.Issuer != "" {
		base := opt.HTTPClient
		if base == nil {
			// A dialer of our own: the SDK's discovery client refuses private
			// addresses unless the caller dials itself.
			base = &http.Client{Transport: &http.Transport{
				Proxy: http.ProxyFromEnvironment, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
				TLSHandshakeTimeout: 5 * time.Second, MaxIdleConns: 4,
			}}
		}
		// Issuer discovery and the key set go through the one bounded
		// client: idle time, 10 s per request, 1 MiB per answer.
		client := fetch.Client(base, fetch.Policy{Timeout: 10 * time.Second, MaxBytes: 1 << 20})
		o, err := newOAuthVerifier(ctx, opt.Issuer, opt.Audience, opt.NamespacesClaim, client)
		if err != nil {
			return nil, fmt.Errorf("serve: %w", err)
		}
		o.keys.log = a.log
		a.oauth = o
	}
	return a, nil
}

// ReloadTokens re-reads the token file. If it cannot be read or is
// malformed, the tokens read before stay in force and the error says why.
func (a *Authorizer) ReloadTokens() error {
	if a.opt.TokenFile == "" {
		return nil
	}
	t, err := readTokenFile(a.opt.TokenFile)
	if err != nil {
		return fmt.Errorf("serve: %w (the previous tokens stay in force)", err)
	}
	a.tokens.Store(t)
	a.log.Info("token file reloaded", "file", a.opt.TokenFile, "tokens", len(t.tokens))
	return nil
}

// verify checks a bearer token: first against the token file, then, when it
// has the form of a JWT, as an access token of the issuer.
func (a *Authorizer) verify(ctx context.Context, raw string) (*auth.TokenInfo, *authError) {
	if t := a.tokens.Load(); t != nil {
		if st, ok := t.lookup(raw); ok {
			return st.info, nil
		}
	}
	if a.oauth != nil && strings.Count(raw, ".") == 2 {
		return a.oauth.verify(ctx, raw)
	}
	return nil, invalidToken("unknown_token", "the token is not known")
}

// bearerToken returns the token of an Authorization: Bearer header: two
// fields, as strings.Fields splits them, the first "bearer" in any case.
func bearerToken(r *http.Request) (string, bool) {
	scheme, rest := nextField(r.Header.Get("Authorization"))
	tok, rest := nextField(rest)
	if tok == "" || rest != "" || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	return tok, true
}

// nextField returns the first field of s, as strings.Fields splits it, and
// what follows it with the white space before the next field trimmed.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeftFunc(s[i:], unicode.IsSpace)
}

// wrap returns next behind authorization: a request without a valid token
// is answered 401 (403 for a token that may read nothing) with the
// challenge, and logged with the reason; a valid one reaches next with its
// TokenInfo, set by the SDK's RequireBearerToken.
func (a *Authorizer) wrap(next http.Handler) http.Handler {
	sdk := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		if ri := infoFrom(r.Context()); ri != nil && ri.verified != nil {
			return ri.verified, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: clockSkew})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := infoFrom(r.Context())
		if ri == nil { // not through Handler: somewhere to keep the verified token
			ri = &reqInfo{}
			r = r.WithContext(context.WithValue(r.Context(), reqInfoKey{}, ri))
		}
		if len(r.Header.Values("Authorization")) > 1 {
			// Taking the first would let whatever adds the other decide
			// which token is used; no client sends two.
			a.refuse(w, r, &authError{status: http.StatusBadRequest, code: "invalid_request", reason: "two_authorizations",
				desc: "the request carries more than one Authorization header"})
			return
		}
		raw, ok := bearerToken(r)
		if !ok {
			a.refuse(w, r, &authError{status: http.StatusUnauthorized, reason: "missing"})
			return
		}
		ti, aerr := a.verify(r.Context(), raw)
		if aerr == nil && serve.AccessOf(ti).None() {
			aerr = &authError{status: http.StatusForbidden, code: "insufficient_scope", reason: "no_namespaces",
				desc: "the token may read no namespace of this server", scope: a.neededScope(ti)}
		}
		if aerr != nil {
			a.refuse(w, r, aerr)
			return
		}
		ri.token, _ = ti.Extra[tokenNameExtra].(string)
		ri.verified = ti
		sdk.ServeHTTP(w, r)
	})
}

// wrapAll returns next behind authorization for a token that may read
// every namespace; a token restricted to some gets 403 with the scope
// challenge. It guards what tells of the whole server (the metrics: the
// catalog id, every token's requests), which a token that may read only
// some namespaces must not learn.
func (a *Authorizer) wrapAll(next http.Handler) http.Handler {
	return a.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil {
			ti = &auth.TokenInfo{}
		}
		if !serve.AccessOf(ti).All() {
			a.refuse(w, r, &authError{status: http.StatusForbidden, code: "insufficient_scope", reason: "not_all_namespaces",
				desc: "only a token that may read every namespace may read this", scope: a.neededScope(ti)})
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// refuse answers a refused request with the challenge of RFC 6750 §3 and
// the MCP authorization spec: Bearer, resource_metadata and, for a token
// that was given, error and error_description.
func (a *Authorizer) refuse(w http.ResponseWriter, r *http.Request, e *authError) {
	params := []string{fmt.Sprintf("resource_metadata=%q", metadataURL(r))}
	if e.code != "" {
		params = append(params, fmt.Sprintf("error=%q", e.code), fmt.Sprintf("error_description=%q", challengeText(e.desc)))
	}
	if e.scope != "" {
		params = append(params, fmt.Sprintf("scope=%q", e.scope))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	if ri := infoFrom(r.Context()); ri != nil {
		ri.authFail = e.reason
	}
	if a.fail != nil {
		a.fail(e.reason)
	}
	args := []any{"reason", e.reason, "remote", r.RemoteAddr}
	if e.detail != "" {
		args = append(args, "detail", e.detail)
	}
	a.log.Warn("http: authorization refused", args...)
	msg := e.desc
	if msg == "" {
		msg = "a bearer token is required"
	}
	http.Error(w, msg, e.status)
}

// neededScope is the scope of the challenge to a token that may read
// nothing (the MCP authorization spec's scope challenge, RFC 6750 §3): the
// scopes the token has, so that a client asking again loses none, and the
// one that grants every namespace, which the Protected Resource Metadata
// lists too. Namespaces are not named: that would tell a token that may
// read none what the server holds. When a claim other than scope grants
// the namespaces, no scope would help, and it is "".
func (a *Authorizer) neededScope(ti *auth.TokenInfo) string {
	if a.oauth == nil || a.oauth.claim != "scope" {
		return ""
	}
	var scopes []string
	for _, s := range append(slices.Clone(ti.Scopes), scopePrefix+serve.AllNamespaces) {
		if s = strings.ReplaceAll(challengeText(s), " ", ""); s != "" && !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return strings.Join(scopes, " ")
}

// challengeText keeps an error description to the characters RFC 6750 §3
// allows in it (printable ASCII without " and \).
func challengeText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return -1
		}
		return r
	}, s)
}

// resourceURL is the identifier of the protected resource as the client
// reached it: the scheme (https behind TLS or a proxy saying so), the Host
// header (checked against the allowed hosts before this runs) and Endpoint.
func resourceURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host + Endpoint
}

// metadataURL is where the Protected Resource Metadata of resourceURL is.
func metadataURL(r *http.Request) string {
	u := resourceURL(r)
	i := strings.Index(u, "://") + 3
	i += strings.IndexByte(u[i:], '/')
	return u[:i] + ProtectedResourcePath + u[i:]
}

// metadata serves the Protected Resource Metadata (RFC 9728) through the
// SDK's handler: the resource, the issuer when there is one, and that
// tokens go in the Authorization header.
func (a *Authorizer) metadata() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := &oauthex.ProtectedResourceMetadata{
			Resource:               resourceURL(r),
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "skills-mcp",
		}
		if a.oauth != nil {
			m.AuthorizationServers = []string{a.oauth.issuer}
			if a.oauth.claim == "scope" {
				m.ScopesSupported = []string{scopePrefix + serve.AllNamespaces}
			}
		}
		auth.ProtectedResourceMetadataHandler(m).ServeHTTP(w, r)
	})
}
