package lint

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/filekind"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

// This file holds the whole-file finders and the checks of the rules that
// look beyond one line or at a file's name and kind.

// executableBinary finds a native executable: a warning under a name that
// says so, an error under any other.
func executableBinary(file string, data []byte) (string, string) {
	kind := filekind.Native(data)
	if kind == "" {
		return "", ""
	}
	ext := strings.ToLower(path.Ext(file))
	if exeNames.Get()[ext] {
		return SeverityWarning, kind + " executable"
	}
	return SeverityError, kind + " executable disguised as " + ext
}

// promptExpansion finds !`command`: hosts run the command and put its
// output in the text before the model reads it. The "!" must not follow a
// backtick, a word character or a backslash, so `!` in inline code and
// if ! grep … are not matches.
func promptExpansion(s *scan) []hit {
	out := fencedRuns(s)
	for off := 0; len(out) < maxExpansions; {
		i := strings.Index(s.text[off:], "!`")
		if i < 0 {
			break
		}
		at := off + i
		off = at + 2
		if at > 0 {
			if c := s.text[at-1]; c == '`' || c == '\\' || c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' {
				continue
			}
		}
		rest := s.text[off:]
		end := strings.IndexAny(rest, "`\n")
		if end <= 0 || rest[end] != '`' || rest[0] == ' ' {
			continue
		}
		out = append(out, hit{off: at, sev: expansionSeverity(s.text, at, rest[:end])})
	}
	return out
}

// Invisible characters.
const (
	zeroWidthMin = 3 // a run of this many zero-width characters hides data
	selectorMin  = 3 // so does a run of variation selectors
)

// invisibleText finds Unicode tag characters (an error: they spell ASCII
// no reader sees, and the excerpt shows what), runs of zero-width
// characters or variation selectors (an error), and a single zero-width
// character out of place (a warning: one between each letter hides a word
// from a search). A leading BOM, a ZWJ inside an emoji sequence, a ZWNJ in
// Persian and one variation selector after a character are ordinary.
func invisibleText(s *scan) []hit {
	t := s.text
	var lone hit // the first zero-width character out of place
	for off := s.firstWide(); off >= 0 && off < len(t); {
		r, n := utf8.DecodeRuneInString(t[off:])
		switch {
		case isTag(r):
			var spelt strings.Builder
			end := off
			for end < len(t) {
				r, n := utf8.DecodeRuneInString(t[end:])
				if !isTag(r) {
					break
				}
				if c := r - 0xe0000; c >= 0x20 && c < 0x7f {
					spelt.WriteRune(c)
				}
				end += n
			}
			if subdivisionFlag(t, off, end, spelt.String()) {
				off = nextNonASCII(t, end)
				continue
			}
			return []hit{{off: off, sev: SeverityError, excerpt: "tag characters spell: " + spelt.String()}}
		case isZeroWidth(r) || isSelector(r):
			sel := isSelector(r)
			count, end := 0, off
			for end < len(t) {
				r, n := utf8.DecodeRuneInString(t[end:])
				if sel && !isSelector(r) || !sel && !isZeroWidth(r) {
					break
				}
				count++
				end += n
			}
			if sel && count >= selectorMin || !sel && count >= zeroWidthMin {
				what := "zero-width characters"
				if sel {
					what = "variation selectors"
				}
				return []hit{{off: off, sev: SeverityError, excerpt: fmt.Sprintf("%d %s in a row", count, what)}}
			}
			if !sel && lone.sev == "" && !joinerInContext(t, off, end, r) {
				lone = hit{off: off, sev: SeverityWarning, excerpt: fmt.Sprintf("U+%04X, a zero-width character, in %q", r, strings.Map(visible, s.line(s.lineAt(off))))}
			}
			off = end
			continue
		}
		off = nextNonASCII(t, off+n)
	}
	if lone.sev != "" {
		return []hit{lone}
	}
	return nil
}

// subdivisionFlag reports a run of tag characters that is one of the
// flags Unicode recommends for general interchange (England, Scotland,
// Wales): the black flag, the region's tag letters, the cancel tag. Those
// three spell nothing a reader is not shown; any other tag text, however
// flag-shaped, stays hidden text.
func subdivisionFlag(t string, off, end int, spelt string) bool {
	prev, _ := utf8.DecodeLastRuneInString(t[:off])
	last, _ := utf8.DecodeLastRuneInString(t[off:end])
	if prev != '\U0001F3F4' || last != '\U000E007F' {
		return false
	}
	switch spelt {
	case "gbeng", "gbsct", "gbwls":
		return true
	}
	return false
}

