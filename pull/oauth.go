package pull

// Signing in to a live server protected by OAuth, for a person at a
// terminal: the authorization-code flow with PKCE of the MCP authorization
// spec, run by the Go SDK's auth.AuthorizationCodeHandler on the
// transport's first 401. The SDK discovers the Protected Resource Metadata
// (RFC 9728) and the authorization server's metadata (RFC 8414), registers
// the client (pre-registered id, or RFC 7591), builds the authorization URL,
// checks state and iss (RFC 9207) and exchanges the code with the verifier.
// What is here: the loopback redirect listener, showing the URL to the
// person, the wait, and the rule of one sign-in per connection. The token
// lives in memory for the connection only; it is never written, printed or
// put in an error.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// DefaultSignInTimeout bounds the wait for the person to sign in.
const DefaultSignInTimeout = 5 * time.Minute

// CallbackPath is the path of the loopback redirect URI:
// http://127.0.0.1:PORT/callback.
const CallbackPath = "/callback"

// OAuthOptions configure signing in to a live server (ConnectOptions.OAuth).
type OAuthOptions struct {
	// ClientID is a client registered with the authorization server in
	// advance, as a public client allowed the loopback redirect URI. Empty:
	// pull registers itself (RFC 7591) if the server offers registration.
	ClientID string
	// CallbackPort is the loopback port of the redirect URI; 0 for any free
	// port (RFC 8252 §7.3 has servers accept any).
	CallbackPort int
	// Timeout bounds the wait for the redirect: DefaultSignInTimeout if 0.
	Timeout time.Duration
	// Open shows the authorization URL to the person (prints it, opens a
	// browser). Required. An error stops the sign-in.
	Open func(ctx context.Context, authURL string) error
}

func (o *OAuthOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultSignInTimeout
	}
	return o.Timeout
}

// signIn is the transport's auth.OAuthHandler: on the first 401 it runs the
// SDK's handler once; a later refusal of the token that sign-in produced is
// an error, not a second sign-in.
type signIn struct {
	opt    OAuthOptions
	client *http.Client // to the authorization server

	flow  sync.Mutex                                    // one Authorize at a time
	done  atomic.Pointer[auth.AuthorizationCodeHandler] // after a sign-in that succeeded
	tried bool                                          // under flow
	err   atomic.Pointer[error]                         // why the sign-in failed
}

var _ auth.OAuthHandler = (*signIn)(nil)

func (s *signIn) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	if h := s.done.Load(); h != nil {
		return h.TokenSource(ctx)
	}
	return nil, nil
}

// failure is why the sign-in failed, or nil.
func (s *signIn) failure() error {
	if p := s.err.Load(); p != nil {
		return *p
	}
	return nil
}

func (s *signIn) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	s.flow.Lock()
	defer s.flow.Unlock()
	if s.done.Load() != nil {
		if req.Header.Get("Authorization") == "" {
			// Sent before the sign-in ended: the transport retries it
			// with the token.
			resp.Body.Close()
			return nil
		}
		return s.fail(refusedAfter(resp, "after signing in, the server refused the token the authorization server issued"))
	}
	if s.tried {
		resp.Body.Close()
		return s.failure()
	}
	s.tried = true
	h, err := s.run(ctx, req, resp)
	if err != nil {
		return s.fail(err)
	}
	s.done.Store(h)
	return nil
}

// fail records why the sign-in failed. The error may quote the
// authorization server (an oauth2.RetrieveError holds its whole answer), so
// it is kept to printable characters.
func (s *signIn) fail(err error) error {
	err = untrusted{err}
	s.err.CompareAndSwap(nil, &err)
	return err
}

// untrusted is an error whose text may come from a server: Error keeps it
// to one bounded line of printable characters, so that it cannot drive the
// terminal it is shown on; Unwrap keeps the chain.
type untrusted struct{ err error }

// maxUntrusted bounds the text of an untrusted error, in bytes.
const maxUntrusted = 400

