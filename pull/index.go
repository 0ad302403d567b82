package pull

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// IndexOptions configure OpenIndex.
type IndexOptions struct {
	// Client makes the requests; a client with a 60 s timeout if nil. Its
	// redirect policy is replaced: https only (http only to loopback
	// hosts), at most 5 redirects.
	Client *http.Client
	// MaxBytes caps everything downloaded from the site together (the index
	// and every artifact); 256 MiB if 0.
	MaxBytes int64
	// Limits bound each archive (see wellknown.Limits).
	Limits wellknown.Limits
}

// IsIndexURL reports whether rawURL names a discovery site rather than a
// bundle: an http(s) URL with no path (the site, https://HOST) or whose path
// ends in /index.json (the index itself).
func IsIndexURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" {
		return false
	}
	return u.Path == "" || u.Path == "/" || strings.HasSuffix(u.Path, "/"+wellknown.IndexFile)
}

// OpenIndex opens an Agent Skills discovery site written by anyone: the
// v0.2.0 index at rawURL (or at /.well-known/agent-skills/index.json of a
// bare https://HOST), and every artifact it lists. Everything is read and
// checked before OpenIndex returns, and held in memory (MaxBytes bounds it):
// each artifact's sha256 against the entry's digest before it is unpacked,
// archives by wellknown.Unpack, the SKILL.md's name against the entry, and
// every path by the rules of every other source. An entry that fails is
// refused with the rule named (Source.Warnings); the others are offered.
//
// URLs must be https, also on redirects; plain http only to a loopback host
// (a local test server). A v0.1.0 index (no digests) is refused.
//
// With trusted keys, the index must name a manifest and its signatures
// (skills-mcp's own skillsMcp field): the signature is checked first, and
// each skill's files must then be exactly those the signed manifest lists
// for its path.
func OpenIndex(ctx context.Context, rawURL string, opt IndexOptions, trusted []manifest.TrustedKey) (*Source, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("index url: %w", err)
	}
	u.Fragment, u.RawFragment = "", ""
	if err := checkSiteURL(u); err != nil {
		return nil, fmt.Errorf("index url %s: %w", redact(u), err)
	}
	bare := u.Path == "" || u.Path == "/"
	if bare {
		u = u.ResolveReference(&url.URL{Path: wellknown.IndexPath})
	}
	ix := &indexReader{ctx: ctx, budget: opt.MaxBytes, client: siteClient(opt.Client)}
	if ix.budget <= 0 {
		ix.budget = 256 << 20
	}
	name := redact(u)
	data, status, err := ix.get(u, wellknown.MaxIndexBytes)
	if err == nil && status == http.StatusNotFound && bare {
		legacy := u.ResolveReference(&url.URL{Path: wellknown.LegacyIndexPath})
		if _, lstatus, lerr := ix.get(legacy, wellknown.MaxIndexBytes); lerr == nil && lstatus == http.StatusOK {
			return nil, fmt.Errorf("index %s: none; %s is a v0.1.0 index, which publishes no digests, so nothing it serves can be verified (rule %s)",
				name, redact(legacy), wellknown.RuleLegacy)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", name, err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("index %s: %d %s", name, status, http.StatusText(status))
	}
	p, err := wellknown.ParseIndex(data)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", name, err)
	}
	src := &Source{Name: name, Kind: "index", ID: manifest.Sum(data).String()}
	for _, r := range p.Refused {
		src.refuse(name, r)
	}
	var signed map[string]*manifest.Skill
	if trusted != nil {
		if signed, err = ix.signedManifest(src, u, p.Extra, trusted); err != nil {
			return nil, err
		}
	}
	back := memBackend{}
	for _, e := range p.Entries {
		sk, err := ix.entry(u, e, back, signed)
		if err != nil {
			src.refuse(e.Name, fmt.Errorf("skill %q: %w", e.Name, err))
			continue
		}
		src.Skills = append(src.Skills, sk)
	}
	src.back = back
	return src, nil
}

// indexReader downloads from one site within one byte budget.
type indexReader struct {
	ctx    context.Context
	client *http.Client
	budget int64 // bytes left to download
}

