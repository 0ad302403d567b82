package search

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
)

// defaultLimit is serve's search_skills default limit.
const defaultLimit = 10

// newTestIndex indexes docs given as name, description, tags, body.
func newTestIndex(docs ...[4]string) *Index {
	var sd []searchDoc
	var names []string
	for _, d := range docs {
		sd = append(sd, searchDoc{fields: d})
		names = append(names, foldName(d[0]))
	}
	return newSearchIndex(sd, names)
}

func hitDocs(hits []Hit) []int {
	out := []int{}
	for _, h := range hits {
		out = append(out, h.Doc)
	}
	return out
}

func TestTokenizer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"PDF-Processing", []string{"pdf", "process", "pdfprocess"}},
		{"Déclaration de TVA", []string{"declaration", "de", "tva"}},
		{"Straße Œuvre Æsir ØRESUND", []string{"strass", "oeuvr", "aesir", "oresund"}},
		{"e\u0301te\u0301 cafe\u0301s", []string{"ete", "cafe"}}, // decomposed accents
		{"don't DON’T", []string{"dont", "dont"}},
		{"CI/CD node.js snake_case", []string{"ci", "cd", "cicd", "node", "js", "nodej", "snak", "case", "snakecas"}},
		{"a I x-ray", []string{"ray", "xray"}},
		{"how to use the skill", []string{"skill"}},
		{"refunds invoices policies boxes matches", []string{"refund", "invoic", "policy", "box", "match"}},
		{"deploying deployed running planned billing string", []string{"deploy", "deploy", "run", "plan", "bill", "string"}},
		{"normalise normalize organisation", []string{"normaliz", "normaliz", "organization"}},
		{"behaviours behaviors colour analyse analyzed", []string{"behavior", "behavior", "color", "analyz", "analyz"}},
		{"modelling modeled cancelled billing spelling farewells", []string{"model", "model", "cancel", "bill", "spell", "farewell"}},
		{"whether without via", nil}, // function words
		{"end. Next, (paren) [x] 2026-01-02", []string{"end", "next", "paren", "2026", "01", "02", "20260102"}},
		{"日本語 テキスト", []string{"日本語", "テキスト"}},
		{"", nil},
	} {
		var tk tokenizer
		var got []string
		tk.terms(tc.in, func(b []byte) { got = append(got, string(b)) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSearchRanking(t *testing.T) {
	ix := newTestIndex(
		[4]string{"pdf-processing", "Extract text from PDF files", "pdf", "Run the script on the PDF."},                  // 0
		[4]string{"csv-cleaner", "Clean CSV files", "csv", "Mentions pdf once in the body."},                             // 1
		[4]string{"kubernetes-rollback", "Roll back a Kubernetes deployment", "k8s", "kubectl rollout undo"},             // 2
		[4]string{"invoices", "Create customer invoices", "billing", "Invoice numbers."},                                 // 3
		[4]string{"vat-return-fr", "Préparer la déclaration de TVA", "tva", "TVA collectée."},                            // 4
		[4]string{"twin-a", "Same words here", "", ""},                                                                   // 5
		[4]string{"twin-b", "Same words here", "", ""},                                                                   // 6
		[4]string{"processing-pdf-notes", "Notes about PDF processing and other processing of PDF files", "", "pdf pdf"}, // 7
	)
	for _, tc := range []struct {
		q     string
		first int
	}{
		{"pdf", 0},                     // name and description beat a body mention
		{"PDF Processing", 0},          // exact name bonus
		{"pdf-processing", 0},          // compound
		{"pdfprocessing", 0},           // run-together form
		{"kube", 2},                    // prefix of the last word
		{"roll back kubern", 2},        // prefix after full words
		{"invoice", 3},                 // stemming
		{"Declaration TVA", 4},         // accent folding
		{"déclaration", 4},             //
		{"how to clean a csv", 1},      // stop words dropped
		{"CSV   cleaner!!!", 1},        // punctuation
		{"the", -1},                    // stop words only: searched, nothing has them
		{"zzz unknownword", -1},        // nothing
		{"twin", 5},                    // tie on score: lower document (URI order) first
		{"rollback kubernetes k8s", 2}, //
	} {
		hits := ix.Search(tc.q, 3, nil)
		if tc.first < 0 {
			if len(hits) != 0 {
				t.Errorf("search(%q) = %v, want nothing", tc.q, hitDocs(hits))
			}
			continue
		}
		if len(hits) == 0 || hits[0].Doc != tc.first {
			t.Errorf("search(%q) = %v, want %d first", tc.q, hitDocs(hits), tc.first)
		}
		for i := 1; i < len(hits); i++ {
			if better(hits[i], hits[i-1]) {
				t.Errorf("search(%q): hits out of order %+v", tc.q, hits)
			}
		}
	}
	if h := ix.Search("same words", 5, nil); len(h) != 2 || h[0].Score != h[1].Score || h[0].Doc != 5 || h[1].Doc != 6 {
		t.Errorf("tie: %+v, want docs 5 then 6 with equal scores", h)
	}
	if h := ix.Search("pdf", 5, func(d int) bool { return d != 0 }); slices.Contains(hitDocs(h), 0) || len(h) == 0 {
		t.Errorf("filter: %v", hitDocs(h))
	}
	if h := ix.Search("pdf", 1, nil); len(h) != 1 {
		t.Errorf("limit 1 gave %d hits", len(h))
	}
	if h := ix.Search("pdf", 0, nil); len(h) != 0 {
		t.Errorf("limit 0 gave %d hits", len(h))
	}
	// A query run twice gives identical results: the scratch arrays are reset.
	a, b := ix.Search("pdf files kube", 8, nil), ix.Search("pdf files kube", 8, nil)
	if !slices.Equal(a, b) {
		t.Errorf("repeated search differs: %v vs %v", a, b)
	}
}

// TestFamily checks the word-family keys: a derived noun or adjective
// keys to its verb's stem, other stems (agent nouns, short words) to
// themselves, and every key is a prefix of its stem.
func TestFamily(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"communication", "communic"}, {"communicat", "communic"}, {"validation", "valid"}, {"validat", "valid"},
		{"configuration", "configur"}, {"containerization", "containeriz"}, {"management", "manag"},
		{"deployment", "deploy"}, {"prediction", "predict"}, {"predictiv", "predict"}, {"security", "secur"},
		{"reviewer", "reviewer"}, {"manager", "manager"}, {"nation", "nation"}, {"action", "action"},
		{"mention", "mention"}, {"format", "format"}, {"document", "document"}, {"pdf", "pdf"}, {"", ""},
	} {
		got := family(tc.in)
		if got != tc.want {
			t.Errorf("family(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !strings.HasPrefix(tc.in, got) {
			t.Errorf("family(%q) = %q is not a prefix", tc.in, got)
		}
	}
}

// TestSearchFamilyAndHeadings checks that a query word finds the other
// words of its family (at less than the word itself, counting as the
// word for coordination), and that a heading counts for more than the same
// words in the body.
func TestSearchFamilyAndHeadings(t *testing.T) {
	ix := newTestIndex(
		[4]string{"meeting-notes", "Improve team communication from call transcripts", "", ""},        // 0
		[4]string{"slack-bot", "Post messages to a channel, communicate releases", "", ""},            // 1
		[4]string{"deploy-tool", "Ship services", "", "Some text.\n## Rollback a deployment\nSteps."}, // 2
		[4]string{"notes", "Ship services", "", "```\nRollback a deployment\n```\nSteps."},            // 3
		[4]string{"fenced", "Ship services", "", "```\n# Rollback a deployment\n```\nSteps."},         // 4
	)
	if h := ix.Search("how should I communicate in calls", 5, nil); len(h) == 0 || h[0].Doc != 0 {
		t.Errorf("communicate: %v, want 0 (communication) first", hitDocs(h))
	}
	if h := ix.Search("communicate", 5, nil); len(h) != 2 || h[0].Doc != 1 {
		t.Errorf("communicate alone: %v, want 1 (the word itself) then 0", hitDocs(h))
	}
	if h := ix.Search("rollback deployment", 5, nil); len(h) != 3 || h[0].Doc != 2 || h[1].Score != h[2].Score {
		t.Errorf("heading: %+v, want 2 first, then 3 and 4 alike (a # line in a fence is no heading)", h)
	}
}

// TestSplitHeadings checks what counts as a Markdown heading.
func TestSplitHeadings(t *testing.T) {
	body := "intro\n# One\ntext\n   ## Two ##\n    # indented code\n#nospace\n```go\n# in fence\n```\n####### seven\n~~~\n# tilde fence\n~~~\n#\nend"
	var heads, texts []string
	splitHeadings(body, func(text string, heading bool) {
		if heading {
			heads = append(heads, text)
		} else {
			texts = append(texts, text)
		}
	})
	if want := []string{"One", "Two", ""}; !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	for _, s := range []string{"indented code", "#nospace", "in fence", "seven", "tilde fence", "end"} {
		if !strings.Contains(strings.Join(texts, ""), s) {
			t.Errorf("%q missing from the body text %q", s, texts)
		}
	}
}

// FuzzSplitHeadings: the runs of body text and the headings are pieces of
// the body, in order.
func FuzzSplitHeadings(f *testing.F) {
	f.Add("# a\nb\n```\n# c\n```\n## d ##\n")
	f.Add("   #\n~~~\n#")
	f.Fuzz(func(t *testing.T, body string) {
		rest := body
		splitHeadings(body, func(text string, _ bool) {
			i := strings.Index(rest, text)
			if i < 0 {
				t.Fatalf("%q is not in what is left of the body, %q", text, rest)
			}
			rest = rest[i+len(text):]
		})
	})
}

// TestSearchNameMatches checks the name and path matches: a run of query
// words that is a skill's whole name or a folder of its path, and the file
// format aliases, across libraries of different styles.
func TestSearchNameMatches(t *testing.T) {
	wordy := "Build presentation decks. Use when the user wants to make a presentation, prepare a presentation " +
		"for the board, present results, or mentions presentations, slides or decks of any kind."
	docs := []searchDoc{
		{library: "terse", path: "terse/pptx", fields: [4]string{"pptx", "Create and edit .pptx slide files.", "", "Unzip, edit the XML, zip."}}, // 0
		{library: "big", path: "big/presentations/deck-builder", fields: [4]string{"deck-builder", wordy, "presentations",
			strings.Repeat("Make a presentation that lands. ", 20)}}, // 1
		{library: "terse", path: "terse/docx", fields: [4]string{"docx", "Edit .docx files.", "", "Tracked changes."}},                            // 2
		{library: "big", path: "big/growth/referral-program", fields: [4]string{"referral-program", "Word of mouth and refer-a-friend.", "", ""}}, // 3
		{library: "big", path: "big/other/skills/runner-setup", fields: [4]string{"runner-setup", "Set up the test runner.", "", ""}},             // 4
		{library: "big", path: "big/playwright-pro/skills/init", fields: [4]string{"init", "Set up the test runner.", "", ""}},                    // 5
		{library: "big", path: "big/brand/skills/brand-guidelines", fields: [4]string{"brand-guidelines", "Our colours and fonts.", "", ""}},      // 6
		{library: "big", path: "big/brand/skills/logo-usage", fields: [4]string{"logo-usage", wordy + " Apply the brand guidelines to every " +
			"presentation; the brand guidelines say which logo, colours and fonts a presentation uses.", "brand", ""}}, // 7
	}
	// The rest of the big library: words like make, set up, test and
	// presentation are common in it, as in real catalogs.
	for i := range 40 {
		docs = append(docs, searchDoc{library: "big", path: fmt.Sprintf("big/misc/skills/filler-%d", i), fields: [4]string{
			fmt.Sprintf("filler-%d", i), "Make reports, set up tests and prepare presentations for the team.", "", ""}})
	}
	var names []string
	for _, d := range docs {
		names = append(names, foldName(d.fields[fieldName]))
	}
	ix := newSearchIndex(docs, names)
	for _, tc := range []struct {
		q     string
		first int
		not   int // a document that must not be found, or -1
	}{
		{"make a powerpoint presentation", 0, -1},                 // the application's name matches the format's skill
		{"powerpoint", 0, -1},                                     // found by the alias alone
		{"turn this outline into a pptx deck", 0, -1},             // a query word that is the whole name
		{"edit a word document", 2, -1},                           // "word document" is Word
		{"word of mouth", 3, 2},                                   // "word" alone is not
		{"set up the test runner in playwright pro", 5, -1},       // a folder of the path
		{"apply the brand guidelines to the presentation", 6, -1}, // a run of words that is the name
	} {
		hits := ix.Search(tc.q, 8, nil)
		if len(hits) == 0 || hits[0].Doc != tc.first {
			t.Errorf("search(%q) = %v, want %d first", tc.q, hitDocs(hits), tc.first)
		}
		if tc.not >= 0 && slices.Contains(hitDocs(hits), tc.not) {
			t.Errorf("search(%q) = %v, want no %d", tc.q, hitDocs(hits), tc.not)
		}
	}
	// A folder that nearly every skill is in ("skills") counts for next to
	// nothing; one that a few are in, for more.
	weight := func(key string) float32 {
		w := float32(0)
		for _, e := range ix.byName[key] {
			w = max(w, e.w)
		}
		return w
	}
	if common, rare := weight("skill"), weight("playwrightpro"); !(common < 0.1 && rare > 1) {
		t.Errorf("folder weights: skills %v, playwright-pro %v", common, rare)
	}
}

func TestSearchEmptyIndex(t *testing.T) {
	ix := newTestIndex()
	if h := ix.Search("anything", 10, nil); len(h) != 0 {
		t.Errorf("empty index gave %v", h)
	}
}

// TestSearchConcurrent runs queries from several goroutines on one index
// (with -race, this checks the scratch pool).
func TestSearchConcurrent(t *testing.T) {
	skills, queries := qualityFixture(t)
	var docs [][4]string
	for _, s := range skills[:100] {
		docs = append(docs, [4]string{s.Name, s.Description, strings.Join(s.Tags, " "), s.Body})
	}
	ix := newTestIndex(docs...)
	want := make([][]Hit, len(queries))
	for i, q := range queries {
		want[i] = ix.Search(q.Query, 5, nil)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range queries {
				j := (i + g) % len(queries)
				if got := ix.Search(queries[j].Query, 5, nil); !slices.Equal(got, want[j]) {
					t.Errorf("concurrent search(%q) = %v, want %v", queries[j].Query, got, want[j])
				}
			}
		})
	}
	wg.Wait()
}

