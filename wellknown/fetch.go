package wellknown

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	// HTTP makes the requests; a fresh client if nil. Either way its
	// requests are bounded by internal/fetch (its idle time, unless HTTP is
	// a fetch client with its own; DefaultTimeout per request; the byte
	// budget below), and its redirect policy is replaced: https only (http
	// only to loopback hosts), at most 5 redirects.
	HTTP *http.Client
	// MaxBytes caps everything downloaded through the client together;
	// 256 MiB if 0.
	MaxBytes int64
	// Limits bound each archive.
	Limits Limits
	// CacheDir, if set, keeps every verified artifact under
	// CacheDir/wellknown/<hex> (an artifact already there is not
	// downloaded again) and the last index read from each URL, which
	// IndexOrCached falls back to when the site cannot be reached.
	CacheDir string
	// AllowUnverified reads v0.1.0 indexes, which publish no digests:
	// their files arrive unverified.
	AllowUnverified bool
}

// DefaultTimeout bounds one request of a Client, body included.
const DefaultTimeout = 60 * time.Second

// Client reads one discovery site written by anyone: its index and its
// artifacts, within one byte budget.
type Client struct {
	ctx    context.Context
	http   *http.Client
	budget *fetch.Budget
	limits Limits
	cache  string
	legacy bool
}

// NewClient returns a client.
func NewClient(ctx context.Context, opt ClientOptions) *Client {
	max := opt.MaxBytes
	if max <= 0 {
		max = 256 << 20
	}
	c := &Client{ctx: ctx, budget: fetch.NewBudget(max), limits: opt.Limits, cache: opt.CacheDir, legacy: opt.AllowUnverified}
	c.http = fetch.Client(opt.HTTP, fetch.Policy{Timeout: DefaultTimeout, Redirects: 5, Budget: c.budget,
		CheckURL: func(u *url.URL) error {
			if CheckURL(u) != nil {
				return refuse(RuleRedirect, "redirect to %s: only https is allowed", Redact(u))
			}
			return nil
		}})
	return c
}

// IsIndexURL reports whether rawURL names a discovery site rather than a
// file: an http(s) URL with no path (the site, https://HOST) or whose path
// ends in /index.json (the index itself).
func IsIndexURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" {
		return false
	}
	return u.Path == "" || u.Path == "/" || strings.HasSuffix(u.Path, "/"+IndexFile)
}

// CheckURL allows https, and http to loopback hosts only (a local test
// server or a site on the same machine).
func CheckURL(u *url.URL) error {
	switch {
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return refuse(RuleURL, "scheme %q: only https (or http to a loopback host) is allowed", short(u.Scheme))
}

func isLoopback(host string) bool { return fetch.IsLoopback(host) }

// Redact drops the query, fragment and user of a URL, for messages: signed
// URLs carry credentials there.
func Redact(u *url.URL) string {
	c := *u
	c.RawQuery, c.Fragment, c.RawFragment, c.User = "", "", "", nil
	return c.String()
}

// Index downloads and parses the index at rawURL, or at IndexPath of a bare
// https://HOST. Where a bare host has no v0.2.0 index but a v0.1.0 one, the
// error says so (rule index-unverified). It returns the index's URL (the
// base of relative artifact URLs) and bytes.
func (c *Client) Index(rawURL string) (*url.URL, []byte, *Parsed, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("index url: %w", err)
	}
	u.Fragment, u.RawFragment = "", ""
	if err := CheckURL(u); err != nil {
		return nil, nil, nil, fmt.Errorf("index url %s: %w", Redact(u), err)
	}
	bare := u.Path == "" || u.Path == "/"
	if bare {
		u = u.ResolveReference(&url.URL{Path: IndexPath})
	}
	name := Redact(u)
	data, status, err := c.get(u, MaxIndexBytes)
	if err == nil && status == http.StatusNotFound && bare {
		legacy := u.ResolveReference(&url.URL{Path: LegacyIndexPath})
		ldata, lstatus, lerr := c.get(legacy, MaxIndexBytes)
		if lerr == nil && lstatus == http.StatusOK && c.legacy {
			p, err := ParseLegacyIndex(ldata)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("index %s: %w", Redact(legacy), err)
			}
			return legacy, ldata, p, nil
		}
		if lerr == nil && lstatus == http.StatusOK {
			return nil, nil, nil, fmt.Errorf("index %s: none; %s is a v0.1.0 index, which publishes no digests, so nothing it serves can be verified (--allow-unverified reads it anyway) (rule %s)",
				name, Redact(legacy), RuleLegacy)
		}
	}
	if err == nil && status != http.StatusOK {
		err = refuse(RuleFetch, "%d %s", status, http.StatusText(status))
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("index %s: %w", name, err)
	}
	p, err := ParseIndex(data)
	if RuleOf(err) == RuleLegacy && c.legacy {
		p, err = ParseLegacyIndex(data)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("index %s: %w", name, err)
	}
	c.remember(u, data)
	return u, data, p, nil
}

