package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// This file is the tokenizer of the code analysis for Python, JavaScript
// (and TypeScript), PowerShell, Ruby, Perl and PHP: one pass, no
// backtracking, never an error. It knows each language's comments and
// string literals (prefixes, triple quotes, templates, here-strings,
// q()/%q(), backticks), which is what the flow analysis (flow.go) needs;
// everything else is a word or a punctuation mark. A string never runs
// past the end of its line unless the language lets it (triple quotes,
// templates, here-strings), so one bad quote costs one line.

// A lang is a language the code analysis reads.
const (
	langShell  = "sh"
	langPython = "py"
	langJS     = "js"
	langPS     = "ps1"
	langRuby   = "rb"
	langPerl   = "pl"
	langGo     = "go"
	langBatch  = "bat"        // Windows batch files: batch.go
	langReg    = "reg"        // Windows registry files: regfile.go
	langDocker = "dockerfile" // a Dockerfile in a Markdown fence, read as its RUN script: docker.go
)

// A tokKind is what a token is.
type tokKind uint8

const (
	tokWord   tokKind = iota // a name or a number: os, $x, @a, 0o777
	tokString                // a string literal; s is its value, escapes decoded
	tokTmpl                  // a string with interpolation (f"", `${}`, "$x", "#{}"); s is its raw body
	tokExec                  // a command string: backticks in Ruby, Perl, PHP; s is its body
	tokPunct                 // punctuation: one or two bytes
	tokEOL                   // the end of a logical line
)

// A token is one token and where it starts in the region.
type token struct {
	kind tokKind
	s    string
	off  int
	raw  bool // a string with no escapes decoded (r"", '' in PowerShell, Perl, Ruby)
}

// Bounds of a chunk of tokens (tokenChunk): a chunk ends at the first line
// end after chunkBytes where every bracket is closed, or after
// maxChunkTokens whatever the brackets, so that a region's tokens take
// memory for one chunk, not for the whole region.
const (
	chunkBytes     = 64 << 10
	maxChunkTokens = 32 << 10
)

// tokenChunk splits the chunk of a region that starts at byte from (0, or
// the end of the chunk before) into tokens, appended to out, and returns
// them with where the next chunk starts. The tokens' offsets are the
// region's.
func tokenChunk(text, lang string, from int, out []token) ([]token, int) {
	return tokenRun(text, lang, from, out, chunkBytes, maxChunkTokens)
}

