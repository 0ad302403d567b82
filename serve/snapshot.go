package serve

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/search"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// Snapshot is the immutable catalog a server answers from: every skill of
// every served bundle, merged in bytewise URI order and numbered from 0 to
// Len()-1. A request loads the current snapshot once and answers from it to
// the end, so a Swap never changes the catalog under a request in flight.
//
// Handlers added later (discovery tools, prompts) get it from
// Server.Snapshot and use the same numbering.
type Snapshot struct {
	id           manifest.Digest
	bundles      []*manifest.Bundle
	showDisabled bool
	order        []skillRef // all skills, sorted by URI; nil for one bundle (identity)
	pos          [][]int32  // pos[b][i] is the number of bundle b's skill i; nil for one bundle
	n            int
	files        []atomic.Pointer[skillFiles] // files[k]: skill k's files, once a read has needed them
	site         siteOnce                     // the well-known site, at its first request (site.go)

	// A view (view.go) is a snapshot of the skills of base that access
	// grants; pos is -1 for the others. Its catalog (toolcatalog.go) is kept with it.
	base   *Snapshot
	access *Access
	catMu  sync.Mutex
	cat    *catalog
}

type skillRef struct{ b, i int32 }

// newSnapshot merges bundles into one catalog. It refuses a skill URI served
// by two bundles, and a skill of one bundle that lies inside a skill of
// another (their files would overlap), naming both bundles.
func newSnapshot(bundles []*manifest.Bundle, showDisabled bool) (*Snapshot, error) {
	s := &Snapshot{bundles: slices.Clone(bundles), showDisabled: showDisabled}
	h := sha256.New()
	fmt.Fprintf(h, "skills-mcp serve snapshot v1\nshow-disabled=%v\n", showDisabled)
	ids := make([]manifest.Digest, 0, len(bundles))
	for i, b := range bundles {
		if b == nil {
			return nil, fmt.Errorf("serve: bundle %d is nil", i)
		}
		if b.NumSkills() > 1<<31-1 {
			return nil, fmt.Errorf("serve: bundle %s: too many skills", b.ID())
		}
		ids = append(ids, b.ID())
		s.n += b.NumSkills()
	}
	s.files = make([]atomic.Pointer[skillFiles], s.n)
	slices.SortFunc(ids, func(a, b manifest.Digest) int { return bytes.Compare(a[:], b[:]) })
	for _, id := range ids {
		h.Write(id[:])
	}
	h.Sum(s.id[:0])
	if len(bundles) <= 1 {
		return s, nil
	}
	if err := s.merge(); err != nil {
		return nil, err
	}
	return s, nil
}

// merge builds the URI order over several bundles and checks that no two
// bundles serve the same skill folder or nested folders.
func (s *Snapshot) merge() error {
	uris := make([]string, 0, s.n)
	s.order = make([]skillRef, 0, s.n)
	s.pos = make([][]int32, len(s.bundles))
	for b, bu := range s.bundles {
		s.pos[b] = make([]int32, bu.NumSkills())
		for i := range bu.NumSkills() {
			s.order = append(s.order, skillRef{int32(b), int32(i)})
			uris = append(uris, bu.SkillURI(i))
		}
	}
	idx := make([]int, len(uris))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(uris[a], uris[b]) })
	order := make([]skillRef, len(idx))
	for k, i := range idx {
		order[k] = s.order[i]
		s.pos[order[k].b][order[k].i] = int32(k)
		if k > 0 && uris[idx[k-1]] == uris[i] {
			return fmt.Errorf("serve: skill %s is served by two bundles: %s and %s",
				uris[i], bundleLabel(s.bundles[order[k-1].b]), bundleLabel(s.bundles[order[k].b]))
		}
	}
	s.order = order
	for k, r := range s.order {
		root := strings.TrimSuffix(uris[idx[k]], "/"+manifest.SkillFile)
		for b, other := range s.bundles {
			if int32(b) == r.b {
				continue
			}
			if j, ok := other.SkillFor(root); ok {
				return fmt.Errorf("serve: skill %s of %s lies inside skill %s of %s",
					uris[idx[k]], bundleLabel(s.bundles[r.b]), other.SkillURI(j), bundleLabel(other))
			}
		}
	}
	return nil
}

// ID identifies the catalog: a digest of the served bundles' ids (in any
// order) and of the ShowDisabled setting. Cursors carry part of it.
func (s *Snapshot) ID() manifest.Digest { return s.id }

// Bundles returns the served bundles in the order New or Swap got them. The
// caller must not modify the slice.
func (s *Snapshot) Bundles() []*manifest.Bundle { return s.bundles }

