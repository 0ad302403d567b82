package teamserver

// JWT access tokens (RFC 9068) of one OAuth issuer (--oauth-issuer). The
// issuer's metadata is found with the Go SDK (auth.GetAuthServerMetadata:
// RFC 8414, then OpenID discovery). go-jose parses the JWS, decodes the key
// set and checks signatures. Keys are cached here (keyCache), not by
// go-oidc's RemoteKeySet, which fetches the key set again after every
// signature that fails to verify: any client could make the server hit the
// issuer at every request. The claims are checked here too, so that each
// refusal has its own reason.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/skills-mcp/skills-mcp/serve"
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
	keys                    *keyCache
	now                     func() time.Time
}

// newOAuthVerifier finds the issuer's metadata and fetches its keys, so that
// a wrong issuer stops the server at start.
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
	o := &oauthVerifier{issuer: issuer, audience: audience, claim: claim, meta: meta, now: time.Now}
	o.keys = &keyCache{uri: meta.JWKSURI, client: client, now: o.now}
	if err := o.keys.refresh(ctx); err != nil {
		return nil, fmt.Errorf("oauth issuer %s: keys: %w", issuer, err)
	}
	return o, nil
}

// accessClaims are the claims of an access token that verify reads.
type accessClaims struct {
	Issuer   string          `json:"iss"`
	Audience json.RawMessage `json:"aud"`
	Expiry   json.RawMessage `json:"exp"`
	NotBf    json.RawMessage `json:"nbf"`
	IssuedAt json.RawMessage `json:"iat"`
	Subject  string          `json:"sub"`
	ClientID string          `json:"client_id"`
	Scope    string          `json:"scope"`
}

// verify checks a JWT access token: signature by a key of the issuer, typ
// at+jwt (RFC 9068), iss, aud, exp and nbf; and maps the namespaces claim to
// the token's access.
func (o *oauthVerifier) verify(ctx context.Context, raw string) (*auth.TokenInfo, *authError) {
	jws, err := jose.ParseSignedCompact(raw, signingAlgs)
	if err != nil {
		if alg := headerAlg(raw); alg != "" && !slices.Contains(signingAlgs, jose.SignatureAlgorithm(alg)) {
			return nil, invalidToken("alg", "the token is not signed with an accepted algorithm (RS, PS, ES or EdDSA; never none or HMAC)")
		}
		return nil, invalidToken("malformed", "the token is not a JWS signed with an accepted algorithm")
	}
	if len(jws.Signatures) != 1 {
		return nil, invalidToken("malformed", "the token must carry one signature")
	}
	h := jws.Signatures[0].Protected
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); !strings.EqualFold(typ, "at+jwt") && !strings.EqualFold(typ, "application/at+jwt") {
		return nil, invalidToken("type", "the token is not a JWT access token (typ at+jwt)")
	}
	keys, err := o.keys.get(ctx, h.KeyID)
	if err != nil {
		e := &authError{status: http.StatusUnauthorized, code: "invalid_token", desc: "the token is signed by an unknown key",
			reason: "signature", detail: err.Error()}
		if errors.Is(err, errKeysUnavailable) {
			e.reason, e.desc = "keys_unavailable", "the token is signed by a key the server does not hold, and the issuer's keys cannot be fetched"
		}
		return nil, e
	}
	var payload []byte
	for i := range keys {
		if payload, err = jws.Verify(&keys[i]); err == nil {
			break
		}
	}
	if payload == nil {
		return nil, invalidToken("signature", "the token's signature does not verify")
	}
	var c accessClaims
	all := map[string]json.RawMessage{}
	if json.Unmarshal(payload, &all) != nil || json.Unmarshal(payload, &c) != nil {
		return nil, invalidToken("malformed", "the token's claims are not a JSON object of the RFC 9068 types")
	}
	aud, ok := audiences(c.Audience)
	if !ok {
		return nil, invalidToken("malformed", "the token's aud is neither a string nor an array of strings")
	}
	exp, ok := numericDate(c.Expiry)
	if !ok || c.Expiry == nil {
		return nil, invalidToken("malformed", "the token has no numeric exp")
	}
	nbf, ok := numericDate(c.NotBf)
	if !ok {
		return nil, invalidToken("malformed", "the token's nbf is not a number")
	}
	if _, ok := numericDate(c.IssuedAt); !ok {
		return nil, invalidToken("malformed", "the token's iat is not a number")
	}
	now := o.now()
	switch {
	case !issuersEqual(c.Issuer, o.issuer):
		return nil, invalidToken("issuer", "the token is from another issuer")
	case !oauthex.MatchesResource(aud, o.audience):
		return nil, invalidToken("audience", "the token is not for this resource")
	case now.After(exp.Add(clockSkew)):
		return nil, invalidToken("expired", "the token expired")
	case c.NotBf != nil && now.Add(clockSkew).Before(nbf):
		return nil, invalidToken("not_yet_valid", "the token is not valid yet")
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
		Expiration: exp,
		UserID:     "oauth:" + name,
		Extra:      map[string]any{serve.AccessExtra: access, tokenNameExtra: "oauth:" + name},
	}, nil
}

// headerAlg returns the alg of a compact JWS's protected header, or "" when
// the header does not decode.
func headerAlg(raw string) string {
	seg, _, _ := strings.Cut(raw, ".")
	data, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return ""
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(data, &h) != nil {
		return ""
	}
	return h.Alg
}

