package teamserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// testIssuer is an OAuth authorization server on loopback: RFC 8414
// metadata, a JWKS whose keys the test rotates, and JWTs signed with them.
type testIssuer struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	keys   map[string]*ecdsa.PrivateKey // published, by key id
	fetchs atomic.Int32                 // JWKS fetches
	broken atomic.Bool                  // the JWKS answers 500
}

func newTestIssuer(t testing.TB) *testIssuer {
	iss := &testIssuer{t: t, keys: map[string]*ecdsa.PrivateKey{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(oauthex.AuthServerMeta{
			Issuer: iss.srv.URL, AuthorizationEndpoint: iss.srv.URL + "/authorize", TokenEndpoint: iss.srv.URL + "/token",
			JWKSURI: iss.srv.URL + "/jwks", ResponseTypesSupported: []string{"code"}, CodeChallengeMethodsSupported: []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		iss.fetchs.Add(1)
		if iss.broken.Load() {
			http.Error(w, "down", 500)
			return
		}
		iss.mu.Lock()
		var set jose.JSONWebKeySet
		for kid, k := range iss.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"})
		}
		iss.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(set)
	})
	iss.srv = httptest.NewServer(mux)
	t.Cleanup(iss.srv.Close)
	iss.rotate("k1", true)
	return iss
}

// rotate publishes a new key kid, and retires the others when only is set.
func (iss *testIssuer) rotate(kid string, only bool) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		iss.t.Fatal(err)
	}
	iss.mu.Lock()
	defer iss.mu.Unlock()
	if only {
		clear(iss.keys)
	}
	iss.keys[kid] = k
	return k
}

func (iss *testIssuer) key(kid string) *ecdsa.PrivateKey {
	iss.mu.Lock()
	defer iss.mu.Unlock()
	return iss.keys[kid]
}

// sign returns a compact JWS of claims, signed ES256 by key as kid, with
// header typ.
func sign(t testing.TB, key *ecdsa.PrivateKey, kid, typ string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithHeader("kid", kid)
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const testAudience = "https://skills.example.com/mcp"

// claims returns good claims of iss, changed by kv.
func (iss *testIssuer) claims(kv ...any) map[string]any {
	now := time.Now()
	c := map[string]any{"iss": iss.srv.URL, "aud": testAudience, "sub": "alice", "client_id": "host",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "scope": "openid skills:acme"}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(c, kv[i].(string))
		} else {
			c[kv[i].(string)] = kv[i+1]
		}
	}
	return c
}