// joinerInContext reports a zero-width character where writing uses it:
// a joiner or non-joiner (ZWJ, ZWNJ) after a character that is not ASCII
// (emoji sequences, Persian, Indic scripts), a byte order mark at the
// start, a Hangul filler next to Hangul.
func joinerInContext(t string, off, end int, r rune) bool {
	prev, _ := utf8.DecodeLastRuneInString(t[:off])
	next, _ := utf8.DecodeRuneInString(t[end:])
	switch r {
	case '\u200c', '\u200d':
		return prev >= 0x80 && prev != utf8.RuneError && (next >= 0x80 || unicode.IsSpace(next) || next == utf8.RuneError)
	case '\ufeff':
		return off == 0
	case '\u200b':
		// A zero-width space at a line's start before a fence marker keeps
		// the marker from opening a block: how a document shows ``` inside
		// an example. It hides no text.
		return (off == 0 || t[off-1] == '\n') && (strings.HasPrefix(t[end:], "```") || strings.HasPrefix(t[end:], "~~~"))
	case '\u115f', '\u1160', '\u3164', '\uffa0':
		return unicode.Is(unicode.Hangul, prev) || unicode.Is(unicode.Hangul, next)
	}
	return false
}

// bidiControl finds bidirectional overrides and isolates: in code they make
// the text a reviewer reads differ from what runs (an error); in prose an
// override is a warning and an embedding or isolate, which right-to-left
// writing uses, a note.
func bidiControl(s *scan) []hit {
	t := s.text
	var best hit
	for off := s.firstWide(); off >= 0 && off < len(t); {
		r, n := utf8.DecodeRuneInString(t[off:])
		if '\u202a' <= r && r <= '\u202e' || '\u2066' <= r && r <= '\u2069' {
			i := s.lineAt(off)
			sev := SeverityNote
			switch {
			case s.flag(i)&lineCode != 0 || s.flag(i)&lineProse == 0:
				sev = SeverityError
			case r == '\u202d' || r == '\u202e':
				sev = SeverityWarning
			}
			if Rank(sev) > Rank(best.sev) {
				best = hit{off: off, sev: sev, excerpt: fmt.Sprintf("U+%04X in %q", r, strings.Map(visible, s.line(i)))}
				if sev == SeverityError {
					break
				}
			}
		}
		off = nextNonASCII(t, off+n)
	}
	if best.sev == "" {
		return nil
	}
	return []hit{best}
}

// lookalikeHost finds a URL host with a label that mixes scripts (Latin
// with Cyrillic or Greek) or is written wholly in Cyrillic or Greek letters
// that look like Latin ones, or holds full-width forms.
func lookalikeHost(s *scan) []hit {
	t := s.text
	if s.firstWide() < 0 {
		return nil
	}
	for off := 0; ; {
		i := strings.Index(t[off:], "://")
		if i < 0 {
			return nil
		}
		start := off + i + 3
		off = start
		end := start
		for end < len(t) {
			r, n := utf8.DecodeRuneInString(t[end:])
			if r == '/' || r == ':' || r == '?' || r == '#' || r == '@' || r == '"' || r == '\'' || r == '<' || r == '>' ||
				r == ')' || r == ']' || r == '`' || r == '*' || unicode.IsSpace(r) || r == '\\' || r == '，' || r == '。' {
				break
			}
			end += n
		}
		host := t[start:end]
		if nextNonASCII(host, 0) < 0 {
			continue
		}
		for _, label := range strings.Split(host, ".") {
			if deceptiveLabel(label) {
				return []hit{{off: start, sev: SeverityWarning, excerpt: "host " + strings.Map(visible, host)}}
			}
		}
	}
}

// confusables are Cyrillic and Greek letters that look like Latin ones.
const confusables = "аерсоухіјѕԁһӏԛԝвкмнтгпАВЕКМНОРСТУХІЈЅԌαοτνικρυεΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"