// Len returns the number of skills, hidden ones included.
func (s *Snapshot) Len() int { return s.n }

func (s *Snapshot) ref(k int) (*manifest.Bundle, int) {
	if s.order == nil {
		return s.bundles[0], k
	}
	r := s.order[k]
	return s.bundles[r.b], int(r.i)
}

// Bundle returns the bundle that serves skill k and the skill's number in it.
func (s *Snapshot) Bundle(k int) (*manifest.Bundle, int) { return s.ref(k) }

// URI returns the URI of skill k's SKILL.md.
func (s *Snapshot) URI(k int) string { b, i := s.ref(k); return b.SkillURI(i) }

// URIs returns every skill's SKILL.md URI, URI(k) at k, read from each
// bundle in one pass.
func (s *Snapshot) URIs() []string {
	if s.order == nil && len(s.bundles) == 1 {
		return s.bundles[0].SkillURIs()
	}
	per := make([][]string, len(s.bundles))
	for b, bu := range s.bundles {
		per[b] = bu.SkillURIs()
	}
	uris := make([]string, s.n)
	for k, r := range s.order {
		uris[k] = per[r.b][r.i]
	}
	return uris
}

// Hidden reports whether skill k is hidden (disable-model-invocation).
func (s *Snapshot) Hidden(k int) bool { b, i := s.ref(k); return b.Hidden(i) }

// Listed reports whether skill k appears in listings: skills/list,
// resources/list and the folders above skill roots. Hidden skills are
// listed only with Options.ShowDisabled; every skill is readable.
func (s *Snapshot) Listed(k int) bool { return s.showDisabled || !s.Hidden(k) }

// EntryJSON returns skill k's SEP-2640 entry exactly as it goes on the wire.
// The caller must not modify the bytes.
func (s *Snapshot) EntryJSON(k int) ([]byte, error) { b, i := s.ref(k); return b.EntryJSON(i) }

// EntriesContaining returns the set of skills whose entry holds sub (see
// manifest.Bundle.EntriesContaining).
func (s *Snapshot) EntriesContaining(sub []byte) map[int]bool {
	out := map[int]bool{}
	for bi, b := range s.bundles {
		for _, i := range b.EntriesContaining(sub) {
			out[s.number(bi, i)] = true
		}
	}
	return out
}

// Fault returns the first served bundle's Fault: the error of an access
// that found its mapped file changed, after which lookups in it may have
// found nothing, or nil.
func (s *Snapshot) Fault() error {
	for _, b := range s.bundles {
		if err := b.Fault(); err != nil {
			return err
		}
	}
	return nil
}

// Changed returns, for the first served bundle whose file changed since it
// was opened (truncated or overwritten in place: manifest.Bundle.Changed,
// one fstat) or was found changed by an access (Fault), that error; else
// nil.
func (s *Snapshot) Changed() error {
	for _, b := range s.bundles {
		if err := b.Fault(); err != nil {
			return err
		}
		if err := b.Changed(); err != nil {
			return err
		}
	}
	return nil
}

// Skill parses and returns skill k's full manifest record.
func (s *Snapshot) Skill(k int) (*manifest.Skill, error) { b, i := s.ref(k); return b.Skill(i) }

func (s *Snapshot) number(b, i int) int {
	if s.pos == nil {
		return i
	}
	return int(s.pos[b][i])
}

// Find returns the number of the skill whose SKILL.md has the given URI.
func (s *Snapshot) Find(uri string) (int, bool) {
	for b, bu := range s.bundles {
		if i, ok := bu.FindSkill(uri); ok {
			k := s.number(b, i)
			return k, k >= 0
		}
	}
	return 0, false
}

// SkillFor returns the innermost skill whose folder holds the resource or
// folder uri. No two bundles serve nested folders (New refuses them), so at
// most one bundle can answer.
func (s *Snapshot) SkillFor(uri string) (int, bool) {
	for b, bu := range s.bundles {
		if i, ok := bu.SkillFor(uri); ok {
			k := s.number(b, i)
			return k, k >= 0
		}
	}
	return 0, false
}