// FuzzSearch feeds arbitrary text to the analyzer and the ranking: no
// panic, at most limit hits, sorted, every score positive and finite.
func FuzzSearch(f *testing.F) {
	_, queries := qualityFixture(f)
	for _, q := range queries {
		f.Add(q.Query)
	}
	for _, s := range []string{"", "-", "a-", "-a", "é\u0301", "\xff\xfe", "a'", "'a", "x/y.z_w-v", "ǅ", "ﬁ"} {
		f.Add(s)
	}
	ix := newTestIndex(
		[4]string{"pdf-processing", "Extract text from PDF files", "pdf", "Run the script."},
		[4]string{"csv-cleaner", "Clean CSV files", "csv", "Body."},
		[4]string{"vat-return-fr", "Préparer la déclaration de TVA", "tva", "TVA collectée."},
	)
	f.Fuzz(func(t *testing.T, q string) {
		var tk tokenizer
		tk.terms(q, func(b []byte) {
			if len(b) == 0 {
				t.Errorf("empty term from %q", q)
			}
		})
		hits := ix.Search(q, 2, nil)
		if len(hits) > 2 {
			t.Fatalf("%d hits for limit 2", len(hits))
		}
		for i, h := range hits {
			if !(h.Score > 0) || h.Score > 1e6 {
				t.Errorf("search(%q): score %v", q, h.Score)
			}
			if i > 0 && better(h, hits[i-1]) {
				t.Errorf("search(%q): out of order %+v", q, hits)
			}
		}
	})
}

