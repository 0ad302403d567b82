package release

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Diff is what changed from one release to another. Every list is sorted
// by skill path (then file path); none is nil, so JSON shows [] for none.
type Diff struct {
	Old Side `json:"old"`
	New Side `json:"new"`
	// Identical is true when nothing below is reported: the releases hold
	// the same skills, libraries and risk.
	Identical bool            `json:"identical"`
	Head      []FieldChange   `json:"head"` // created, generator: the manifest's own fields
	Libraries []LibraryChange `json:"libraries"`
	Added     []SkillSummary  `json:"added"`
	Removed   []SkillSummary  `json:"removed"`
	Renamed   []Rename        `json:"renamed"`
	Changed   []SkillChange   `json:"changed"`
	// Unchanged counts the skills whose records are identical in both
	// releases: same path, files, frontmatter and findings.
	Unchanged int            `json:"unchanged"`
	Withheld  WithheldChange `json:"withheld"`
	Risk      Risk           `json:"risk"`

	pairs []pair // the skills compared for risk and patches, with both sides
	old   *Release
	new   *Release
}

// Side names one release of a diff.
type Side struct {
	Name   string `json:"name"`
	ID     string `json:"id"`
	Skills int    `json:"skills"`
}

// FieldChange is one field whose value changed: Old or New is absent
// (null) when the field was added or removed. Values are JSON.
type FieldChange struct {
	Field string          `json:"field"`
	Old   json.RawMessage `json:"old,omitempty"`
	New   json.RawMessage `json:"new,omitempty"`
}

// LibraryChange is a library added, removed or changed, by namespace.
type LibraryChange struct {
	Namespace string        `json:"namespace"`
	Change    string        `json:"change"` // "added", "removed" or "changed"
	Fields    []FieldChange `json:"fields,omitempty"`
}

// SkillSummary is a skill added or removed.
type SkillSummary struct {
	Path    string          `json:"path"`
	Library string          `json:"library"`
	URI     string          `json:"uri"`
	Files   int             `json:"files"`
	Bytes   int64           `json:"bytes"`
	Tree    manifest.Digest `json:"tree"` // manifest.Skill.TreeDigest
}

// Rename is a skill at a new path: with the same tree (the same files,
// byte for byte), or, when it is the only skill of its name that one
// release removed and the other added, with the changes in Change.
type Rename struct {
	From string          `json:"from"`
	To   string          `json:"to"`
	Tree manifest.Digest `json:"tree"` // in the newer release
	// Fields lists what else changed in the record (library, hidden, …).
	Fields []FieldChange `json:"fields,omitempty"`
	// Change is how the skill changed as it moved; nil for the same tree.
	Change *SkillChange `json:"change,omitempty"`
}

// SkillChange is a skill at the same path whose record differs.
type SkillChange struct {
	Path        string        `json:"path"`
	From        string        `json:"from,omitempty"` // the path in the older release, for a skill that moved
	URI         string        `json:"uri"`
	Files       []FileChange  `json:"files"`
	Frontmatter []FieldChange `json:"frontmatter"` // every top-level key that changed, and "hidden"
	// Fields lists other parts of the record that changed: library,
	// scriptsWithheld, provenance, findings, capabilities.
	Fields []string `json:"fields,omitempty"`
}

// File changes.
const (
	FileAdded   = "added"
	FileRemoved = "removed"
	FileChanged = "changed"
)

// FileChange is a file of a changed skill that was added, removed or
// changed, with its digests and sizes on each side.
type FileChange struct {
	Path      string           `json:"path"`
	Change    string           `json:"change"` // FileAdded, FileRemoved or FileChanged
	OldSize   int64            `json:"oldSize"`
	NewSize   int64            `json:"newSize"`
	OldDigest *manifest.Digest `json:"oldDigest,omitempty"`
	NewDigest *manifest.Digest `json:"newDigest,omitempty"`
	Text      bool             `json:"text"` // text on both sides that have it: a patch can show it
}

