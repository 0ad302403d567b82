package search

// Ranked search over a catalog's skills (serve's <prefix>_search_skills).
//
// The ranking is BM25F (Robertson and Zaragoza's field-weighted BM25) over
// four fields of each listed skill: its name, its description, its tags
// (frontmatter tags and keywords, every metadata value, the category) and
// the first MaxBody bytes of its SKILL.md body. Per term and skill the
// field frequencies are length-normalised per field, weighted, summed and
// saturated once, so a term repeated in a long body cannot outweigh one
// occurrence in the name.
//
// Text analysis, the same for documents and queries:
//   - case and accent folding: Unicode lower case, then a table that maps
//     Latin letters with diacritics to their base letters (é→e, ß→ss, ø→o;
//     decomposed combining marks are dropped), so "Déclaration" finds
//     "declaration";
//   - punctuation folding: words are runs of letters and digits; an
//     apostrophe inside a word is dropped ("don't" is "dont"), anything else
//     separates words;
//   - compounds: words joined by - _ / or . are indexed both apart and
//     joined ("pdf-processing" gives pdf, processing and pdfprocessing; "ci/cd"
//     gives cicd), so a hyphenated name matches its words and its run-together
//     form;
//   - one-letter words and a short list of English stop words are dropped;
//   - a light English stemmer folds plurals and -ing/-ed forms and drops a
//     final e (refunds→refund, deploying→deploy, invoices→invoic), and
//     -ise spellings become -ize.
//
// Query features beyond BM25F: the last word of the query also matches as
// a prefix of indexed terms (at prefixWeight of a full match, the best
// expansion per skill), so "kube" finds "kubernetes"; a skill whose name is
// the query (ignoring case and punctuation) gets exactNameBonus; the score
// is scaled by the share of query terms the skill matches (coordination),
// so a skill that matches every word beats one that matches one word often.
// Ties are broken by URI, so results are stable.
//
// Name and path matches, for catalogs that combine libraries of different
// styles: a run of query words that is a skill's whole name ("pptx" in
// "turn this into a pptx deck", "brand guidelines" for brand-guidelines)
// adds the idf of the name's rarest term, and one that is a folder of its
// path below the namespace ("playwright pro" for playwright-pro/skills/…)
// adds a share of the folder's idf among the paths, so a folder that holds
// a whole library counts for next to nothing; the best match per skill
// counts. A few application names stand for the file format skills are
// named after ("PowerPoint" for pptx, "Excel" for xlsx, "Word document"
// for docx). The reason: a terse library puts what a skill is for in its
// name and a one-line description, a wordy one in long descriptions and
// bodies that repeat the query's words, and term statistics alone let the
// wordy library win. The bonus is additive, so it orders skills the text
// already found and lifts a named one that the text barely mentions.
//
// Length normalisation and idf are over the whole catalog, not per
// library. Per-library averages would keep a library's scores the same
// whatever it is served with, but they drop the correction BM25 makes for
// verbose text across libraries: a terse skill is then measured against
// terse neighbours only, and a wordy library's repeated words outrank it.
// Per-library idf would make every term rare in a small library. On the
// combined query sets both ranked the expected skill lower (see
// search/testdata and TestSearchQuality).
//
// serve builds an index lazily, on the first query against a snapshot, and
// keeps it with the snapshot's catalog: serve's start-up does not pay for
// it, and a new snapshot (Swap) gets a new index on its first query.

