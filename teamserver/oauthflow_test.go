package teamserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/skills-mcp/skills-mcp/internal/oauthtest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// TestOAuthSDKClient: the Go SDK's client side of the MCP authorization
// spec, auth.AuthorizationCodeHandler on a StreamableClientTransport,
// against this server with --oauth-issuer and a real authorization server
// on loopback: on the 401 the SDK finds the issuer through the Protected
// Resource Metadata, registers itself, gets a code (PKCE S256) and a token;
// the token reads its namespace only. A first token that may read no
// namespace gets 403 insufficient_scope, and the SDK's step-up sign-in gets
// a better one.
func TestOAuthSDKClient(t *testing.T) {
	as, err := oauthtest.Start(oauthtest.Options{Scope: "openid"})
	if err != nil {
		t.Fatal(err)
	}
	defer as.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String() + Endpoint
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	a, err := NewAuthorizer(context.Background(), AuthOptions{Issuer: as.URL, Audience: endpoint, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(Handler(s, Options{Auth: a}))
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	defer ts.Close()

	// The browser goes to the authorization URL and stops at the
	// redirect, which it hands back as the redirect URI's handler would.
	const redirect = "http://127.0.0.1:1/callback"
	var signIns atomic.Int32
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if signIns.Add(1) == 2 {
			as.Change(func(o *oauthtest.Options) { o.Scope = "skills:acme" })
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", args.URL, nil)
		resp, err := noFollow.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), redirect+"?") {
			return nil, fmt.Errorf("authorization answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		AuthorizationCodeFetcher: fetch,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "serve-test", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newClient(t, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: h}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if n := signIns.Load(); n != 2 || as.Tokens() != 2 {
		t.Errorf("%d sign-ins, %d tokens; want 2 and 2 (a step-up after insufficient_scope)", n, as.Tokens())
	}
	got := entryURIs(t, allSkills(t, cs))
	if len(got) != 3 {
		t.Errorf("skills/list %v, want acme's 3", got)
	}
	for _, u := range got {
		if !strings.HasPrefix(u, "skill://acme/") {
			t.Errorf("listed %s, outside the token's namespace", u)
		}
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://acme/pdf-processing/SKILL.md"})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "# PDF") {
		t.Errorf("read in the namespace: %v %+v", err, res)
	}
	_, errOther := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://community/git-workflow/SKILL.md"})
	_, errNone := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://acme/no-such/SKILL.md"})
	if errOther == nil || errNone == nil || strings.ReplaceAll(errOther.Error(), "community/git-workflow", "X") != strings.ReplaceAll(errNone.Error(), "acme/no-such", "X") {
		t.Errorf("another namespace: %v; a missing skill: %v; want the same answer", errOther, errNone)
	}
}