// WithheldChange lists skills withheld by one release and not the other.
type WithheldChange struct {
	New  []manifest.Withheld `json:"new"`
	Gone []manifest.Withheld `json:"gone"`
}

// Compare returns the differences from old to new. When both are bundles
// it parses only the skill records that differ; otherwise it reads both
// manifests whole. It reads no file's bytes (WritePatch does).
func Compare(ctx context.Context, old, new *Release) (*Diff, error) {
	d := &Diff{
		Old: Side{old.Name, old.ID, old.numSkills()}, New: Side{new.Name, new.ID, new.numSkills()},
		Head: []FieldChange{}, Libraries: []LibraryChange{}, Added: []SkillSummary{}, Removed: []SkillSummary{},
		Renamed: []Rename{}, Changed: []SkillChange{}, Withheld: WithheldChange{New: []manifest.Withheld{}, Gone: []manifest.Withheld{}},
		old: old, new: new,
	}
	gone, added, changed, err := match(old, new, &d.Unchanged)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.compareHeads(old.head, new.head)
	// A removed and an added skill with one tree are a rename.
	byTree := map[manifest.Digest][]*manifest.Skill{}
	for _, s := range gone {
		t := s.TreeDigest()
		byTree[t] = append(byTree[t], s)
	}
	var adds []*manifest.Skill
	for _, s := range added {
		t := s.TreeDigest()
		if from := byTree[t]; len(from) > 0 {
			o := from[0]
			byTree[t] = from[1:]
			d.Renamed = append(d.Renamed, Rename{From: o.Path, To: s.Path, Tree: t, Fields: recordFields(o, s)})
			d.pairs = append(d.pairs, pair{o, s, true})
			continue
		}
		adds = append(adds, s)
	}
	renamedFrom := map[string]bool{}
	for _, r := range d.Renamed {
		renamedFrom[r.From] = true
	}
	var rest []*manifest.Skill
	for _, s := range gone {
		if !renamedFrom[s.Path] {
			rest = append(rest, s)
		}
	}
	// A skill that moved and changed: the one removed and the one added
	// skill of a name (the last segment of the path, which is the
	// frontmatter name) are the same skill, moved, with its changes.
	names := map[string][2]int{} // name → count removed, count added
	for _, s := range rest {
		c := names[s.Name()]
		c[0]++
		names[s.Name()] = c
	}
	for _, s := range adds {
		c := names[s.Name()]
		c[1]++
		names[s.Name()] = c
	}
	movedFrom := map[string]*manifest.Skill{}
	for _, s := range rest {
		if names[s.Name()] == [2]int{1, 1} {
			movedFrom[s.Name()] = s
		}
	}
	for _, s := range rest {
		if movedFrom[s.Name()] == nil {
			d.Removed = append(d.Removed, summary(s))
			d.pairs = append(d.pairs, pair{s, nil, false})
		}
	}
	for _, s := range adds {
		if o := movedFrom[s.Name()]; o != nil {
			c := skillChange(o, s)
			c.From = o.Path
			d.Renamed = append(d.Renamed, Rename{From: o.Path, To: s.Path, Tree: s.TreeDigest(), Fields: recordFields(o, s), Change: &c})
			d.pairs = append(d.pairs, pair{o, s, true})
			continue
		}
		d.Added = append(d.Added, summary(s))
		d.pairs = append(d.pairs, pair{nil, s, false})
	}
	for _, p := range changed {
		d.Changed = append(d.Changed, skillChange(p.old, p.new))
		d.pairs = append(d.pairs, p)
	}
	slices.SortFunc(d.pairs, func(a, b pair) int { return strings.Compare(a.path(), b.path()) })
	slices.SortFunc(d.Renamed, func(a, b Rename) int { return strings.Compare(a.To, b.To) })
	d.Risk = compareRisk(d.pairs)
	d.Identical = len(d.Head) == 0 && len(d.Libraries) == 0 && len(d.Added) == 0 && len(d.Removed) == 0 &&
		len(d.Renamed) == 0 && len(d.Changed) == 0 && len(d.Withheld.New) == 0 && len(d.Withheld.Gone) == 0 &&
		d.Risk.empty()
	return d, nil
}

