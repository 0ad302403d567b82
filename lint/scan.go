package lint

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Bounds of the work per line: how many matches of a pattern are graded,
// and how far before a match a prose warning word is looked for.
const (
	maxMatches     = 4
	negationWindow = 256
)

var negation = rx(`(?i)\b(?:never|do\s+not|don'?t|don’t|avoid(?:s|ing)?|must\s+not|mustn'?t|should\s+not|shouldn'?t|warning|beware|dangerous|unsafe|insecure)\b`)

// Line flags, worked out when a rule first needs them.
const (
	lineProse   = 1 << iota // prose: a prose warning before a match clears it
	lineCode                // code: a line of a program, or of a fenced block in Markdown
	lineFront               // in SKILL.md's frontmatter
	lineAuto                // runs without the model deciding: a hook command in frontmatter, a file tools run on their own
	lineExample             // in Markdown, under a heading or after a label that marks an example of what not to do
)

// rejections are what, right before a command quoted in prose, say it is
// the one not to use: "Instead of `curl … | sh`, download first".
var rejections = []string{"instead of", "rather than", "in place of", "en lugar de", "en vez de", "em vez de",
	"ao invés de", "anstatt", "statt", "au lieu de", "вместо", "而不是", "代わりに", "대신"}

// rejectedBefore reports whether before, the prose up to a match, ends
// with one of rejections (past blanks, quotes and an opening backtick).
func rejectedBefore(before string) bool {
	t := strings.TrimRight(before, " \t`'\"“‘(")
	if len(before)-len(t) > 8 {
		return false
	}
	for _, r := range rejections {
		if len(t) >= len(r) && strings.EqualFold(t[len(t)-len(r):], r) {
			return true
		}
	}
	return false
}

// maxLabel is the longest line read as a heading or label of an example.
const maxLabel = 200

// exampleLabel matches a heading, or a line before a fenced block, that
// marks what follows as an example of what not to do: "Anti-patterns",
// "Don't do this:", "Example attack:".
var exampleLabel = rx(`(?i)\banti-?patterns?\b|\bbad\s+(?:examples?|practices?|patterns?|code)\b|\bwhat\s+not\s+to\s+do\b|` +
	`\b(?:don'?t|don’t|do\s+not|never)\s+(?:do|run|write|use|copy|paste|execute|follow)\b|\battacks?\b|\battacker|\bmalicious\b|\binjection\b|` +
	`\bred\s+flags?\b|\bthreats?\b|\binsecure\b|\bunsafe\b|\bdangerous\b|\bvulnerab|\bexploits?\b|\bpayloads?\b|\bpitfalls?\b|` +
	`\blabell?ed\s+example\b|^\W*(?:bad|wrong|incorrect|avoid)\b|❌|🚫|` +
	// The same concepts in the languages skills are written in: the
	// anti-pattern, the bad example, the attack and the malicious, the
	// unsafe and the dangerous, the vulnerability, "don't do this".
	`反模式|错误(?:的)?(?:示例|例子|做法)|不要这样|切勿|危险|攻击|恶意|不安全|注入|漏洞|` + // zh
	`アンチパターン|悪い例|間違った例|やってはいけない|してはいけない|危険|攻撃|悪意|安全でない|インジェクション|脆弱性|` + // ja
	`안티\s?패턴|나쁜\s?예|잘못된\s?예|하지\s?마(?:세요|십시오)|위험|공격|악성|악의|안전하지\s?않|인젝션|취약|` + // ko
	`(?i:антипаттерн|плох(?:ой|ие)\s+пример|неправильн|не\s+делайте|никогда\s+не|опасн|атак|вредонос|небезопасн|инъекц|уязвим|` + // ru
	`\banti-?patr[oó]n|\bmal(?:os)?\s+ejemplos?|\bejemplos?\s+(?:malos?|incorrectos?)|\bno\s+(?:hagas|haga|ejecutes|ejecute|uses|copies)\b|\bpeligros|\bataques?\b|\bmalicios|\binsegur|\binyecci[oó]n|` + // es, pt
	`\banti-?padr[aã]o|\bmaus?\s+exemplos?|\bexemplos?\s+(?:ruins?|incorretos?)|\bn[aã]o\s+(?:fa[cç]a|execute|use|copie)\b|\bperigos|\binje[cç][aã]o|` +
	`\bantimuster|\bschlechte[sn]?\s+beispiel|\bnicht\s+(?:so\s+machen|ausf[uü]hren|verwenden)|\bniemals\b|\bgef[aä]hrlich|\bangriffs?|\bb[oö]sartig|\bsch[aä]dlich|\bunsicher|\bschwachstelle|` + // de
	`\banti-?mod[eè]le|\bmauvais\s+exemples?|\bne\s+(?:faites|lancez|ex[ée]cutez|copiez)\s+(?:pas|jamais)\b|\bdangereu|\battaques?\b|\bmalveillant|\bnon\s+s[ée]curis|\bvuln[ée]rab)`)