func (u untrusted) Error() string {
	s := clean(u.err.Error())
	if len(s) > maxUntrusted {
		cut := maxUntrusted
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func (u untrusted) Unwrap() error { return u.err }

// run listens on the loopback port, runs the SDK's flow, and stops
// listening.
func (s *signIn) run(ctx context.Context, req *http.Request, resp *http.Response) (*auth.AuthorizationCodeHandler, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.opt.CallbackPort)))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("redirect listener: %w", err)
	}
	defer ln.Close()
	redirect := "http://" + ln.Addr().String() + CallbackPath
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: (&callback{ln: ln, redirect: redirect, opt: &s.opt}).fetch,
		Client:                   s.client,
	}
	if s.opt.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: s.opt.ClientID}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "skills-mcp pull",
			RedirectURIs:            []string{redirect},
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code"},
			ResponseTypes:           []string{"code"},
		}}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		if strings.Contains(err.Error(), "no configured client registration methods") {
			return nil, errors.New("the authorization server offers no dynamic client registration (RFC 7591): give a client id registered with it (--oauth-client-id)")
		}
		return nil, err
	}
	return h, nil
}

// refusedAfter describes a 401 or 403 from its WWW-Authenticate challenge, and
// closes its body.
func refusedAfter(resp *http.Response, what string) error {
	defer resp.Body.Close()
	c := challengeOf(resp)
	return fmt.Errorf("%s (%d%s)", what, resp.StatusCode, c.describe())
}

// challenge is what a server said in its Bearer WWW-Authenticate.
type challenge struct {
	metadata   bool   // names its Protected Resource Metadata
	code, desc string // error and error_description, if any
}

func challengeOf(resp *http.Response) challenge {
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return challenge{}
	}
	for _, c := range cs {
		if c.Scheme == "bearer" {
			return challenge{metadata: c.Params["resource_metadata"] != "", code: c.Params["error"], desc: c.Params["error_description"]}
		}
	}
	return challenge{}
}

func (c challenge) describe() string {
	s := ""
	if c.code != "" {
		s += " " + printable(c.code)
	}
	if c.desc != "" {
		s += ": " + printable(c.desc)
	}
	return s
}

// printable keeps an untrusted string to one short line of printable
// characters, so that it cannot drive the terminal it is shown on.
func printable(s string) string {
	return short(clean(s))
}

// clean turns line breaks and tabs into spaces and drops every other
// control character.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// callback receives the redirect on the loopback listener.
type callback struct {
	ln       net.Listener
	redirect string
	opt      *OAuthOptions
}

// fetch is the SDK's AuthorizationCodeFetcher: it serves the redirect URI,
// shows the authorization URL, and waits for the first redirect carrying
// the state of that URL, the timeout or the end of ctx. A request with
// another state, code or error alike, is refused and ignored: any local
// process or web page can reach the loopback port, and must not end the
// sign-in. The SDK checks state again, and iss; an error the authorization
// server sent back ends the sign-in here.
func (cb *callback) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	au, err := url.Parse(args.URL)
	if err != nil {
		return nil, fmt.Errorf("authorization URL: %w", err)
	}
	state := au.Query().Get("state")
	type outcome struct {
		res *auth.AuthorizationResult
		err error
	}
	got := make(chan outcome, 1)
	var once sync.Once
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+CallbackPath, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		w.Header().Set("Cache-Control", "no-store")
		if q.Get("state") != state {
			http.Error(w, "skills-mcp: this is not the redirect of the sign-in under way.", http.StatusBadRequest)
			return
		}
		var o outcome
		switch {
		case q.Get("error") != "":
			o.err = fmt.Errorf("the authorization server refused the sign-in: %s%s", printable(q.Get("error")), describeOpt(q.Get("error_description")))
		case q.Get("code") == "":
			o.err = errors.New("the redirect carried neither a code nor an error")
		default:
			o.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		}
		first := false
		once.Do(func() { first = true })
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		switch {
		case !first:
			http.Error(w, "skills-mcp: this sign-in has already ended.", http.StatusBadRequest)
			return
		case o.err != nil:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "skills-mcp: sign-in failed: %v\n", o.err)
		default:
			fmt.Fprintln(w, "skills-mcp: sign-in received. You can close this window; pull goes on in the terminal.")
		}
		got <- o
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(cb.ln)
	defer func() {
		// Let the browser have its page, then stop.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	if err := cb.opt.Open(ctx, args.URL); err != nil {
		return nil, err
	}
	timeout := cb.opt.timeout()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case o := <-got:
		return o.res, o.err
	case <-t.C:
		return nil, fmt.Errorf("no sign-in within %v (the sign-in timeout): nothing came back to %s", timeout, cb.redirect)
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func describeOpt(desc string) string {
	if desc == "" {
		return ""
	}
	return ": " + printable(desc)
}