// tokenRun is tokenChunk with its bounds: a chunk of at least size bytes
// (where brackets allow) and at most limit tokens.
func tokenRun(text, lang string, from int, out []token, size, limit int) ([]token, int) {
	goLang := lang == langGo
	if goLang {
		lang = langJS // Go reads as JavaScript does: comments, strings, calls; := below
	}
	hashComment := lang != langJS
	n := len(text)
	depth := 0 // brackets open
	for i := from; i < n; {
		if len(out) >= limit {
			return out, i
		}
		c := text[i]
		switch {
		case c == '\n':
			if len(out) > 0 && out[len(out)-1].kind != tokEOL {
				out = append(out, token{kind: tokEOL, off: i})
			}
			i++
			if depth == 0 && i-from >= size {
				return out, i
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\\' && i+1 < n && text[i+1] == '\n':
			i += 2 // a continued line
		case c == '#' && hashComment && !(lang == langPerl && i > 0 && text[i-1] == '$'):
			if lang == langPS && i > 0 && text[i-1] == '<' {
				i = skipTo(text, i, "#>")
				continue
			}
			i = lineEnd(text, i)
		case c == '<' && lang == langPS && i+1 < n && text[i+1] == '#':
			i = skipTo(text, i+2, "#>")
		case c == '/' && i+1 < n && text[i+1] == '/' && (lang == langJS || lang == langPerl && false):
			i = lineEnd(text, i)
		case c == '/' && i+1 < n && text[i+1] == '*' && lang == langJS:
			i = skipTo(text, i+2, "*/")
		case c == '/' && lang == langJS && regexStart(out):
			// A regular expression literal (/["']x/g): its quotes are no
			// strings. It is an operand the analysis does not read.
			out = append(out, token{kind: tokWord, s: "__regex__", off: i})
			i = regexEnd(text, i)
		case c == '=' && (lang == langRuby || lang == langPerl) && (i == 0 || text[i-1] == '\n') && i+1 < n && isLetter(text[i+1]):
			// =begin … =end, =pod … =cut
			end := "\n=end"
			if lang == langPerl {
				end = "\n=cut"
			}
			i = skipTo(text, i, end)
		case c == '"' || c == '\'' || c == '`':
			t, next := stringToken(text, i, lang, "")
			out = append(out, t)
			i = next
		case c == '@' && lang == langPS && i+1 < n && (text[i+1] == '"' || text[i+1] == '\''):
			// A here-string: @" … "@ or @' … '@.
			q := text[i+1]
			end := strings.Index(text[i+2:], "\n"+string(q)+"@")
			body, next := "", n
			if end >= 0 {
				body, next = text[i+2:i+2+end], i+2+end+3
			} else {
				body = text[i+2:]
			}
			kind := tokString
			if q == '"' && strings.Contains(body, "$") {
				kind = tokTmpl
			}
			out = append(out, token{kind: kind, s: strings.TrimPrefix(body, "\n"), off: i, raw: q == '\''})
			i = next
		case isWordStart(c, lang) || c == '-' && lang == langPS && i+1 < n && isLetter(text[i+1]) && (i == 0 || strings.IndexByte(" \t(", text[i-1]) >= 0):
			j := i + 1
			for j < n && isWordPart(text[j], lang) {
				j++
			}
			w := text[i:j]
			// String prefixes: r"", b'', f"", rb"" (Python); q(), qq{} (Perl); %q() (Ruby).
			if j < n && (text[j] == '"' || text[j] == '\'') && lang == langPython && len(w) <= 2 && strings.Trim(strings.ToLower(w), "rbuf") == "" {
				t, next := stringToken(text, j, lang, strings.ToLower(w))
				t.off = i
				out = append(out, t)
				i = next
				continue
			}
			if lang == langPerl && (w == "q" || w == "qq" || w == "qw" || w == "qx") && j < n && strings.IndexByte("({[</|!", text[j]) >= 0 {
				t, next := quoteLike(text, j, w)
				t.off = i
				out = append(out, t)
				i = next
				continue
			}
			out = append(out, token{kind: tokWord, s: w, off: i})
			i = j
		case c == '%' && lang == langRuby && i+2 < n && (text[i+1] == 'q' || text[i+1] == 'Q' || text[i+1] == 'x' || text[i+1] == 'w') && strings.IndexByte("({[<|!", text[i+2]) >= 0:
			kinds := map[byte]string{'q': "q", 'Q': "qq", 'x': "qx", 'w': "qw"}
			t, next := quoteLike(text, i+2, kinds[text[i+1]])
			t.off = i
			if text[i+1] == 'w' {
				out = wordList(out, t)
			} else {
				out = append(out, t)
			}
			i = next
		case c >= 0x80:
			i++
		default:
			// Two-byte operators the analysis cares about.
			if i+1 < n {
				two := text[i : i+2]
				if two == ":=" && goLang {
					out = append(out, token{kind: tokPunct, s: "=", off: i})
					i += 2
					continue
				}
				if two == ".." && (lang == langPerl || lang == langRuby || lang == langPS) {
					// A range (1 .. 10, @a[-50 .. -1]), never two concatenations.
					out = append(out, token{kind: tokPunct, s: two, off: i})
					i += 2
					continue
				}
				switch two {
				case "::", "->", "+=", "=>", "**", "==", "!=", ".=", "<<", "||", "&&", "?.":
					out = append(out, token{kind: tokPunct, s: two, off: i})
					i += 2
					continue
				}
			}
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(0, depth-1)
			}
			out = append(out, token{kind: tokPunct, s: text[i : i+1], off: i})
			i++
		}
	}
	return out, n
}

// regexStart reports whether a / after the tokens out starts a regular
// expression literal in JavaScript rather than a division: at the start,
// or after an operator, an opening bracket, a comma or a keyword that
// takes an expression; not after a name, a number, a string or a closing
// bracket.
func regexStart(out []token) bool {
	if len(out) == 0 {
		return true
	}
	t := out[len(out)-1]
	switch t.kind {
	case tokPunct:
		return t.s != ")" && t.s != "]" && t.s != "}"
	case tokWord:
		switch t.s {
		case "return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "yield", "await":
			return true
		}
	case tokEOL:
		return true
	}
	return false
}

// regexEnd returns the offset after the regular expression literal that
// starts at i (a /): past escapes and character classes, its closing /
// and flags; a line break ends it too.
func regexEnd(text string, i int) int {
	class := false
	for k := i + 1; k < len(text); k++ {
		switch c := text[k]; {
		case c == '\\':
			k++
		case c == '\n':
			return k
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			k++
			for k < len(text) && isLetter(text[k]) {
				k++
			}
			return k
		}
	}
	return len(text)
}

func isWordStart(c byte, lang string) bool {
	return isLetter(c) || c == '_' || '0' <= c && c <= '9' || c == '$' || (c == '@' || c == '%') && lang == langPerl && false
}

func isWordPart(c byte, lang string) bool {
	return isLetter(c) || c == '_' || '0' <= c && c <= '9' || c == '$' && lang == langJS || c == '-' && lang == langPS ||
		c == ':' && lang == langPS && false
}

