package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Defaults for FetchOptions fields left zero.
const (
	DefaultMaxDownloadBytes = 256 << 20
	DefaultFetchTimeout     = 60 * time.Second
)

const (
	maxFetchRedirects = 5
	maxSidecarBytes   = 64 << 10
)

// FetchOptions configures Fetch. Reading the environment is the CLI's job.
type FetchOptions struct {
	CacheDir string        // required; downloads are kept in CacheDir/downloads
	Token    string        // bearer token, sent only to the host of the library URL
	MaxBytes int64         // download cap; 0 means DefaultMaxDownloadBytes
	Timeout  time.Duration // per request, body included; 0 means DefaultFetchTimeout
	Client   *http.Client  // nil means a fresh one; Fetch bounds it (internal/fetch), never changes it

	// Logf receives warnings (a missing sidecar, a stale cached copy served).
	// Nil discards them. Lines never hold a query string or fragment.
	Logf func(format string, args ...any)
}

// ParseLibraryURL splits a remote library reference of the form
// "https://host/path.zip#sha256=<64 hex>" into the URL without its fragment
// and the pinned digest (nil without a pin). Only https is accepted, with no
// user info; the only fragment allowed is the pin, whose hex may be any case.
func ParseLibraryURL(s string) (u string, pin *manifest.Digest, err error) {
	pu, err := parseFetchURL(s)
	if err != nil {
		return "", nil, err
	}
	if pu.Fragment != "" {
		v, ok := strings.CutPrefix(pu.Fragment, "sha256=")
		if !ok {
			return "", nil, fmt.Errorf("library url %s: unsupported fragment; the only one allowed is #sha256=<64 hex>", redactURL(pu))
		}
		d, err := parseHexDigest(v)
		if err != nil {
			return "", nil, fmt.Errorf("pinned sha256 for %s is not a 64-char hex digest", redactURL(pu))
		}
		pin = &d
	}
	pu.Fragment, pu.RawFragment = "", ""
	return pu.String(), pin, nil
}

// parseFetchURL parses an https library URL; the fragment is kept for the
// caller to read or drop.
func parseFetchURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the whole URL
		}
		return nil, fmt.Errorf("library url %s: %w", redactRawURL(s), err)
	}
	switch {
	case u.Scheme != "https":
		return nil, fmt.Errorf("refusing %s for a library archive; https is required", redactURL(u))
	case u.Host == "" || u.Opaque != "":
		return nil, fmt.Errorf("library url %s: no host", redactURL(u))
	case u.User != nil:
		return nil, fmt.Errorf("library url %s: credentials in the url are not allowed; use a token", redactURL(u))
	}
	return u, nil
}

// parseHexDigest parses 64 hexadecimal digits of either case.
func parseHexDigest(s string) (manifest.Digest, error) {
	var d manifest.Digest
	if len(s) != 2*len(d) {
		return d, errors.New("not 64 hex digits")
	}
	_, err := hex.Decode(d[:], []byte(s))
	return d, err
}

// redactURL returns scheme://host/path of u: no user info, query or fragment,
// so a signed URL's credentials never reach an error or a log line.
func redactURL(u *url.URL) string {
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return r.String()
}

// redactRawURL is redactURL for a string that did not parse.
func redactRawURL(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		host, p, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		s = scheme + "://" + host
		if p != "" || strings.Contains(rest, "/") {
			s += "/" + p
		}
	}
	return s
}

// Fetch downloads the zip at rawURL (https only) into
// CacheDir/downloads/<hex>.zip and returns its path and digest.
//
// Integrity: the bytes must match pin when it is non-nil; otherwise they must
// match the first 64-hex token of the "<url>.sha256" sidecar. A sidecar that
// does not exist (404 or 410) is tolerated: the download is accepted
// unverified, trust on first use, with a warning through Logf that gives the
// digest to pin. A mismatch is refused and nothing is kept.
//
// Caching: a pinned URL whose download is already cached (and still hashes to
// the pin) returns without any network request; so does an unpinned one whose
// sidecar names a cached download. When a refresh of an unpinned URL fails
// and an earlier download of the same URL is cached, Fetch returns that copy
// and logs a warning.
//
// Transport: every request and every redirect must be https, at most 5
// redirects are followed, and the token goes only to the URL's own host: once
// a redirect leaves that host (port included) it is never sent again. A body
// declared or streamed past MaxBytes is refused; each request, body included,
// must finish within Timeout. Errors and warnings never show the query string
// or fragment of a URL.
func Fetch(ctx context.Context, rawURL string, pin *manifest.Digest, opt FetchOptions) (path string, d manifest.Digest, err error) {
	u, err := parseFetchURL(rawURL)
	if err != nil {
		return "", d, err
	}
	u.Fragment, u.RawFragment = "", ""
	if opt.CacheDir == "" {
		return "", d, errors.New("fetch: no cache directory")
	}
	f := newFetcher(u, opt)
	if err := os.MkdirAll(f.dir, 0o700); err != nil {
		return "", d, fmt.Errorf("fetch %s: %w", redactURL(u), err)
	}
	if pin != nil {
		if p, ok := f.cached(*pin); ok {
			return p, *pin, nil
		}
	}
	path, d, err = f.refresh(ctx, pin)
	if err == nil {
		f.remember(d)
		return path, d, nil
	}
	if pin == nil {
		if prev, ok := f.previous(); ok {
			if p, ok := f.cached(prev); ok {
				f.logf("%s could not be refreshed (%v); serving the cached copy %s", redactURL(u), err, prev)
				return p, prev, nil
			}
		}
	}
	return "", manifest.Digest{}, err
}

