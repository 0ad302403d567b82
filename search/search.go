package search

// Queries: ranking the documents of an Index for a query.

import (
	"container/heap"
	"math"
	"slices"
	"strings"
)

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
	if lastWord != "" && !stops.Get().words[lastWord] {
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
		vars := ix.variants(t)
		if len(vars) == 0 {
			if !ok {
				continue
			}
			idf := ix.idf[id]
			for _, p := range ix.post[id] {
				touch(p.doc)
				sc.score[p.doc] += idf * p.w
				sc.matched[p.doc]++
			}
			continue
		}
		// The term and its word family: the best match per document.
		if ok {
			vars = append(vars, expansion{id, ix.idf[id]})
		}
		for _, e := range vars {
			for _, p := range ix.post[e.id] {
				if v := e.idf * p.w; v > sc.best[p.doc] {
					if sc.best[p.doc] == 0 {
						sc.bestDocs = append(sc.bestDocs, p.doc)
					}
					sc.best[p.doc] = v
				}
			}
		}
		for _, d := range sc.bestDocs {
			touch(d)
			sc.score[d] += sc.best[d]
			sc.matched[d]++
			sc.best[d] = 0
		}
		sc.bestDocs = sc.bestDocs[:0]
	}
	if lastTerm != "" {
		for _, e := range ix.expand(lastWord, lastTerm) {
			idf := e.idf
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
	aliases := nameAliases.Get()
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

// variants returns the terms of stem's word family (see family) other
// than stem, the most frequent maxVariants of them, each at familyWeight
// times its idf, or times stem's idf when stem is indexed and that is
// lower: a rarer form stands in for the query's word and must not count
// for more than the word itself would.
func (ix *Index) variants(stem string) []expansion {
	fam := family(stem)
	i, _ := slices.BinarySearch(ix.sorted, fam)
	var ids []int32
	for ; i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], fam); i++ {
		if t := ix.sorted[i]; t != stem && family(t) == fam {
			ids = append(ids, ix.terms[t])
		}
	}
	if len(ids) > maxVariants {
		slices.SortStableFunc(ids, func(a, b int32) int { return len(ix.post[b]) - len(ix.post[a]) })
		ids = ids[:maxVariants]
	}
	limit := float32(math.Inf(1))
	if id, ok := ix.terms[stem]; ok {
		limit = ix.idf[id]
	}
	out := make([]expansion, len(ids))
	for k, id := range ids {
		out[k] = expansion{id, familyWeight * min(ix.idf[id], limit)}
	}
	return out
}

// expansion is a term that a query word matches, with the idf its matches
// are scored at (its own, weighted for a prefix or family match).
type expansion struct {
	id  int32
	idf float32
}

// expand returns the terms the last query word matches: its stem at full
// weight, the terms it is a prefix of at prefixWeight (the most frequent
// maxExpansions of them, when the word has at least minPrefix letters),
// and the other terms of its family (see variants).
func (ix *Index) expand(word, stem string) []expansion {
	var out []expansion
	if id, ok := ix.terms[stem]; ok {
		out = append(out, expansion{id, ix.idf[id]})
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
		out = append(out, expansion{id, prefixWeight * ix.idf[id]})
	}
	for _, v := range ix.variants(stem) {
		if !slices.ContainsFunc(out, func(e expansion) bool { return e.id == v.id }) {
			out = append(out, v)
		}
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