// deceptiveLabel reports whether one label of a host mixes Latin with
// another script, holds full-width forms, or spells a Latin look-alike in
// Cyrillic or Greek alone.
func deceptiveLabel(label string) bool {
	var latin, other, allConfusable = false, false, true
	letters := 0
	for _, r := range label {
		switch {
		case r >= 0xff01 && r <= 0xff5e:
			return true
		case r < 0x80:
			if 'a' <= r|0x20 && r|0x20 <= 'z' {
				latin = true
			}
			continue
		case unicode.Is(unicode.Latin, r):
			latin = true
			continue
		case unicode.Is(unicode.Cyrillic, r) || unicode.Is(unicode.Greek, r) || unicode.Is(unicode.Armenian, r) || unicode.Is(unicode.Cherokee, r):
			other = true
			letters++
			if !strings.ContainsRune(confusables, r) {
				allConfusable = false
			}
		case unicode.IsLetter(r):
			return false // another script of its own: an ordinary IDN
		}
	}
	return latin && other || other && !latin && allConfusable && letters >= 3
}

// hiddenComment finds an HTML comment in Markdown or HTML, which
// renderers hide, that addresses the model or instructs it: an injection
// phrase or a concept of the lexicon (judgeHidden) is an error, an
// instruction or an addressee a warning. <!-- TOC --> and notes to editors are not
// findings, nor is a comment a renderer shows as code (in a Markdown
// file's fenced block or inline code span), nor one in a file no renderer
// hides it in (JSON, a .txt, a script: its reader sees it as it is, and
// the text rules read it).
func hiddenComment(s *scan) []hit {
	if s.roles&roleMarkdown == 0 && !rendersMarkup(s.file) {
		return nil
	}
	t := s.text
	var best hit
	for off := 0; ; {
		i := strings.Index(t[off:], "<!--")
		if i < 0 {
			break
		}
		start := off + i
		end := strings.Index(t[start+4:], "-->")
		body := ""
		if end < 0 {
			body = t[start+4:]
			off = len(t)
		} else {
			body = t[start+4 : start+4+end]
			off = start + 4 + end + 3
		}
		if s.roles&roleMarkdown != 0 && (s.flag(s.lineAt(start))&lineCode != 0 || inCodeSpan(t, start)) {
			continue // in a fenced block or `code` a renderer shows it: the text rules read it as any other
		}
		if len(body) > 4096 {
			body = body[:4096]
		}
		sev := ""
		switch {
		case commentInjection.MatchString(body):
			sev = SeverityError
		case commentAddressee.MatchString(body) && commentImperative.MatchString(body):
			sev = SeverityWarning
		}
		if h := judgeHidden(body, 0); Rank(h) > Rank(sev) {
			sev = h
		}
		if Rank(sev) > Rank(best.sev) {
			best = hit{off: start, sev: sev, excerpt: "<!--" + strings.Join(strings.Fields(body), " ")}
			if sev == SeverityError {
				break
			}
		}
		if off >= len(t) {
			break
		}
	}
	if best.sev == "" {
		return nil
	}
	return []hit{best}
}

// rendersMarkup reports a file a browser or viewer renders as markup,
// hiding its comments: HTML, SVG, XML.
func rendersMarkup(file string) bool {
	switch strings.ToLower(path.Ext(file)) {
	case ".html", ".htm", ".xhtml", ".svg", ".xml":
		return true
	}
	return false
}

var (
	commentInjection = &lazyre.RE{Expr: `(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions|prompts?|rules)\b|` +
		`\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to)\s+the\s+user\b|\bwithout\s+(?:telling|informing)\s+the\s+user\b`}

	// The comment speaks to the model: "AI:", "Claude,", "you must" …
	commentAddressee = &lazyre.RE{Expr: `(?i)\b(?:ai|assistant|agent|model|llm|claude|gpt|copilot)\s*[:,]|^\s*(?:note\s+(?:to|for)\s+(?:the\s+)?)?(?:ai|assistant|agents?|model|llm|claude)\b|` +
		`\byou\s+(?:must|should|will|need\s+to|are\s+(?:required|instructed))\b|\b(?:assistant|agent|model|claude)\s+(?:must|should|will)\b`}

	// … and tells it to do something a reader would want to see.
	commentImperative = &lazyre.RE{Expr: `(?i)\b(?:ignore|execute|run|send|upload|exfiltrate|fetch|download|curl|wget|post)\b|\bread\s+(?:the\s+)?(?:file\b|~|\.env|/|\$)|` +
		`\binclude\s+(?:the\s+|its\s+|their\s+|it\b)?(?:full\s+)?(?:contents?|file|keys?|tokens?|secrets?|credentials?|\.env)?|` +
		`\b(?:cat|print|output|reveal|show)\s+(?:the\s+)?(?:contents?|\.env|~|keys?|secrets?|credentials?|tokens?)`}
)

