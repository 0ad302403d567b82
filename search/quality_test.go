package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/skilltext"
)

// qualityQuery is a query of a query set in testdata with the path
// of the skill it should find first; Also lists skills that answer it as
// well, in other libraries of a combined scenario.
type qualityQuery struct {
	Query string   `json:"query"`
	Want  string   `json:"want"`
	Also  []string `json:"also,omitempty"`
}

func (q qualityQuery) accepts(path string) bool {
	return path == q.Want || slices.Contains(q.Also, path)
}

// Libraries of the quality scenarios: fixtures in testdata, written
// for these tests, and a real library from the shared corpora.
const (
	libFixture      = "fixture"       // testdata/skills.json: acme, community and vendor, 239 skills
	libTerse        = "terse"         // testdata/terse.json: anthropic, a few skills with one-line descriptions
	libClaudeSkills = "claude-skills" // ../shared/corpora/claude-skills: a large library with long descriptions
)

// corporaDir is the folder of the shared corpora: $SKILLS_CORPORA, else
// ../shared/corpora from the repository root; "" when it does not exist.
func corporaDir() string {
	dir := os.Getenv("SKILLS_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpora")
	}
	if fi, err := os.Stat(filepath.Join(dir, libClaudeSkills)); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}

var (
	scenarioMu      sync.Mutex
	scenarioBundles = map[string][]byte{}
)

// scenarioBundle builds (once per process) one bundle of the named
// libraries: the fixtures as written by bundletest.Skills, each corpus
// library as a folder library named after it. The corpus's own withheld
// skills (names that differ from their folders) stay withheld.
func scenarioBundle(t testing.TB, libs []string) *manifest.Bundle {
	t.Helper()
	key := strings.Join(libs, "+")
	scenarioMu.Lock()
	defer scenarioMu.Unlock()
	data, ok := scenarioBundles[key]
	if !ok {
		var skills []bundletest.Skill
		var extra []build.Library
		for _, l := range libs {
			switch l {
			case libFixture, libTerse:
				var s []bundletest.Skill
				bundletest.ReadJSON(t, qualityFiles[l], &s)
				skills = append(skills, s...)
			default:
				dir := corporaDir()
				if dir == "" {
					t.Skipf("no shared corpora (set SKILLS_CORPORA or put them at ../shared/corpora): %s not measured", key)
				}
				extra = append(extra, build.Library{Namespace: l, Root: filepath.Join(dir, l), Title: l})
			}
		}
		data = bundletest.Skills(t, skills, extra)
		scenarioBundles[key] = data
	}
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// qualityFiles are the fixture libraries' files.
var qualityFiles = map[string]string{libFixture: "testdata/skills.json", libTerse: "testdata/terse.json"}

// The reference server's scorer (thirdbrain-behaviour.md §6), for comparison
// on the same fixture: weighted keyword hits, no folding beyond lower case,
// no stemming, no prefixes.
var (
	refStop = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields("a an and are as at be by for from has how in is it of on or that the this to use used user when with your you") {
			m[w] = true
		}
		return m
	}()
	refSplit = regexp.MustCompile(`[^a-z0-9]+`)
)

func refTokenize(s string) []string {
	s = strings.NewReplacer("'", "", "’", "").Replace(strings.ToLower(s))
	var out []string
	for _, t := range refSplit.Split(s, -1) {
		if len(t) > 1 && !refStop[t] {
			out = append(out, t)
		}
	}
	return out
}

type refDoc struct {
	path, name, desc, body string
	tags                   []string

	// The tokens of name, description, tags and body (its first 6000
	// bytes), set by tokenize.
	nameToks, descToks, tagToks, bodyToks []string
}

// tokenize sets the tokens the reference scores, once per document.
func (d *refDoc) tokenize() {
	d.nameToks, d.descToks = refTokenize(d.name), refTokenize(d.desc)
	for _, tag := range d.tags {
		d.tagToks = append(d.tagToks, refTokenize(tag)...)
	}
	body := d.body
	if len(body) > 6000 {
		body = body[:6000]
	}
	d.bodyToks = refTokenize(body)
}

// refSearch ranks docs (tokenized) for q like the reference: score desc,
// then name.
func refSearch(q string, docs []refDoc) []int {
	ql := strings.ToLower(strings.TrimSpace(q))
	var terms []string
	for _, t := range refTokenize(ql) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	type scored struct {
		i     int
		score int
	}
	var hits []scored
	for i, d := range docs {
		s := 0
		switch {
		case ql != "" && d.name == ql:
			s += 100
		case ql != "" && strings.Contains(d.name, ql):
			s += 40
		}
		if len(ql) > 3 && strings.Contains(strings.ToLower(d.desc), ql) {
			s += 30
		}
		for _, t := range terms {
			inName, inDesc := slices.Contains(d.nameToks, t), slices.Contains(d.descToks, t)
			if inName {
				s += 12
			}
			if inDesc {
				s += 6
			}
			if slices.Contains(d.tagToks, t) {
				s += 5
			}
			if !inName && !inDesc && slices.Contains(d.bodyToks, t) {
				s++
			}
		}
		if s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(docs[a.i].name, docs[b.i].name)
	})
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.i
	}
	return out
}