// fetcher holds one Fetch call's state.
type fetcher struct {
	u      *url.URL
	opt    FetchOptions
	dir    string
	client *http.Client
}

func newFetcher(u *url.URL, opt FetchOptions) *fetcher {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxDownloadBytes
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultFetchTimeout
	}
	f := &fetcher{u: u, opt: opt, dir: filepath.Join(opt.CacheDir, "downloads")}
	f.client = fetch.Client(opt.Client, fetch.Policy{Timeout: opt.Timeout, MaxBytes: opt.MaxBytes,
		Redirects: maxFetchRedirects, CheckURL: checkFetchURL})
	return f
}

func (f *fetcher) logf(format string, args ...any) {
	if f.opt.Logf != nil {
		f.opt.Logf(format, args...)
	}
}

// checkFetchURL is the redirect rule of library archives: https only. The
// bounded client (internal/fetch) counts the redirects and drops the token
// once the chain leaves the first host.
func checkFetchURL(u *url.URL) error {
	if u.Scheme != "https" {
		return fmt.Errorf("refusing redirect to %s for a library archive; https is required", redactURL(u))
	}
	return nil
}

// refresh asks the network for the archive, checking it against pin or the
// sidecar.
func (f *fetcher) refresh(ctx context.Context, pin *manifest.Digest) (string, manifest.Digest, error) {
	want, source := pin, "pinned sha256"
	if want == nil {
		sc, err := f.sidecar(ctx)
		if err != nil {
			return "", manifest.Digest{}, err
		}
		if sc != nil {
			if p, ok := f.cached(*sc); ok {
				return p, *sc, nil
			}
			want, source = sc, "sha256 sidecar"
		}
	}
	p, d, err := f.download(ctx, want, source)
	if err == nil && want == nil {
		prev, seen := f.previous()
		change := ""
		if seen && prev != d {
			change = fmt.Sprintf("; it changed since the last download (%s)", prev)
		}
		f.logf("%s has no sha256 sidecar; accepted unverified on trust as %s%s; pin it with #sha256=%s",
			redactURL(f.u), d, change, d.Hex())
	}
	return p, d, err
}

// sidecarDigest finds the first 64-hex token of a sidecar body.
var sidecarDigest = &lazyre.RE{Expr: `(?i)\b[0-9a-f]{64}\b`}

// sidecar returns the digest named by <url>.sha256, or nil when there is none.
func (f *fetcher) sidecar(ctx context.Context) (*manifest.Digest, error) {
	su := *f.u
	su.Path += ".sha256"
	if su.RawPath != "" {
		su.RawPath += ".sha256"
	}
	resp, err := f.get(ctx, &su, "text/plain")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusGone:
		return nil, nil
	case http.StatusOK:
	default:
		return nil, fmt.Errorf("get %s: %s", redactURL(&su), resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSidecarBytes))
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, f.netErr(ctx, &su, err)
	}
	m := sidecarDigest.Find(body)
	if m == nil {
		return nil, fmt.Errorf("sha256 sidecar %s holds no 64-hex digest", redactURL(&su))
	}
	d, err := parseHexDigest(string(m))
	if err != nil {
		return nil, fmt.Errorf("sha256 sidecar %s: %w", redactURL(&su), err)
	}
	return &d, nil
}

// get sends one GET, with the token for the library's own host.
func (f *fetcher) get(ctx context.Context, u *url.URL, accept string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("get %s: invalid request", redactURL(u))
	}
	req.Header.Set("Accept", accept)
	if f.opt.Token != "" {
		req.Header.Set("Authorization", "Bearer "+f.opt.Token)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, f.netErr(ctx, u, err)
	}
	return resp, nil
}

