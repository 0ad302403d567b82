package lint

import (
	"sort"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

// Bounds of the work per line: how many matches of a pattern are graded,
// and how far before a match a prose warning word is looked for.
const (
	maxMatches     = 4
	negationWindow = 256
)

var negation = &lazyre.RE{Expr: `(?i)\b(?:never|do\s+not|don'?t|don’t|avoid(?:s|ing)?|must\s+not|mustn'?t|should\s+not|shouldn'?t|warning|beware|dangerous|unsafe|insecure)\b`}

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
var exampleLabel = &lazyre.RE{Expr: `(?i)\banti-?patterns?\b|\bbad\s+(?:examples?|practices?|patterns?|code)\b|\bwhat\s+not\s+to\s+do\b|` +
	`\b(?:don'?t|don’t|do\s+not|never)\s+(?:do|run|write|use|copy|paste|execute|follow|act)\b|\bsuspicious\b|\bphishing\b|\battacks?\b|\battacker|\bmalicious\b|\binjection\b|` +
	`\bred\s+flags?\b|\bthreats?\b|\binsecure\b|\bunsafe\b|\bdangerous\b|\bvulnerab|\bexploits?\b|\bpayloads?\b|\bpitfalls?\b|` +
	`\blabell?ed\s+example\b|^\W*(?:bad|wrong|incorrect|avoid)\b|❌|🚫|` +

	`反模式|错误(?:的)?(?:示例|例子|做法)|不要这样|切勿|危险|攻击|恶意|不安全|注入|漏洞|` +
	`アンチパターン|悪い例|間違った例|やってはいけない|してはいけない|危険|攻撃|悪意|安全でない|インジェクション|脆弱性|` +
	`안티\s?패턴|나쁜\s?예|잘못된\s?예|하지\s?마(?:세요|십시오)|위험|공격|악성|악의|안전하지\s?않|인젝션|취약|` +
	`(?i:антипаттерн|плох(?:ой|ие)\s+пример|неправильн|не\s+делайте|никогда\s+не|опасн|атак|вредонос|небезопасн|инъекц|уязвим|` +
	`\banti-?patr[oó]n|\bmal(?:os)?\s+ejemplos?|\bejemplos?\s+(?:malos?|incorrectos?)|\bno\s+(?:hagas|haga|ejecutes|ejecute|uses|copies)\b|\bpeligros|\bataques?\b|\bmalicios|\binsegur|\binyecci[oó]n|` +
	`\banti-?padr[aã]o|\bmaus?\s+exemplos?|\bexemplos?\s+(?:ruins?|incorretos?)|\bn[aã]o\s+(?:fa[cç]a|execute|use|copie)\b|\bperigos|\binje[cç][aã]o|` +
	`\bantimuster|\bschlechte[sn]?\s+beispiel|\bnicht\s+(?:so\s+machen|ausf[uü]hren|verwenden)|\bniemals\b|\bgef[aä]hrlich|\bangriffs?|\bb[oö]sartig|\bsch[aä]dlich|\bunsicher|\bschwachstelle|` +
	`\banti-?mod[eè]le|\bmauvais\s+exemples?|\bne\s+(?:faites|lancez|ex[ée]cutez|copiez)\s+(?:pas|jamais)\b|\bdangereu|\battaques?\b|\bmalveillant|\bnon\s+s[ée]curis|\bvuln[ée]rab)`}

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
	code              codeState // the code analysis's findings, made when a rule first asks (analyze.go)
	psCert            uint8     // psCertOff's answer: 0 not asked yet, 1 no, 2 yes
}

// firstWide returns the offset of the first byte ≥ 0x80 of the text, or -1
// for a text all ASCII, which the Unicode rules then skip.
func (s *scan) firstWide() int {
	if s.wide == -2 {
		s.wide = nextNonASCII(s.text, 0)
	}
	return s.wide
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
		if s.lineBase == 0 && program.IsPython(s.file, s.text) {
			s.docstrings()
		}
	default:
		for i := range s.lines() {
			if isComment(s.line(i)) {
				s.flags[i] = lineProse
			}
		}
	}
}