func TestOAuthTokens(t *testing.T) {
	iss := newTestIssuer(t)
	ts, _ := authServer(t, AuthOptions{Issuer: iss.srv.URL, Audience: testAudience})
	k1 := iss.key("k1")
	good := sign(t, k1, "k1", "at+jwt", iss.claims())
	b64 := base64.RawURLEncoding.EncodeToString
	payload, _ := json.Marshal(iss.claims())
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	hour := time.Hour
	for _, tc := range []struct {
		name, token string
		status      int
		code        string
	}{
		{"good", good, 200, ""},
		{"application/at+jwt", sign(t, k1, "k1", "application/at+jwt", iss.claims()), 200, ""},
		{"expired", sign(t, k1, "k1", "at+jwt", iss.claims("exp", time.Now().Add(-hour).Unix())), 401, "invalid_token"},
		{"no exp", sign(t, k1, "k1", "at+jwt", iss.claims("exp", nil)), 401, "invalid_token"},
		{"not yet valid", sign(t, k1, "k1", "at+jwt", iss.claims("nbf", time.Now().Add(hour).Unix())), 401, "invalid_token"},
		{"nbf in the past", sign(t, k1, "k1", "at+jwt", iss.claims("nbf", time.Now().Add(-hour).Unix())), 200, ""},
		{"wrong audience", sign(t, k1, "k1", "at+jwt", iss.claims("aud", "https://other.example.com/mcp")), 401, "invalid_token"},
		{"audience in a list", sign(t, k1, "k1", "at+jwt", iss.claims("aud", []string{"x", testAudience})), 200, ""},
		{"wrong issuer", sign(t, k1, "k1", "at+jwt", iss.claims("iss", "https://evil.example.com")), 401, "invalid_token"},
		{"id token type", sign(t, k1, "k1", "JWT", iss.claims()), 401, "invalid_token"},
		{"no type", sign(t, k1, "k1", "", iss.claims()), 401, "invalid_token"},
		{"alg none", b64([]byte(`{"alg":"none","typ":"at+jwt","kid":"k1"}`)) + "." + b64(payload) + ".", 401, "invalid_token"},
		{"wrongly signed", sign(t, other, "k1", "at+jwt", iss.claims()), 401, "invalid_token"},
		{"malformed", "a.b.c", 401, "invalid_token"},
		{"bad nbf", sign(t, k1, "k1", "at+jwt", iss.claims("nbf", "soon")), 401, "invalid_token"},
		// RFC 7519 NumericDate is a JSON number: digits in a string are not one.
		{"exp a string", sign(t, k1, "k1", "at+jwt", iss.claims("exp", strconv.FormatInt(time.Now().Add(hour).Unix(), 10))), 401, "invalid_token"},
		{"nbf a string", sign(t, k1, "k1", "at+jwt", iss.claims("nbf", strconv.FormatInt(time.Now().Add(-hour).Unix(), 10))), 401, "invalid_token"},
		{"iat a string", sign(t, k1, "k1", "at+jwt", iss.claims("iat", strconv.FormatInt(time.Now().Unix(), 10))), 401, "invalid_token"},
		{"exp true", sign(t, k1, "k1", "at+jwt", iss.claims("exp", true)), 401, "invalid_token"},
		{"exp past any date", sign(t, k1, "k1", "at+jwt", iss.claims("exp", 1e300)), 401, "invalid_token"},
		{"exp with a fraction", sign(t, k1, "k1", "at+jwt", iss.claims("exp", float64(time.Now().Add(hour).Unix())+0.5)), 200, ""},
		{"no iat", sign(t, k1, "k1", "at+jwt", iss.claims("iat", nil)), 200, ""},
		{"no namespace", sign(t, k1, "k1", "at+jwt", iss.claims("scope", "openid profile")), 403, "insufficient_scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := post(t, ts.URL, tc.token, listBody)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.status == 200 {
				return
			}
			p := challenge(t, resp)
			if p["error"] != tc.code || p["resource_metadata"] != ts.URL+ProtectedResourcePath+Endpoint {
				t.Errorf("challenge %v", p)
			}
			// The scope challenge of a 403 (MCP authorization): the token's
			// scopes and the one that grants every namespace.
			if want := map[int]string{403: "openid profile skills:*"}[tc.status]; p["scope"] != want {
				t.Errorf("scope %q, want %q", p["scope"], want)
			}
		})
	}
	// The metadata names the issuer, and the SDK's client side accepts it.
	prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), ts.URL+ProtectedResourcePath+Endpoint, ts.URL+Endpoint, nil)
	if err != nil || !slices.Equal(prm.AuthorizationServers, []string{iss.srv.URL}) {
		t.Errorf("metadata: %v %+v", err, prm)
	}
	// A good token reads its namespace only, over a real SDK client.
	cs, err := connectBearer(t, ts.URL, good, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := entryURIs(t, allSkills(t, cs)); len(got) != 3 || !strings.HasPrefix(got[0], "skill://acme/") {
		t.Errorf("skills/list %v", got)
	}
}