// match walks both releases' skills in URI order and returns the skills
// only old has, those only new has, and the pairs at one URI whose records
// differ; it counts the identical ones in *same. Two bundles are compared
// record by record in place, and only the records that differ are parsed
// and checked by the format's rules.
func match(old, new *Release, same *int) (gone, added []*manifest.Skill, changed []pair, err error) {
	if old.bundle != nil && new.bundle != nil {
		ob, nb := old.bundle, new.bundle
		if ob.ID() == nb.ID() {
			*same = ob.NumSkills()
			return nil, nil, nil, nil
		}
		var oi, ni []int // skill numbers to parse
		var pairs [][2]int
		i, j := 0, 0
		for i < ob.NumSkills() || j < nb.NumSkills() {
			switch {
			case j == nb.NumSkills():
				oi = append(oi, i)
				i++
			case i == ob.NumSkills():
				ni = append(ni, j)
				j++
			default:
				order, eq := ob.CompareSkill(i, nb, j)
				switch {
				case order < 0:
					oi = append(oi, i)
					i++
				case order > 0:
					ni = append(ni, j)
					j++
				default:
					if eq {
						*same++
					} else {
						pairs = append(pairs, [2]int{i, j})
					}
					i++
					j++
				}
			}
		}
		parse := func(r *Release, idx []int) ([]*manifest.Skill, error) {
			out := make([]*manifest.Skill, len(idx))
			m := &manifest.Manifest{MediaType: manifest.MediaType, Skills: make([]manifest.Skill, len(idx))}
			for k, n := range idx {
				s, err := r.skill(n)
				if err != nil {
					return nil, err
				}
				m.Skills[k] = *s
			}
			if err := manifest.Check(m); err != nil {
				return nil, fmt.Errorf("%s: %w", r.Name, err)
			}
			for k := range m.Skills {
				out[k] = &m.Skills[k]
			}
			return out, nil
		}
		for _, p := range pairs {
			oi = append(oi, p[0])
			ni = append(ni, p[1])
		}
		slices.Sort(oi)
		slices.Sort(ni)
		olds, err := parse(old, oi)
		if err != nil {
			return nil, nil, nil, err
		}
		news, err := parse(new, ni)
		if err != nil {
			return nil, nil, nil, err
		}
		byOld, byNew := map[int]*manifest.Skill{}, map[int]*manifest.Skill{}
		for k, n := range oi {
			byOld[n] = olds[k]
		}
		for k, n := range ni {
			byNew[n] = news[k]
		}
		pairedOld, pairedNew := map[int]bool{}, map[int]bool{}
		for _, p := range pairs {
			changed = append(changed, pair{old: byOld[p[0]], new: byNew[p[1]]})
			pairedOld[p[0]], pairedNew[p[1]] = true, true
		}
		for _, n := range oi {
			if !pairedOld[n] {
				gone = append(gone, byOld[n])
			}
		}
		for _, n := range ni {
			if !pairedNew[n] {
				added = append(added, byNew[n])
			}
		}
		return gone, added, changed, nil
	}
	os, err := old.all()
	if err != nil {
		return nil, nil, nil, err
	}
	ns, err := new.all()
	if err != nil {
		return nil, nil, nil, err
	}
	i, j := 0, 0
	for i < len(os) || j < len(ns) {
		switch {
		case j == len(ns) || i < len(os) && os[i].Entry.URI < ns[j].Entry.URI:
			gone = append(gone, &os[i])
			i++
		case i == len(os) || os[i].Entry.URI > ns[j].Entry.URI:
			added = append(added, &ns[j])
			j++
		default:
			eq, err := sameRecord(&os[i], &ns[j])
			if err != nil {
				return nil, nil, nil, err
			}
			if eq {
				*same++
			} else {
				changed = append(changed, pair{old: &os[i], new: &ns[j]})
			}
			i++
			j++
		}
	}
	return gone, added, changed, nil
}

