package search

// The index: documents, BM25F parameters, and the inverted index with its
// name and path keys, built in parallel.

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Fields of a skill, in the order of the weights below. The first
// numTextFields are a searchDoc's texts; fieldHead is the Markdown headings
// of the body, taken out of fieldBody when it is tokenized.
const (
	fieldName = iota
	fieldDesc
	fieldTags
	fieldBody
	fieldHead
	numFields
	numTextFields = fieldHead
)

// BM25F parameters. Weights boost name and description over tags and
// headings, and those over the rest of the body, where a query's words
// also turn up in passing (a worked example, a list of what a skill is not
// for); b is the strength of length normalisation per field (names are
// short and of similar length, so little; bodies vary most, so the
// classic 0.75).
var (
	fieldWeight = [numFields]float64{fieldName: 3.0, fieldDesc: 2.0, fieldTags: 1.5, fieldBody: 0.35, fieldHead: 1.5}
	fieldB      = [numFields]float64{fieldName: 0.3, fieldDesc: 0.5, fieldTags: 0.5, fieldBody: 0.75, fieldHead: 0.5}
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
	// familyWeight is the weight of a match of another term of a query
	// term's word family ("communication" for "communicate") relative to
	// the term itself; maxVariants caps the family terms a query term
	// expands to (the most frequent are kept).
	familyWeight = 0.7
	maxVariants  = 16
)

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
		sdocs[i] = searchDoc{fields: [numTextFields]string{d.Name, d.Description, strings.Join(d.Tags, " \n "), body},
			library: d.Library, path: d.Path}
		names[i] = foldName(d.Name)
	}
	return newSearchIndex(sdocs, names)
}

// searchDoc is the text of one skill, by field, and the library it is in.
type searchDoc struct {
	fields  [numTextFields]string
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
	score    []float32
	last     []float32 // the last word's best contribution, per document
	matched  []uint8   // query terms matched, per document
	name     []float32 // the best name or path match, per document
	best     []float32 // a query term's best match in its word family, per document
	bestDocs []int32   // the documents with best set
	touched  []int32
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
			name: make([]float32, ix.n), best: make([]float32, ix.n)}
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
	// The nameKey of each folder of each document's path below the
	// namespace, and of the skill's folder when it differs from its name,
	// computed once per distinct folder name: docKeys[keyStart[d]:keyStart[d+1]]
	// are document d's, in path order.
	segKey := map[string]string{}
	keyOf := func(seg string) string {
		k, ok := segKey[seg]
		if !ok {
			k = tk.nameKey(seg)
			segKey[seg] = k
		}
		return k
	}
	var docKeys []string
	keyStart := make([]int, 0, len(docs)+1)
	nameKeys := make([]string, len(docs))
	inFolder := map[string]int{}
	for d := range docs {
		keyStart = append(keyStart, len(docKeys))
		doc := &docs[d]
		nameKeys[d] = tk.nameKey(doc.fields[fieldName])
		rest := doc.path
		if doc.library != "" {
			_, rest, _ = strings.Cut(rest, "/")
		}
		for {
			seg, after, more := strings.Cut(rest, "/")
			if !more {
				// The skill's folder, when it differs from its name.
				if k := keyOf(seg); k != nameKeys[d] {
					docKeys = append(docKeys, k)
				}
				break
			}
			docKeys = append(docKeys, keyOf(seg))
			rest = after
		}
		for i, k := range docKeys[keyStart[d]:] {
			if k != "" && !slices.Contains(docKeys[keyStart[d]:keyStart[d]+i], k) {
				inFolder[k]++
			}
		}
	}
	keyStart = append(keyStart, len(docKeys))
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
		add(d, nameKeys[d], nameMatchWeight*termIdf(name))
		for _, k := range docKeys[keyStart[d]:keyStart[d+1]] {
			df := float64(inFolder[k])
			segIdf := float32(math.Log(1 + (n-df+0.5)/(df+0.5)))
			add(d, k, pathMatchWeight*segIdf)
		}
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
		// The term of each word and of each compound run together, or
		// -1 for a dropped word: a word is analysed once per chunk,
		// not at each of its occurrences.
		wordTerm, compoundTerm termMemo
		last                   []int32 // per term: 1 + the last document that had it
		slot                   []int32 // per term: its entry in that document
	)
	p.entries = make([]tfEntry, 0, size/12) // about one distinct term per 12 bytes of text
	p.start = make([]int32, 0, len(docs)+1)
	p.lens = make([][numFields]float32, len(docs))
	for i, d := range docs {
		p.start = append(p.start, int32(len(p.entries)))
		f := 0
		emit := func(w []byte, compound bool) {
			memo := &wordTerm
			if compound {
				memo = &compoundTerm
			}
			id, ok := memo.lookup(w)
			if !ok {
				id = -1
				if t, keep := tk.term(w, compound); keep {
					if id, ok = dict[string(t)]; !ok {
						id = int32(len(p.names))
						dict[string(t)] = id
						p.names = append(p.names, string(t))
						last, slot = append(last, 0), append(slot, 0)
					}
				}
				memo.store(w, id)
			}
			if id < 0 {
				return
			}
			if last[id] != int32(i+1) {
				last[id], slot[id] = int32(i+1), int32(len(p.entries))
				p.entries = append(p.entries, tfEntry{term: id})
			}
			if e := &p.entries[slot[id]]; e.tf[f] < math.MaxUint16 {
				e.tf[f]++
			}
			p.lens[i][f]++
		}
		for f = range fieldBody {
			tk.words(d.fields[f], emit)
		}
		splitHeadings(d.fields[fieldBody], func(text string, heading bool) {
			f = fieldBody
			if heading {
				f = fieldHead
			}
			tk.words(text, emit)
		})
	}
	p.start = append(p.start, int32(len(p.entries)))
}

// splitHeadings calls f with the runs of body text between Markdown ATX
// headings (heading false) and with the text of each heading (heading
// true), in order. A line is a heading when it starts with at most three
// spaces and one to six #s followed by a space or the line's end, outside
// fenced code blocks (``` or ~~~).
func splitHeadings(body string, f func(text string, heading bool)) {
	var fence byte // the fence character of an open code block
	start := 0     // where the current run of body text starts
	for off := 0; off < len(body); {
		end := strings.IndexByte(body[off:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += off
		}
		line := body[off:end]
		next := end + 1
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case indent > 3:
		case fence != 0:
			if len(trimmed) >= 3 && trimmed[0] == fence && trimmed[1] == fence && trimmed[2] == fence {
				fence = 0
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[0]
		case len(trimmed) > 0 && trimmed[0] == '#':
			n := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			rest := trimmed[n:]
			if n <= 6 && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r') {
				if start < off {
					f(body[start:off], false)
				}
				f(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "#")), true)
				start = min(next, len(body))
			}
		}
		off = next
	}
	if start < len(body) {
		f(body[start:], false)
	}
}

// nameEntry is a document that a name key matches, with the weight of the
// match.
type nameEntry struct {
	doc int32
	w   float32
}
