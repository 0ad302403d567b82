package live

// Followed sources over https: a bundle file at a URL, and a discovery site
// (its index.json). Each check is one conditional GET (If-None-Match,
// If-Modified-Since) through the bounded fetch (internal/fetch); a new body
// is hashed, and its sha256 is the digest the Follower compares.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// URLOptions configure the sources of NewBundleURL and NewSite.
type URLOptions struct {
	// Client is the base of the bounded client (its transport); nil for a
	// fresh one.
	Client *http.Client
	// MaxBytes caps one download; build.DefaultMaxDownloadBytes if 0.
	MaxBytes int64
	// Timeout bounds each request, body included; build.DefaultFetchTimeout
	// if 0. Idle bounds each wait for the server (fetch.DefaultIdle if 0).
	Timeout, Idle time.Duration
	// Trusted, when not nil, are the keys a bundle must be signed by
	// (--trust); Signed then learns who signed each bundle opened.
	Trusted []manifest.TrustedKey
	Signed  func(b *manifest.Bundle, who string)
}

// conditional is the state of a URL checked by conditional GETs: the
// validators of the last body read, its digest, and the body itself until
// it is opened.
type conditional struct {
	u      *url.URL
	name   string
	client *http.Client
	max    int64

	mu           sync.Mutex
	etag, since  string // the validators the server gave with the last body
	digest       string // "sha256:<hex>" of the last body
	body         []byte // the last body, kept until Open takes it
	bodyDigest   string
	acceptHeader string
}

func newConditional(raw string, opt URLOptions, accept string) (*conditional, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("follow %s: %w", raw, err)
	}
	if u.Scheme != "https" || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("follow %s: only an https URL without user info is followed", fetch.Redact(u))
	}
	u.Fragment, u.RawFragment = "", ""
	max := opt.MaxBytes
	if max <= 0 {
		max = build.DefaultMaxDownloadBytes
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = build.DefaultFetchTimeout
	}
	c := fetch.Client(opt.Client, fetch.Policy{Timeout: timeout, Idle: opt.Idle, MaxBytes: max, Redirects: 5, CheckURL: httpsOnly})
	return &conditional{u: u, name: fetch.Redact(u), client: c, max: max, acceptHeader: accept}, nil
}

// resolve sends one conditional GET: on 304 the digest of the last body, on
// 200 the digest of the new one, kept for take.
func (c *conditional) resolve(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.name, err)
	}
	req.Header.Set("Accept", c.acceptHeader)
	if c.digest != "" {
		if c.etag != "" {
			req.Header.Set("If-None-Match", c.etag)
		}
		if c.since != "" {
			req.Header.Set("If-Modified-Since", c.since)
		}
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.name, unwrapURL(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && c.digest != "":
		return c.digest, nil
	case resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("%s: %s", c.name, resp.Status)
	case resp.ContentLength > c.max:
		return "", FollowRefusal(ReasonRefused, fmt.Errorf("%s: declares %d bytes, over the %d-byte download limit (rule fetch-too-large)", c.name, resp.ContentLength, c.max))
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength))
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(&buf, h), io.LimitReader(resp.Body, c.max+1))
	if err == nil {
		err = ctx.Err() // a body cut short by the deadline can end in a clean EOF
	}
	if fetch.RuleOf(err) == fetch.RuleTooLarge || n > c.max {
		return "", FollowRefusal(ReasonRefused, fmt.Errorf("%s: over the %d-byte download limit (rule fetch-too-large)", c.name, c.max))
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.name, unwrapURL(err))
	}
	c.digest = "sha256:" + hex.EncodeToString(h.Sum(nil))
	c.etag, c.since = resp.Header.Get("ETag"), strongSince(resp.Header, time.Now())
	c.body, c.bodyDigest = buf.Bytes(), c.digest
	return c.digest, nil
}

// take returns the body of digest and forgets it, or nil when the last
// body read is another's (a check came between).
func (c *conditional) take(digest string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodyDigest != digest {
		return nil
	}
	b := c.body
	c.body, c.bodyDigest = nil, ""
	return b
}

// forget drops the validators, so that the next check downloads the body
// again: a release that Open could not read (it was taken) needs its bytes.
func (c *conditional) forget() {
	c.mu.Lock()
	c.etag, c.since = "", ""
	c.mu.Unlock()
}

// httpsOnly is the redirect rule of a followed URL.
func httpsOnly(u *url.URL) error {
	if u.Scheme != "https" {
		return fmt.Errorf("redirect to %s: only https is followed", fetch.Redact(u))
	}
	return nil
}

// unwrapURL drops *url.Error's copy of the URL (it holds the query).
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// BundleURL follows a bundle file (.skb) at an https URL.
type BundleURL struct {
	c   *conditional
	opt URLOptions
}

// NewBundleURL returns the source of the bundle at raw (https).
func NewBundleURL(raw string, opt URLOptions) (*BundleURL, error) {
	c, err := newConditional(raw, opt, "application/octet-stream")
	if err != nil {
		return nil, err
	}
	return &BundleURL{c: c, opt: opt}, nil
}

// Name is the URL without query, fragment or user.
func (s *BundleURL) Name() string { return s.c.name }

