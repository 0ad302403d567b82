package serve

// JWT access tokens (RFC 9068) of one OAuth issuer (--oauth-issuer). The
// issuer's metadata is found with the Go SDK (auth.GetAuthServerMetadata:
// RFC 8414, then OpenID discovery); its keys are fetched, cached and
// re-fetched on an unknown key id by go-oidc's RemoteKeySet, which also
// checks the signature (go-jose). The claims are checked here, so that each
// refusal has its own reason.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// clockSkew is how far the issuer's clock may be from ours when exp and nbf
// are checked.
const clockSkew = time.Minute

// unknownKeyRefetch is the least time between two key fetches caused by a
// token whose key id is not known: a token with a made-up key id must not
// make the server fetch the issuer's keys at every request.
const unknownKeyRefetch = 10 * time.Second

// scopePrefix marks, in the scope claim, the values that name a readable
// namespace: skills:sales, or skills:* for every namespace.
const scopePrefix = "skills:"

// signingAlgs are the JWS algorithms accepted: the asymmetric ones an
// issuer publishes keys for. "none" and the HMAC algorithms never are.
var signingAlgs = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

// oauthVerifier checks JWT access tokens of one issuer.
type oauthVerifier struct {
	issuer, audience, claim string
	meta                    *oauthex.AuthServerMeta
	verifier                *oidc.IDTokenVerifier
	now                     func() time.Time

	mu       sync.Mutex
	known    map[string]bool // key ids that verified a token, or were in the key set at start
	inflight chan struct{}   // closed when the running check of an unknown key id ends
	lastMiss time.Time       // when a token with an unknown key id last went to the key set
}

// newOAuthVerifier finds the issuer's metadata and checks that its keys can
// be fetched, so that a wrong issuer stops the server at start.
func newOAuthVerifier(ctx context.Context, issuer, audience, claim string, client *http.Client) (*oauthVerifier, error) {
	if audience == "" {
		return nil, fmt.Errorf("oauth issuer %s: --oauth-audience is required: the resource identifier tokens must carry in aud", issuer)
	}
	if claim == "" {
		claim = "scope"
	}
	meta, err := auth.GetAuthServerMetadata(ctx, issuer, client)
	if err != nil {
		return nil, fmt.Errorf("oauth issuer %s: metadata: %w", issuer, err)
	}
	if meta == nil {
		return nil, fmt.Errorf("oauth issuer %s: no authorization server metadata (RFC 8414) or OpenID configuration found", issuer)
	}
	if meta.JWKSURI == "" {
		return nil, fmt.Errorf("oauth issuer %s: its metadata has no jwks_uri", issuer)
	}
	kids, err := checkKeys(ctx, meta.JWKSURI, client)
	if err != nil {
		return nil, fmt.Errorf("oauth issuer %s: keys: %w", issuer, err)
	}
	// Key fetches outlive the request that caused them.
	keys := oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), client), meta.JWKSURI)
	algs := make([]string, len(signingAlgs))
	for i, a := range signingAlgs {
		algs[i] = string(a)
	}
	v := oidc.NewVerifier(issuer, keys, &oidc.Config{
		SupportedSigningAlgs: algs,
		// Checked in verify, each with its own reason.
		SkipClientIDCheck: true, SkipExpiryCheck: true, SkipIssuerCheck: true,
	})
	o := &oauthVerifier{issuer: issuer, audience: audience, claim: claim, meta: meta, verifier: v,
		now: time.Now, known: map[string]bool{}}
	for _, k := range kids {
		o.learn(k)
	}
	return o, nil
}

// checkKeys fetches the issuer's key set once, checks that it holds a key
// and returns their ids.
func checkKeys(ctx context.Context, uri string, client *http.Client) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", uri, resp.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20)).Decode(&set); err != nil {
		return nil, fmt.Errorf("%s: %w", uri, err)
	}
	if len(set.Keys) == 0 {
		return nil, fmt.Errorf("%s: no keys", uri)
	}
	var kids []string
	for _, k := range set.Keys {
		kids = append(kids, k.KeyID)
	}
	return kids, nil
}

// accessClaims are the claims of an access token that verify reads.
type accessClaims struct {
	Subject  string       `json:"sub"`
	ClientID string       `json:"client_id"`
	NotBf    *json.Number `json:"nbf"`
	Scope    string       `json:"scope"`
}