// TestOAuthKeyRotation: a token signed by a newly published key is
// accepted at once, one by a retired key refused, and tokens naming unknown
// key ids do not make the server fetch the keys at every request.
func TestOAuthKeyRotation(t *testing.T) {
	iss := newTestIssuer(t)
	ts, a := authServer(t, AuthOptions{Issuer: iss.srv.URL, Audience: testAudience})
	// The server's clock, which the test moves on past the refetch gap.
	var skew atomic.Int64
	a.oauth.keys.now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	later := func() { skew.Add(int64(unknownKeyRefetch + time.Second)) }
	status := func(tok string) int {
		resp := post(t, ts.URL, tok, listBody)
		resp.Body.Close()
		return resp.StatusCode
	}
	old := sign(t, iss.key("k1"), "k1", "at+jwt", iss.claims())
	if status(old) != 200 {
		t.Fatal("k1 token refused")
	}
	if n := iss.fetchs.Load(); n != 1 {
		t.Errorf("%d key fetches after start and a token, want 1", n)
	}
	k2 := iss.rotate("k2", true) // k1 retired
	if st := status(sign(t, k2, "k2", "at+jwt", iss.claims())); st != 401 {
		t.Fatalf("a new key within %v of the last fetch: %d, want 401 (no fetch)", unknownKeyRefetch, st)
	}
	later()
	if st := status(sign(t, k2, "k2", "at+jwt", iss.claims())); st != 200 {
		t.Fatalf("a token of the new key: %d", st)
	}
	if status(old) != 401 {
		t.Error("a token of the retired key is still accepted")
	}
	later()
	before := iss.fetchs.Load()
	for i := range 20 {
		k := iss.rotate("x", false)
		if status(sign(t, k, "made-up-"+string(rune('a'+i)), "at+jwt", iss.claims())) != 401 {
			t.Fatal("a token of an unpublished key id was accepted")
		}
	}
	if n := iss.fetchs.Load() - before; n != 1 {
		t.Errorf("20 tokens with unknown key ids caused %d key fetches, want 1", n)
	}
	// Wrongly signed tokens of a known key id fetch nothing.
	before = iss.fetchs.Load()
	for range 20 {
		if status(sign(t, iss.rotate("y", false), "k2", "at+jwt", iss.claims())) != 401 {
			t.Fatal("a wrongly signed token was accepted")
		}
	}
	if n := iss.fetchs.Load() - before; n != 0 {
		t.Errorf("20 wrongly signed tokens caused %d key fetches", n)
	}
	// Concurrent tokens of the current key all pass while keys are fetched.
	var wg sync.WaitGroup
	var refused atomic.Int32
	tok := sign(t, k2, "k2", "at+jwt", iss.claims())
	for range 16 {
		wg.Go(func() {
			if status(tok) != 200 {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if refused.Load() != 0 {
		t.Errorf("%d of 16 concurrent good tokens refused", refused.Load())
	}
}

func TestOAuthNamespacesClaim(t *testing.T) {
	iss := newTestIssuer(t)
	ts, _ := authServer(t, AuthOptions{Issuer: iss.srv.URL, Audience: testAudience, NamespacesClaim: "groups"})
	k := iss.key("k1")
	for _, tc := range []struct {
		groups any
		want   int
	}{
		{[]string{"community", "tools"}, 1},
		{"acme community", 4},
		{[]string{"*"}, 4},
		{[]string{"../etc"}, -403},
		{nil, -403},
	} {
		tok := sign(t, k, "k1", "at+jwt", iss.claims("groups", tc.groups, "scope", "skills:acme"))
		if tc.want < 0 {
			resp := post(t, ts.URL, tok, listBody)
			resp.Body.Close()
			if resp.StatusCode != -tc.want {
				t.Errorf("groups %v: %d, want %d", tc.groups, resp.StatusCode, -tc.want)
			}
			// No scope would grant a namespace: the challenge names none.
			if p := challenge(t, resp); p["error"] != "insufficient_scope" || p["scope"] != "" {
				t.Errorf("groups %v: challenge %v", tc.groups, p)
			}
			continue
		}
		cs, err := connectBearer(t, ts.URL, tok, "2025-11-25")
		if err != nil {
			t.Fatalf("groups %v: %v", tc.groups, err)
		}
		if got := entryURIs(t, allSkills(t, cs)); len(got) != tc.want {
			t.Errorf("groups %v: %v", tc.groups, got)
		}
	}
}

func TestOAuthIssuerRefusals(t *testing.T) {
	iss := newTestIssuer(t)
	iss.broken.Store(true)
	ctx := context.Background()
	if _, err := NewAuthorizer(ctx, AuthOptions{Issuer: iss.srv.URL, Audience: testAudience}); err == nil ||
		!strings.Contains(err.Error(), "keys") || !strings.Contains(err.Error(), "/jwks") {
		t.Errorf("JWKS down: %v", err)
	}
	iss.broken.Store(false)
	if _, err := NewAuthorizer(ctx, AuthOptions{Issuer: iss.srv.URL}); err == nil || !strings.Contains(err.Error(), "--oauth-audience") {
		t.Errorf("no audience: %v", err)
	}
	if _, err := NewAuthorizer(ctx, AuthOptions{Issuer: iss.srv.URL + "/tenant", Audience: testAudience}); err == nil ||
		!strings.Contains(err.Error(), "no authorization server metadata") {
		t.Errorf("no metadata: %v", err)
	}
}

// TestAuthFailureReasons: every reason a token is refused for is in the
// operator's log line, in the request's access line and in
// skills_mcp_auth_failures_total, each counted once per refusal.
func TestAuthFailureReasons(t *testing.T) {
	iss := newTestIssuer(t)
	b, _ := memBundle(t, exampleFixture())
	var logs servetest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	s := newServer(t, serve.Options{Logger: log}, b)
	a, err := NewAuthorizer(context.Background(), AuthOptions{Issuer: iss.srv.URL, Audience: testAudience, Logger: log,
		TokenFile: servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "ops": "*"})})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: m}))
	defer ts.Close()
	k1 := iss.key("k1")
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b64 := base64.RawURLEncoding.EncodeToString
	payload, _ := json.Marshal(iss.claims())
	hs256, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte("a shared secret of 32 bytes, no.")},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	hjws, _ := hs256.Sign(payload)
	hmac, _ := hjws.CompactSerialize()
	hour := time.Hour
	cases := []struct {
		name, token, reason string
		status              int
	}{
		{"no token", "", "missing", 401},
		{"unknown static token", "tok-mallory", "unknown_token", 401},
		{"not a JWS", "a.b.c", "malformed", 401},
		{"no exp", sign(t, k1, "k1", "at+jwt", iss.claims("exp", nil)), "malformed", 401},
		{"alg none", b64([]byte(`{"alg":"none","typ":"at+jwt","kid":"k1"}`)) + "." + b64(payload) + ".", "alg", 401},
		{"HMAC", hmac, "alg", 401},
		{"id token", sign(t, k1, "k1", "JWT", iss.claims()), "type", 401},
		{"wrongly signed", sign(t, other, "k1", "at+jwt", iss.claims()), "signature", 401},
		{"unpublished key id", sign(t, other, "k9", "at+jwt", iss.claims()), "signature", 401},
		{"wrong issuer", sign(t, k1, "k1", "at+jwt", iss.claims("iss", "https://evil.example.com")), "issuer", 401},
		{"wrong audience", sign(t, k1, "k1", "at+jwt", iss.claims("aud", "https://other.example.com/mcp")), "audience", 401},
		{"expired", sign(t, k1, "k1", "at+jwt", iss.claims("exp", time.Now().Add(-hour).Unix())), "expired", 401},
		{"not yet valid", sign(t, k1, "k1", "at+jwt", iss.claims("nbf", time.Now().Add(hour).Unix())), "not_yet_valid", 401},
		{"no namespace", sign(t, k1, "k1", "at+jwt", iss.claims("scope", "openid")), "no_namespaces", 403},
	}
	want := map[string]int{}
	for _, tc := range cases {
		resp := post(t, ts.URL, tc.token, listBody)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %s, want %d", tc.name, resp.Status, tc.status)
		}
		want[tc.reason]++
	}
	fams := scrape(t, ts.URL+MetricsPath, "tok-ops")
	for reason, n := range want {
		if got := metricValue(fams, "skills_mcp_auth_failures_total", "reason", reason); got != float64(n) {
			t.Errorf("skills_mcp_auth_failures_total{reason=%q} = %v, want %d", reason, got, n)
		}
		refused := regexp.MustCompile(`(?m)msg="http: authorization refused" reason=` + reason + `( |$)`)
		if got := len(refused.FindAllString(logs.String(), -1)); got != n {
			t.Errorf("%d log lines with reason=%s, want %d", got, reason, n)
		}
		access := regexp.MustCompile(`(?m)msg=http method=POST path=/mcp .* auth=` + reason + `( |$)`)
		if got := len(access.FindAllString(logs.String(), -1)); got != n {
			t.Errorf("%d access lines with auth=%s, want %d", got, reason, n)
		}
	}
	if t.Failed() || strings.Contains(logs.String(), "tok-") {
		t.Logf("log:\n%s", logs.String())
	}
}