// accuracy counts the queries whose expected skill ranks first and in the
// top three.
type accuracy struct{ top1, top3, n int }

func (a accuracy) String() string {
	return fmt.Sprintf("top-1 %d/%d (%.1f%%), top-3 %d/%d (%.1f%%)", a.top1, a.n, 100*float64(a.top1)/float64(a.n),
		a.top3, a.n, 100*float64(a.top3)/float64(a.n))
}

func (a *accuracy) add(rank int) {
	a.n++
	if rank == 0 {
		a.top1++
	}
	if rank >= 0 && rank < 3 {
		a.top3++
	}
}

// qualitySet is a query set with the floors it must reach (percent).
type qualitySet struct {
	name, file     string
	floor1, floor3 int
	// paraphrase: no query shares an index term with the name of a skill
	// it accepts (checked), so only what the skill is for can find it.
	paraphrase bool
}

// qualityScenario is a combination of libraries served together and the
// query sets run against it.
type qualityScenario struct {
	name    string
	libs    []string
	sets    []qualitySet
	beatRef bool // ours must rank more queries first than the reference scorer
}

// qualityScenarios are the measured combinations. The tuning sets are the
// ones the ranking parameters were adjusted against; the held-out sets were
// written with them and never tuned against.
var qualityScenarios = []qualityScenario{
	{name: libFixture, libs: []string{libFixture}, beatRef: true, sets: []qualitySet{
		{"tuning", "queries.json", 90, 97, false},
		{"held-out", "queries-holdout.json", 75, 90, false},
	}},
	{name: libTerse, libs: []string{libTerse}, sets: []qualitySet{
		{"terse tuning", "terse-queries.json", 90, 100, false},
		{"terse held-out", "terse-queries-holdout.json", 90, 100, false},
	}},
	// A small terse library served with a larger one: without name
	// matches, the larger library's skills that say "presentation" and
	// "Excel" outrank pptx and xlsx.
	{name: "terse+fixture", libs: []string{libTerse, libFixture}, sets: []qualitySet{
		{"terse tuning", "terse-queries.json", 90, 100, false},
		{"terse held-out", "terse-queries-holdout.json", 90, 100, false},
		{"tuning", "queries.json", 90, 97, false},
		{"held-out", "queries-holdout.json", 75, 90, false},
	}},
	{name: libClaudeSkills, libs: []string{libClaudeSkills}, sets: []qualitySet{
		{"claude-skills tuning", "claude-skills-queries.json", 70, 85, false},
		{"claude-skills held-out", "claude-skills-queries-holdout.json", 75, 90, false},
		{"paraphrase tuning", "paraphrase-queries.json", 80, 90, true},
		{"paraphrase held-out", "paraphrase-queries-holdout.json", 75, 92, true},
	}},
	{name: "terse+claude-skills", libs: []string{libTerse, libClaudeSkills}, sets: []qualitySet{
		{"terse tuning", "terse-queries.json", 85, 90, false},
		{"terse held-out", "terse-queries-holdout.json", 80, 90, false},
		{"claude-skills tuning", "claude-skills-queries.json", 70, 85, false},
		{"claude-skills held-out", "claude-skills-queries-holdout.json", 75, 90, false},
	}},
}

// TestSearchQuality runs each scenario's query sets through our search and
// the reference scorer and reports both accuracies; it fails below the
// floors. Scenarios with a corpus library are skipped when the shared
// corpora are not there. `go test` shows the output of passing packages
// only with -v: `go test -run TestSearchQuality -v ./search`.
func TestSearchQuality(t *testing.T) {
	for _, sc := range qualityScenarios {
		t.Run(sc.name, func(t *testing.T) {
			r := newQualityRun(t, sc.libs)
			for _, set := range sc.sets {
				var queries []qualityQuery
				bundletest.ReadJSON(t, "testdata/"+set.file, &queries)
				if len(queries) < 10 {
					t.Fatalf("%s has %d queries, want at least 10", set.file, len(queries))
				}
				if set.paraphrase {
					r.checkParaphrase(t, set.file, queries)
				}
				label := set.name
				if sc.name != libFixture {
					label = sc.name + ": " + set.name
				}
				ours, ref := r.measure(t, label, queries)
				if ours.top1*100 < set.floor1*ours.n || ours.top3*100 < set.floor3*ours.n {
					t.Errorf("%s set: search quality below the floor (top-1 %d%%, top-3 %d%%): %s", label, set.floor1, set.floor3, ours)
				}
				if sc.beatRef && ours.top1 <= ref.top1 {
					t.Errorf("%s set: search does not beat the reference scorer: ours %s, reference %s", label, ours, ref)
				}
			}
		})
	}
}

// qualityRun is a scenario's documents as serve indexes them, their index
// and the same skills for the reference scorer.
type qualityRun struct {
	docs    []Doc
	ix      *Index
	refDocs []refDoc
}