// netErr describes a failed request without the URL's query or fragment:
// *url.Error repeats the full URL, so only its cause is kept.
func (f *fetcher) netErr(ctx context.Context, u *url.URL, err error) error {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		if fe.Timeout() {
			return fmt.Errorf("get %s: %s (rule %s): %w", redactURL(u), fe.Msg, fe.Rule, context.DeadlineExceeded)
		}
		return fmt.Errorf("get %s: %s (rule %s)", redactURL(u), fe.Msg, fe.Rule)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("get %s: %w", redactURL(u), err)
}

// download streams the archive into a temporary file while hashing it and
// keeps it as <hex>.zip only when it is complete and matches want.
func (f *fetcher) download(ctx context.Context, want *manifest.Digest, source string) (path string, d manifest.Digest, err error) {
	name := redactURL(f.u)
	resp, err := f.get(ctx, f.u, "application/octet-stream")
	if err != nil {
		return "", d, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", d, fmt.Errorf("get %s: %s", name, resp.Status)
	}
	limit := f.opt.MaxBytes
	if resp.ContentLength > limit {
		return "", d, fmt.Errorf("get %s: declares %d bytes, over the %d byte download limit", name, resp.ContentLength, limit)
	}

	tmp, err := os.CreateTemp(f.dir, ".tmp-*")
	if err != nil {
		return "", d, fmt.Errorf("fetch %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := manifest.NewHash()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(resp.Body, limit+1))
	if err == nil {
		// A body cut short by the deadline can end in a clean EOF.
		err = ctx.Err()
	}
	if err != nil {
		return "", d, f.netErr(ctx, f.u, err)
	}
	if n > limit {
		return "", d, fmt.Errorf("get %s: exceeded the %d byte download limit", name, limit)
	}
	d = manifest.DigestOf(h)
	if want != nil && d != *want {
		return "", d, fmt.Errorf("sha256 mismatch for %s: the %s is %s, the download is %s; refusing it", name, source, want, d)
	}
	if err = tmp.Sync(); err != nil {
		return "", d, fmt.Errorf("fetch %s: %w", name, err)
	}
	if err = tmp.Close(); err != nil {
		return "", d, fmt.Errorf("fetch %s: %w", name, err)
	}
	path = filepath.Join(f.dir, d.Hex()+".zip")
	if err = os.Rename(tmp.Name(), path); err != nil {
		return "", d, fmt.Errorf("fetch %s: %w", name, err)
	}
	syncDir(f.dir)
	return path, d, nil
}

// cached returns the cached download with digest d after hashing it again.
// A cache file that is not a regular file, is too big or does not hash to d is
// removed.
func (f *fetcher) cached(d manifest.Digest) (string, bool) {
	p := filepath.Join(f.dir, d.Hex()+".zip")
	fi, err := os.Lstat(p)
	if err != nil {
		return "", false
	}
	ok := fi.Mode().IsRegular() && fi.Size() <= f.opt.MaxBytes && fileHasDigest(p, d)
	if !ok {
		f.logf("cached download %s does not match its digest; removing it", filepath.Base(p))
		os.Remove(p)
		return "", false
	}
	return p, true
}

func fileHasDigest(p string, d manifest.Digest) bool {
	r, err := os.Open(p)
	if err != nil {
		return false
	}
	defer r.Close()
	h := manifest.NewHash()
	if _, err := io.Copy(h, r); err != nil {
		return false
	}
	return manifest.DigestOf(h) == d
}

// refPath is where the digest of the last good download of the URL is kept:
// the file is named by the SHA-256 of the URL, so no URL (and no credential
// in a query string) is written to disk.
func (f *fetcher) refPath() string {
	sum := sha256.Sum256([]byte(f.u.String()))
	return filepath.Join(f.dir, "url-"+hex.EncodeToString(sum[:])+".ref")
}

// previous returns the digest of the last good download of the URL.
func (f *fetcher) previous() (manifest.Digest, bool) {
	b, err := os.ReadFile(f.refPath())
	if err != nil {
		return manifest.Digest{}, false
	}
	d, err := manifest.ParseDigest(strings.TrimSpace(string(b)))
	return d, err == nil
}

// remember records d as the last good download of the URL, atomically. It is
// best effort: without the record only the stale-copy fallback is lost.
func (f *fetcher) remember(d manifest.Digest) {
	if prev, ok := f.previous(); ok && prev == d {
		return
	}
	tmp, err := os.CreateTemp(f.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(d.String() + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.refPath())
	}
	if err != nil {
		os.Remove(tmp.Name())
		f.logf("could not record the download of %s: %v", redactURL(f.u), err)
	}
}

// syncDir flushes a directory entry after a rename; failures are ignored
// because some file systems cannot sync directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