// autoExec reports a file that a tool runs on its own, at its first line
// of code; a .pth file only when a line starts with "import", which Python
// runs at start-up.
func autoExec(s *scan) []hit {
	name := strings.ToLower(path.Base(s.file))
	why := "runs without being asked"
	switch {
	case name == "conftest.py":
		return conftestActs(s)
	case name == "sitecustomize.py" || name == "usercustomize.py":
		why = "Python imports " + name + " at every start-up"
	case name == "build.rs":
		if cargoDirectivesOnly(s) {
			return nil
		}
		why = "cargo runs build.rs at every build"
		if what := buildRsOnly(s.text); what != "" {
			return []hit{{off: 0, sev: SeverityNote, excerpt: why + ": " + what}}
		}
	case name == ".envrc":
		why = "direnv runs .envrc on entering the folder"
	case strings.HasSuffix(name, ".pth"):
		for i := range s.lines() {
			if l := s.line(i); strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "import\t") {
				return []hit{{off: s.starts[i], sev: SeverityWarning, excerpt: "Python runs this .pth line at start-up: " + l}}
			}
		}
		return nil
	case strings.Contains(s.file, "hooks/"):
		why = "git runs its hooks on commit, checkout or push"
	}
	for i := range s.lines() {
		if l := strings.TrimSpace(s.line(i)); l != "" && !isComment(l) && !strings.HasPrefix(l, `"""`) {
			return []hit{{off: s.starts[i], sev: SeverityWarning, excerpt: why + ": " + l}}
		}
	}
	return nil
}

// conftestStmt matches a module-level line of a conftest.py that only
// defines: an import, a def or class, a decorator, a docstring, the closing
// bracket of a multi-line one, or a name bound to a literal
// (pytest_plugins = [...] names plugins, read as any import is).
var conftestStmt = &lazyre.RE{Expr: `^(?:@|import\s|from\s|(?:async\s+)?def\s|class\s|"""|'''|[)\]}]|r?["']|` +
	`[A-Za-z_]\w*\s*(?::\s*[\w\[\], .]+)?=\s*(?:["'\d\[({-]|True\b|False\b|None\b))`}

// conftestHook matches the def of a pytest hook, which pytest calls on
// every run, and captures its parameters.
var conftestHook = &lazyre.RE{Expr: `^(?:async\s+)?def\s+pytest_\w+\s*\(([^)]*)`}

// hookCall matches a call in a hook's body and captures the name it starts
// from: a plain name or the first name of a dotted one.
var hookCall = &lazyre.RE{Expr: `(?:^|[^\w.])([A-Za-z_]\w*)(?:\.\w+)*\s*\(`}

// hookSafe are the names a pytest hook may call and still only configure
// pytest: its own module and the builtins that compute.
var hookSafe = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"pytest": true, "str": true, "int": true, "len": true, "sorted": true, "list": true, "dict": true,
		"set": true, "tuple": true, "isinstance": true, "any": true, "all": true, "min": true, "max": true, "enumerate": true,
		"range": true, "super": true, "print": true, "bool": true, "float": true, "zip": true, "reversed": true}
}}

// conftestActs grades a conftest.py, which pytest imports and whose hooks
// it calls on every test run in its folder: a warning at the first line
// that acts (a module-level statement other than a definition, or a call
// in a pytest hook to anything but the objects the hook is given, pytest
// and the builtins that compute), a note when it only defines fixtures,
// markers and options. A fixture runs when a test asks for it, as test
// code does; the code analysis reads it as it reads any program.
func conftestActs(s *scan) []hit {
	const why = "pytest imports conftest.py when it collects tests"
	first := -1
	var params map[string]bool // the pytest hook being read's parameters; nil outside one
	for i := range s.lines() {
		l := s.line(i)
		t := strings.TrimSpace(l)
		if t == "" || isComment(t) {
			continue
		}
		if first < 0 {
			first = i
		}
		if l[0] != ' ' && l[0] != '\t' {
			params = nil
			if m := conftestHook.FindStringSubmatch(l); m != nil {
				params = map[string]bool{}
				for _, p := range strings.Split(m[1], ",") {
					p, _, _ = strings.Cut(p, ":")
					p, _, _ = strings.Cut(p, "=")
					params[strings.Trim(strings.TrimSpace(p), "*")] = true
				}
			}
			if !conftestStmt.MatchString(l) {
				return []hit{{off: s.starts[i], sev: SeverityWarning, excerpt: why + "; this runs on import: " + t}}
			}
			continue
		}
		if params == nil {
			continue
		}
		for _, m := range hookCall.FindAllStringSubmatch(t, maxMatches) {
			if !params[m[1]] && !hookSafe.Get()[m[1]] {
				return []hit{{off: s.starts[i], sev: SeverityWarning, excerpt: why + "; a hook runs this on every test run: " + t}}
			}
		}
	}
	if first < 0 {
		return nil
	}
	return []hit{{off: s.starts[first], sev: SeverityNote, excerpt: why + ": " + strings.TrimSpace(s.line(first))}}
}