// scan is one file split into lines, with what the rules need to know about
// each. One pass over the bytes finds the lines and the rule keys each line
// holds; the line flags are worked out only when a pattern matches, and a
// file that holds no key costs nothing more.
type scan struct {
	file  string
	roles role
	full  int    // the file's size; more than len(text) for a window of a big file
	text  string // the bytes analysed: the file, or a window of it
	// lineBase is the number of lines of the file before the text, and
	// colBase the code points of its first line before it (see window).
	lineBase, colBase int
	starts            []int     // starts[i]: offset of line i in text; the last ends the last line (see line)
	hits              []int     // the lines that hold a rule key, ascending
	hitKeys           []keySet  // hitKeys[h]: the keys line hits[h] holds
	flags             []uint8   // empty until flag is first called
	wide              int       // offset of the first byte ≥ 0x80, -1 for none, -2 until firstWide is first called
	written           [2]int    // line i+1 and whether it writes (writeOp), for writes; 0: not known
	code              codeState // the code analysis's findings, made when a rule first asks (codehits.go)
}

// firstWide returns the offset of the first byte ≥ 0x80 of the text, or -1
// for a text all ASCII, which the Unicode rules then skip.
func (s *scan) firstWide() int {
	if s.wide == -2 {
		s.wide = nextNonASCII(s.text, 0)
	}
	return s.wide
}

// scans keeps the buffers of finished scans: a build analyses every file.
var scans = sync.Pool{New: func() any { return new(scan) }}

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

// free gives the scan's buffers back; nothing may use s after.
func (s *scan) free() {
	*s = scan{starts: s.starts[:0], hits: s.hits[:0], hitKeys: s.hitKeys[:0], flags: s.flags[:0]}
	scans.Put(s)
}

// line returns line i without its "\n" and a final "\r".
func (s *scan) line(i int) string {
	return strings.TrimSuffix(s.text[s.starts[i]:s.starts[i+1]-1], "\r")
}