import (
	"bytes"
	"container/heap"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Fields of a skill, in the order of the weights below.
const (
	fieldName = iota
	fieldDesc
	fieldTags
	fieldBody
	numFields
)

// BM25F parameters. Weights boost name and description over tags and body;
// b is the strength of length normalisation per field (names are short and
// of similar length, so little; bodies vary most, so the classic 0.75).
var (
	fieldWeight = [numFields]float64{fieldName: 3.0, fieldDesc: 2.0, fieldTags: 1.5, fieldBody: 1.0}
	fieldB      = [numFields]float64{fieldName: 0.3, fieldDesc: 0.5, fieldTags: 0.5, fieldBody: 0.75}
)

const (
	bm25K1 = 1.2
	// prefixWeight is the weight of a prefix match of the last query word
	// relative to a full match.
	prefixWeight = 0.8
	// minPrefix is the shortest last word that is also matched as a prefix;
	// shorter ones would expand to too much of the vocabulary.
	minPrefix = 3
	// maxExpansions caps the terms a prefix expands to (the most frequent
	// ones are kept), which bounds a query's cost.
	maxExpansions = 64
	// exactNameBonus is added when the query is the skill's name.
	exactNameBonus = 4.0
	// nameMatchWeight scales the bonus of a run of query words that is a
	// skill's whole name (times the idf of the name's rarest term);
	// pathMatchWeight that of a run that is a folder of its path (times the
	// folder's idf among the paths).
	nameMatchWeight = 1.0
	pathMatchWeight = 0.5
	// maxNameWords is the longest run of query words matched against names.
	maxNameWords = 4
)

// nameAliases (built on first use) maps the nameKey of what people call a
// file format (the application that writes it) to the nameKey of the
// format's extension, under which skills for that format are often named:
// "make a PowerPoint" matches a skill named pptx. Only unambiguous names
// are listed: "word" alone is an English word, so it needs "document",
// "doc" or "file" after it.
var nameAliases = sync.OnceValue(func() map[string]string {
	var tk tokenizer
	m := map[string]string{}
	for ext, apps := range map[string][]string{
		"pptx": {"powerpoint", "power point", "ppt"},
		"xlsx": {"excel", "xls"},
		"docx": {"word document", "word doc", "word file", "ms word", "microsoft word"},
	} {
		for _, a := range apps {
			m[tk.nameKey(a)] = ext
		}
	}
	return m
})

// stops holds the stop words, dropped from documents and queries (built on
// first use): English function words
// (pronouns, determiners, auxiliaries, conjunctions and prepositions, after
// the usual Snowball list), and the words requests are wrapped in ("I need
// to …", "please use …").
var stops = sync.OnceValue(func() stopList {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself yourselves
		he him his himself she her hers herself it its itself they them their theirs themselves
		someone somebody something anyone anybody anything everyone everybody everything
		what which who whom whose this that these those am is are was were be been being have has had having
		do does did doing would should could can will shall may might must an the and but if or because as
		until while of at by for with about against between into through during before after above below to
		from up down in out on off over under again further then once here there when where why how all any
		both each few more most other some such no nor not only own same so than too very just now also
		please need needs want wants use used using`) {
		m[w] = true
	}
	n := 0
	for w := range m {
		n = max(n, len(w))
	}
	return stopList{m, n}
})

// stopList is the set of stop words and the length of the longest.
type stopList struct {
	words  map[string]bool
	maxLen int
}

// foldTable (built on first use) maps lower-case Latin letters with diacritics (Latin-1
// Supplement and Latin Extended-A) and a few ligatures to plain ASCII.
var foldTable = sync.OnceValue(func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ĳ': "ij", 'þ': "th", 'ð': "d", 'ŋ': "n", 'ſ': "s"}
	for base, variants := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķĸ", "l": "ĺļľŀł", "n": "ñńņňŉ", "o": "òóôõöøōŏő",
		"r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range variants {
			m[r] = base
		}
	}
	return m
})

// isJoiner reports whether r joins the words of a compound.
func isJoiner(r rune) bool { return r == '-' || r == '_' || r == '/' || r == '.' }

// isApostrophe reports whether r is an apostrophe, dropped inside words.
func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// isWordRune reports whether r belongs to a word.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// appendFolded appends r lower-cased and without diacritics.
func appendFolded(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	r = unicode.ToLower(r)
	if s, ok := foldTable()[r]; ok {
		return append(b, s...)
	}
	return utf8.AppendRune(b, r)
}

// tokenizer splits text into folded words and compounds and hands each
// index term to emit. Its buffers are reused from one call to the next.
type tokenizer struct {
	word, joined, stemmed []byte
}

// terms calls emit with each index term of text, in order. The slice passed
// to emit is only valid during the call.
func (tk *tokenizer) terms(text string, emit func(term []byte)) {
	st := stops()
	tk.words(text, func(w []byte, compound bool) {
		if len(w) < 2 || !compound && len(w) <= st.maxLen && st.words[string(w)] {
			return
		}
		tk.stemmed = appendStem(tk.stemmed[:0], w)
		emit(tk.stemmed)
	})
}

// words calls f with each folded word of text, and after the last word of a
// compound of two or more with the compound run together (compound true).
func (tk *tokenizer) words(text string, f func(w []byte, compound bool)) {
	word, joined, parts := tk.word[:0], tk.joined[:0], 0
	flushWord := func() {
		if len(word) > 0 {
			f(word, false)
			joined = append(joined, word...)
			parts++
			word = word[:0]
		}
	}
	flushCompound := func() {
		if parts >= 2 {
			f(joined, true)
		}
		joined, parts = joined[:0], 0
	}
	for i, r := range text {
		switch {
		case isWordRune(r):
			word = appendFolded(word, r)
		case r >= 0x300 && unicode.Is(unicode.Mn, r):
			// A combining mark of decomposed text: dropped, like precomposed accents.
		case isApostrophe(r) && len(word) > 0 && nextIsWord(text, i, r):
			// Inside a word: "don't" is one word.
		case isJoiner(r) && len(word) > 0 && nextIsWord(text, i, r):
			flushWord()
		default:
			flushWord()
			flushCompound()
		}
	}
	flushWord()
	flushCompound()
	tk.word, tk.joined = word, joined
}

func nextIsWord(text string, i int, r rune) bool {
	next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
	return isWordRune(next)
}

// appendStem appends the stem of the folded word w: a light English
// stemmer (plurals, -ing, -ed, a final e; -ise → -ize). Words with
// characters other than a-z are kept as they are. Every rule keeps or
// shortens the word, so it works in place on the appended copy.
func appendStem(dst, w []byte) []byte {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return append(dst, w...)
		}
	}
	start := len(dst)
	dst = append(dst, w...)
	s := dst[start:]
	if len(s) > 6 {
		for _, sfx := range []string{"isation", "ising", "ised", "ises", "ise"} {
			if hasSuffix(s, sfx) {
				s[len(s)-len(sfx)+1] = 'z'
				break
			}
		}
	}
	switch {
	case len(s) <= 3:
	case hasSuffix(s, "sses"):
		s = s[:len(s)-2]
	case hasSuffix(s, "ies") && len(s) > 4:
		s = append(s[:len(s)-3], 'y')
	case hasSuffix(s, "xes") || hasSuffix(s, "ches") || hasSuffix(s, "shes") || hasSuffix(s, "zes"):
		s = s[:len(s)-2]
	case hasSuffix(s, "ss") || hasSuffix(s, "us") || hasSuffix(s, "is"):
	case hasSuffix(s, "s"):
		s = s[:len(s)-1]
	}
	switch {
	case len(s) > 5 && hasSuffix(s, "ing") && hasVowel(s[:len(s)-3]):
		s = undouble(s[:len(s)-3])
	case len(s) > 4 && hasSuffix(s, "ed") && !hasSuffix(s, "eed") && hasVowel(s[:len(s)-2]):
		s = undouble(s[:len(s)-2])
	}
	if len(s) > 4 && s[len(s)-1] == 'e' {
		s = s[:len(s)-1]
	}
	return dst[:start+len(s)]
}

func hasSuffix(s []byte, sfx string) bool {
	return len(s) >= len(sfx) && string(s[len(s)-len(sfx):]) == sfx
}

func hasVowel(s []byte) bool { return bytes.ContainsAny(s, "aeiouy") }

// undouble drops one letter of a final doubled consonant (running → run),
// except l, s and z, which English keeps doubled (billing → bill).
func undouble(s []byte) []byte {
	if n := len(s); n >= 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

// foldName is s folded with only its letters and digits kept: the form in
// which a query equals a name ("PDF processing" and "pdf-processing" both
// give "pdfprocessing").
func foldName(s string) string {
	var b []byte
	for _, r := range s {
		if isWordRune(r) {
			b = appendFolded(b, r)
		}
	}
	return string(b)
}

// nameKey is the key under which a name is matched by a run of query
// words: its words stemmed and run together ("PDF files" and "pdf-file"
// both give "pdffile").
func (tk *tokenizer) nameKey(s string) string {
	var b []byte
	tk.words(s, func(w []byte, compound bool) {
		if !compound {
			b = appendStem(b, w)
		}
	})
	return string(b)
}

// MaxBody is how much of a document's body is indexed. What a skill is for
// is said in its name, description and first sections; a long body's tail
// adds postings (memory) and noise more than recall. A caller may cut the
// body there itself, before copying it into a Doc.
const MaxBody = 8 << 10

// Doc is one document to index: a skill's text by field, and where the
// skill is. Names and paths are matched as names too (see the package
// comment).
type Doc struct {
	Name        string
	Description string
	Tags        []string // frontmatter tags and keywords, metadata values, the category
	Body        string   // SKILL.md without its frontmatter; only MaxBody bytes are indexed
	Library     string   // the namespace; empty for an un-namespaced library
	Path        string   // the skill path, namespace first
}

// New indexes docs. Document i of the index is docs[i]: the caller numbers
// them in the order in which ties are to be broken (serve: URI order).
func New(docs []Doc) *Index {
	sdocs := make([]searchDoc, len(docs))
	names := make([]string, len(docs))
	for i, d := range docs {
		body := d.Body
		if len(body) > MaxBody {
			body = body[:MaxBody]
		}
		// A line break between tags, so that no compound joins two of them.
		sdocs[i] = searchDoc{fields: [numFields]string{d.Name, d.Description, strings.Join(d.Tags, " \n "), body},
			library: d.Library, path: d.Path}
		names[i] = foldName(d.Name)
	}
	return newSearchIndex(sdocs, names)
}

// searchDoc is the text of one skill, by field, and the library it is in.
type searchDoc struct {
	fields  [numFields]string
	library string // namespace
	path    string // the skill path, namespace first
}

// posting is one skill's weight for one term: its saturated BM25F term
// frequency tf/(k1+tf), ready to be multiplied by the term's idf.
type posting struct {
	doc int32
	w   float32
}

// Index is an inverted index over a list of documents, numbered as given.
// It is immutable once built and safe for concurrent queries.
type Index struct {
	n       int
	names   []string               // foldName of each document's name
	byName  map[string][]nameEntry // see nameIndex
	terms   map[string]int32
	sorted  []string // every term, sorted, for prefix expansion
	post    [][]posting
	idf     []float32
	scratch sync.Pool // *queryScratch
}

// queryScratch holds per-query arrays of one entry per document, reused
// between queries.
type queryScratch struct {
	score   []float32
	last    []float32 // the last word's best contribution, per document
	matched []uint8   // query terms matched, per document
	name    []float32 // the best name or path match, per document
	touched []int32
}

// newSearchIndex indexes docs. Document i of the index is docs[i]. The
// documents are tokenized in parallel, in contiguous chunks, each with its
// own dictionary; the dictionaries are then merged in chunk order, so the
// index does not depend on the number of workers.
func newSearchIndex(docs []searchDoc, names []string) *Index {
	ix := &Index{n: len(docs), names: names, terms: map[string]int32{}}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(docs)/256))
	parts := make([]indexPart, workers)
	chunk := (len(docs) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := min(len(docs), w*chunk), min(len(docs), (w+1)*chunk)
		wg.Go(func() { parts[w].tokenize(docs[lo:hi]) })
	}
	wg.Wait()

	var (
		df  []int32 // per term: documents that have it
		avg [numFields]float64
	)
	for p := range parts {
		part := &parts[p]
		part.global = make([]int32, len(part.names))
		for j, t := range part.names {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(df))
				ix.terms[t] = id
				df = append(df, 0)
			}
			part.global[j] = id
		}
		for _, e := range part.entries {
			df[part.global[e.term]]++
		}
		for _, l := range part.lens {
			for f := range avg {
				avg[f] += float64(l[f])
			}
		}
	}
	for f := range avg {
		if len(docs) > 0 {
			avg[f] /= float64(len(docs))
		}
		if avg[f] == 0 {
			avg[f] = 1
		}
	}
	ix.post = make([][]posting, len(df))
	ix.idf = make([]float32, len(df))
	for id, n := range df {
		ix.post[id] = make([]posting, 0, n)
		ix.idf[id] = float32(math.Log(1 + (float64(len(docs))-float64(n)+0.5)/(float64(n)+0.5)))
	}
	doc := int32(0)
	for p := range parts {
		part := &parts[p]
		for i, l := range part.lens {
			var norm [numFields]float64
			for f := range norm {
				norm[f] = fieldWeight[f] / (1 - fieldB[f] + fieldB[f]*float64(l[f])/avg[f])
			}
			for _, e := range part.entries[part.start[i]:part.start[i+1]] {
				tf := 0.0
				for f, n := range e.tf {
					tf += float64(n) * norm[f]
				}
				id := part.global[e.term]
				ix.post[id] = append(ix.post[id], posting{doc: doc, w: float32(tf / (bm25K1 + tf))})
			}
			doc++
		}
	}
	ix.byName = nameIndex(docs, func(term string) float32 {
		if id, ok := ix.terms[term]; ok {
			return ix.idf[id]
		}
		return 0
	})
	ix.sorted = make([]string, 0, len(ix.terms))
	for t := range ix.terms {
		ix.sorted = append(ix.sorted, t)
	}
	slices.Sort(ix.sorted)
	ix.scratch.New = func() any {
		return &queryScratch{score: make([]float32, ix.n), last: make([]float32, ix.n), matched: make([]uint8, ix.n),
			name: make([]float32, ix.n)}
	}
	return ix
}

// nameIndex maps the nameKey of each document's name and of each folder
// of its path below the namespace to the documents and the weight of the
// match: for a name, nameMatchWeight times the highest idf of the name's
// terms (a name of common words, "review", counts for less than "pptx");
// for a folder, pathMatchWeight times the folder's idf among the paths, so
// a folder every skill of a library is in ("skills") counts for next to
// nothing.
func nameIndex(docs []searchDoc, idf func(term string) float32) map[string][]nameEntry {
	var tk tokenizer
	termIdf := func(s string) float32 {
		w := float32(0)
		tk.terms(s, func(t []byte) { w = max(w, idf(string(t))) })
		return w
	}
	folders := func(d *searchDoc, f func(seg string)) {
		segs := strings.Split(d.path, "/")
		if d.library != "" {
			segs = segs[1:]
		}
		for _, seg := range segs[:max(len(segs)-1, 0)] {
			f(seg)
		}
		if n := len(segs); n > 0 && tk.nameKey(segs[n-1]) != tk.nameKey(d.fields[fieldName]) {
			f(segs[n-1]) // the skill's folder, when it differs from its name
		}
	}
	inFolder := map[string]int{}
	for d := range docs {
		seen := map[string]bool{}
		folders(&docs[d], func(seg string) {
			if k := tk.nameKey(seg); k != "" && !seen[k] {
				seen[k] = true
				inFolder[k]++
			}
		})
	}
	out := map[string][]nameEntry{}
	add := func(d int, key string, w float32) {
		if key == "" || w <= 0 {
			return
		}
		if es := out[key]; len(es) > 0 && es[len(es)-1].doc == int32(d) {
			es[len(es)-1].w = max(es[len(es)-1].w, w)
			return
		}
		out[key] = append(out[key], nameEntry{int32(d), w})
	}
	n := float64(len(docs))
	for d := range docs {
		name := docs[d].fields[fieldName]
		add(d, tk.nameKey(name), nameMatchWeight*termIdf(name))
		folders(&docs[d], func(seg string) {
			k := tk.nameKey(seg)
			df := float64(inFolder[k])
			segIdf := float32(math.Log(1 + (n-df+0.5)/(df+0.5)))
			add(d, k, pathMatchWeight*segIdf)
		})
	}
	return out
}

// indexPart is the tokenized text of a chunk of documents.
type indexPart struct {
	names   []string // the chunk's terms, by local id
	global  []int32  // local id → index term id, set when merging
	entries []tfEntry
	start   []int32 // document i's entries are entries[start[i]:start[i+1]]
	lens    [][numFields]float32
}

// tfEntry is the frequency of one term in each field of one document.
type tfEntry struct {
	term int32
	tf   [numFields]uint16
}

func (p *indexPart) tokenize(docs []searchDoc) {
	size := 0
	for _, d := range docs {
		for _, text := range d.fields {
			size += len(text)
		}
	}
	var (
		tk   tokenizer
		dict = map[string]int32{}
		last []int32 // per term: 1 + the last document that had it
		slot []int32 // per term: its entry in that document
	)
	p.entries = make([]tfEntry, 0, size/12) // about one distinct term per 12 bytes of text
	p.start = make([]int32, 0, len(docs)+1)
	p.lens = make([][numFields]float32, len(docs))
	for i, d := range docs {
		p.start = append(p.start, int32(len(p.entries)))
		for f, text := range d.fields {
			tk.terms(text, func(t []byte) {
				id, ok := dict[string(t)]
				if !ok {
					id = int32(len(p.names))
					dict[string(t)] = id
					p.names = append(p.names, string(t))
					last, slot = append(last, 0), append(slot, 0)
				}
				if last[id] != int32(i+1) {
					last[id], slot[id] = int32(i+1), int32(len(p.entries))
					p.entries = append(p.entries, tfEntry{term: id})
				}
				if e := &p.entries[slot[id]]; e.tf[f] < math.MaxUint16 {
					e.tf[f]++
				}
				p.lens[i][f]++
			})
		}
	}
	p.start = append(p.start, int32(len(p.entries)))
}

// nameEntry is a document that a name key matches, with the weight of the
// match.
type nameEntry struct {
	doc int32
	w   float32
}

// Hit is one ranked document: its number and its score.
type Hit struct {
	Doc   int
	Score float64 // higher is better; comparable within one query only
}

// Search ranks the documents for query and returns at most limit of them
// that keep passes (nil keeps all), best first, ties by document number.
func (ix *Index) Search(query string, limit int, keep func(doc int) bool) []Hit {
	var (
		tk       tokenizer
		qterms   []string
		lastWord string
	)
	tk.words(query, func(w []byte, compound bool) {
		if !compound {
			lastWord = string(w)
		}
	})
	tk.terms(query, func(t []byte) {
		if !slices.Contains(qterms, string(t)) {
			qterms = append(qterms, string(t))
		}
	})
	if len(qterms) == 0 && len(lastWord) >= 2 {
		// A query of stop words only ("how to"): search them after all.
		tk.words(query, func(w []byte, _ bool) {
			t := string(appendStem(nil, w))
			if len(w) >= 2 && !slices.Contains(qterms, t) {
				qterms = append(qterms, t)
			}
		})
	}
	if len(qterms) == 0 || limit <= 0 {
		return nil
	}
	// The last word's exact term is scored with its prefix expansions,
	// taking the best per document.
	lastTerm := ""
	if lastWord != "" && !stops().words[lastWord] {
		lastTerm = string(appendStem(nil, []byte(lastWord)))
	}
	sc := ix.scratch.Get().(*queryScratch)
	defer func() {
		for _, d := range sc.touched {
			sc.score[d], sc.last[d], sc.matched[d], sc.name[d] = 0, 0, 0, 0
		}
		sc.touched = sc.touched[:0]
		ix.scratch.Put(sc)
	}()
	touch := func(d int32) {
		if sc.score[d] == 0 && sc.last[d] == 0 && sc.matched[d] == 0 && sc.name[d] == 0 {
			sc.touched = append(sc.touched, d)
		}
	}
	for _, t := range qterms {
		if t == lastTerm {
			continue
		}
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		idf := ix.idf[id]
		for _, p := range ix.post[id] {
			touch(p.doc)
			sc.score[p.doc] += idf * p.w
			sc.matched[p.doc]++
		}
	}
	if lastTerm != "" {
		for _, e := range ix.expand(lastWord, lastTerm) {
			idf := ix.idf[e.id] * e.weight
			for _, p := range ix.post[e.id] {
				touch(p.doc)
				if v := idf * p.w; v > sc.last[p.doc] {
					sc.last[p.doc] = v
				}
			}
		}
	}
	// Name matches: a run of query words that is a skill's whole name or
	// a folder of its path, or that names the file format the skill is
	// named after; the best match per skill counts.
	var matched map[string]bool // keys walked, made on the first hit
	match := func(k string) {
		es := ix.byName[k]
		if len(es) == 0 || matched[k] {
			return // a word repeated walks its entries once
		}
		if matched == nil {
			matched = map[string]bool{}
		}
		matched[k] = true
		for _, e := range es {
			touch(e.doc)
			sc.name[e.doc] = max(sc.name[e.doc], e.w)
		}
	}
	aliases := nameAliases()
	var (
		buf   []byte // the query's words, folded, one after another
		ends  []int  // where each word ends in buf
		key   []byte
		words int
	)
	tk.words(query, func(w []byte, compound bool) {
		if !compound {
			buf = append(buf, w...)
			ends = append(ends, len(buf))
		}
	})
	words = len(ends)
	for i := range words {
		key = key[:0]
		for j := i; j < words && j < i+maxNameWords; j++ {
			start := 0
			if j > 0 {
				start = ends[j-1]
			}
			key = appendStem(key, buf[start:ends[j]])
			match(string(key))
			if ext, ok := aliases[string(key)]; ok {
				match(ext)
			}
		}
	}
	nq := len(qterms)
	if lastTerm != "" && !slices.Contains(qterms, lastTerm) {
		nq++
	}
	qname := foldName(query)
	h := &hitHeap{}
	for _, d := range sc.touched {
		if keep != nil && !keep(int(d)) {
			continue
		}
		m := int(sc.matched[d])
		if sc.last[d] > 0 {
			m++
		}
		s := float64(sc.score[d]+sc.last[d]) * (0.5 + 0.5*float64(m)/float64(nq))
		if ix.names[d] == qname {
			s += exactNameBonus
		}
		s += float64(sc.name[d])
		hit := Hit{Doc: int(d), Score: s}
		if h.Len() < limit {
			heap.Push(h, hit)
		} else if better(hit, (*h)[0]) {
			(*h)[0] = hit
			heap.Fix(h, 0)
		}
	}
	out := make([]Hit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(Hit)
	}
	return out
}

// expansion is a term that the last query word matches, with its weight.
type expansion struct {
	id     int32
	weight float32
}

// expand returns the terms the last query word matches: its stem at full
// weight, and the terms it is a prefix of at prefixWeight (the most frequent
// maxExpansions of them, when the word has at least minPrefix letters).
func (ix *Index) expand(word, stem string) []expansion {
	var out []expansion
	if id, ok := ix.terms[stem]; ok {
		out = append(out, expansion{id, 1})
	}
	if len(word) < minPrefix {
		return out
	}
	i, _ := slices.BinarySearch(ix.sorted, word)
	var more []int32
	for ; i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], word); i++ {
		if ix.sorted[i] != stem {
			more = append(more, ix.terms[ix.sorted[i]])
		}
	}
	if len(more) > maxExpansions {
		slices.SortStableFunc(more, func(a, b int32) int { return len(ix.post[b]) - len(ix.post[a]) })
		more = more[:maxExpansions]
	}
	for _, id := range more {
		out = append(out, expansion{id, prefixWeight})
	}
	return out
}

// better orders hits: higher score first, then lower document number.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}

// hitHeap is a min-heap of hits by better: its root is the worst kept hit.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