// IndexOrCached is Index, falling back to the last index read from the same
// URL (kept in CacheDir) when the site cannot be reached or answers with an
// error; stale is then the error that forced the fallback.
func (c *Client) IndexOrCached(rawURL string) (u *url.URL, data []byte, p *Parsed, stale, err error) {
	u, data, p, err = c.Index(rawURL)
	if err == nil || c.cache == "" || RuleOf(err) != RuleFetch {
		return u, data, p, nil, err
	}
	cu, _ := url.Parse(rawURL)
	if cu.Path == "" || cu.Path == "/" {
		cu = cu.ResolveReference(&url.URL{Path: IndexPath})
	}
	old, rerr := os.ReadFile(c.indexCache(cu))
	if rerr != nil {
		return nil, nil, nil, nil, err
	}
	if p, perr := ParseIndex(old); perr == nil {
		return cu, old, p, err, nil
	}
	return nil, nil, nil, nil, err
}

func (c *Client) indexCache(u *url.URL) string {
	return filepath.Join(c.cache, "wellknown", "index-"+manifest.Sum([]byte(Redact(u))).Hex()[:32]+".json")
}

func (c *Client) remember(u *url.URL, data []byte) {
	if c.cache == "" {
		return
	}
	p := c.indexCache(u)
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		manifest.WriteFileAtomic(p, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err })
	}
}

// get downloads u, at most max bytes and within the budget, and returns
// the body of a 200 answer and the status.
func (c *Client) get(u *url.URL, max int64) ([]byte, int, error) {
	resp, err := c.open(u)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, resp.StatusCode, nil
	}
	max = min(max, c.budget.Left())
	if resp.ContentLength > max {
		return nil, 0, refuse(RuleTooLarge, "%d bytes, more than the %d left to download", resp.ContentLength, max)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, 0, fetchErr(err)
	}
	if int64(len(data)) > max {
		return nil, 0, refuse(RuleTooLarge, "more than the %d bytes left to download", max)
	}
	return data, resp.StatusCode, nil
}

// open sends a GET of u.
func (c *Client) open(u *url.URL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fetchErr(err)
	}
	return resp, nil
}

// fetchErr gives a failed request its rule: too-large for a body over the
// budget, the redirect's own rule, else fetch-failed.
func fetchErr(err error) error {
	var re *RuleError
	if errors.As(err, &re) {
		return re
	}
	var fe *fetch.Error
	if errors.As(err, &fe) {
		if fe.Rule == fetch.RuleTooLarge {
			return refuse(RuleTooLarge, "%s", fe.Msg)
		}
		return refuse(RuleFetch, "%s (%s)", fe.Msg, fe.Rule)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return refuse(RuleFetch, "%v", err)
}

// Get downloads the file at ref, resolved against the index URL, at most
// max bytes.
func (c *Client) Get(index *url.URL, ref string, max int64) ([]byte, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return nil, refuse(RuleURL, "url: %v", err)
	}
	u := index.ResolveReference(r)
	if err := CheckURL(u); err != nil {
		return nil, err
	}
	data, status, err := c.get(u, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(u), err)
	}
	if status != http.StatusOK {
		return nil, refuse(RuleFetch, "%s: %d %s", Redact(u), status, http.StatusText(status))
	}
	return data, nil
}