// lineEnd returns the offset of the end of the line at i.
func lineEnd(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// skipTo returns the offset after the next end from i, or the text's end.
func skipTo(text string, i int, end string) int {
	if j := strings.Index(text[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(text)
}

// stringToken reads a string literal at i (a quote), with the Python
// prefix given.
func stringToken(text string, i int, lang, prefix string) (token, int) {
	q := text[i]
	n := len(text)
	triple := lang == langPython && i+2 < n && text[i+1] == q && text[i+2] == q
	multi := triple || q == '`' || lang != langPython && lang != langJS // Ruby, Perl, PowerShell, PHP strings may span lines
	start := i + 1
	if triple {
		start = i + 3
	}
	raw := strings.Contains(prefix, "r") || q == '\'' && (lang == langPS || lang == langPerl || lang == langRuby)
	j := start
	for j < n {
		c := text[j]
		if c == '\\' && !(raw && lang != langPython) && lang != langPS {
			j += 2
			continue
		}
		if c == '`' && lang == langPS && q == '"' {
			j += 2
			continue
		}
		if c == '\n' && !multi {
			break
		}
		if c == q {
			if triple {
				if j+2 < n && text[j+1] == q && text[j+2] == q {
					break
				}
				j++
				continue
			}
			if lang == langPS && j+1 < n && text[j+1] == q { // '' inside '…'
				j += 2
				continue
			}
			break
		}
		j++
	}
	j = min(j, n)
	body := text[start:j]
	next := j + 1
	if triple {
		next = j + 3
	}
	next = min(next, n)
	t := token{kind: tokString, off: i, raw: raw}
	switch {
	case q == '`' && lang != langJS:
		t.kind, t.s = tokExec, body
	case q == '`' && strings.Contains(body, "${"):
		t.kind, t.s = tokTmpl, body
	case strings.Contains(prefix, "f") || q == '"' && (lang == langPS && strings.Contains(body, "$") || lang == langRuby && strings.Contains(body, "#{") ||
		lang == langPerl && (strings.Contains(body, "$") || strings.Contains(body, "@"))):
		t.kind, t.s = tokTmpl, body
	case raw:
		t.s = body
		if lang == langPS {
			t.s = strings.ReplaceAll(body, "''", "'")
		}
	default:
		if lang == langPS {
			t.s = strings.NewReplacer("`n", "\n", "`t", "\t", "``", "`", "`\"", "\"", "`$", "$").Replace(body)
		} else {
			t.s = encoded.Unescape(body)
		}
	}
	return t, next
}

// wordList appends Ruby's %w[…], a list of the words of t, as the
// bracketed list of strings it stands for: ["sys", "tem"].
func wordList(out []token, t token) []token {
	out = append(out, token{kind: tokPunct, s: "[", off: t.off})
	for k, w := range strings.Fields(t.s) {
		if k > 0 {
			out = append(out, token{kind: tokPunct, s: ",", off: t.off})
		}
		out = append(out, token{kind: tokString, s: w, off: t.off, raw: true})
	}
	return append(out, token{kind: tokPunct, s: "]", off: t.off})
}

// quoteLike reads Perl's q(), qq{}, qw[], qx// and Ruby's %q() at i (the
// opening bracket).
func quoteLike(text string, i int, kind string) (token, int) {
	open := text[i]
	closer := map[byte]byte{'(': ')', '{': '}', '[': ']', '<': '>'}[open]
	if closer == 0 {
		closer = open
	}
	depth, j := 1, i+1
	for ; j < len(text); j++ {
		c := text[j]
		if c == '\\' {
			j++
			continue
		}
		if c == open && closer != open {
			depth++
		} else if c == closer {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	j = min(j, len(text))
	body := text[i+1 : j]
	t := token{kind: tokString, s: body, raw: kind == "q" || kind == "qw"}
	switch kind {
	case "qq":
		if strings.ContainsAny(body, "$@") || strings.Contains(body, "#{") {
			t.kind = tokTmpl
		} else {
			t.s = encoded.Unescape(body)
		}
	case "qx":
		t.kind = tokExec
	}
	return t, min(j+1, len(text))
}

// maxNesting bounds how deeply a region may nest brackets and quotes
// before the parser sees it: the parser recurses once a level.
const maxNesting = 200

// tooNested reports whether text nests brackets deeper than maxNesting,
// and where.
func tooNested(text string) (int, bool) {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '{', '[':
			depth++
			if depth > maxNesting {
				return i, true
			}
		case ')', '}', ']':
			depth = max(0, depth-1)
		case '\n':
			if depth > maxNesting/2 {
				continue
			}
		}
	}
	return 0, false
}
