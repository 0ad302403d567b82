package release

import (
	"cmp"
	"slices"

	"github.com/skills-mcp/skills-mcp/lint"
)

// candidates holds the older findings not yet matched, bucketed by what
// must be equal for a match (rule, excerpt, place, severity), so that each
// newer finding looks only at its own buckets and finds the nearest line by
// binary search: a skill with many identical findings costs n log n, not n².
type candidates struct {
	of      []lint.Finding
	place   func(lint.Finding) (string, bool)
	buckets map[matchKey]*bucket
}

type matchKey struct {
	rule, excerpt, place string
	rank                 int
}

// bucket is one key's older findings sorted by (line, index), with the
// unmatched ones found through two path-compressed skip lists: next[i] is
// the first unused position at or after i, prev[i]+1 the last at or before.
type bucket struct {
	idx  []int // indices into of
	next []int // len(idx)+1; next[len] = len is the end sentinel
	prev []int // shifted by one: prev[i+1] is for position i, prev[0] = 0 the start sentinel
}

// newCandidates buckets the findings of of that no newer finding has taken
// yet (the non-negative entries of used name them); place gives the part of a
// finding's identity besides rule and excerpt, and false for none.
func newCandidates(of []lint.Finding, used []int, place func(lint.Finding) (string, bool)) *candidates {
	taken := make([]bool, len(of))
	for _, b := range used {
		if b >= 0 {
			taken[b] = true
		}
	}
	c := &candidates{of: of, place: place, buckets: map[matchKey]*bucket{}}
	for k, o := range of {
		p, ok := place(o)
		if taken[k] || !ok {
			continue
		}
		key := matchKey{o.Rule, o.Excerpt, p, lint.Rank(o.Severity)}
		b := c.buckets[key]
		if b == nil {
			b = &bucket{}
			c.buckets[key] = b
		}
		b.idx = append(b.idx, k)
	}
	for _, b := range c.buckets {
		slices.SortFunc(b.idx, func(x, y int) int { return cmp.Or(cmp.Compare(of[x].Line, of[y].Line), cmp.Compare(x, y)) })
		n := len(b.idx)
		b.next, b.prev = make([]int, n+1), make([]int, n+1)
		for i := range b.next {
			b.next[i], b.prev[i] = i, i
		}
	}
	return c
}

// take returns the index in of of the unmatched older finding that matches
// f, nearest in line (ties to the earlier line, then the earlier finding),
// and marks it matched; -1 when none does. An older finding matches when its
// severity is at least f's: a finding that got worse is new.
func (c *candidates) take(f lint.Finding) int {
	p, ok := c.place(f)
	if !ok {
		return -1
	}
	var best *bucket
	bestPos := -1
	better := func(b *bucket, pos int) bool {
		if bestPos < 0 {
			return true
		}
		o, n := c.of[b.idx[pos]], c.of[best.idx[bestPos]]
		return cmp.Or(cmp.Compare(abs(o.Line-f.Line), abs(n.Line-f.Line)), cmp.Compare(o.Line, n.Line), cmp.Compare(b.idx[pos], best.idx[bestPos])) < 0
	}
	for rank := lint.Rank(f.Severity); rank <= lint.Rank(lint.SeverityError); rank++ {
		b := c.buckets[matchKey{f.Rule, f.Excerpt, p, rank}]
		if b == nil {
			continue
		}
		at := b.lowerBound(c.of, f.Line)
		if r := b.nextFree(at); r < len(b.idx) && better(b, r) {
			best, bestPos = b, r
		}
		if l := b.prevFree(at - 1); l >= 0 {
			// The earliest unused finding on that line, for the tie rule.
			if l = b.nextFree(b.lowerBound(c.of, c.of[b.idx[l]].Line)); better(b, l) {
				best, bestPos = b, l
			}
		}
	}
	if bestPos < 0 {
		return -1
	}
	best.next[bestPos], best.prev[bestPos+1] = bestPos+1, bestPos
	return best.idx[bestPos]
}

// lowerBound is the first position whose line is at least line.
func (b *bucket) lowerBound(of []lint.Finding, line int) int {
	at, _ := slices.BinarySearchFunc(b.idx, line, func(k, line int) int { return cmp.Compare(of[k].Line, line) })
	return at
}

// nextFree is the first unused position at or after i (len(idx) for none).
func (b *bucket) nextFree(i int) int {
	r := i
	for b.next[r] != r {
		r = b.next[r]
	}
	for b.next[i] != r {
		b.next[i], i = r, b.next[i]
	}
	return r
}

// prevFree is the last unused position at or before i (-1 for none).
func (b *bucket) prevFree(i int) int {
	j := i + 1
	r := j
	for b.prev[r] != r {
		r = b.prev[r]
	}
	for b.prev[j] != r {
		b.prev[j], j = r, b.prev[j]
	}
	return r - 1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