// checkSiteURL allows https, and http to loopback hosts only.
func checkSiteURL(u *url.URL) error {
	switch {
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return &wellknown.RuleError{Rule: wellknown.RuleURL, Msg: fmt.Sprintf("scheme %q: only https (or http to a loopback host) is allowed", u.Scheme)}
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func siteClient(c *http.Client) *http.Client {
	client := &http.Client{Timeout: 60 * time.Second}
	if c != nil {
		cc := *c
		client = &cc
	}
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := checkSiteURL(req.URL); err != nil {
			return &wellknown.RuleError{Rule: wellknown.RuleRedirect, Msg: fmt.Sprintf("redirect to %s: only https is allowed", redact(req.URL))}
		}
		if len(via) > 5 {
			return errors.New("more than 5 redirects")
		}
		return nil
	}
	return client
}

// get downloads u, at most max bytes and within the budget, and returns
// the body of a 200 answer and the status.
func (ix *indexReader) get(u *url.URL, max int64) ([]byte, int, error) {
	max = min(max, ix.budget)
	req, err := http.NewRequestWithContext(ix.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := ix.client.Do(req)
	if err != nil {
		var re *wellknown.RuleError
		if errors.As(err, &re) {
			return nil, 0, re
		}
		return nil, 0, &wellknown.RuleError{Rule: wellknown.RuleFetch, Msg: scrub(err).Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, resp.StatusCode, nil
	}
	if resp.ContentLength > max {
		return nil, 0, &wellknown.RuleError{Rule: wellknown.RuleTooLarge, Msg: fmt.Sprintf("%d bytes, more than the %d left to download", resp.ContentLength, max)}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, 0, &wellknown.RuleError{Rule: wellknown.RuleFetch, Msg: scrub(err).Error()}
	}
	if int64(len(data)) > max {
		return nil, 0, &wellknown.RuleError{Rule: wellknown.RuleTooLarge, Msg: fmt.Sprintf("more than the %d bytes left to download", max)}
	}
	ix.budget -= int64(len(data))
	return data, resp.StatusCode, nil
}

// fetch downloads the file at ref, resolved against the index URL.
func (ix *indexReader) fetch(index *url.URL, ref string, max int64) ([]byte, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return nil, &wellknown.RuleError{Rule: wellknown.RuleURL, Msg: fmt.Sprintf("url: %v", err)}
	}
	u := index.ResolveReference(r)
	if err := checkSiteURL(u); err != nil {
		return nil, err
	}
	data, status, err := ix.get(u, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", redact(u), err)
	}
	if status != http.StatusOK {
		return nil, &wellknown.RuleError{Rule: wellknown.RuleFetch, Msg: fmt.Sprintf("%s: %d %s", redact(u), status, http.StatusText(status))}
	}
	return data, nil
}

// signedManifest reads the manifest and signatures an index names, checks
// them against trusted keys, and maps each skill path to its signed record.
func (ix *indexReader) signedManifest(src *Source, index *url.URL, x *wellknown.SiteExtra, trusted []manifest.TrustedKey) (map[string]*manifest.Skill, error) {
	if x == nil || x.Manifest == "" || len(x.Signatures) == 0 {
		return nil, fmt.Errorf("index %s: %w: the index names no signed manifest (skillsMcp.manifest and signatures)", src.Name, manifest.ErrUnsigned)
	}
	msg, err := ix.fetch(index, x.Manifest, 256<<20)
	if err != nil {
		return nil, fmt.Errorf("index %s: manifest: %w", src.Name, err)
	}
	var sigs []manifest.Signature
	for _, name := range x.Signatures {
		kind := manifest.SignatureSSH
		if strings.HasPrefix(name, manifest.MinisigFile) {
			kind = manifest.SignatureMinisign
		}
		data, err := ix.fetch(index, name, 64<<10)
		if err != nil {
			return nil, fmt.Errorf("index %s: signature: %w", src.Name, err)
		}
		sigs = append(sigs, manifest.Signature{Kind: kind, Data: data})
	}
	if err := src.verifyTrust(msg, sigs, trusted); err != nil {
		return nil, err
	}
	m, err := manifest.Parse(msg)
	if err != nil {
		return nil, fmt.Errorf("index %s: %s: %w", src.Name, x.Manifest, err)
	}
	src.ID = manifest.Sum(msg).String()
	out := map[string]*manifest.Skill{}
	for i := range m.Skills {
		out[m.Skills[i].Path] = &m.Skills[i]
	}
	return out, nil
}

// entry downloads, verifies and unpacks one entry's artifact, and returns
// the skill with its files held by back.
func (ix *indexReader) entry(index *url.URL, e wellknown.Entry, back memBackend, signed map[string]*manifest.Skill) (*Skill, error) {
	want, _ := manifest.ParseDigest(e.Digest) // checked by ParseIndex
	data, err := ix.fetch(index, e.URL, ix.budget)
	if err != nil {
		return nil, err
	}
	if got := manifest.Sum(data); got != want {
		return nil, &wellknown.RuleError{Rule: wellknown.RuleDigest, Msg: fmt.Sprintf("artifact %s: sha256 %s, the index says %s", short(e.URL), got, want)}
	}
	var files []wellknown.File
	if e.Type == wellknown.TypeSkillMD {
		files = []wellknown.File{{Path: manifest.SkillFile, Data: data}}
	} else if files, err = wellknown.Unpack(data, ix.limits()); err != nil {
		return nil, err
	}
	var skillMD []byte
	for _, f := range files {
		if f.Path == manifest.SkillFile {
			skillMD = f.Data
		}
	}
	name, desc, err := wellknown.SkillMDFields(skillMD)
	if err != nil {
		return nil, err
	}
	path := e.Name
	if e.SkillsMCP != nil {
		path = e.SkillsMCP.Path
	}
	if last := path[strings.LastIndexByte(path, '/')+1:]; name != last {
		return nil, &wellknown.RuleError{Rule: wellknown.RuleMismatch, Msg: fmt.Sprintf("%s names the skill %s, the index entry %s", manifest.SkillFile, manifest.QuoteName(name), manifest.QuoteName(last))}
	}
	fm, _ := json.Marshal(map[string]string{"name": name, "description": desc})
	uri := manifest.SkillURI(path)
	res := make([]manifest.Resource, len(files))
	for i, f := range files {
		res[i] = manifest.Resource{URI: strings.TrimSuffix(uri, manifest.SkillFile) + manifest.EscapePath(f.Path), Digest: manifest.Sum(f.Data), Size: int64(len(f.Data))}
	}
	sk, err := checkEntry(uri, fm, res)
	if err != nil {
		return nil, err
	}
	if signed != nil {
		if err := matchSigned(sk, signed[sk.Path]); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		back[manifest.Sum(f.Data)] = f.Data
	}
	return sk, nil
}

func (ix *indexReader) limits() wellknown.Limits {
	return wellknown.Limits{Files: maxFiles, Bytes: maxBytes}
}

// matchSigned checks that a skill's files are exactly those the signed
// manifest lists for its path.
func matchSigned(sk *Skill, ms *manifest.Skill) error {
	if ms == nil {
		return fmt.Errorf("skill %s: not in the signed manifest", sk.Path)
	}
	if len(ms.Files) != len(sk.Files) {
		return fmt.Errorf("skill %s: %d files, the signed manifest lists %d", sk.Path, len(sk.Files), len(ms.Files))
	}
	want := map[string]manifest.Digest{}
	for j, f := range ms.Files {
		want[f.Path] = ms.Entry.Resources[j].Digest
	}
	for _, f := range sk.Files {
		if d, ok := want[f.Path]; !ok || d != f.Digest {
			return fmt.Errorf("skill %s: file %s differs from the signed manifest", sk.Path, manifest.QuoteName(f.Path))
		}
	}
	return nil
}

// memBackend serves the files of an index source from memory, by digest.
type memBackend map[manifest.Digest][]byte

func (mb memBackend) open(_ context.Context, f *File) (io.ReadCloser, error) {
	data, ok := mb[f.Digest]
	if !ok {
		return nil, fmt.Errorf("%s: %w", f.Path, ErrNotFound)
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

func (mb memBackend) get(context.Context, string) (*Skill, error) { return nil, ErrNotFound }
func (mb memBackend) close() error                                { return nil }