// lineAt returns the line that holds byte off of the text.
func (s *scan) lineAt(off int) int {
	return sort.SearchInts(s.starts, off+1) - 1
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

// flag returns the flags of line i.
func (s *scan) flag(i int) uint8 {
	if len(s.flags) != s.lines() {
		s.setFlags()
	}
	return s.flags[i]
}

// setFlags works out every line's flags: they depend on the lines before.
func (s *scan) setFlags() {
	s.flags = append(s.flags[:0], make([]uint8, s.lines())...)
	var auto uint8
	if s.roles&roleAutoExec != 0 {
		auto = lineAuto
	}
	switch {
	case s.roles&roleMarkdown != 0:
		s.markdown()
	case s.roles&roleText != 0:
		for i := range s.flags {
			s.flags[i] = lineProse
		}
	case s.roles&roleCode != 0:
		for i := range s.lines() {
			s.flags[i] = lineCode | auto
			if isComment(s.line(i)) {
				s.flags[i] |= lineProse
			}
		}
	default:
		for i := range s.lines() {
			if isComment(s.line(i)) {
				s.flags[i] = lineProse
			}
		}
	}
}

// markdown sets the line flags of a Markdown file: SKILL.md's frontmatter
// (with the hook commands in it), fenced code blocks, and prose.
func (s *scan) markdown() {
	i := 0
	if s.roles&roleSkill != 0 && s.lines() > 0 && s.lineBase == 0 && s.colBase == 0 && strings.TrimPrefix(s.line(0), "\uFEFF") == "---" {
		hooks := false
		s.flags[0] = lineFront
		for i = 1; i < s.lines(); i++ {
			l := s.line(i)
			if l == "---" || l == "..." {
				s.flags[i] = lineFront
				i++
				break
			}
			if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != ':' {
				hooks = frontmatterKey(l) == "hooks"
			}
			s.flags[i] = lineFront
			if hooks {
				s.flags[i] |= lineAuto | lineCode
			}
		}
	}
	fence := ""       // the opening fence, "" outside a fenced block
	var example uint8 // lineExample inside a fenced block after a label
	headLevel := 0    // the level of the heading that marks an example section, 0 for none
	lastProse := -1   // the last line of prose that is not blank
	table := false    // in a table
	for ; i < s.lines(); i++ {
		l := s.line(i)
		if fence != "" {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				continue
			}
			s.flags[i] |= lineCode | example
			if headLevel > 0 || inlineLabel(l) {
				s.flags[i] |= lineExample
			}
			if isComment(l) {
				s.flags[i] |= lineProse
			}
			continue
		}
		if f, _, ok := program.OpenFence(l); ok {
			fence, table = f, false
			example = 0
			if headLevel > 0 || lastProse >= 0 && lastProse >= i-3 && isExampleLabel(s.line(lastProse)) {
				example = lineExample
			}
			continue
		}
		if n := headingLevel(l); n > 0 {
			if headLevel > 0 && n <= headLevel {
				headLevel = 0
			}
			if headLevel == 0 && isExampleLabel(l) {
				headLevel = n
			}
		}
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "|") {
			// A table takes the label of the prose line before it, as a
			// fenced block does.
			if !table {
				table = true
				example = 0
				if lastProse >= 0 && lastProse >= i-3 && isExampleLabel(s.line(lastProse)) {
					example = lineExample
				}
			}
			s.flags[i] |= example
		} else {
			table = false
			if t != "" {
				lastProse = i
			}
		}
		s.flags[i] |= lineProse
		if headLevel > 0 || inlineLabel(l) {
			s.flags[i] |= lineExample
		}
	}
}

// inlineLabels are the words that, as a line's label ("Pattern: …"), say
// the rest of the line is code being described: what a scanner looks for
// or found, not something to run.
var inlineLabels = []string{"pattern", "patterns", "detects", "detected", "matches", "matched", "flags", "flagged",
	"finding", "signature", "signatures", "indicator", "indicators", "evidence"}

// inlineLabel reports a line that starts (after blanks and a list marker)
// with one of inlineLabels and a colon.
func inlineLabel(l string) bool {
	t := program.TrimIndent(l)
	if len(t) > 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		t = program.TrimIndent(t[2:])
	}
	t = strings.TrimLeft(t, "*_")
	word, _, ok := strings.Cut(t[:min(len(t), 16)], ":")
	if !ok {
		return false
	}
	word = strings.TrimRight(word, "*_")
	for _, w := range inlineLabels {
		if strings.EqualFold(word, w) {
			return true
		}
	}
	return false
}