// writeOp matches a line that writes a file other than by redirection:
// tee, cp, mv, ln, install, rsync, sed -i, an open for writing, a write call.
var writeOp = &lazyre.RE{Expr: `\btee\b|\b(?:cp|mv|ln|install|rsync)\s|\bsed\s+-i|\bopen\s*\(.*["'][wa]\+?b?["']|` +
	`\.write(?:_text|_bytes)?\s*\(|\b(?:write|append)File(?:Sync)?\b|\b(?:Set|Add)-Content\b|\bOut-File\b`}

// writes reports whether line i writes to the path matched at m: a
// redirection straight before it, or a writing command on the line.
func writes(s *scan, i int, m []int) bool {
	line := s.line(i)
	before := strings.TrimRightFunc(line[:m[0]], func(r rune) bool {
		return r == '"' || r == '\'' || r == ' ' || r == '/' || r == '~' || r == '$' || r == '{' || r == '}' || r == '_' ||
			r == '.' || r == '-' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9'
	})
	if strings.HasSuffix(before, ">") {
		return true
	}
	if s.roles&roleScript != 0 && s.inMessage(i, m[0]) {
		return false // echo "  pre-commit install (writes .git/hooks/pre-commit)": a plan the script prints
	}
	if s.written[0] != i+1 { // once per line, however many matches it holds
		s.written = [2]int{i + 1, 0}
		if writeOp.MatchString(line) {
			s.written[1] = 1
		}
	}
	return s.written[1] == 1
}

// gitConfigSet grades git config of a key that runs a command: a
// warning when it sets it, nothing when it removes, reads or lists it.
func gitConfigSet(s *scan, i int, m []int) string {
	line := s.line(i)
	l := line[m[0]:m[1]]
	for _, o := range []string{"--unset", "--get", "--list", " -l "} {
		if strings.Contains(l, o) {
			return ""
		}
	}
	if strings.Contains(strings.ToLower(l), "config") && !gitConfigValue(line[m[1]:]) {
		return "" // git config core.hooksPath with no value prints it
	}
	if s.roles&roleScript != 0 && s.inMessage(i, m[0]) {
		return SeverityNote // raise SystemExit("… set one (git config --local core.hooksPath .githooks) first"): advice printed
	}
	if strings.HasSuffix(strings.ToLower(l), "hookspath") && s.roles&roleScript != 0 && !strings.Contains(line, "--global") && !strings.Contains(line, "--system") {
		next := strings.TrimLeft(strings.TrimLeft(line[m[1]:], "\"'"), " \t,") // past the key's closing quote and the comma
		quoted := next != "" && (next[0] == '"' || next[0] == '\'')
		if v := argAfter(next); v != "" && (quoted && program.InRepo(v) || !quoted && program.InRepo(s.constant(v))) {
			return SeverityNote // git("config", "--local", "core.hooksPath", HOOKS_DIR) with HOOKS_DIR = ".githooks": the repository's own folder
		}
	}
	if strings.HasSuffix(strings.ToLower(l), "hookspath") && s.roles&roleScript == 0 && repoHooksDir(line[m[1]:]) {
		return SeverityNote // instructions pointing git at the repository's own hooks folder, as the code analysis grades them
	}
	return SeverityWarning
}

