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
)

// This file is what makes a text file opaque to a reader though the
// analyser reads it: a name that says it is something else, code packed
// on lines too long to review, and content pushed out of sight by a long
// run of blank lines or spaces.

// Bounds of what a reader sees.
const (
	longLine     = 2000 // a line of code longer than this is minified or packed
	blankRun     = 25   // so many blank lines in a row hide what follows from a reader scrolling
	spaceRun     = 120  // so many spaces or tabs in a row push what follows off the screen
	sniffLines   = 60   // the lines of a text file looked at to tell code from prose
	codeLinesMin = 3    // … of which this many, and most, must read as commands
)

// disguisedText finds text that is not what its name says: text named as a
// binary format (a script named .png; a table or prose so named is a
// note, read as text), a #! script named as text or data
// (.txt, .md, .json), and a script without #! under a text name, told by
// its lines reading as shell or Python commands.
func disguisedText(s *scan) []hit {
	if s.lineBase != 0 || s.colBase != 0 || s.lines() == 0 {
		return nil // the file's start is in its first window
	}
	ext := strings.ToLower(path.Ext(s.file))
	first := strings.TrimPrefix(s.line(0), "\uFEFF")
	switch k := filekind.ByName(s.file); {
	case k != filekind.Text && k != filekind.None && ext != ".svg":
		if lfsPointer(s.text) {
			return []hit{{off: 0, sev: SeverityNote, excerpt: "a Git LFS pointer named " + ext + ", not the file it stands for: " + first}}
		}
		if code, _, _ := commandLines(s); code == 0 && !strings.HasPrefix(first, "#!") {
			// a table or prose under a binary format's name (a plate
			// reader's ".xls" that is TSV): read as the text it is, every
			// rule applied, nothing in it hidden from the analysis
			return []hit{{off: 0, sev: SeverityNote, excerpt: "text, read as text, in a file named " + ext + ": " + first}}
		}
		return []hit{{off: 0, sev: SeverityWarning, excerpt: "text in a file named " + ext + ": " + first}}
	case k == filekind.Text && s.roles&roleScript != 0 && !filekind.IsProgramExt(ext) && strings.HasPrefix(first, "#!"):
		if templateNames.Get()[ext] {
			// job.sbatch.tmpl: a template, whose name promises no kind of
			// content; read as the script it is
			return []hit{{off: 0, sev: SeverityNote, excerpt: "a script template named " + ext + ", read as the script it is: " + first}}
		}
		return []hit{{off: 0, sev: SeverityWarning, excerpt: "a script named " + ext + ": " + first}}
	}
	if !textNames.Get()[ext] && !(ext == "" && s.roles&(roleScript|roleManifest|roleAutoExec) == 0) {
		return nil
	}
	code, other, at := commandLines(s)
	if code >= codeLinesMin && code > 2*other {
		return []hit{{off: s.starts[at], sev: SeverityWarning,
			excerpt: fmt.Sprintf("%d of %d lines read as shell or Python commands in a file named %q", code, code+other, path.Base(s.file))}}
	}
	return nil
}

// commandLines counts, of the file's first sniffLines lines that are
// neither blank nor comments, those that read as shell or Python commands
// and the others, and returns the first of the former (-1 for none).
func commandLines(s *scan) (code, other, at int) {
	at = -1
	for i := range min(s.lines(), sniffLines) {
		l := strings.TrimSpace(s.line(i))
		if l == "" || strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "#!") {
			continue
		}
		if commandLine.MatchString(l) {
			code++
			if at < 0 {
				at = i
			}
		} else {
			other++
		}
	}
	return code, other, at
}

// textNames are the names of plain text and data that a program should not
// hide under.
var textNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{".txt": true, ".text": true, ".log": true, ".dat": true, ".data": true, ".csv": true, ".cfg": true, ".conf": true}
}}

// templateNames are the extensions of templates and samples of another
// file, which may hold any kind of text.
var templateNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{".tmpl": true, ".tpl": true, ".template": true, ".j2": true, ".jinja": true, ".jinja2": true,
		".mustache": true, ".hbs": true, ".erb": true, ".in": true, ".sample": true, ".example": true, ".dist": true}
}}

// commandLine matches a line that reads as a shell or Python command.
var commandLine = &lazyre.RE{Expr: `^(?:#!|(?:sudo\s+)?(?:curl|wget|chmod|chown|bash|sh|zsh|eval|exec|export|source|cd|rm|mv|cp|mkdir|echo|printf|cat|tar|unzip|base64|nc|python3?|node|perl|ruby|pip3?|npm|npx|git|ssh|scp|crontab|nohup|set\s+-[euxo])\b(?:\s|$)|` +
	`[A-Za-z_]\w*=(?:\$\(|["'$\w/])|if\s+\[|for\s+\w+\s+in\s|while\s|done$|fi$|then$|` +
	`import\s+[\w.]+(?:\s*,\s*[\w.]+)*$|from\s+[\w.]+\s+import\s|def\s+\w+\s*\(|class\s+\w+.*:$|[\w.]+\([^)]*\)$|` +
	`(?:const|let|var)\s+\w+\s*=|require\s*\()`}