// labelWords are what exampleLabel needs one of, looked for first: the
// pattern is slow next to a few substring searches.
var labelWords = []string{"anti", "bad", "not", "don", "never", "attack", "malicious", "inject", "flag", "threat", "secure",
	"unsafe", "danger", "vulnerab", "exploit", "payload", "pitfall", "label", "wrong", "incorrect", "avoid",
	"patron", "ejemplo", "hagas", "haga", "ejecute", "copies", "peligro", "ataque", "malicios", "insegur", "inyecci",
	"padrao", "exemplo", "execute", "copie", "perigo", "injecao", "muster", "beispiel", "nicht", "niemals", "angriff", "unsicher",
	"schwachstelle", "gefahr", "bosartig", "schadlich", "modele", "exemple", "faites", "lancez", "executez", "copiez", "attaque",
	"malveillant", "securis", "no uses", "nao "}

// isExampleLabel reports whether a short line marks an example of what
// not to do (exampleLabel).
func isExampleLabel(l string) bool {
	if len(l) > maxLabel {
		return false
	}
	var buf [maxLabel]byte
	lower := buf[:len(l)]
	for i := range len(l) {
		lower[i] = lowerByte(l[i])
	}
	if nextNonASCII(l, 0) >= 0 {
		return exampleLabel.MatchString(l) // the words of most languages are not ASCII
	}
	for _, w := range labelWords {
		if strings.Contains(string(lower), w) {
			return exampleLabel.MatchString(l)
		}
	}
	return false
}