// argAfter returns the next argument of a call's list after a match:
// what follows a quote, a comma or blanks up to the next of them (",
// \".githooks\")" gives .githooks, ", HOOKS_DIR)" HOOKS_DIR).
func argAfter(rest string) string {
	rest = strings.TrimLeft(rest, "\"' \t,")
	if k := strings.IndexAny(rest, "\"' \t,)"); k >= 0 {
		rest = rest[:k]
	}
	return rest
}

// constant returns the string literal a name of the file is assigned
// once at a line's start (HOOKS_DIR = ".githooks", const D = '.husky'), or
// "" when the file assigns it no literal.
func (s *scan) constant(name string) string {
	if !isIdent(name) {
		return ""
	}
	for i := range s.lines() {
		t := strings.TrimSpace(s.line(i))
		for _, kw := range []string{"const ", "let ", "var ", "readonly "} {
			t = strings.TrimPrefix(t, kw)
		}
		rest, ok := strings.CutPrefix(t, name)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest, ok = strings.CutPrefix(rest, "="); !ok || strings.HasPrefix(rest, "=") {
			continue
		}
		if v, ok := plainLiteral(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";")), `"'`); ok {
			return v
		}
	}
	return ""
}

// repoHooksDir reports whether the value after core.hooksPath, quoted in
// prose, is a folder inside the repository (program.InRepo): .githooks,
// .husky, tools/hooks.
func repoHooksDir(rest string) bool {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return false
	}
	v := strings.TrimRight(strings.TrimLeft(f[0], "\"'"), "\"'`;.,)")
	return !strings.HasPrefix(v, "-") && program.InRepo(v)
}

// gitConfigValue reports whether the text after git config's key gives a
// value: anything but the end of the command (the line's end, ), |, &, ;,
// a backquote, a comment or a redirection such as 2>/dev/null), which
// makes git config print the setting instead of setting it.
func gitConfigValue(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if r := strings.TrimLeft(rest, "0123456789"); strings.HasPrefix(r, ">") {
		rest = r
	}
	return rest != "" && !strings.ContainsRune(")|&;`#><", rune(rest[0]))
}

// cmdletNamed grades a command that registers a job: a warning, but a
// note for its bare name in a code span of prose ("give them the
// `Register-ScheduledTask` command to run"), which names it and runs
// nothing.
func cmdletNamed(s *scan, i int, m []int) string {
	l := s.line(i)
	if s.roles&roleMarkdown != 0 && s.flag(i)&lineCode == 0 && strings.Count(l[:m[0]], "`")%2 == 1 && m[0] > 0 && l[m[0]-1] == '`' &&
		m[1] < len(l) && l[m[1]] == '`' {
		return SeverityNote
	}
	return SeverityWarning
}

// keychainRead grades a macOS keychain command: a warning, but a note for
// a find-…-password without -w or -g, which prints an item's attributes
// and not its secret (security find-generic-password -s restic >/dev/null:
// is the item there).
func keychainRead(s *scan, i int, m []int) string {
	l := s.line(i)
	if !strings.Contains(l[m[0]:m[1]], "find-") {
		return SeverityWarning
	}
	cmd := l[m[1]:]
	for j := i + 1; strings.HasSuffix(strings.TrimSpace(cmd), "\\") && j < s.lines() && j <= i+8; j++ {
		cmd = strings.TrimSuffix(strings.TrimSpace(cmd), "\\") + " " + s.line(j) // the command goes on
	}
	if k := strings.IndexAny(cmd, "|;&)`"); k >= 0 {
		cmd = cmd[:k]
	}
	for _, w := range strings.Fields(cmd) {
		if w = strings.Trim(w, `"'`); strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w, "wg") || w == "\\" {
			return SeverityWarning
		}
	}
	return SeverityNote
}

// notInComment grades a command that registers a job (launchctl load,
// schtasks /create): a warning, a note when the match is in a shell-style
// comment of a code line ("# prints both files, asks, then launchctl
// bootstrap") or in a string the line only prints, where it names the
// command rather than runs it.
func notInComment(s *scan, i int, m []int) string {
	if l := s.line(i); s.flag(i)&lineCode != 0 && (hashComment(l, m[0]) || s.inMessage(i, m[0])) {
		return SeverityNote
	}
	return SeverityWarning
}

// hashComment reports whether byte at of a line of code is in a comment
// that a # outside quotes, at the line's start or after a blank, begins.
func hashComment(l string, at int) bool {
	_, _, comment := quoteAt(l, at)
	return comment
}

