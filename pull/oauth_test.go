package pull_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/oauthtest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/teamserver"
)

// oauthFixture is a real authorization server (oauthtest) and a real serve
// --http --oauth-issuer in front of the example bundle, both on loopback,
// with everything either of them logs and every secret the authorization
// server issued.
type oauthFixture struct {
	as       *oauthtest.Server
	endpoint string // the MCP endpoint, http://127.0.0.1:PORT/mcp
	log      syncBuffer

	mu      sync.Mutex
	secrets []string
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startOAuth(t *testing.T, asOpt oauthtest.Options) *oauthFixture {
	t.Helper()
	f := &oauthFixture{}
	asOpt.OnSecret = func(s string) {
		f.mu.Lock()
		f.secrets = append(f.secrets, s)
		f.mu.Unlock()
	}
	as, err := oauthtest.Start(asOpt)
	must(t, err)
	t.Cleanup(as.Close)
	f.as = as
	// The audience is the server's own URL, known once it listens.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	f.endpoint = "http://" + ln.Addr().String() + teamserver.Endpoint
	logger := slog.New(slog.NewTextHandler(&f.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := serve.New([]*manifest.Bundle{openBundle(t, exampleBundle(t))}, serve.Options{ShowDisabled: true, Logger: logger})
	must(t, err)
	a, err := teamserver.NewAuthorizer(context.Background(), teamserver.AuthOptions{Issuer: as.URL, Audience: f.endpoint, Logger: logger})
	must(t, err)
	ts := httptest.NewUnstartedServer(teamserver.Handler(srv, teamserver.Options{Auth: a}))
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return f
}

// leaked fails the test if a code or token the authorization server issued
// appears in any of texts or in the servers' logs.
func (f *oauthFixture) leaked(t *testing.T, texts ...string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.secrets) != f.as.Authorizations()+f.as.Tokens() {
		t.Fatalf("%d secrets recorded, %d issued", len(f.secrets), f.as.Authorizations()+f.as.Tokens())
	}
	texts = append(texts, f.log.String())
	for _, s := range f.secrets {
		for i, text := range texts {
			if strings.Contains(text, s) {
				t.Errorf("text %d holds a secret the authorization server issued: %.200s", i, text)
			}
		}
	}
}

// browser plays the person: it follows the authorization URL to the
// redirect, as a browser would, changing each URL with rewrite when set.
// It records what it was shown and what it got.
type browser struct {
	rewrite func(*url.URL)
	idle    bool // never goes to the URL

	mu     sync.Mutex
	shown  []string
	status int
	err    error
	done   chan struct{}
}

func (b *browser) open(ctx context.Context, authURL string) error {
	b.mu.Lock()
	b.shown = append(b.shown, authURL)
	if b.done == nil {
		b.done = make(chan struct{})
	}
	done := b.done
	b.mu.Unlock()
	if b.idle {
		return nil
	}
	go func() {
		defer close(done)
		status, err := oauthtest.Browser(authURL, b.rewrite)
		b.mu.Lock()
		b.status, b.err = status, err
		b.mu.Unlock()
	}()
	return nil
}

// wait waits for the browser to get its last page.
func (b *browser) wait() {
	b.mu.Lock()
	done := b.done
	b.mu.Unlock()
	if done != nil && !b.idle {
		<-done
	}
}

func (f *oauthFixture) connect(b *browser, clientID string, timeout time.Duration) (*pull.Source, error) {
	return pull.ConnectHTTP(context.Background(), f.endpoint, pull.ConnectOptions{Name: f.endpoint,
		OAuth: &pull.OAuthOptions{ClientID: clientID, Timeout: timeout, Open: b.open}})
}

// TestPullOAuth: pull signs in through the authorization-code flow with
// PKCE, registering itself (RFC 7591) or as a pre-registered client, pulls
// every file, and the token appears in no output or log.
func TestPullOAuth(t *testing.T) {
	for _, tc := range []struct {
		name     string
		as       oauthtest.Options
		clientID string
		port     bool // a fixed callback port
	}{
		{"dynamic registration", oauthtest.Options{}, "", false},
		{"pre-registered client", oauthtest.Options{ClientID: "skills-cli", NoRegistration: true}, "skills-cli", false},
		{"fixed callback port", oauthtest.Options{}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := startOAuth(t, tc.as)
			b := &browser{}
			port := 0
			if tc.port {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				must(t, err)
				port = ln.Addr().(*net.TCPAddr).Port
				ln.Close()
			}
			src, err := pull.ConnectHTTP(context.Background(), f.endpoint, pull.ConnectOptions{Name: f.endpoint,
				OAuth: &pull.OAuthOptions{ClientID: tc.clientID, CallbackPort: port, Open: b.open}})
			must(t, err)
			defer src.Close()
			dir := t.TempDir()
			pullAll(t, src, dir, false)
			sameTree(t, readTree(t, dir), expectedTree(t))
			b.wait()
			if len(b.shown) != 1 || b.status != http.StatusOK || b.err != nil {
				t.Fatalf("browser shown %d URLs, got %d %v", len(b.shown), b.status, b.err)
			}
			u, err := url.Parse(b.shown[0])
			must(t, err)
			q := u.Query()
			redirect, _ := url.Parse(q.Get("redirect_uri"))
			if q.Get("code_challenge_method") != "S256" || q.Get("resource") != f.endpoint || q.Get("state") == "" ||
				redirect == nil || redirect.Hostname() != "127.0.0.1" || redirect.Path != pull.CallbackPath {
				t.Errorf("authorization URL %s", b.shown[0])
			}
			if port != 0 && redirect.Port() != strconv.Itoa(port) {
				t.Errorf("redirect_uri %s, want port %d", redirect, port)
			}
			if tc.clientID != "" && q.Get("client_id") != tc.clientID {
				t.Errorf("client_id %q, want %q", q.Get("client_id"), tc.clientID)
			}
			if f.as.Authorizations() != 1 || f.as.Tokens() != 1 {
				t.Errorf("%d authorizations, %d tokens; want one sign-in", f.as.Authorizations(), f.as.Tokens())
			}
			f.leaked(t, b.shown...)
			// The redirect listener is closed once the sign-in is over.
			if resp, err := http.Get(q.Get("redirect_uri")); err == nil {
				resp.Body.Close()
				t.Errorf("the redirect URI still answers %d", resp.StatusCode)
			}
		})
	}
}

// TestPullOAuthStray: requests to the redirect URI with another state, a
// code or an error, such as another local process or a web page can send,
// are refused and do not end the sign-in; the real redirect still does.
func TestPullOAuthStray(t *testing.T) {
	f := startOAuth(t, oauthtest.Options{})
	real := &browser{}
	var stray []int
	open := func(ctx context.Context, authURL string) error {
		u, err := url.Parse(authURL)
		if err != nil {
			return err
		}
		redirect := u.Query().Get("redirect_uri")
		for _, q := range []string{"code=bogus&state=nope", "error=access_denied&error_description=pwned&state=nope", "error=access_denied"} {
			resp, err := http.Get(redirect + "?" + q)
			if err != nil {
				return err
			}
			resp.Body.Close()
			stray = append(stray, resp.StatusCode)
		}
		return real.open(ctx, authURL)
	}
	src, err := pull.ConnectHTTP(context.Background(), f.endpoint, pull.ConnectOptions{Name: f.endpoint,
		OAuth: &pull.OAuthOptions{Timeout: 10 * time.Second, Open: open}})
	must(t, err)
	defer src.Close()
	real.wait()
	for i, st := range stray {
		if st != http.StatusBadRequest {
			t.Errorf("stray request %d got %d, want 400", i, st)
		}
	}
	if real.status != http.StatusOK || real.err != nil || f.as.Tokens() != 1 {
		t.Errorf("the browser got %d %v; %d tokens", real.status, real.err, f.as.Tokens())
	}
}

// TestPullOAuthNamespaces: the token's scope limits what pull sees.
func TestPullOAuthNamespaces(t *testing.T) {
	f := startOAuth(t, oauthtest.Options{Scope: "skills:community"})
	src, err := f.connect(&browser{}, "", 0)
	must(t, err)
	defer src.Close()
	if len(src.Skills) == 0 {
		t.Fatal("no skills")
	}
	for _, sk := range src.Skills {
		if !strings.HasPrefix(sk.URI, "skill://community/") {
			t.Errorf("listed %s, outside the token's namespace", sk.URI)
		}
	}
}

// TestPullOAuthRefused: each way a sign-in can go wrong ends pull with an
// error that says so, holds no secret, and gets no token where none must
// be issued.
func TestPullOAuthRefused(t *testing.T) {
	attacker := "attacker-verifier-0123456789-0123456789-0123456789"
	for _, tc := range []struct {
		name    string
		as      oauthtest.Options
		later   func(*oauthtest.Options) // once the resource server started
		browser *browser
		timeout time.Duration
		want    string
		shown   int // URLs shown to the person
		tokens  int // access tokens issued
	}{
		// A redirect with another state is not this sign-in's: it is
		// refused and the wait goes on.
		{name: "state mismatch", browser: &browser{rewrite: func(u *url.URL) {
			if u.Path == pull.CallbackPath {
				q := u.Query()
				q.Set("state", "forged")
				u.RawQuery = q.Encode()
			}
		}}, timeout: 500 * time.Millisecond, want: "no sign-in within 500ms (the sign-in timeout)", shown: 1},
		// A code obtained with another challenge (an intercepted flow) does
		// not redeem with pull's verifier.
		{name: "wrong PKCE", browser: &browser{rewrite: func(u *url.URL) {
			if u.Path == "/authorize" {
				q := u.Query()
				q.Set("code_challenge", oauthtest.S256(attacker))
				u.RawQuery = q.Encode()
			}
		}}, want: "code_verifier does not match the code_challenge", shown: 1},
		{name: "authorization server error", as: oauthtest.Options{Deny: "access_denied"}, browser: &browser{},
			want: "the authorization server refused the sign-in: access_denied: the test server was told to refuse", shown: 1},
		// The token endpoint's answer reaches the error only as
		// printable text (the test below checks for control characters).
		{name: "token endpoint refusal with escapes", as: oauthtest.Options{TokenRefusal: "no\x1b]0;pwned\a\x1b[2J\u009b way\r\n" + strings.Repeat("x", 4000)}, browser: &browser{},
			want: "Response: no]0;pwned[2J way", shown: 1},
		{name: "callback timeout", browser: &browser{idle: true}, timeout: 300 * time.Millisecond,
			want: "no sign-in within 300ms (the sign-in timeout): nothing came back to http://127.0.0.1:", shown: 1},
		// The issuer the Protected Resource Metadata names has metadata
		// that says it is another.
		{name: "metadata of another issuer", later: func(o *oauthtest.Options) { o.MetadataIssuer = "https://other.example.com" }, browser: &browser{},
			want: `metadata issuer "https://other.example.com" does not match issuer URL`},
		{name: "redirect from another issuer", as: oauthtest.Options{CallbackIss: "https://other.example.com"}, browser: &browser{},
			want: `authorization response issuer "https://other.example.com" does not match expected issuer`, shown: 1},
		{name: "no registration", as: oauthtest.Options{NoRegistration: true}, browser: &browser{},
			want: "offers no dynamic client registration (RFC 7591): give a client id registered with it (--oauth-client-id)"},
		// The token is issued, for another resource: one sign-in, then
		// the server's refusal.
		{name: "token for another resource", as: oauthtest.Options{Audience: "https://other.example.com/mcp"}, browser: &browser{},
			want: "after signing in, the server refused the token the authorization server issued (401 invalid_token: the token is not for this resource)", shown: 1, tokens: 1},
		{name: "token for no namespace", as: oauthtest.Options{Scope: "openid"}, browser: &browser{},
			want: "after signing in, the server refused the token the authorization server issued (403 insufficient_scope", shown: 1, tokens: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := startOAuth(t, tc.as)
			if tc.later != nil {
				f.as.Change(tc.later)
			}
			src, err := f.connect(tc.browser, "", tc.timeout)
			if err == nil {
				src.Close()
				t.Fatal("connected")
			}
			tc.browser.wait()
			if !strings.Contains(err.Error(), "/mcp: sign-in: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to hold %q", err, tc.want)
			}
			if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) || len(err.Error()) > 1000 {
				t.Errorf("control characters or unbounded text in %q", err)
			}
			if len(tc.browser.shown) != tc.shown || f.as.Tokens() != tc.tokens {
				t.Errorf("%d URLs shown, %d tokens issued; want %d, %d", len(tc.browser.shown), f.as.Tokens(), tc.shown, tc.tokens)
			}
			f.leaked(t, err.Error())
		})
	}
}

// TestPullOAuthNotAsked: without a sign-in asked for, a server that names
// an authorization server is refused with a hint, and nothing is shown.
func TestPullOAuthNotAsked(t *testing.T) {
	f := startOAuth(t, oauthtest.Options{})
	_, err := pull.ConnectHTTP(context.Background(), f.endpoint, pull.ConnectOptions{Name: f.endpoint})
	if err == nil || !strings.Contains(err.Error(), "the server requires a bearer token: give one with SKILLS_PULL_TOKEN or --header, or sign in with --oauth") {
		t.Errorf("error %v", err)
	}
	if f.as.Authorizations() != 0 {
		t.Error("authorized without being asked")
	}
	_, err = pull.ConnectHTTP(context.Background(), f.endpoint, pull.ConnectOptions{Name: f.endpoint,
		Header: http.Header{"Authorization": {"Bearer x"}}, OAuth: &pull.OAuthOptions{Open: (&browser{}).open}})
	if err == nil || !strings.Contains(err.Error(), "an Authorization header and an OAuth sign-in exclude each other") {
		t.Errorf("error %v", err)
	}
}
