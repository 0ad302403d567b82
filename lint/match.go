package lint

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file finds which rule keys each line of a text holds (newScan,
// index), so that a rule is tried only on the lines that may match it,
// and makes a rule's finding at a line (finding, exampleSev).

func newScan(file string, data []byte, roles role) *scan {
	s := scans.Get().(*scan)
	// The text shares data's bytes instead of copying them: a build analyses
	// every file. Analyze does not modify data, and nothing it returns or
	// keeps (free clears s) refers to the text: excerpts are copies.
	s.file, s.roles, s.full, s.text = file, roles, len(data), unsafe.String(unsafe.SliceData(data), len(data))
	s.wide = -2
	s.index(data)
	return s
}

// finding makes the finding of rule ri at byte start of line i.
func (s *scan) finding(ri, i, start int, sev string) manifest.Finding {
	line := s.line(i)
	start = max(0, min(start, len(line)))
	col := utf8.RuneCountInString(line[:start]) + 1
	if i == 0 {
		col += s.colBase
	}
	return manifest.Finding{Rule: rules[ri].id, Line: s.lineBase + i + 1, Column: col,
		Severity: sev, Excerpt: excerpt.Of(line, start)}
}

// exampleSev lowers to a note what rule ri finds on line i when the line
// is marked as an example of what not to do (lineExample), unless the rule
// is about text hidden from a reader, a file it cannot read, or what the
// host runs whatever the text around it says.
func (s *scan) exampleSev(ri, i int, sev string) string {
	if Rank(sev) <= Rank(SeverityNote) || s.flag(i)&lineExample == 0 || s.flag(i)&lineAuto != 0 {
		return sev
	}
	switch rules[ri].family {
	case "invisible-text", "hidden-instructions", "opacity", "deceptive-text", "harness-exec", "pre-prompt-exec", "disguised-executable":
		return sev
	}
	return SeverityNote
}

// ruleKeyIndex numbers the rules' keys, built on first use.
type ruleKeyIndex struct {
	keys    []string        // by number
	head    []uint32        // head[id]: the first bytes of keys[id], up to 4, little-endian
	mask    []uint32        // mask[id]: the bytes of head[id] that count
	byFirst [256][]int      // the numbers of the keys by first byte
	bigrams [1 << 10]uint64 // bit a|b<<8: some key starts with bytes a, b, in any case
	trigram [1 << 10]uint64 // bit trigramBit(t): some key starts with t, three lower-case bytes
	lower   [256]byte       // each byte, with ASCII letters in lower case
	pats    [][]keySet      // pats[r][k]: the keys of rules[r].pats[k]
	rules   []keySet        // rules[r]: the keys of all of rules[r]'s patterns
}

var ruleKeyOnce struct {
	sync.Once
	x *ruleKeyIndex
}

// ruleKeys returns the index of the rules' keys, built on first use.
func ruleKeys() *ruleKeyIndex {
	ruleKeyOnce.Do(func() { ruleKeyOnce.x = newRuleKeyIndex() })
	return ruleKeyOnce.x
}

func newRuleKeyIndex() *ruleKeyIndex {
	x := &ruleKeyIndex{pats: make([][]keySet, len(rules)), rules: make([]keySet, len(rules))}
	for i := range x.lower {
		x.lower[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			x.lower[i] += 'a' - 'A'
		}
	}
	ids := map[string]int{}
	for r := range rules {
		x.pats[r] = make([]keySet, len(rules[r].pats))
		if rules[r].unkeyed {
			continue
		}
		for p, pat := range rules[r].pats {
			for _, k := range pat.keys {
				id, ok := ids[k]
				if !ok {
					id = len(x.keys)
					if id >= len(keySet{})*64 || len(k) < 3 {
						panic("lint: a rule key is shorter than 3 bytes, or there are too many for a keySet")
					}
					ids[k] = id
					x.keys = append(x.keys, k)
					var head, mask uint32
					for i := range min(len(k), 4) {
						head |= uint32(k[i]) << (8 * i)
						mask |= 0xff << (8 * i)
					}
					x.head, x.mask = append(x.head, head), append(x.mask, mask)
					x.byFirst[k[0]] = append(x.byFirst[k[0]], id)
					t := trigramBit(uint32(k[0]) | uint32(k[1])<<8 | uint32(k[2])<<16)
					x.trigram[t>>6] |= 1 << (t & 63)
					for _, a := range caseVariants(k[0]) {
						for _, b := range caseVariants(k[1]) {
							i := uint(a) | uint(b)<<8
							x.bigrams[i>>6] |= 1 << (i & 63)
						}
					}
				}
				x.pats[r][p].add(id)
			}
			x.rules[r].union(x.pats[r][p])
		}
	}
	return x
}

// index finds the lines of the text and the rule keys each line holds,
// comparing ASCII letters without case: a key is tried only where the text
// holds its first two bytes (a bit set of byte pairs) and, likely, its
// first three (a hashed bit set of lower-case triples).
func (s *scan) index(data []byte) {
	x := ruleKeys()
	text := s.text
	s.starts = append(slices.Grow(s.starts[:0], strings.Count(text, "\n")+2), 0)
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		s.starts = append(s.starts, off)
	}
	line := 0
	var cur keySet // the keys of line
	for j := 0; j+1 < len(data); j++ {
		if b := uint(data[j]) | uint(data[j+1])<<8; x.bigrams[b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		if j+2 >= len(text) {
			break // every key is three bytes or more
		}
		// The next four bytes, in lower case, to compare with each key's
		// head; a key longer than four bytes is compared in full after.
		c0 := x.lower[text[j]]
		w := uint32(c0) | uint32(x.lower[text[j+1]])<<8 | uint32(x.lower[text[j+2]])<<16
		if t := trigramBit(w); x.trigram[t>>6]&(1<<(t&63)) == 0 {
			continue
		}
		if j+3 < len(text) {
			w |= uint32(x.lower[text[j+3]]) << 24
		}
		for _, id := range x.byFirst[c0] {
			if w&x.mask[id] != x.head[id] || len(x.keys[id]) > 4 && !x.hasPrefixFold(text[j:], x.keys[id]) {
				continue
			}
			if line+1 < len(s.starts) && s.starts[line+1] <= j {
				if cur != (keySet{}) {
					s.hits = append(s.hits, line)
					s.hitKeys = append(s.hitKeys, cur)
					cur = keySet{}
				}
				for line+1 < len(s.starts) && s.starts[line+1] <= j {
					line++
				}
			}
			cur.add(id)
		}
	}
	if cur != (keySet{}) {
		s.hits = append(s.hits, line)
		s.hitKeys = append(s.hitKeys, cur)
	}
	// A final newline ends the last line; else the end of the text does.
	if n := len(s.starts); n == 1 || s.starts[n-1] != len(text) {
		s.starts = append(s.starts, len(text)+1)
	}
}

// trigramBit hashes three bytes (t, little-endian) to a bit of
// ruleKeyIndex.trigram.
func trigramBit(t uint32) uint32 { return (t * 0x9e3779b1) >> 16 & (1<<16 - 1) }

// caseVariants returns c and, for a lower-case ASCII letter, its upper case.
func caseVariants(c byte) []byte {
	if 'a' <= c && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// hasPrefixFold reports whether s starts with key (lower case), comparing
// ASCII letters without case.
func (x *ruleKeyIndex) hasPrefixFold(s, key string) bool {
	if len(s) < len(key) {
		return false
	}
	for i := range len(key) {
		if x.lower[s[i]] != key[i] {
			return false
		}
	}
	return true
}