func newQualityRun(t *testing.T, libs []string) *qualityRun {
	t.Helper()
	r := &qualityRun{docs: docsOf(t, scenarioBundle(t, libs))}
	r.ix = New(r.docs)
	// The reference sees a fixture skill's frontmatter tags and its category
	// (as it did when the fixture figures were first taken), a corpus
	// skill's tags and metadata values and its category (the last of a
	// document's tags).
	fixtureTags := map[string][]string{}
	for _, l := range libs {
		if f, ok := qualityFiles[l]; ok {
			var skills []bundletest.Skill
			bundletest.ReadJSON(t, f, &skills)
			for _, sk := range skills {
				fixtureTags[sk.Path] = sk.Tags
			}
		}
	}
	for _, doc := range r.docs {
		tags := doc.Tags
		if ft, ok := fixtureTags[doc.Path]; ok {
			tags = append(slices.Clone(ft), tags[len(tags)-1])
		}
		// The body is cut at MaxBody, past the 6000 bytes the reference reads.
		d := refDoc{path: doc.Path, name: doc.Name, desc: doc.Description, body: doc.Body, tags: tags}
		d.tokenize()
		r.refDocs = append(r.refDocs, d)
	}
	return r
}

// checkParaphrase fails the test for a query of file that shares an index
// term with the name of a skill it accepts.
func (r *qualityRun) checkParaphrase(t *testing.T, file string, queries []qualityQuery) {
	t.Helper()
	var tk tokenizer
	termsOf := func(s string) map[string]bool {
		m := map[string]bool{}
		tk.terms(s, func(term []byte) { m[string(term)] = true })
		return m
	}
	for _, q := range queries {
		qt := termsOf(q.Query)
		for _, d := range r.docs {
			if !q.accepts(d.Path) {
				continue
			}
			for term := range termsOf(d.Name) {
				if qt[term] {
					t.Errorf("%s: %q shares %q with the name of %s: not a paraphrase", file, q.Query, term, d.Path)
				}
			}
		}
	}
}

// measure runs queries through our search and the reference scorer, logs
// each query ours does not rank first and prints the summary line that
// .ci/run shows.
func (r *qualityRun) measure(t *testing.T, label string, queries []qualityQuery) (ours, ref accuracy) {
	t.Helper()
	for _, q := range queries {
		if !slices.ContainsFunc(r.refDocs, func(d refDoc) bool { return d.path == q.Want }) {
			t.Fatalf("%s: %q wants %s, which is not served", label, q.Query, q.Want)
		}
		rank := -1
		hits := r.ix.Search(q.Query, 10, nil)
		for i, h := range hits {
			if q.accepts(r.docs[h.Doc].Path) {
				rank = i
				break
			}
		}
		ours.add(rank)
		if rank != 0 {
			got := "nothing"
			if len(hits) > 0 {
				got = r.docs[hits[0].Doc].Path
			}
			t.Logf("%s: %q ranks %s at %d (first: %s)", label, q.Query, q.Want, rank+1, got)
		}
		refRank := -1
		for i, d := range refSearch(q.Query, r.refDocs) {
			if q.accepts(r.refDocs[d].path) {
				refRank = i
				break
			}
		}
		ref.add(refRank)
	}
	summary := fmt.Sprintf("search quality, %s set (%d skills, %d queries): ours %s; reference scorer %s", label, len(r.refDocs), len(queries), ours, ref)
	t.Log(summary)
	fmt.Println(summary)
	return ours, ref
}

// docsOf returns the documents serve indexes for bundle b (serve's catalog,
// searchable in serve/toolcatalog.go): every skill not hidden, in the
// bundle's order, with its name, description, tags and category as
// skilltext reads them, and its SKILL.md body cut at MaxBody.
func docsOf(t testing.TB, b *manifest.Bundle) []Doc {
	t.Helper()
	var docs []Doc
	for i := range b.NumSkills() {
		if b.Hidden(i) {
			continue
		}
		sk, err := b.Skill(i)
		if err != nil {
			t.Fatal(err)
		}
		f := skilltext.Of(sk)
		doc := Doc{Name: f.Name, Description: f.Description, Tags: append(f.Tags, f.Category), Library: sk.Library, Path: sk.Path}
		data, err := b.ReadBlob(sk.Entry.Resources[0].Digest)
		if err != nil {
			t.Fatal(err)
		}
		body := skilltext.Body(data)
		doc.Body = string(body[:min(len(body), MaxBody)])
		docs = append(docs, doc)
	}
	return docs
}

// qualityFixture is the fixture's skills and its tuning queries.
func qualityFixture(t testing.TB) ([]bundletest.Skill, []qualityQuery) {
	var skills []bundletest.Skill
	var queries []qualityQuery
	bundletest.ReadJSON(t, "testdata/skills.json", &skills)
	bundletest.ReadJSON(t, "testdata/queries.json", &queries)
	return skills, queries
}