// Fetched is one skill read from a site: the entry, the skill path it
// claims (skillsMcp.path when the entry has a valid one, else its name),
// and its files, SKILL.md's name checked against that path.
type Fetched struct {
	Entry Entry
	Path  string
	Files []File
}

// Skill downloads an entry's artifact (or takes it from the cache),
// checks its sha256 against the entry's digest before anything else,
// unpacks an archive (Unpack), and checks that SKILL.md names the skill the
// entry claims: its name, or the last segment of its skillsMcp.path.
func (c *Client) Skill(index *url.URL, e Entry) (*Fetched, error) {
	if e.Type == TypeLegacy {
		return c.legacySkill(index, e)
	}
	want, err := manifest.ParseDigest(e.Digest)
	if err != nil {
		return nil, refuse(RuleEntry, "digest: %v", err)
	}
	data, ok := c.cached(want)
	if !ok {
		if data, err = c.Get(index, e.URL, c.budget.Left()); err != nil {
			return nil, err
		}
		if got := manifest.Sum(data); got != want {
			return nil, refuse(RuleDigest, "artifact %s: sha256 %s, the index says %s", short(e.URL), got, want)
		}
	}
	var files []File
	if e.Type == TypeSkillMD {
		files = []File{{Path: manifest.SkillFile, Data: data}}
	} else if files, err = Unpack(data, c.limits); err != nil {
		return nil, err
	}
	if !ok {
		c.keep(want, data)
	}
	return checkFetched(e, files)
}

// legacySkill downloads a v0.1.0 entry's files one by one, from the
// entry's folder next to the index; nothing can check their bytes.
func (c *Client) legacySkill(index *url.URL, e Entry) (*Fetched, error) {
	var files []File
	var total int64
	lim := c.limits.withDefaults()
	for _, p := range e.Files {
		data, err := c.Get(index, manifest.EscapePath(e.Name+"/"+p), lim.Bytes-total)
		if err != nil {
			return nil, err
		}
		total += int64(len(data))
		files = append(files, File{Path: p, Data: data})
	}
	return checkFetched(e, files)
}

// checkFetched checks that SKILL.md names the skill the entry claims.
func checkFetched(e Entry, files []File) (*Fetched, error) {
	var skillMD []byte
	for _, f := range files {
		if f.Path == manifest.SkillFile {
			skillMD = f.Data
		}
	}
	name, _, err := SkillMDFields(skillMD)
	if err != nil {
		return nil, err
	}
	path := e.Name
	if e.SkillsMCP != nil && manifest.CheckPath(e.SkillsMCP.Path) == nil {
		path = e.SkillsMCP.Path
	}
	if last := path[strings.LastIndexByte(path, '/')+1:]; name != last {
		return nil, refuse(RuleMismatch, "%s names the skill %s, the index entry %s", manifest.SkillFile, manifest.QuoteName(name), manifest.QuoteName(last))
	}
	return &Fetched{Entry: e, Path: path, Files: files}, nil
}

func (c *Client) artifactCache(d manifest.Digest) string {
	return filepath.Join(c.cache, "wellknown", d.Hex())
}

// cached returns a cached artifact that still hashes to d.
func (c *Client) cached(d manifest.Digest) ([]byte, bool) {
	if c.cache == "" {
		return nil, false
	}
	f, err := os.Open(c.artifactCache(d))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, c.budget.Left()+1))
	if err != nil || manifest.Sum(data) != d {
		return nil, false
	}
	return data, true
}

func (c *Client) keep(d manifest.Digest, data []byte) {
	if c.cache == "" {
		return
	}
	p := c.artifactCache(d)
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		manifest.WriteFileAtomic(p, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err })
	}
}
