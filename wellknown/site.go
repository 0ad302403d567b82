package wellknown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// SiteFile is one file of a site, below Dir.
type SiteFile struct {
	Path        string // below Dir: "index.json", "refunds/<hex>.tar.gz", "manifest.json"
	ContentType string
	Digest      manifest.Digest
	Size        int64
	// Immutable is true for artifacts: their path holds their digest, so
	// their bytes never change.
	Immutable bool
	// Library is the namespace of the skill an artifact belongs to; "" for
	// the index, the manifest and signatures.
	Library string

	mu     sync.Mutex
	data   []byte                 // nil once dropped (see SiteOptions.KeepBytes)
	remake func() ([]byte, error) // makes the bytes again; nil if data is always kept
}

// Bytes returns the file's bytes, remade from the bundle (and checked
// against the digest) when they were not kept. The caller must not modify
// them.
func (f *SiteFile) Bytes() ([]byte, error) {
	f.mu.Lock()
	data := f.data
	f.mu.Unlock()
	if data != nil {
		return data, nil
	}
	data, err := f.remake()
	if err != nil {
		return nil, err
	}
	if manifest.Sum(data) != f.Digest {
		return nil, fmt.Errorf("%s: remade bytes differ from the published digest %s", f.Path, f.Digest)
	}
	return data, nil
}

// Site is the discovery site of a set of bundles: the index, one artifact
// per listed skill, and for one signed bundle its manifest and signatures.
// It is immutable and safe for concurrent use.
type Site struct {
	Files  []*SiteFile // the index first, then artifacts in index order, then manifest and signatures
	byPath map[string]*SiteFile
	index  Index
	skills []siteSkill // every skill, hidden ones too, in path order
	spaces []string    // the namespaces of skills, sorted, unique

	viewMu sync.Mutex
	views  map[string]*View // by the namespaces a view allows (see View)
}

// siteSkill is one skill of a site: its path, and its index entry and
// artifact (-1 and nil when it is hidden and not listed).
type siteSkill struct {
	path     string
	entry    int
	artifact *SiteFile
}

// SiteOptions configure NewSite.
type SiteOptions struct {
	// ShowHidden lists hidden (disable-model-invocation) skills too.
	ShowHidden bool
	// KeepBytes bounds the artifact bytes kept in memory; artifacts past it
	// are made again on each read. 0 keeps everything.
	KeepBytes int64
}

// NewSite makes the site of bundles. Index names come from Names over every
// skill of every bundle (hidden ones included, so that ShowHidden never
// renames a skill); skills are listed in URI order. A skill URI in two
// bundles is an error.
func NewSite(bundles []*manifest.Bundle, opt SiteOptions) (*Site, error) {
	type ref struct {
		b       *manifest.Bundle
		s       *manifest.Skill
		version string // of the skill's library
	}
	var refs []ref
	for _, b := range bundles {
		m, err := b.Manifest()
		if err != nil {
			return nil, err
		}
		versions := map[string]string{}
		for _, l := range m.Libraries {
			versions[l.Namespace] = l.Version
		}
		for i := range m.Skills {
			refs = append(refs, ref{b, &m.Skills[i], versions[m.Skills[i].Library]})
		}
	}
	slices.SortFunc(refs, func(a, b ref) int { return strings.Compare(a.s.Entry.URI, b.s.Entry.URI) })
	paths := make([]string, len(refs))
	for i, r := range refs {
		if i > 0 && refs[i-1].s.Entry.URI == r.s.Entry.URI {
			return nil, fmt.Errorf("skill %s is in bundle %s and in bundle %s", r.s.Entry.URI, refs[i-1].b.ID(), r.b.ID())
		}
		paths[i] = r.s.Path
	}
	names, err := Names(paths)
	if err != nil {
		return nil, err
	}
	site := &Site{byPath: map[string]*SiteFile{}, index: Index{Schema: Schema, Skills: []Entry{}}}
	var kept int64
	for i, r := range refs {
		site.skills = append(site.skills, siteSkill{path: r.s.Path, entry: -1})
		site.spaces = append(site.spaces, Namespace(r.s.Path))
		if r.s.Hidden && !opt.ShowHidden {
			continue
		}
		typ, data, err := Artifact(r.b, r.s)
		if err != nil {
			return nil, err
		}
		d := manifest.Sum(data)
		f := &SiteFile{
			Path:        ArtifactPath(names[i], typ, d),
			ContentType: ArchiveMIME,
			Digest:      d,
			Size:        int64(len(data)),
			Immutable:   true,
			Library:     r.s.Library,
			data:        data,
		}
		if typ == TypeSkillMD {
			f.ContentType = SkillMDMIME
		}
		if kept += f.Size; opt.KeepBytes > 0 && kept > opt.KeepBytes {
			b, s := r.b, r.s
			f.data = nil
			f.remake = func() ([]byte, error) { _, data, err := Artifact(b, s); return data, err }
		}
		var fm struct {
			Description string `json:"description"`
		}
		if err := json.Unmarshal(r.s.Entry.Frontmatter, &fm); err != nil {
			return nil, fmt.Errorf("skill %s: frontmatter: %w", r.s.Entry.URI, err)
		}
		site.index.Skills = append(site.index.Skills, Entry{
			Name:        names[i],
			Type:        typ,
			Description: fm.Description,
			URL:         f.Path,
			Digest:      d.String(),
			Version:     r.version,
			SkillsMCP:   &EntryExtra{Path: r.s.Path, Bundle: r.b.ID().String()},
		})
		site.skills[i].entry, site.skills[i].artifact = len(site.index.Skills)-1, f
		site.Files = append(site.Files, f)
	}
	var extra []*SiteFile
	if len(bundles) == 1 {
		b := bundles[0]
		site.index.SkillsMCP = &SiteExtra{Bundle: b.ID().String()}
		if sigs := b.Signatures(); len(sigs) > 0 {
			msg, err := b.ManifestBytes()
			if err != nil {
				return nil, err
			}
			extra = append(extra, staticFile(manifest.ManifestFile, IndexMIME, msg))
			site.index.SkillsMCP.Manifest = manifest.ManifestFile
			for j, name := range manifest.SignatureFileNames(sigs) {
				extra = append(extra, staticFile(name, SignatureMIME, sigs[j].Data))
				site.index.SkillsMCP.Signatures = append(site.index.SkillsMCP.Signatures, name)
			}
		}
	}
	idx, err := marshalIndex(&site.index)
	if err != nil {
		return nil, err
	}
	site.spaces = slices.Compact(slices.Sorted(slices.Values(site.spaces)))
	site.Files = append([]*SiteFile{staticFile(IndexFile, IndexMIME, idx)}, site.Files...)
	site.Files = append(site.Files, extra...)
	for _, f := range site.Files {
		if _, dup := site.byPath[f.Path]; dup {
			return nil, fmt.Errorf("site: two files at %s", f.Path)
		}
		site.byPath[f.Path] = f
	}
	return site, nil
}