// docstrings marks the lines of a Python file's docstrings as prose, as
// its comments are: a string that is a statement of its own (its line
// opens with it, and the line before leaves no expression open) runs
// nothing and says what the code does. A string passed on (the line before
// ends in "(", ",", "=", an operator or "\\") is left code.
func (s *scan) docstrings() {
	prev := byte('\n') // the last byte of the last line of code, '\n' at the start
	for i := 0; i < s.lines(); i++ {
		l := program.TrimIndent(s.line(i))
		q := strings.TrimLeft(l, "rRuUbB")
		if len(q) >= 3 && len(l)-len(q) <= 2 && (q[:3] == `"""` || q[:3] == "'''") && !strings.ContainsRune("(,=[{+%\\", rune(prev)) {
			delim := q[:3]
			j := i
			if !strings.Contains(q[3:], delim) {
				for j = i + 1; j < s.lines() && !strings.Contains(s.line(j), delim); j++ {
				}
			}
			for k := i; k <= min(j, s.lines()-1); k++ {
				s.flags[k] |= lineProse
			}
			i, prev = j, '\n'
			continue
		}
		if t := strings.TrimRight(l, " \t\r"); t != "" && s.flags[i]&lineProse == 0 {
			prev = t[len(t)-1]
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
	quote := false    // in a block quote
	quoteStart := 0   // the first line of the block quote
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
		// A fenced block, a block quote or a table takes the label of the
		// prose line just before it ("Example attack:").
		labelled := func() uint8 {
			if lastProse >= 0 && lastProse >= i-3 && isExampleLabel(s.line(lastProse)) {
				return lineExample
			}
			return 0
		}
		if f, _, ok := program.OpenFence(l); ok {
			fence, table = f, false
			example = labelled()
			if headLevel > 0 {
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
		if strings.HasPrefix(t, ">") {
			if !quote {
				quote, example = true, labelled()
				quoteStart = i
			}
			s.flags[i] |= example | lineProse
			if headLevel > 0 {
				s.flags[i] |= lineExample
			}
			continue
		}
		if quote && annotatesQuote(s, i) {
			// An annotated example: the quote, then its analysis
			// ("*Pattern*: indirect injection …").
			for j := quoteStart; j < i; j++ {
				s.flags[j] |= lineExample
			}
		}
		quote = false
		if strings.HasPrefix(t, "|") {
			if !table {
				table, example = true, labelled()
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

// annotatesQuote reports whether the first line of prose from line i on,
// after a block quote, analyses it: it starts with a label of analysis
// ("*Pattern*: …", "Why it works:", "Mitigation:"), as an annotated
// example does.
func annotatesQuote(s *scan, i int) bool {
	for ; i < s.lines(); i++ {
		t := strings.TrimSpace(s.line(i))
		if t == "" {
			continue
		}
		t = strings.ToLower(strings.TrimLeft(t, "*_"))
		for _, w := range []string{"pattern", "why it works", "why it sometimes works", "mitigation", "technique", "analysis", "detection", "red flag"} {
			if strings.HasPrefix(t, w) {
				rest := strings.TrimLeft(t[len(w):], "*_ ")
				return strings.HasPrefix(rest, ":")
			}
		}
		return false
	}
	return false
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
var labelWords = []string{"anti", "bad", "not", "don", "never", "attack", "suspicious", "phishing", "malicious", "inject", "flag", "threat", "secure",
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

// lines returns the number of lines.
func (s *scan) lines() int { return len(s.starts) - 1 }

// codeState is what the code analysis found in one text.
type codeState struct {
	done   bool
	depth  int             // how many layers down this text is (0: the file)
	budget *program.Budget // shared by every layer of one file
	lang   string          // the language of the whole text, when a layer says ("" for the file's own)
	hits   map[int][]hit
	graded []gradedLine // the lines where the analysis graded a rule's matter itself (program.Finding)
	// readOnly are the secret files (program.NormPath) the analysis saw
	// read and of which only structure reached anything: a line of code
	// that names one is the analysis' to grade (sensitiveHome).
	readOnly []string
}

// gradedLine is a line where the code analysis graded rule's matter.
type gradedLine struct {
	rule string
	line int
}

// scans keeps the buffers of finished scans: a build analyses every file.
var scans = sync.Pool{New: func() any { return new(scan) }}

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

// A hit is a finding of a whole-file finder: its byte offset in the text,
// its severity, and an excerpt when the line would not show it.
type hit struct {
	off     int
	sev     string
	excerpt string
}