// TestOAuthJWKSDown: when the issuer's key set cannot be fetched after
// start, the keys fetched before stay in use; a token of a key the server
// does not hold is refused 401 invalid_token with the reason logged and
// counted; once the key set is back, that token is accepted.
func TestOAuthJWKSDown(t *testing.T) {
	iss := newTestIssuer(t)
	b, _ := memBundle(t, exampleFixture())
	var logs servetest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	s := newServer(t, serve.Options{Logger: log}, b)
	a, err := NewAuthorizer(context.Background(), AuthOptions{Issuer: iss.srv.URL, Audience: testAudience, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: m}))
	defer ts.Close()
	var skew atomic.Int64 // the key cache's clock, moved on by the test
	a.oauth.keys.now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	later := func(d time.Duration) { skew.Add(int64(d)) }
	k1 := sign(t, iss.key("k1"), "k1", "at+jwt", iss.claims())
	status := func(tok string) *http.Response {
		t.Helper()
		resp := post(t, ts.URL, tok, listBody)
		resp.Body.Close()
		return resp
	}
	if st := status(k1).StatusCode; st != 200 {
		t.Fatalf("k1 before the outage: %d", st)
	}
	iss.broken.Store(true)
	// Past their age the keys are fetched again; that fails and they stay.
	later(keyMaxAge + time.Second)
	before := iss.fetchs.Load()
	if st := status(k1).StatusCode; st != 200 {
		t.Errorf("k1 during the outage: %d, want 200 (the cached keys)", st)
	}
	if iss.fetchs.Load() == before {
		t.Error("stale keys were not fetched again")
	}
	if !strings.Contains(logs.String(), `msg="oauth: the issuer's keys cannot be fetched; the keys fetched before stay in use" jwks=`+iss.srv.URL+"/jwks") {
		t.Errorf("no log of the failed fetch:\n%s", logs.String())
	}
	// A token of a new key: refused, within the refetch gap and past it.
	k2key := iss.rotate("k2", false)
	k2 := sign(t, k2key, "k2", "at+jwt", iss.claims())
	for i, wait := range []time.Duration{0, unknownKeyRefetch + time.Second} {
		later(wait)
		resp := status(k2)
		if resp.StatusCode != 401 {
			t.Fatalf("k2 during the outage (%d): %s, want 401", i, resp.Status)
		}
		p := challenge(t, resp)
		if p["error"] != "invalid_token" || p["resource_metadata"] != ts.URL+ProtectedResourcePath+Endpoint ||
			!strings.Contains(p["error_description"], "cannot be fetched") {
			t.Errorf("k2 during the outage (%d): challenge %v", i, p)
		}
	}
	refused := regexp.MustCompile(`(?m)msg="http: authorization refused" reason=keys_unavailable remote=\S+ detail=".*/jwks: 500 Internal Server Error"$`)
	if n := len(refused.FindAllString(logs.String(), -1)); n != 2 {
		t.Errorf("%d refusals logged with reason=keys_unavailable and the fetch's error, want 2:\n%s", n, logs.String())
	}
	if n := metricValue(scrape(t, ts.URL+MetricsPath, sign(t, iss.key("k1"), "k1", "at+jwt", iss.claims("scope", "skills:*"))), "skills_mcp_auth_failures_total", "reason", "keys_unavailable"); n != 2 {
		t.Errorf("skills_mcp_auth_failures_total{reason=keys_unavailable} = %v, want 2", n)
	}
	// The key set is back: the new key is fetched and accepted.
	iss.broken.Store(false)
	later(unknownKeyRefetch + time.Second)
	if st := status(k2).StatusCode; st != 200 {
		t.Errorf("k2 once the key set is back: %d", st)
	}
	if st := status(k1).StatusCode; st != 200 {
		t.Errorf("k1 once the key set is back: %d", st)
	}
	if !strings.Contains(logs.String(), `msg="oauth: the issuer's keys are fetched again"`) {
		t.Errorf("no log of the recovery:\n%s", logs.String())
	}
}
