// Package oauthtest runs an OAuth 2.1 authorization server on loopback for
// tests: its metadata (RFC 8414), a key set (JWKS) whose keys the test
// rotates, an authorization endpoint that approves every request at once
// (no person, no login page), a token endpoint that checks the code, the
// client, the redirect and PKCE (S256 only), dynamic client registration
// (RFC 7591), and JWT access tokens (RFC 9068) signed ES256 with the
// published keys.
//
// It holds everything in memory and trusts nobody: an unknown client, a
// redirect URI not registered, a code used twice, a verifier that does not
// match the challenge are all refused as RFC 6749 says. It is for tests
// only: it signs whatever scope is asked for.
package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Options configure a Server. The zero value is a well-behaved server that
// offers dynamic client registration.
type Options struct {
	// ClientID is a public client registered in advance; any loopback
	// redirect URI is allowed for it (RFC 8252 §7.3).
	ClientID string
	// NoRegistration publishes no registration_endpoint.
	NoRegistration bool
	// Audience is the aud of issued tokens; empty: the resource parameter
	// of the request (RFC 8707).
	Audience string
	// Scope is the scope of issued tokens; empty: the scope asked for.
	Scope string
	// Subject is the sub of issued tokens; "alice" if empty.
	Subject string
	// MetadataIssuer is the issuer the metadata claims; empty: the
	// server's URL. Another value makes a metadata document that does not
	// match the URL it is fetched for.
	MetadataIssuer string
	// CallbackIss is the iss parameter of the redirect (RFC 9207); empty:
	// the server's URL.
	CallbackIss string
	// Deny makes the authorization endpoint redirect with error=Deny.
	Deny string
	// TokenRefusal, when set, is the body of a 400 the token endpoint
	// answers every request with, sent as it is (text/plain).
	TokenRefusal string
	// OnSecret, when set, is called with every code and access token the
	// server issues, so that a test can look for them where they must not
	// be.
	OnSecret func(secret string)
}

// Server is a running authorization server.
type Server struct {
	// URL is its issuer identifier, http://127.0.0.1:PORT.
	URL string

	opt Options
	srv *httptest.Server

	mu      sync.Mutex
	keys    map[string]*ecdsa.PrivateKey // published, by key id
	kid     string                       // the key that signs
	clients map[string]bool              // registered client ids
	codes   map[string]*grant            // outstanding codes

	authorizations atomic.Int32 // codes issued
	tokens         atomic.Int32 // access tokens issued
	tokenRequests  atomic.Int32
}

// grant is what an authorization code stands for.
type grant struct {
	clientID, redirectURI, challenge, resource, scope string
	expires                                           time.Time
}

// Start starts a server on a free loopback port; Close stops it.
func Start(opt Options) (*Server, error) {
	s := &Server{opt: opt, keys: map[string]*ecdsa.PrivateKey{}, clients: map[string]bool{}, codes: map[string]*grant{}}
	if opt.ClientID != "" {
		s.clients[opt.ClientID] = true
	}
	if _, err := s.Rotate("k1", true); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("GET /jwks", s.jwks)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /register", s.register)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s, nil
}

// Change changes the server's options from now on, such as to make its
// metadata wrong after a resource server has read it.
func (s *Server) Change(change func(*Options)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(&s.opt)
}

func (s *Server) options() Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opt
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Authorizations is how many codes the server issued.
func (s *Server) Authorizations() int { return int(s.authorizations.Load()) }

// Tokens is how many access tokens the server issued.
func (s *Server) Tokens() int { return int(s.tokens.Load()) }

// TokenRequests is how many requests the token endpoint answered, refused
// ones included.
func (s *Server) TokenRequests() int { return int(s.tokenRequests.Load()) }

// Rotate publishes a new key kid and signs with it from now on; with only,
// it retires the others.
func (s *Server) Rotate(kid string, only bool) (*ecdsa.PrivateKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if only {
		clear(s.keys)
	}
	s.keys[kid] = k
	s.kid = kid
	return k, nil
}

// Sign returns claims as a JWT access token (typ at+jwt) signed by the
// current key.
func (s *Server) Sign(claims map[string]any) (string, error) {
	s.mu.Lock()
	kid, key := s.kid, s.keys[s.kid]
	s.mu.Unlock()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	opt := s.options()
	iss := opt.MetadataIssuer
	if iss == "" {
		iss = s.URL
	}
	m := oauthex.AuthServerMeta{
		Issuer:                            iss,
		AuthorizationEndpoint:             s.URL + "/authorize",
		TokenEndpoint:                     s.URL + "/token",
		JWKSURI:                           s.URL + "/jwks",
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{"authorization_code"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		TokenEndpointAuthMethodsSupported: []string{"none"},
		ScopesSupported:                   []string{"skills:*"},
		AuthorizationResponseIssParameterSupported: true,
	}
	if !opt.NoRegistration {
		m.RegistrationEndpoint = s.URL + "/register"
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var set jose.JSONWebKeySet
	for kid, k := range s.keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, set)
}

// register is dynamic client registration for public native clients: every
// redirect URI must be http on a loopback address.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if s.options().NoRegistration {
		http.NotFound(w, r)
		return
	}
	var m oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&m); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata", "error_description": "not JSON"})
		return
	}
	if len(m.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri", "error_description": "no redirect_uris"})
		return
	}
	for _, u := range m.RedirectURIs {
		if !loopback(u) {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri", "error_description": "redirect URIs must be http on loopback"})
			return
		}
	}
	if m.TokenEndpointAuthMethod != "none" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata", "error_description": "only public clients (token_endpoint_auth_method none)"})
		return
	}
	id := "dcr-" + rand.Text()
	s.mu.Lock()
	s.clients[id] = true
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{
		"client_id": id, "redirect_uris": m.RedirectURIs, "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code"}, "response_types": []string{"code"}, "client_name": m.ClientName,
	})
}