// Resolve sends one conditional GET and returns the sha256 of the bundle
// file the URL serves now.
func (s *BundleURL) Resolve(ctx context.Context) (string, error) { return s.c.resolve(ctx) }

// Open reads the bundle Resolve downloaded, checks every byte (Verify) and,
// with trusted keys, its signatures. It stays in memory.
func (s *BundleURL) Open(ctx context.Context, digest string) (*manifest.Bundle, error) {
	data := s.c.take(digest)
	if data == nil {
		s.c.forget()
		return nil, fmt.Errorf("%s: %s: the download moved on; it is fetched again at the next check", s.c.name, digest)
	}
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err == nil {
		err = b.Verify()
	}
	if err != nil {
		return nil, FollowRefusal(ReasonInvalid, fmt.Errorf("%s: %s: %w", s.c.name, digest, err))
	}
	if s.opt.Trusted != nil {
		who, err := checkSignatures(b, s.opt.Trusted)
		if err != nil {
			s.c.forget() // signatures may come later (ReasonSignature is tried again)
			return nil, FollowRefusal(ReasonSignature, fmt.Errorf("%s: %s: %w", s.c.name, digest, err))
		}
		if s.opt.Signed != nil {
			s.opt.Signed(b, who)
		}
	}
	return b, nil
}

// checkSignatures verifies b's signatures against trusted and names the
// signer.
func checkSignatures(b *manifest.Bundle, trusted []manifest.TrustedKey) (string, error) {
	mb, err := b.ManifestBytes()
	if err != nil {
		return "", err
	}
	k, err := manifest.VerifySignatures(mb, b.Signatures(), trusted)
	if err != nil {
		return "", err
	}
	return manifest.Signer(k), nil
}

// Site follows an Agent Skills discovery site: its index.json is re-read
// with a conditional GET at each check, and an index with another digest
// is a new release, built here from the site's artifacts (every artifact
// checked against the digest the index gives) into a bundle in memory.
type Site struct {
	c     *conditional
	build build.Options
}

// NewSite returns the source of the discovery site whose index is at raw
// (…/.well-known/agent-skills/index.json), built with opt's policy (scripts,
// lint, limits, cache) as the library lib of namespace ns.
func NewSite(raw, ns string, uopt URLOptions, opt build.Options) (*Site, error) {
	if uopt.Trusted != nil {
		return nil, fmt.Errorf("follow %s: a discovery site is built here from its artifacts, not a signed bundle, so --trust cannot check it: follow the site's signed bundle (an https .skb or an oci:// tag) instead", raw)
	}
	c, err := newConditional(raw, uopt, "application/json")
	if err != nil {
		return nil, err
	}
	opt.Libraries = []build.Library{{Namespace: ns, URL: raw}}
	return &Site{c: c, build: opt}, nil
}

// Name is the index URL without query, fragment or user.
func (s *Site) Name() string { return s.c.name }

// Resolve sends one conditional GET of the index and returns its sha256.
func (s *Site) Resolve(ctx context.Context) (string, error) {
	d, err := s.c.resolve(ctx)
	s.c.take(d) // the build reads the site itself
	return d, err
}

// Open builds the site into a bundle. An entry the build leaves out (an
// artifact that lies about its digest, an archive that breaks a rule), a
// site that cannot be read, or a build that fails refuses the release: a
// follower serves a site whole or keeps the previous release.
func (s *Site) Open(ctx context.Context, digest string) (*manifest.Bundle, error) {
	opt := s.build
	opt.Context = ctx
	var leftOut []string
	var stale bool
	opt.Warn = func(w string) {
		switch {
		case strings.Contains(w, "the site could not be read"):
			stale = true
		case strings.Contains(w, " left out: "):
			leftOut = append(leftOut, w)
		}
	}
	var buf bytes.Buffer
	_, err := build.Build(opt, &buf)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case stale:
		return nil, fmt.Errorf("%s: the site could not be read", s.c.name)
	case err != nil:
		return nil, FollowRefusal(ReasonInvalid, fmt.Errorf("%s: %s: %w", s.c.name, digest, err))
	case len(leftOut) > 0:
		return nil, FollowRefusal(ReasonRefused, fmt.Errorf("%s: %s: %s", s.c.name, digest, strings.Join(leftOut, "; ")))
	}
	b, err := build.OpenMemory(buf.Bytes())
	if err != nil {
		return nil, FollowRefusal(ReasonInvalid, fmt.Errorf("%s: %s: %w", s.c.name, digest, err))
	}
	return b, nil
}

// strongSince returns the answer's Last-Modified when it may validate the
// next request, or "" when it may not: a time less than a second before the
// answer's Date (or now, when it has none) is a weak validator (RFC 9110,
// 8.8.2.2), since the resource may change again within that second and
// still answer 304 to If-Modified-Since, so the change would never be seen.
func strongSince(h http.Header, now time.Time) string {
	lm, err := http.ParseTime(h.Get("Last-Modified"))
	if err != nil {
		return ""
	}
	if d, err := http.ParseTime(h.Get("Date")); err == nil {
		now = d
	}
	if now.Sub(lm) < time.Second {
		return ""
	}
	return h.Get("Last-Modified")
}