var (
	bench10kOnce sync.Once
	bench10kDocs []Doc
)

// bench10k returns (once per process) the documents of a 10,000-skill
// bundle built from variants of the quality fixture's skills.
func bench10k(b *testing.B) []Doc {
	bench10kOnce.Do(func() {
		skills, _ := qualityFixture(b)
		data := bundletest.Skills(b, bundletest.Variants(skills, 10000), nil)
		bench10kDocs = docsOf(b, bundletest.Open(b, data))
	})
	return bench10kDocs
}

// BenchmarkNew10k measures indexing 10,000 skills' documents and reports
// the index's heap size.
func BenchmarkNew10k(b *testing.B) {
	docs := bench10k(b)
	var heap uint64
	b.ResetTimer()
	for range b.N {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		ix := New(docs)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(ix)
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap")
}

// BenchmarkSearch10k runs the fixture's and the paraphrase sets' queries
// against 10,000 skills, one query per iteration, and reports the p50 and
// p99 latency of the ranking, and on Linux the p50 and p99 CPU time of the
// query's thread (what a query costs on a loaded machine, apart from the
// time it waited for a core).
func BenchmarkSearch10k(b *testing.B) {
	_, queries := qualityFixture(b)
	var para []qualityQuery
	bundletest.ReadJSON(b, "testdata/paraphrase-queries.json", &para)
	queries = append(queries, para...)
	ix := New(bench10k(b))
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		c0, ok := threadCPU()
		ix.Search(queries[i%len(queries)].Query, defaultLimit, nil)
		if c1, _ := threadCPU(); ok {
			cpu = append(cpu, c1-c0)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	for _, m := range []struct {
		unit string
		d    []time.Duration
	}{{"", lat}, {"cpu-", cpu}} {
		if len(m.d) > 0 {
			slices.Sort(m.d)
			b.ReportMetric(float64(m.d[len(m.d)/2])/1e6, m.unit+"p50-ms/query")
			b.ReportMetric(float64(m.d[len(m.d)*99/100])/1e6, m.unit+"p99-ms/query")
		}
	}
}

// BenchmarkSearchRepeatedFolderWord: a query that repeats a word naming a
// folder every skill sits in costs about what the word once costs, since
// each name or folder match is walked once per query.
func BenchmarkSearchRepeatedFolderWord(b *testing.B) {
	var docs []searchDoc
	var names []string
	for i := range 20000 {
		name := fmt.Sprintf("tool-%d", i)
		docs = append(docs, searchDoc{library: "acme", path: "acme/skills/" + name, fields: [4]string{name, "Does one thing well.", "", ""}})
		names = append(names, foldName(name))
	}
	ix := newSearchIndex(docs, names)
	for _, q := range []struct{ name, query string }{{"once", "skills"}, {"repeated", strings.Repeat("skills ", 142)}} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				ix.Search(q.query, defaultLimit, nil)
			}
		})
	}
}
