package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// searchFixture is the folder of the search package's quality fixture
// (written by its testdata/gen), which these tests serve as a catalog.
const searchFixture = "../search/testdata/"

// fixtureQuery is a query of a fixture query set and the skill it finds.
type fixtureQuery struct {
	Query string   `json:"query"`
	Want  string   `json:"want"`
	Also  []string `json:"also,omitempty"`
}

func readJSON(t testing.TB, file string, v any) { t.Helper(); bundletest.ReadJSON(t, file, v) }

// buildSkills builds skills (bundletest.Skills) into a bundle and opens it.
func buildSkills(t testing.TB, skills []bundletest.Skill) *manifest.Bundle {
	t.Helper()
	return bundletest.Open(t, bundletest.Skills(t, skills, nil))
}

// qualityFixture is the search fixture's skills and its tuning queries.
func qualityFixture(t testing.TB) ([]bundletest.Skill, []fixtureQuery) {
	var skills []bundletest.Skill
	var queries []fixtureQuery
	readJSON(t, searchFixture+"skills.json", &skills)
	readJSON(t, searchFixture+"queries.json", &queries)
	return skills, queries
}

// TestSearchCombinedPowerpoint asks search_skills, through an SDK client,
// for a PowerPoint on a server that serves a small library with a pptx
// skill beside a larger one whose slide-deck skill has "powerpoint" and
// "presentation" in its tags: the skill named after the format comes
// first.
func TestSearchCombinedPowerpoint(t *testing.T) {
	var terse, skills []bundletest.Skill
	readJSON(t, searchFixture+"terse.json", &terse)
	readJSON(t, searchFixture+"skills.json", &skills)
	s := newServer(t, Options{}, buildSkills(t, append(terse, skills...)))
	cs := connectMem(t, s, "2025-11-25", nil)
	for _, tc := range []struct{ query, want string }{
		{"make a powerpoint presentation", "anthropic/pptx"},
		{"create a PowerPoint deck for the quarterly review", "anthropic/pptx"},
		{"an Excel workbook with formulas", "anthropic/xlsx"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skills_mcp_search_skills",
			Arguments: map[string]any{"query": tc.query}})
		if err != nil || res.IsError {
			t.Fatalf("search %q: %v %+v", tc.query, err, res)
		}
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var out SearchOutput
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Results) == 0 || out.Results[0].Path != tc.want {
			var got []string
			for _, h := range out.Results {
				got = append(got, h.Path)
			}
			t.Errorf("search %q: %v, want %s first", tc.query, got, tc.want)
		}
	}
}

var (
	bench10kOnce   sync.Once
	bench10kBundle []byte
)

// bench10k builds (once per process) a 10,000-skill bundle with the build
// package (bundletest.Variants of the search fixture) and opens it.
func bench10k(b *testing.B) *manifest.Bundle {
	bench10kOnce.Do(func() {
		skills, _ := qualityFixture(b)
		bench10kBundle = bundletest.Skills(b, bundletest.Variants(skills, 10000), nil)
	})
	return bundletest.Open(b, bench10kBundle)
}

// BenchmarkSearchIndexBuild10k measures what the first search of a
// 10,000-skill catalog costs before it ranks: parsing every skill record,
// reading every SKILL.md (each blob hashed on its first read: every
// iteration opens the bundle afresh) and indexing it. It reports the wall
// time of the records and of the rest, the CPU time of the whole process
// (every thread; on a loaded machine what the build costs apart from the
// time it waited for a core) and the index's heap size.
func BenchmarkSearchIndexBuild10k(b *testing.B) {
	bench10k(b)
	var heap uint64
	var records, index, cpu time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s := newServer(b, Options{}, bundletest.Open(b, bench10kBundle))
		c := &catalog{snap: s.Snapshot()}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		c0, start := servetest.ProcCPU(b, os.Getpid()), time.Now()
		if _, err := c.skills(); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if _, _, err := c.searchable(); err != nil {
			b.Fatal(err)
		}
		records, index = records+mid.Sub(start), index+time.Since(mid)
		cpu += servetest.ProcCPU(b, os.Getpid()) - c0
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(c)
		b.StartTimer()
	}
	for _, m := range []struct {
		unit string
		d    time.Duration
	}{{"ms-records", records}, {"ms-index", index}, {"cpu-ms", cpu}} {
		b.ReportMetric(float64(m.d.Microseconds())/1e3/float64(b.N), m.unit)
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap")
}

// BenchmarkSearch10k runs the fixture's queries against a 10,000-skill
// catalog, one query per iteration, and reports the p50 and p99 latency of
// a search_skills call from an SDK client in memory (2025-11-25), JSON and
// schema validation included; the ranking alone is search's
// BenchmarkSearch10k.
func BenchmarkSearch10k(b *testing.B) {
	_, queries := qualityFixture(b)
	s := newServer(b, Options{}, bench10k(b))
	b.Run("tool", func(b *testing.B) {
		cs := connectMem(b, s, "2025-11-25", nil)
		ctx := context.Background()
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_mcp_search_skills", Arguments: map[string]any{"query": "warm up"}}); err != nil {
			b.Fatal(err)
		}
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := range b.N {
			start := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_mcp_search_skills",
				Arguments: map[string]any{"query": queries[i%len(queries)].Query}})
			lat = append(lat, time.Since(start))
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
		b.StopTimer()
		servetest.ReportPercentiles(b, lat, "query")
	})
}

// TestSearchableCorrupt: the SKILL.md files are read in parallel chunks
// for the index; when some do not match their digests, building it fails
// naming the first of them in URI order, and no index is kept.
func TestSearchableCorrupt(t *testing.T) {
	var buf bytes.Buffer
	bundletest.Write(t, &buf, bundletest.Big(1200))
	data := buf.Bytes()
	// ns5/skill-00305 is in the second of the two chunks (URI order),
	// ns1/skill-00901 in the first.
	for _, name := range []string{"skill-00305", "skill-00901"} {
		i := bytes.Index(data, []byte("Body of "+name))
		if i < 0 {
			t.Fatalf("no SKILL.md body of %s in the bundle", name)
		}
		data[i] = 'b'
	}
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	c := &catalog{snap: newServer(t, Options{}, b).Snapshot()}
	ix, _, err := c.searchable()
	if err == nil || ix != nil || !strings.Contains(err.Error(), "skill://ns1/skill-00901/SKILL.md") {
		t.Errorf("searchable() = %v, %v; want an error naming skill://ns1/skill-00901/SKILL.md", ix, err)
	}
}