// sameRecord reports whether two skills encode to the same record.
func sameRecord(a, b *manifest.Skill) (bool, error) {
	ea, err := encode(a)
	if err != nil {
		return false, err
	}
	eb, err := encode(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ea, eb), nil
}

// encode returns v as compact JSON without HTML escapes, the manifest's
// encoding of a record.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// raw encodes v for a FieldChange; nil for a zero value, so that an empty
// field reads as absent.
func raw(v any) json.RawMessage {
	b, err := encode(v)
	if err != nil {
		return json.RawMessage(`"?"`)
	}
	switch string(b) {
	case `""`, "null", "false", "0", "{}", "[]":
		return nil
	}
	return b
}

// field appends a FieldChange when a and b encode differently.
func field(out []FieldChange, name string, a, b any) []FieldChange {
	ra, rb := raw(a), raw(b)
	if bytes.Equal(ra, rb) {
		return out
	}
	return append(out, FieldChange{Field: name, Old: ra, New: rb})
}

// compareHeads records the differences of the manifests' own fields,
// libraries and withheld skills.
func (d *Diff) compareHeads(o, n *manifest.Manifest) {
	d.Head = field(d.Head, "created", o.Created, n.Created)
	d.Head = field(d.Head, "generator", o.Generator, n.Generator)
	d.Head = field(d.Head, "warnings", o.Warnings, n.Warnings)
	libs := map[string][2]*manifest.Library{}
	for i := range o.Libraries {
		l := &o.Libraries[i]
		libs[l.Namespace] = [2]*manifest.Library{l, libs[l.Namespace][1]}
	}
	for i := range n.Libraries {
		l := &n.Libraries[i]
		libs[l.Namespace] = [2]*manifest.Library{libs[l.Namespace][0], l}
	}
	for _, ns := range slices.Sorted(maps.Keys(libs)) {
		p := libs[ns]
		switch {
		case p[0] == nil:
			d.Libraries = append(d.Libraries, LibraryChange{Namespace: ns, Change: "added", Fields: libraryFields(&manifest.Library{}, p[1])})
		case p[1] == nil:
			d.Libraries = append(d.Libraries, LibraryChange{Namespace: ns, Change: "removed", Fields: libraryFields(p[0], &manifest.Library{})})
		default:
			if f := libraryFields(p[0], p[1]); len(f) > 0 {
				d.Libraries = append(d.Libraries, LibraryChange{Namespace: ns, Change: "changed", Fields: f})
			}
		}
	}
	key := func(w manifest.Withheld) string {
		return w.Library + "\x00" + w.Path + "\x00" + strings.Join(w.Rules, ",")
	}
	in := func(ws []manifest.Withheld, w manifest.Withheld) bool {
		return slices.ContainsFunc(ws, func(x manifest.Withheld) bool { return key(x) == key(w) })
	}
	for _, w := range n.Withheld {
		if !in(o.Withheld, w) {
			d.Withheld.New = append(d.Withheld.New, w)
		}
	}
	for _, w := range o.Withheld {
		if !in(n.Withheld, w) {
			d.Withheld.Gone = append(d.Withheld.Gone, w)
		}
	}
}

// libraryFields lists the public fields of a library that differ; the
// skill counts are left out (the skills themselves are compared).
func libraryFields(a, b *manifest.Library) []FieldChange {
	var out []FieldChange
	out = field(out, "kind", a.Kind, b.Kind)
	out = field(out, "title", a.Title, b.Title)
	out = field(out, "source", a.Source, b.Source)
	out = field(out, "version", a.Version, b.Version)
	out = field(out, "metadata", a.Metadata, b.Metadata)
	out = field(out, "digest", a.Digest, b.Digest)
	out = field(out, "noScripts", a.NoScripts, b.NoScripts)
	return out
}