// headingLevel returns the level of a Markdown ATX heading, 0 for another
// line.
func headingLevel(l string) int {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(l) && l[n] != ' ' && l[n] != '\t' {
		return 0
	}
	return n
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

// sevAt applies the severity floor of a line: what runs without the model
// deciding is never below a warning.
func (s *scan) sevAt(i int, sev string) string {
	if sev == SeverityNote && s.flag(i)&lineAuto != 0 {
		return SeverityWarning
	}
	return sev
}

func containsAll(s string, keys []string) bool {
	for _, k := range keys {
		if !strings.Contains(s, k) {
			return false
		}
	}
	return true
}

// isComment reports whether a line starts, after blanks, with a comment
// marker of a common language: # // /* * -- ; <!-- <# REM ::.
func isComment(l string) bool {
	t := program.TrimIndent(l)
	for _, p := range []string{"#", "//", "/*", "*", "--", ";", "<!--", "<#", "::"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return len(t) > 3 && strings.EqualFold(t[:3], "rem") && (t[3] == ' ' || t[3] == '\t')
}

// keySet is a set of rule keys, by their number in ruleKeyIndex.
type keySet [4]uint64

func (k *keySet) add(id int) { k[id>>6] |= 1 << (id & 63) }
func (k keySet) meets(o keySet) bool {
	return k[0]&o[0] != 0 || k[1]&o[1] != 0 || k[2]&o[2] != 0 || k[3]&o[3] != 0
}
func (k *keySet) union(o keySet) {
	for i := range k {
		k[i] |= o[i]
	}
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

// lines returns the number of lines.
func (s *scan) lines() int { return len(s.starts) - 1 }

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

// find returns the finding of rule r (rules[ri]) in the file, if any: the
// first match with the strongest severity, of the rule's own matchers and
// of the code analysis.
func (s *scan) find(ri int) (manifest.Finding, bool) {
	best, found := s.findOwn(ri)
	for _, h := range s.extraHits(ri) {
		i := s.lineAt(h.off)
		f := s.finding(ri, i, h.off-s.starts[i], s.exampleSev(ri, i, s.sevAt(i, h.sev)))
		if h.excerpt != "" {
			f.Excerpt = excerpt.Of(h.excerpt, 0)
		}
		if !found || Rank(f.Severity) > Rank(best.Severity) {
			best, found = f, true
		}
	}
	return best, found
}

// findOwn returns the finding of rule r's own matchers.
func (s *scan) findOwn(ri int) (manifest.Finding, bool) {
	r := &rules[ri]
	var best manifest.Finding
	found := false
	// take keeps f if it is stronger than what was found, and reports
	// whether the search is over: nothing can beat f.
	take := func(f manifest.Finding) bool {
		if !found || Rank(f.Severity) > Rank(best.Severity) {
			best, found = f, true
		}
		return best.Severity == r.max
	}
	if r.file != nil {
		for _, h := range r.file(s) {
			i := s.lineAt(h.off)
			sev := h.sev
			if r.family != "auto-exec" { // the rule that grades running on its own needs no floor for it
				sev = s.sevAt(i, sev)
			}
			f := s.finding(ri, i, h.off-s.starts[i], s.exampleSev(ri, i, sev))
			if h.excerpt != "" {
				f.Excerpt = excerpt.Of(h.excerpt, 0)
			}
			if take(f) {
				break
			}
		}
		return best, found
	}
	look := func(i int, keys keySet) bool {
		if s.leftToCode(ri, i) {
			return false
		}
		start, sev := s.matchLine(ri, i, keys)
		if sev == "" {
			return false
		}
		return take(s.finding(ri, i, start, sev))
	}
	// The candidate lines: those holding a key of a pattern, or all of them
	// for a multi-line matcher or an unkeyed rule.
	if r.unkeyed {
		for i := range s.lines() {
			if look(i, keySet{}) {
				break
			}
		}
		return best, found
	}
	if r.multi != nil {
		h := 0
		for i := range s.lines() {
			var keys keySet
			if h < len(s.hits) && s.hits[h] == i {
				keys = s.hitKeys[h]
				h++
			}
			if look(i, keys) {
				break
			}
		}
		return best, found
	}
	want := ruleKeys().rules[ri]
	for h, i := range s.hits {
		if s.hitKeys[h].meets(want) && look(i, s.hitKeys[h]) {
			break
		}
	}
	return best, found
}

// matchLine returns where rule r (rules[ri]) matches line i, which holds the
// keys keys, and with what severity: the strongest there, or "" for no
// match.
func (s *scan) matchLine(ri, i int, keys keySet) (int, string) {
	r := &rules[ri]
	if r.where != 0 && (s.flag(i)&r.where == 0 || s.flag(i)&lineProse != 0) {
		return -1, "" // not a line of code, or a comment in one
	}
	line := s.line(i)
	start, best := -1, ""
	// In Markdown other than SKILL.md, code quoted in a prose line (a
	// table of patterns, an inline example) is documentation: a note.
	quoted := s.roles&roleMarkdown != 0 && s.roles&roleSkill == 0 && s.flag(i)&lineProse != 0
	consider := func(at int, sev string) bool {
		if quoted && sev != SeverityNote && (strings.HasPrefix(strings.TrimSpace(line), "|") || strings.Count(line[:at], "`")%2 == 1) {
			sev = SeverityNote
		}
		sev = s.exampleSev(ri, i, s.sevAt(i, sev))
		if Rank(sev) > Rank(best) {
			start, best = at, sev
		}
		return best == r.max
	}
	pats := ruleKeys().pats[ri]
	for k := range r.pats {
		p := &r.pats[k]
		// The keys of p.all hold no letters (a test checks), so the line's
		// case does not matter.
		if !r.unkeyed && !keys.meets(pats[k]) || !containsAll(line, p.all) {
			continue
		}
		// The first maxMatches matches of a line are enough to grade it, and
		// bound the work of checks that read the line (a long line of
		// matches would otherwise cost its length squared).
		for _, m := range p.re.FindAllStringSubmatchIndex(line, maxMatches) {
			sev := p.sev
			if p.check != nil {
				sev = p.check(s, i, m)
			}
			if sev == "" || r.prose && s.flag(i)&lineProse != 0 && (negation.MatchString(line[max(0, m[0]-negationWindow):m[0]]) || rejectedBefore(line[:m[0]])) {
				continue
			}
			if consider(m[0], sev) {
				return start, best
			}
		}
	}
	if r.multi != nil {
		if at, sev := r.multi(s, i); sev != "" {
			consider(at, sev)
		}
	}
	return start, best
}
