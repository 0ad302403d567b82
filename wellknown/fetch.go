package wellknown

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

	scratchOnce sync.Once
	scratch     string // folder of unpacked files, by digest hex
	scratchErr  error
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
// and its files, SKILL.md's name checked against that path. Only SKILL.md's
// bytes are held in memory; Client.Open reads every file.
type Fetched struct {
	Entry Entry
	Path  string
	Files []File
}

// MaxSkillMDBytes is the largest SKILL.md a Client reads into memory: the
// SEP-2640 limit of a whole skill.
const MaxSkillMDBytes = manifest.MaxSkillBytes

// Skill downloads an entry's artifact (or takes it from the cache) to disk,
// never holding it in memory: streamed under what is left of the budget and
// the archive limit, hashed on the way, and checked against the entry's
// digest before anything else. An archive is then unpacked from the file
// (see unpack: declared sizes checked before inflating), each file streamed
// to the client's scratch folder by digest; SKILL.md must name the skill the
// entry claims: its name, or the last segment of its skillsMcp.path.
func (c *Client) Skill(index *url.URL, e Entry) (*Fetched, error) {
	if e.Type == TypeLegacy {
		return c.legacySkill(index, e)
	}
	want, err := manifest.ParseDigest(e.Digest)
	if err != nil {
		return nil, refuse(RuleEntry, "digest: %v", err)
	}
	lim := c.limits.withDefaults()
	art, err := c.artifact(index, e, want, lim.Bytes+int64(lim.Files)<<10+1<<20)
	if err != nil {
		return nil, err
	}
	defer art.Close()
	fi, err := art.Stat()
	if err != nil {
		return nil, refuse(RuleFetch, "artifact %s: %v", short(e.URL), err)
	}
	var files []File
	if e.Type == TypeSkillMD {
		if _, err := art.Seek(0, io.SeekStart); err != nil {
			return nil, refuse(RuleFetch, "artifact %s: %v", short(e.URL), err)
		}
		f, err := c.store(manifest.SkillFile, art)
		if err != nil {
			return nil, err
		}
		files = []File{f}
	} else {
		err = unpack(art, fi.Size(), lim, func(name string, _ int64, r io.Reader) error {
			f, err := c.store(name, r)
			files = append(files, f)
			return err
		})
		if err != nil {
			return nil, err
		}
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
		data, err := c.Get(index, manifest.EscapePath(e.Name+"/"+p), min(lim.Bytes-total, MaxSkillMDBytes))
		if err != nil {
			return nil, err
		}
		total += int64(len(data))
		f, err := c.store(p, bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
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

// artifact returns the entry's artifact, verified, as an open file: the
// cached copy if it still hashes to want, else a download of at most max
// bytes (and what is left of the budget) streamed to a temporary file,
// kept in the cache (or the scratch folder without one) only when it
// hashes to want.
func (c *Client) artifact(index *url.URL, e Entry, want manifest.Digest, max int64) (*os.File, error) {
	dir := c.scratchDir()
	if c.cache != "" {
		dir = filepath.Join(c.cache, "wellknown")
		if f, ok := openVerified(filepath.Join(dir, want.Hex()), want); ok {
			return f, nil
		}
	}
	if dir == "" {
		return nil, refuse(RuleFetch, "no folder to download to: %v", c.scratchErr)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, refuse(RuleFetch, "%v", err)
	}
	r, err := url.Parse(e.URL)
	if err != nil {
		return nil, refuse(RuleURL, "url: %v", err)
	}
	u := index.ResolveReference(r)
	if err := CheckURL(u); err != nil {
		return nil, err
	}
	resp, err := c.open(u)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(u), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, refuse(RuleFetch, "%s: %d %s", Redact(u), resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	max = min(max, c.budget.Left())
	if resp.ContentLength > max {
		return nil, refuse(RuleTooLarge, "%s: %d bytes, more than the %d allowed", Redact(u), resp.ContentLength, max)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return nil, refuse(RuleFetch, "%v", err)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := manifest.NewHash()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(u), fetchErr(err))
	}
	if n > max {
		return nil, refuse(RuleTooLarge, "%s: more than the %d bytes allowed", Redact(u), max)
	}
	if got := manifest.DigestOf(h); got != want {
		return nil, refuse(RuleDigest, "artifact %s: sha256 %s, the index says %s", short(e.URL), got, want)
	}
	final := filepath.Join(dir, want.Hex())
	if err := tmp.Sync(); err != nil {
		return nil, refuse(RuleFetch, "%v", err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return nil, refuse(RuleFetch, "%v", err)
	}
	keep = true
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, refuse(RuleFetch, "%v", err)
	}
	return tmp, nil
}

// openVerified opens the file at p if it hashes to d.
func openVerified(p string, d manifest.Digest) (*os.File, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	h := manifest.NewHash()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, false
	}
	if _, err := io.Copy(h, f); err != nil || manifest.DigestOf(h) != d {
		f.Close()
		return nil, false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, false
	}
	return f, true
}

// scratchDir is the client's folder of unpacked files, made at first use
// in the cache (CacheDir/wellknown/.unpacked-*) or, without one, the
// system's temporary folder; Close removes it. "" if it cannot be made.
func (c *Client) scratchDir() string {
	c.scratchOnce.Do(func() {
		base := os.TempDir()
		if c.cache != "" {
			base = filepath.Join(c.cache, "wellknown")
			if c.scratchErr = os.MkdirAll(base, 0o755); c.scratchErr != nil {
				return
			}
			sweepScratch(base)
		}
		c.scratch, c.scratchErr = os.MkdirTemp(base, ".unpacked-")
	})
	return c.scratch
}

// sweepScratch removes the scratch folders of clients that ended without
// Close (a killed process) once they are an hour old.
func sweepScratch(base string) {
	old, _ := filepath.Glob(filepath.Join(base, ".unpacked-*"))
	for _, p := range old {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > time.Hour {
			os.RemoveAll(p)
		}
	}
}

// store streams one file of a skill to the scratch folder, named by its
// digest, and returns it; SKILL.md's bytes are kept in memory too, up to
// MaxSkillMDBytes.
func (c *Client) store(name string, r io.Reader) (File, error) {
	f := File{Path: name}
	dir := c.scratchDir()
	if dir == "" {
		return f, refuse(RuleFetch, "no scratch folder: %v", c.scratchErr)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return f, refuse(RuleFetch, "%v", err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	h := manifest.NewHash()
	w := io.MultiWriter(tmp, h)
	var md *bytes.Buffer
	if name == manifest.SkillFile {
		md = &bytes.Buffer{}
		w = io.MultiWriter(w, &capped{md, MaxSkillMDBytes})
	}
	n, err := io.Copy(w, r)
	if err != nil {
		return f, err
	}
	if md != nil && n > MaxSkillMDBytes {
		return f, refuse(RuleTooLarge, "%s: more than %d bytes", manifest.SkillFile, MaxSkillMDBytes)
	}
	f.Digest, f.Size = manifest.DigestOf(h), n
	if md != nil {
		f.Data = md.Bytes()
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, f.Digest.Hex())); err != nil {
		return f, refuse(RuleFetch, "%v", err)
	}
	return f, nil
}

// capped writes to b until it holds n bytes, then drops the rest.
type capped struct {
	b *bytes.Buffer
	n int64
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.n - int64(c.b.Len()); room > 0 {
		c.b.Write(p[:min(int64(len(p)), room)])
	}
	return len(p), nil
}

// Open opens a file of a Fetched skill of this client, by digest.
func (c *Client) Open(d manifest.Digest) (io.ReadCloser, error) {
	if c.scratch == "" {
		return nil, fmt.Errorf("%s: %w", d, fs.ErrNotExist)
	}
	return os.Open(filepath.Join(c.scratch, d.Hex()))
}

// Close removes the client's unpacked files: Open fails after it.
func (c *Client) Close() error {
	c.scratchOnce.Do(func() {}) // no scratch folder made after Close
	if c.scratch == "" {
		return nil
	}
	return os.RemoveAll(c.scratch)
}