func summary(s *manifest.Skill) SkillSummary {
	var n int64
	for _, r := range s.Entry.Resources {
		n += r.Size
	}
	return SkillSummary{Path: s.Path, Library: s.Library, URI: s.Entry.URI, Files: len(s.Files), Bytes: n, Tree: s.TreeDigest()}
}

// recordFields lists the fields of a moved skill's record, beyond its
// path and files, that changed.
func recordFields(o, n *manifest.Skill) []FieldChange {
	var out []FieldChange
	out = field(out, "library", o.Library, n.Library)
	out = field(out, "hidden", o.Hidden, n.Hidden)
	out = field(out, "scriptsWithheld", o.ScriptsWithheld, n.ScriptsWithheld)
	return out
}

// skillChange describes how a skill at one path changed.
func skillChange(o, n *manifest.Skill) SkillChange {
	c := SkillChange{Path: n.Path, URI: n.Entry.URI, Files: []FileChange{}, Frontmatter: frontmatterChanges(o, n)}
	type file struct {
		d    manifest.Digest
		size int64
		text bool
	}
	files := func(s *manifest.Skill) map[string]file {
		m := make(map[string]file, len(s.Files))
		for i, f := range s.Files {
			m[f.Path] = file{s.Entry.Resources[i].Digest, s.Entry.Resources[i].Size, f.Text}
		}
		return m
	}
	of, nf := files(o), files(n)
	paths := slices.Collect(maps.Keys(of))
	for p := range nf {
		if _, ok := of[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		a, inOld := of[p]
		b, inNew := nf[p]
		switch {
		case !inNew:
			c.Files = append(c.Files, FileChange{Path: p, Change: FileRemoved, OldSize: a.size, OldDigest: &a.d, Text: a.text})
		case !inOld:
			c.Files = append(c.Files, FileChange{Path: p, Change: FileAdded, NewSize: b.size, NewDigest: &b.d, Text: b.text})
		case a.d != b.d:
			c.Files = append(c.Files, FileChange{Path: p, Change: FileChanged, OldSize: a.size, NewSize: b.size,
				OldDigest: &a.d, NewDigest: &b.d, Text: a.text && b.text})
		}
	}
	for _, f := range recordFields(o, n) {
		if f.Field != "hidden" { // hidden is listed with the frontmatter
			c.Fields = append(c.Fields, f.Field)
		}
	}
	if !bytes.Equal(raw(o.Provenance), raw(n.Provenance)) {
		c.Fields = append(c.Fields, "provenance")
	}
	if !bytes.Equal(raw(o.Findings), raw(n.Findings)) {
		c.Fields = append(c.Fields, "findings")
	}
	if !slices.Equal(capabilities(o), capabilities(n)) {
		c.Fields = append(c.Fields, "capabilities")
	}
	return c
}

// frontmatterChanges lists every top-level frontmatter key whose value
// changed, in key order, then "hidden" if the skill was hidden or shown.
func frontmatterChanges(o, n *manifest.Skill) []FieldChange {
	out := []FieldChange{}
	var a, b map[string]json.RawMessage
	json.Unmarshal(o.Entry.Frontmatter, &a) // the format requires an object
	json.Unmarshal(n.Entry.Frontmatter, &b)
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, vb := compact(a[k]), compact(b[k])
		if !bytes.Equal(va, vb) {
			out = append(out, FieldChange{Field: k, Old: va, New: vb})
		}
	}
	return field(out, "hidden", o.Hidden, n.Hidden)
}

// compact returns JSON without insignificant space; nil for nil.
func compact(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return v
	}
	return buf.Bytes()
}