// Search returns the first skill number whose URI is >= uri.
func (s *Snapshot) Search(uri string) int {
	lo, hi := 0, s.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.URI(m) < uri {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// errNoFile is returned by resource for a URI the catalog does not serve.
var errNoFile = errors.New("no such file")

// fileInfo is what resources/read needs to serve one file of a skill.
type fileInfo struct {
	rel    string // the file's URI below the skill's folder ("references/guide.md")
	digest manifest.Digest
	mime   string // interned: a catalog has few distinct types
	text   bool
}

// skillFiles are the files of one skill, taken from its parsed record the
// first time a read needs them, so that later reads parse no JSON. They hold
// only what a read needs (some 90 bytes a file), and only for skills that
// have been read.
type skillFiles struct {
	rootLen int // length of the skill folder's URI
	files   []fileInfo
}

// resource finds the file uri in the skill that holds it: the bundle that
// serves it and what a read needs to know about it. It returns errNoFile for
// a URI the catalog does not serve, and an error if the skill's record
// cannot be read.
func (s *Snapshot) resource(uri string) (*manifest.Bundle, *fileInfo, error) {
	k, ok := s.SkillFor(uri)
	if !ok {
		return nil, nil, errNoFile
	}
	b, i := s.ref(k)
	fs := s.files[k].Load()
	if fs == nil {
		sk, err := b.Skill(i)
		if err != nil {
			return nil, nil, err
		}
		fs = newSkillFiles(sk)
		s.files[k].Store(fs)
	}
	if len(uri) <= fs.rootLen || uri[fs.rootLen] != '/' {
		return nil, nil, errNoFile
	}
	rel := uri[fs.rootLen+1:]
	for j := range fs.files {
		if fs.files[j].rel == rel {
			return b, &fs.files[j], nil
		}
	}
	return nil, nil, errNoFile
}

func newSkillFiles(sk *manifest.Skill) *skillFiles {
	root := sk.Entry.Root()
	// below returns resource j's URI below the skill's folder; a resource
	// anywhere else is never served (Bundle.Skill checked that Files and
	// Resources are parallel).
	below := func(j int) (string, bool) {
		return strings.CutPrefix(sk.Entry.Resources[j].URI, root+"/")
	}
	// One string holds every relative URI; each fileInfo.rel is a part of it.
	var all strings.Builder
	for j := range sk.Entry.Resources {
		if rel, ok := below(j); ok {
			all.WriteString(rel)
		}
	}
	rels := all.String()
	fs := &skillFiles{rootLen: len(root), files: make([]fileInfo, 0, len(sk.Entry.Resources))}
	for j, r := range sk.Entry.Resources {
		if rel, ok := below(j); ok {
			f := sk.Files[j]
			fs.files = append(fs.files, fileInfo{rel: rels[:len(rel)], digest: r.Digest, mime: unique.Make(f.MimeType).Value(), text: f.Text})
			rels = rels[len(rel):]
		}
	}
	return fs
}

// bundleLabel names a bundle in an error: its file and its id, or its id
// alone for a bundle that has no file (one built in memory).
func bundleLabel(b *manifest.Bundle) string {
	if b.Name() == "" {
		return "bundle " + b.ID().String()
	}
	return fmt.Sprintf("%s (%s)", b.Name(), b.ID())
}

// siteOnce is a snapshot's well-known site, made at its first request.
type siteOnce struct {
	once sync.Once
	site *wellknown.Site
	err  error
}

// catalog is what the discovery tools derive from one snapshot, each part
// built on first use (toolcatalog.go). It is declared here, beside the
// Snapshot, as a view keeps its own.
type catalog struct {
	snap *Snapshot

	headOnce sync.Once
	heads    []*manifest.Manifest // each bundle's manifest without its skills
	headErr  error

	docsOnce  sync.Once
	docs      []skillDoc // by snapshot number
	byName    map[string][]int
	byLibName map[string][]int
	byPath    map[string]int
	docsErr   error

	indexOnce sync.Once
	index     *search.Index
	indexDocs []int // index document → snapshot number
	indexErr  error

	describeOnce sync.Once
	describe     string

	instrOnce sync.Once
	instr     string

	pathsOnce sync.Once
	paths     []string // skill paths as URIs write them, by snapshot number
	libs      []string // library namespaces, by snapshot number

	promptOnce  sync.Once
	promptSet   *promptSet
	promptsOnce sync.Once
	promptList  []skillPrompt // by snapshot number
	promptsErr  error
	listingOnce sync.Once
	listing     *promptListing
}

// skillDoc is what list and search results say about a skill.
type skillDoc struct {
	name, path, library, uri, description, category string
	tags                                            []string
	hidden, listed                                  bool
	files, scripts, findings, scriptsWithheld       int
	bytes                                           int64
	rules                                           []string
	caps                                            []string // capabilities the analysis saw
	trust                                           map[string]any
	bundle                                          *manifest.Bundle
	md                                              manifest.Digest // SKILL.md
}