// verify checks a JWT access token: signature by a key of the issuer, typ
// at+jwt (RFC 9068), iss, aud, exp and nbf; and maps the namespaces claim to
// the token's access.
func (o *oauthVerifier) verify(ctx context.Context, raw string) (*auth.TokenInfo, *authError) {
	jws, err := jose.ParseSignedCompact(raw, signingAlgs)
	if err != nil {
		return nil, invalidToken("malformed", "the token is not a JWS signed with an accepted algorithm")
	}
	if len(jws.Signatures) != 1 {
		return nil, invalidToken("malformed", "the token must carry one signature")
	}
	h := jws.Signatures[0].Protected
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); !strings.EqualFold(typ, "at+jwt") && !strings.EqualFold(typ, "application/at+jwt") {
		return nil, invalidToken("type", "the token is not a JWT access token (typ at+jwt)")
	}
	var tok *oidc.IDToken
	err = o.checkSignature(ctx, h.KeyID, func() (err error) {
		tok, err = o.verifier.Verify(ctx, raw)
		return err
	})
	if err != nil {
		return nil, &authError{status: http.StatusUnauthorized, code: "invalid_token", desc: "the token's signature does not verify",
			reason: "signature", detail: err.Error()}
	}
	now := o.now()
	switch {
	case !issuersEqual(tok.Issuer, o.issuer):
		return nil, invalidToken("issuer", "the token is from another issuer")
	case !oauthex.MatchesResource(tok.Audience, o.audience):
		return nil, invalidToken("audience", "the token is not for this resource")
	case tok.Expiry.IsZero():
		return nil, invalidToken("malformed", "the token has no exp")
	case now.After(tok.Expiry.Add(clockSkew)):
		return nil, invalidToken("expired", "the token expired")
	}
	var c accessClaims
	all := map[string]json.RawMessage{}
	if err := tok.Claims(&all); err != nil {
		return nil, invalidToken("malformed", "the token's claims are not a JSON object")
	}
	if err := tok.Claims(&c); err != nil {
		return nil, invalidToken("malformed", "the token's claims have the wrong types")
	}
	if c.NotBf != nil {
		nbf, err := c.NotBf.Float64()
		if err != nil {
			return nil, invalidToken("malformed", "the token's nbf is not a number")
		}
		if now.Add(clockSkew).Before(time.Unix(int64(nbf), 0)) {
			return nil, invalidToken("not_yet_valid", "the token is not valid yet")
		}
	}
	access, err := o.namespaces(all, c.Scope)
	if err != nil {
		return nil, invalidToken("malformed", err.Error())
	}
	name := c.Subject
	if name == "" {
		name = c.ClientID
	}
	return &auth.TokenInfo{
		Scopes:     strings.Fields(c.Scope),
		Expiration: tok.Expiry,
		UserID:     "oauth:" + name,
		Extra:      map[string]any{tokenAccess: access, tokenNameExtra: "oauth:" + name},
	}, nil
}

// namespaces maps the namespaces claim to access: with scope, the values
// skills:NS; with another claim, its values (a string array, or a string of
// names separated by spaces or commas) are namespaces. Values that are not
// namespace names are ignored.
func (o *oauthVerifier) namespaces(claims map[string]json.RawMessage, scope string) (*Access, error) {
	var vals []string
	if o.claim == "scope" {
		for _, s := range strings.Fields(scope) {
			if ns, ok := strings.CutPrefix(s, scopePrefix); ok {
				vals = append(vals, ns)
			}
		}
	} else if raw, ok := claims[o.claim]; ok {
		var list []string
		var one string
		switch {
		case json.Unmarshal(raw, &list) == nil:
			vals = list
		case json.Unmarshal(raw, &one) == nil:
			vals = strings.FieldsFunc(one, func(r rune) bool { return r == ' ' || r == ',' })
		default:
			return nil, fmt.Errorf("the token's %s claim is neither a string nor an array of strings", o.claim)
		}
	}
	var ns []string
	for _, v := range vals {
		if tokenNamespace.MatchString(v) {
			ns = append(ns, v)
		}
	}
	return NewAccess(ns...), nil
}

// checkSignature runs verify, the signature check of a token signed with
// key id kid. A token with an unknown key id makes the key set fetch the
// issuer's keys (as after a rotation): one such check runs at a time, others
// wait for it, and after it another may run only unknownKeyRefetch later.
// A key that fails (retired by a rotation) is unknown again.
func (o *oauthVerifier) checkSignature(ctx context.Context, kid string, verify func() error) error {
	o.mu.Lock()
	if !o.known[kid] {
		if ch := o.inflight; ch != nil {
			o.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return ctx.Err()
			}
			o.mu.Lock()
		}
	}
	if o.known[kid] {
		o.mu.Unlock()
		err := verify()
		if err != nil {
			o.mu.Lock()
			delete(o.known, kid)
			o.mu.Unlock()
		}
		return err
	}
	now := o.now()
	if o.inflight != nil || now.Sub(o.lastMiss) < unknownKeyRefetch && !o.lastMiss.After(now) {
		o.mu.Unlock()
		return errUnknownKey
	}
	ch := make(chan struct{})
	o.inflight, o.lastMiss = ch, now
	o.mu.Unlock()
	err := verify()
	o.mu.Lock()
	if err == nil {
		o.learn(kid)
	}
	o.inflight = nil
	close(ch)
	o.mu.Unlock()
	return err
}

// learn records a key id that verified a token (or that the key set held at
// start), under mu.
func (o *oauthVerifier) learn(kid string) {
	if len(o.known) >= 64 {
		clear(o.known)
	}
	o.known[kid] = true
}

// issuersEqual compares issuer identifiers, ignoring a final slash.
func issuersEqual(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// errUnknownKey refuses a token whose key id the issuer's keys do not hold.
var errUnknownKey = errors.New("the token is signed by an unknown key")