// writeWarning is a check that gives a warning when the line writes to
// the path.
func writeWarning(s *scan, i int, m []int) string {
	if writes(s, i, m) {
		return SeverityWarning
	}
	return ""
}

// writeError is a check that gives an error when the line writes to the
// path.
func writeError(s *scan, i int, m []int) string {
	if writes(s, i, m) {
		return SeverityError
	}
	return ""
}

// agentConfigWrite grades a write to agent configuration: the user's own
// (~/.claude/, a home CLAUDE.md) is an error, a project's a warning, and a
// skill or command installed into ~/.claude/ a note. A path assigned to a
// variable that the file then writes to counts as a write.
func agentConfigWrite(s *scan, i int, m []int) string {
	line := s.line(i)
	target := strings.ToLower(line[m[0]:m[1]])
	home := m[2] >= 0
	w := writes(s, i, m)
	if !w {
		if v := assignedVar.FindStringSubmatch(line); v != nil {
			w = writesVar(s.text[s.starts[i+1]-1:], v[1])
		}
	}
	if !w {
		return ""
	}
	switch {
	case strings.Contains(target, "/skills") || strings.Contains(target, "/commands") || strings.Contains(target, "/agents") ||
		strings.Contains(target, "/projects") || strings.Contains(target, "\\skills"):
		return SeverityNote // installs a skill, a command or a memory entry: what such skills are for
	case home:
		return SeverityError
	case s.roles&roleCode == 0:
		return SeverityNote // a project's agent file, in instructions the model reads
	}
	return SeverityWarning // a project's agent file, written by a program
}

// varWindow is how far after its assignment a variable's use is looked for.
const varWindow = 64 << 10

var assignedVar = &lazyre.RE{Expr: `^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=`}

// writesVar reports whether text writes to the shell variable name: a
// redirection to it, or tee to it. It reads at most varWindow bytes.
func writesVar(text, name string) bool {
	text = text[:min(len(text), varWindow)]
	for _, ref := range []string{"$" + name, "${" + name + "}"} {
		for off := 0; ; {
			i := strings.Index(text[off:], ref)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(ref)
			if off < len(text) && (text[off] == '_' || 'a' <= text[off]|0x20 && text[off]|0x20 <= 'z' || '0' <= text[off] && text[off] <= '9') && ref[1] != '{' {
				continue
			}
			ls := strings.LastIndexByte(text[:at], '\n') + 1
			before := strings.TrimRight(text[ls:at], `" '`)
			if strings.HasSuffix(before, ">") || strings.HasSuffix(before, "tee") || strings.HasSuffix(before, "-a") {
				return true
			}
		}
	}
	return false
}

// commonDotfiles are hidden files that tools and projects write as a matter
// of course.
var commonDotfiles = []string{
	".env", ".gitignore", ".gitattributes", ".gitkeep", ".gitmodules", ".editorconfig", ".prettierrc", ".prettierignore",
	".eslintrc", ".eslintignore", ".npmrc", ".nvmrc", ".node-version", ".python-version", ".ruby-version", ".tool-versions",
	".dockerignore", ".babelrc", ".stylelintrc", ".markdownlint", ".pre-commit-config", ".coveragerc", ".flake8",
	".pylintrc", ".yamllint", ".terraform", ".vscode", ".idea", ".github", ".cache", ".venv", ".tmp", ".temp",
	".claude", ".mcp.json", ".secrets.baseline", ".htaccess", ".swcrc", ".browserslistrc", ".releaserc", ".changeset",
	".hadolint", ".shellcheckrc", ".golangci", ".clang-format", ".rubocop", ".pypirc", ".netrc", ".bashrc", ".zshrc",
	".profile", ".bash_profile",
}

// hiddenWrite accepts a write to a hidden file unless it is a common one
// (or persistence, which that rule reports).
func hiddenWrite(s *scan, i int, m []int) string {
	name := s.line(i)[m[2]:m[3]]
	name = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(name, "./"), "~/"), "$HOME/")
	if name == "." || strings.HasPrefix(name, "..") {
		return ""
	}
	lower := strings.ToLower(name)
	for _, c := range commonDotfiles {
		if lower == c || strings.HasPrefix(lower, c+".") || strings.HasPrefix(lower, c+"/") || strings.HasPrefix(lower, c+"-") || strings.HasPrefix(lower, c+"_") {
			return ""
		}
	}
	return SeverityWarning
}