func staticFile(path, ctype string, data []byte) *SiteFile {
	return &SiteFile{Path: path, ContentType: ctype, Digest: manifest.Sum(data), Size: int64(len(data)), data: data}
}

// marshalIndex encodes an index as indented JSON ending in a newline,
// without HTML escapes: one index has one encoding.
func marshalIndex(idx *Index) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(idx); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Index returns the site's index file.
func (s *Site) Index() *SiteFile { return s.Files[0] }

// Lookup returns the file at path below Dir ("index.json",
// "refunds/<hex>.tar.gz"), if the site has one.
func (s *Site) Lookup(path string) (*SiteFile, bool) {
	f, ok := s.byPath[path]
	return f, ok
}

// Namespace returns the namespace of a skill path: its first segment (the
// library namespace, or for an un-namespaced library the skill's top
// folder), the unit a server grants access by.
func Namespace(skillPath string) string {
	ns, _, _ := strings.Cut(skillPath, "/")
	return ns
}

// maxViews bounds the views a site keeps; past it the cache starts afresh.
// Views are keyed by the namespaces they allow, so a deployment has as many
// as it has distinct grants.
const maxViews = 256

// View is the site as a client that may read only some namespaces sees
// it: the index of their skills, named by Names over their paths alone
// (hidden ones included, as for the whole site), so that no name, and no
// artifact URL, depends on a skill the client may not read; and their
// artifacts at those URLs. The bundle's manifest and signatures are left
// out: they list every skill. It is immutable and safe for concurrent use.
type View struct {
	index  *SiteFile
	byPath map[string]*SiteFile
}

// View returns the view of the skills whose namespace (see Namespace)
// allow accepts, made at the first call for each set of namespaces.
func (s *Site) View(allow func(namespace string) bool) (*View, error) {
	var key strings.Builder
	ok := map[string]bool{}
	for _, ns := range s.spaces {
		if allow(ns) {
			ok[ns] = true
			key.WriteString(ns)
			key.WriteByte('/') // never in a namespace
		}
	}
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if v := s.views[key.String()]; v != nil {
		return v, nil
	}
	var mine []siteSkill
	var paths []string
	for _, sk := range s.skills {
		if ok[Namespace(sk.path)] {
			mine = append(mine, sk)
			paths = append(paths, sk.path)
		}
	}
	names, err := Names(paths)
	if err != nil {
		return nil, err
	}
	v := &View{byPath: map[string]*SiteFile{}}
	idx := Index{Schema: Schema, Skills: []Entry{}}
	for i, sk := range mine {
		if sk.entry < 0 {
			continue
		}
		e := s.index.Skills[sk.entry]
		e.Name = names[i]
		e.URL = ArtifactPath(e.Name, e.Type, sk.artifact.Digest)
		idx.Skills = append(idx.Skills, e)
		v.byPath[e.URL] = sk.artifact
	}
	data, err := marshalIndex(&idx)
	if err != nil {
		return nil, err
	}
	v.index = staticFile(IndexFile, IndexMIME, data)
	v.byPath[IndexFile] = v.index
	if s.views == nil || len(s.views) >= maxViews {
		s.views = map[string]*View{}
	}
	s.views[key.String()] = v
	return v, nil
}

// Index returns the view's index file.
func (v *View) Index() *SiteFile { return v.index }

// Lookup returns the file of the view at path below Dir: its index, or an
// artifact of one of its skills at the URL its index gives.
func (v *View) Lookup(path string) (*SiteFile, bool) {
	f, ok := v.byPath[path]
	return f, ok
}