// loopback reports whether u is an http URL on 127.0.0.1, [::1] or
// localhost.
func loopback(u string) bool {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "http" {
		return false
	}
	h := p.Hostname()
	return h == "127.0.0.1" || h == "::1" || h == "localhost"
}

// authorize approves at once: a code bound to the client, the redirect URI,
// the PKCE challenge and the resource, sent back to the redirect URI with
// the state and iss. A request whose client or redirect URI is wrong is
// answered here (never redirected, RFC 6749 §4.1.2.1).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	opt := s.options()
	q := r.URL.Query()
	client, redirect := q.Get("client_id"), q.Get("redirect_uri")
	s.mu.Lock()
	known := s.clients[client]
	s.mu.Unlock()
	if !known {
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	}
	if !loopback(redirect) {
		http.Error(w, "redirect_uri is not a loopback http URL", http.StatusBadRequest)
		return
	}
	back := func(v url.Values) {
		v.Set("state", q.Get("state"))
		iss := opt.CallbackIss
		if iss == "" {
			iss = s.URL
		}
		v.Set("iss", iss)
		http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
	}
	fail := func(code, desc string) { back(url.Values{"error": {code}, "error_description": {desc}}) }
	switch {
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "only code")
	case q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43:
		fail("invalid_request", "PKCE with S256 is required")
	case opt.Deny != "":
		fail(opt.Deny, "the test server was told to refuse")
	default:
		code := rand.Text()
		s.mu.Lock()
		s.codes[code] = &grant{clientID: client, redirectURI: redirect, challenge: q.Get("code_challenge"),
			resource: q.Get("resource"), scope: q.Get("scope"), expires: time.Now().Add(time.Minute)}
		s.mu.Unlock()
		s.authorizations.Add(1)
		s.secret(code)
		back(url.Values{"code": {code}})
	}
}

// token exchanges a code for an access token; the code is spent whatever
// the outcome.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	s.tokenRequests.Add(1)
	opt := s.options()
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		tokenError(w, "invalid_request", "not a form")
		return
	}
	f := r.PostForm
	if opt.TokenRefusal != "" {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, opt.TokenRefusal)
		return
	}
	if _, _, basic := r.BasicAuth(); basic {
		// Clients are public: they name themselves in the body and
		// authenticate with nothing (token_endpoint_auth_method none).
		w.Header().Set("WWW-Authenticate", `Basic realm="oauthtest"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "public clients send no credentials"})
		return
	}
	if f.Get("grant_type") != "authorization_code" {
		tokenError(w, "unsupported_grant_type", "only authorization_code")
		return
	}
	s.mu.Lock()
	g := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	s.mu.Unlock()
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	switch {
	case g == nil || time.Now().After(g.expires):
		tokenError(w, "invalid_grant", "unknown, used or expired code")
		return
	case f.Get("client_id") != g.clientID:
		tokenError(w, "invalid_grant", "the code was issued to another client")
		return
	case f.Get("redirect_uri") != g.redirectURI:
		tokenError(w, "invalid_grant", "redirect_uri differs from the authorization request's")
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		tokenError(w, "invalid_grant", "code_verifier does not match the code_challenge")
		return
	case f.Get("resource") != g.resource:
		tokenError(w, "invalid_target", "resource differs from the authorization request's")
		return
	}
	aud := opt.Audience
	if aud == "" {
		aud = g.resource
	}
	scope := opt.Scope
	if scope == "" {
		scope = g.scope
	}
	sub := opt.Subject
	if sub == "" {
		sub = "alice"
	}
	now := time.Now()
	tok, err := s.Sign(map[string]any{"iss": s.URL, "aud": aud, "sub": sub, "client_id": g.clientID, "scope": scope,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": rand.Text()})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.tokens.Add(1)
	s.secret(tok)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": scope})
}

func (s *Server) secret(v string) {
	if f := s.options().OnSecret; f != nil {
		f(v)
	}
}

func tokenError(w http.ResponseWriter, code, desc string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) // a client gone away is the test's to notice
}

// S256 is the PKCE challenge of verifier (RFC 7636 §4.2).
func S256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Browser follows an authorization URL as a browser would, through the
// redirect to the client's loopback callback, and returns the final status.
// Rewrite, when set, changes each URL before it is requested: a test's
// way of playing an attacker in the middle.
func Browser(authURL string, rewrite func(*url.URL)) (int, error) {
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if rewrite != nil {
			rewrite(req.URL)
		}
		if len(via) > 5 {
			return fmt.Errorf("too many redirects")
		}
		return nil
	}}
	u, err := url.Parse(authURL)
	if err != nil {
		return 0, err
	}
	if rewrite != nil {
		rewrite(u)
	}
	resp, err := c.Get(u.String())
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