// audiences decodes aud: one string or an array of them.
func audiences(raw json.RawMessage) ([]string, bool) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list, true
	}
	return nil, len(raw) == 0
}

// maxNumericDate bounds a NumericDate's magnitude, in seconds: 2^53, past
// which a JSON number is no longer an exact second and time.Unix's range
// is near.
const maxNumericDate = 1 << 53

// numericDate decodes a NumericDate claim (RFC 7519 §2): a JSON number of
// seconds since the epoch, fractions allowed; anything else (a string of
// digits, null, a boolean) is refused. A missing one is the zero time.
func numericDate(raw json.RawMessage) (time.Time, bool) {
	if raw == nil {
		return time.Time{}, true
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return time.Time{}, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.Abs(f) > maxNumericDate {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true
}

// namespaces maps the namespaces claim to access: with scope, the values
// skills:NS; with another claim, its values (a string array, or a string of
// names separated by spaces or commas) are namespaces. Values that are not
// namespace names are ignored.
func (o *oauthVerifier) namespaces(claims map[string]json.RawMessage, scope string) (*serve.Access, error) {
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
	return serve.NewAccess(ns...), nil
}

// keyMaxAge is how long fetched keys are used before the key set is fetched
// again (on the next token that needs them); while that fails, the old keys
// stay in use.
const keyMaxAge = 15 * time.Minute

// keyFetchTimeout bounds one fetch of the key set.
const keyFetchTimeout = 10 * time.Second

// keyCache holds the issuer's key set. It is fetched again when a token
// names a key id it does not hold (a rotation) or once keyMaxAge old, but
// never twice within unknownKeyRefetch: one fetch at a time, which the
// tokens needing it wait for.
type keyCache struct {
	uri    string
	client *http.Client
	now    func() time.Time
	log    *slog.Logger // failed fetches and recoveries; nil: none

	mu       sync.Mutex
	byKid    map[string][]jose.JSONWebKey // "" holds every key, for tokens without kid
	fetched  time.Time                    // last good fetch
	tried    time.Time                    // last fetch
	failed   error                        // of the last fetch, nil if it was good
	inflight chan struct{}                // closed when the running fetch ends
}

// get returns the keys of key id kid, fetching the key set if needed.
func (c *keyCache) get(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	c.mu.Lock()
	ks := c.byKid[kid]
	now := c.now()
	fresh := now.Sub(c.fetched) < keyMaxAge
	if len(ks) > 0 && fresh || now.Sub(c.tried) < unknownKeyRefetch && c.inflight == nil {
		failed := c.failed
		c.mu.Unlock()
		if len(ks) == 0 {
			return nil, c.unknown(failed)
		}
		return ks, nil
	}
	ch := c.inflight
	c.mu.Unlock()
	if ch == nil {
		// This token's fetch; it outlives the request, whose end must not
		// fail the tokens waiting for it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), keyFetchTimeout)
		err := c.refresh(fctx)
		cancel()
		if err != nil && len(ks) == 0 {
			return nil, c.unknown(err)
		}
	} else {
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	ks, failed := c.byKid[kid], c.failed
	c.mu.Unlock()
	if len(ks) == 0 {
		return nil, c.unknown(failed)
	}
	return ks, nil
}

// unknown is the error for a key id the cache does not hold: the key set
// could not be fetched (failed, the last fetch's error), or it lacks it.
func (c *keyCache) unknown(failed error) error {
	if failed != nil {
		return fmt.Errorf("%w: %w", errKeysUnavailable, failed)
	}
	return errUnknownKey
}

// refresh fetches the key set, unless a fetch is running (then it waits for
// it), and keeps it if it holds a key.
func (c *keyCache) refresh(ctx context.Context) error {
	c.mu.Lock()
	if ch := c.inflight; ch != nil {
		c.mu.Unlock()
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ch := make(chan struct{})
	c.inflight, c.tried = ch, c.now()
	c.mu.Unlock()
	set, err := fetchKeys(ctx, c.uri, c.client)
	c.mu.Lock()
	if err == nil {
		c.byKid = map[string][]jose.JSONWebKey{}
		for _, k := range set.Keys {
			if k.Use == "" || k.Use == "sig" {
				c.byKid[k.KeyID] = append(c.byKid[k.KeyID], k)
				if k.KeyID != "" {
					c.byKid[""] = append(c.byKid[""], k)
				}
			}
		}
		c.fetched = c.tried
		if c.failed != nil && c.log != nil {
			c.log.Info("oauth: the issuer's keys are fetched again", "jwks", c.uri, "keys", len(set.Keys))
		}
	} else if c.byKid != nil && c.log != nil {
		c.log.Warn("oauth: the issuer's keys cannot be fetched; the keys fetched before stay in use", "jwks", c.uri, "err", err)
	}
	c.failed = err
	c.inflight = nil
	close(ch)
	c.mu.Unlock()
	return err
}

// fetchKeys fetches a key set and checks that it holds a key.
func fetchKeys(ctx context.Context, uri string, client *http.Client) (*jose.JSONWebKeySet, error) {
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
	return &set, nil
}

// issuersEqual compares issuer identifiers, ignoring a final slash.
func issuersEqual(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// errKeysUnavailable refuses a token whose key id the cache lacks while the
// issuer's keys cannot be fetched.
var errKeysUnavailable = errors.New("fetching the issuer's keys")

// errUnknownKey refuses a token whose key id the issuer's keys do not hold.
var errUnknownKey = errors.New("the token is signed by a key the issuer does not publish")