// longLines finds a line of code too long to review: minified or packed
// JavaScript, a one-line program.
func longLines(s *scan) []hit {
	var table *hit
	for i := range s.lines() {
		if n := s.starts[i+1] - s.starts[i]; n > longLine {
			if numberTable(s.line(i)) {
				if table == nil {
					table = &hit{off: s.starts[i], sev: SeverityNote, excerpt: fmt.Sprintf("a line of %d bytes of numbers only: a data table", n-1)}
				}
				continue
			}
			if imageLine(s.line(i)) {
				if table == nil {
					table = &hit{off: s.starts[i], sev: SeverityNote, excerpt: fmt.Sprintf("a line of %d bytes of base64 image data", n-1)}
				}
				continue
			}
			return []hit{{off: s.starts[i], sev: SeverityWarning,
				excerpt: fmt.Sprintf("a line of %d bytes: minified or packed code a reader cannot review", n-1)}}
		}
	}
	if table != nil {
		return []hit{*table}
	}
	return nil
}

// imageLine reports a line that is one quoted base64 string, after a key
// it is the value of ("image/png": "iVBOR…"), holding an image
// (imageBase64): a notebook's output, not code.
func imageLine(l string) bool {
	t := strings.TrimSpace(l)
	if i := strings.Index(t, `": "`); i >= 0 && i < 64 {
		t = t[i+3:]
	}
	t = strings.TrimRight(strings.TrimPrefix(t, `"`), `",`)
	t = strings.TrimSuffix(t, `\n`)
	if !imageBase64(t) {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isBase64Byte(t[i]) && t[i] != '=' {
			return false
		}
	}
	return true
}

// numberTable reports a line that, after a name it binds (WIDE =, const
// T =), holds only numbers and the brackets and commas between them: a
// generated table (code point ranges, a lookup table), data a reader can
// see is data. Any string, name or operator makes it code.
func numberTable(l string) bool {
	t := strings.TrimSpace(l)
	for _, kw := range []string{"const ", "let ", "var ", "static "} {
		t = strings.TrimPrefix(t, kw)
	}
	if i := strings.IndexAny(t, "=:"); i > 0 && isIdent(strings.TrimSpace(t[:i])) {
		t = t[i+1:]
	}
	digits := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == 'x' || c == 'X' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F':
			if i == 0 || !(t[i-1] >= '0' && t[i-1] <= '9' || t[i-1] == 'x' || t[i-1] == 'X' || 'a' <= t[i-1]|0x20 && t[i-1]|0x20 <= 'f') {
				return false // a hex digit only inside a number (0x1F), never a word
			}
		case strings.IndexByte("(),[]{} \t\r;_.+-", c) >= 0:
		default:
			return false
		}
	}
	return digits*2 > len(t)/2
}

// blankPadding finds content after a long run of blank lines, or after a
// long run of spaces within a line: a reader scrolling the file, or a
// viewer that does not wrap, never sees it, and a model reads it all.
func blankPadding(s *scan) []hit {
	run := 0
	for i := range s.lines() {
		l := s.line(i)
		if isBlank(l) {
			run++
			continue
		}
		if run >= blankRun {
			return []hit{{off: s.starts[i], sev: SeverityWarning, excerpt: fmt.Sprintf("after %d blank lines: %s", run, l)}}
		}
		run = 0
		if len(l) > spaceRun && (strings.Contains(l, "        ") || strings.Contains(l, "\t\t")) {
			if at := spacesThenText(l); at >= 0 && !tablePadding(l, at) {
				return []hit{{off: s.starts[i] + at, sev: SeverityWarning, excerpt: fmt.Sprintf("after %d blanks on the line: %s", at, l[at:])}}
			}
		}
	}
	return nil
}

// lfsPointer reports whether t is a whole Git LFS pointer file, as git
// leaves in place of a large file it did not fetch: the spec's version
// line, then only key-value lines (oid sha256:…, size N), nothing else.
func lfsPointer(t string) bool {
	rest, ok := strings.CutPrefix(t, "version https://git-lfs.github.com/spec/v1\n")
	if !ok || len(t) > 1024 {
		return false
	}
	oid := false
	for _, l := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
		k, v, ok := strings.Cut(l, " ")
		switch {
		case !ok || v == "" || strings.ContainsAny(v, " \t"):
			return false
		case k == "oid":
			h, ok := strings.CutPrefix(v, "sha256:")
			if !ok || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
				return false
			}
			oid = true
		case k == "size":
			if strings.Trim(v, "0123456789") != "" {
				return false
			}
		case strings.Trim(k, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "":
			return false
		}
	}
	return oid
}

// tablePadding reports whether the run of blanks that ends at byte at of
// line l aligns a Markdown table's cells: the line is a table row and
// only a cell's closing bar follows the blanks.
func tablePadding(l string, at int) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " \t"), "|") && strings.TrimRight(l[at:], " \t\r") == "|"
}

// isBlank reports whether a line holds only white space.
func isBlank(l string) bool {
	for i := 0; i < len(l); {
		c := l[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false
		}
		r, n := utf8.DecodeRuneInString(l[i:])
		if !unicode.IsSpace(r) {
			return false
		}
		i += n
	}
	return true
}

// spacesThenText returns where text starts after a run of more than
// spaceRun spaces or tabs in a line, or -1.
func spacesThenText(l string) int {
	run := 0
	for i := 0; i < len(l); i++ {
		if l[i] == ' ' || l[i] == '\t' {
			run++
			continue
		}
		if run > spaceRun {
			return i
		}
		run = 0
	}
	return -1
}
