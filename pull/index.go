package pull

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

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
	// AllowUnverified reads a v0.1.0 index, which publishes no digests:
	// its files are only checked for paths and names (Source.Unverified).
	AllowUnverified bool
	// CacheDir keeps verified artifacts (CacheDir/wellknown/<hex>) and,
	// until the source is closed, the files unpacked from them; the
	// system's temporary folder holds the files without it.
	CacheDir string
}

// IsIndexURL reports whether rawURL names a discovery site rather than a
// bundle (wellknown.IsIndexURL).
func IsIndexURL(rawURL string) bool { return wellknown.IsIndexURL(rawURL) }

// OpenIndex opens an Agent Skills discovery site written by anyone: the
// v0.2.0 index at rawURL (or at /.well-known/agent-skills/index.json of a
// bare https://HOST), and every artifact it lists. Everything is read and
// checked before OpenIndex returns, and held on disk, not in memory
// (IndexOptions.CacheDir; MaxBytes bounds the download, the archive limits
// what it unpacks to):
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
	c := wellknown.NewClient(ctx, wellknown.ClientOptions{HTTP: opt.Client, MaxBytes: opt.MaxBytes, CacheDir: opt.CacheDir,
		Limits: wellknown.Limits{Files: maxFiles, Bytes: maxBytes}, AllowUnverified: opt.AllowUnverified})
	src, err := openIndex(c, rawURL, trusted)
	if err != nil {
		c.Close()
		return nil, err
	}
	return src, nil
}

// openIndex is OpenIndex with its client, which the source closes.
func openIndex(c *wellknown.Client, rawURL string, trusted []manifest.TrustedKey) (*Source, error) {
	u, data, p, err := c.Index(rawURL)
	if err != nil {
		return nil, err
	}
	src := &Source{Name: wellknown.Redact(u), Kind: "index", ID: manifest.Sum(data).String(), index: manifest.Sum(data)}
	for _, e := range p.Entries {
		src.Unverified = src.Unverified || e.Type == wellknown.TypeLegacy
	}
	if src.Unverified && trusted != nil {
		return nil, fmt.Errorf("index %s: %w: a v0.1.0 index publishes no digests, so nothing can be checked against a signature", src.Name, manifest.ErrUnsigned)
	}
	for _, r := range p.Refused {
		src.refuse(src.Name, r)
	}
	var signed map[string]*manifest.Skill
	if trusted != nil {
		if signed, err = signedManifest(c, src, u, p.Extra, trusted); err != nil {
			return nil, err
		}
	}
	back := indexBackend{c}
	for _, e := range p.Entries {
		sk, err := indexSkill(c, u, e, signed)
		if err != nil {
			src.refuse(e.Name, fmt.Errorf("skill %q: %w", e.Name, err))
			continue
		}
		src.Skills = append(src.Skills, sk)
	}
	src.back = back
	return src, nil
}

// signedManifest reads the manifest and signatures an index names, checks
// them against trusted keys, and maps each skill path to its signed record.
func signedManifest(c *wellknown.Client, src *Source, index *url.URL, x *wellknown.SiteExtra, trusted []manifest.TrustedKey) (map[string]*manifest.Skill, error) {
	if x == nil || x.Manifest == "" || len(x.Signatures) == 0 {
		return nil, fmt.Errorf("index %s: %w: the index names no signed manifest (skillsMcp.manifest and signatures)", src.Name, manifest.ErrUnsigned)
	}
	msg, err := c.Get(index, x.Manifest, maxSignedManifest)
	if err != nil {
		return nil, fmt.Errorf("index %s: manifest: %w", src.Name, err)
	}
	var sigs []manifest.Signature
	for _, name := range x.Signatures {
		kind := manifest.SignatureSSH
		if strings.HasPrefix(name, manifest.MinisigFile) {
			kind = manifest.SignatureMinisign
		}
		data, err := c.Get(index, name, 64<<10)
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
	src.manifest = m
	out := map[string]*manifest.Skill{}
	for i := range m.Skills {
		out[m.Skills[i].Path] = &m.Skills[i]
	}
	return out, nil
}

// indexSkill fetches one entry (wellknown.Client.Skill) and returns the
// skill with its files held by back, checked like every other source's.
func indexSkill(c *wellknown.Client, index *url.URL, e wellknown.Entry, signed map[string]*manifest.Skill) (*Skill, error) {
	f, err := c.Skill(index, e)
	if err != nil {
		return nil, err
	}
	var desc string
	for _, file := range f.Files {
		if file.Path == manifest.SkillFile {
			_, desc, _ = wellknown.SkillMDFields(file.Data)
		}
	}
	name := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
	fm, _ := json.Marshal(map[string]string{"name": name, "description": desc})
	uri := manifest.SkillURI(f.Path)
	res := make([]manifest.Resource, len(f.Files))
	for i, file := range f.Files {
		res[i] = manifest.Resource{URI: strings.TrimSuffix(uri, manifest.SkillFile) + manifest.EscapePath(file.Path), Digest: file.Digest, Size: file.Size}
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
	return sk, nil
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

// maxSignedManifest is the largest signed manifest an index may name: it
// is read into memory to be verified.
const maxSignedManifest = 32 << 20

// indexBackend serves the files of an index source from the client's
// scratch folder, by digest; closing it removes them.
type indexBackend struct{ c *wellknown.Client }

func (ib indexBackend) open(_ context.Context, f *File) (io.ReadCloser, error) {
	r, err := ib.c.Open(f.Digest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, ErrNotFound)
	}
	return r, nil
}

func (ib indexBackend) get(context.Context, string) (*Skill, error) { return nil, ErrNotFound }
func (ib indexBackend) close() error                                { return ib.c.Close() }
