package program

import "strings"

// This file blanks TypeScript's type annotations where the JavaScript
// reading of the flow analysis would stumble on them: a declared name's
// type (const bundle: Record<string, string> = {}) and a function's return
// type (function disc(): Record<string, string> {). Each byte keeps its
// offset; what is left is JavaScript.

// tsStrip returns text with the annotations blanked.
func tsStrip(text string) string {
	b := []byte(text)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(b, i)
		case c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '*'):
			i = skipComment(text, i)
		case c == '(' && declLine(b, i+1) && firstParen(b, i):
			stripParams(b, i)
		case c == ')':
			// a return type, ): T {, on a line that declares a function or
			// a method (a ternary's f(x) : y is neither)
			if j := skipBlanks(b, i+1); j < len(b) && b[j] == ':' && declLine(b, i) {
				if end, ok := typeEnd(b, j+1, "{"); ok {
					blank(b, j, end)
				}
			}
		case isIdentByte(c) && (i == 0 || !isIdentByte(b[i-1])):
			w := i
			for w < len(b) && isIdentByte(b[w]) {
				w++
			}
			switch string(b[i:w]) {
			case "type", "interface":
				// type X = …; and interface X { … } declare nothing that runs
				if j := skipBlanks(b, w); j > w && j < len(b) && isIdentByte(b[j]) && lineStarts(b, i) {
					if end := declEnd(b, j, string(b[i:w]) == "interface"); end > 0 {
						blank(b, i, end)
						i = end - 1
						continue
					}
				}
			case "as":
				// x as T: the cast's type, up to what ends the expression
				if i > 0 && (b[i-1] == ' ' || b[i-1] == '\t') && w < len(b) && b[w] == ' ' {
					if end, ok := typeEnd(b, w+1, ",;)]}\n"); ok {
						blank(b, i, end)
						i = end - 1
						continue
					}
				}
			case "const", "let", "var":
				// a declared name's type: const x: T = …
				j := skipBlanks(b, w)
				n := j
				for n < len(b) && (isIdentByte(b[n]) || b[n] == '$') {
					n++
				}
				if k := skipBlanks(b, n); n > j && k < len(b) && b[k] == ':' {
					if end, ok := typeEnd(b, k+1, "=;\n"); ok {
						blank(b, k, end)
					}
				}
			}
			i = w - 1
		}
	}
	return string(b)
}

// firstParen reports whether the ( at byte i is the first of its line.
func firstParen(b []byte, i int) bool {
	for k := i - 1; k >= 0 && b[k] != '\n'; k-- {
		if b[k] == '(' {
			return false
		}
	}
	return true
}

// lineStarts reports whether byte i starts its line's text, after blanks
// and an export.
func lineStarts(b []byte, i int) bool {
	start := i
	for start > 0 && b[start-1] != '\n' {
		start--
	}
	l := strings.TrimLeft(string(b[start:i]), " \t")
	return l == "" || l == "export " || l == "declare " || l == "export declare "
}

// stripParams blanks the types of the parameters of the list that opens
// at byte open: name: T, name?: T, up to the comma or the parenthesis
// that ends each.
func stripParams(b []byte, open int) {
	depth := 0
	for k := open; k < len(b) && k < open+4096; k++ {
		switch c := b[k]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth--; depth == 0 {
				return
			}
		case c == '"' || c == '\'' || c == '`':
			k = skipQuoted(b, k)
		case depth == 1 && c == ':' || depth == 1 && c == '?' && k+1 < len(b) && b[k+1] == ':':
			if end, ok := typeEnd(b, k+1, ",)="); ok {
				blank(b, k, end)
				k = end - 1
			}
		}
	}
}

// declEnd returns where a type alias (type X = …;) or an interface
// (interface X { … }) that names its type at byte i ends, or 0.
func declEnd(b []byte, i int, iface bool) int {
	depth := 0
	for k := i; k < len(b) && k < i+16384; k++ {
		switch c := b[k]; {
		case c == '{' || c == '(' || c == '[' || c == '<':
			depth++
		case c == '}' || c == ')' || c == ']' || c == '>' && (k == 0 || b[k-1] != '='):
			if depth--; depth == 0 && iface && c == '}' {
				return k + 1
			}
		case c == ';' && depth == 0 && !iface:
			return k + 1
		case c == '\n' && depth == 0 && !iface && k > i && strings.TrimSpace(lastLine(b, k)) != "" && !strings.HasSuffix(strings.TrimSpace(lastLine(b, k)), "=") && !strings.HasSuffix(strings.TrimSpace(lastLine(b, k)), "|"):
			return k // type X = A (no semicolon): the line ends it
		case c == '"' || c == '\'' || c == '`':
			k = skipQuoted(b, k)
		}
	}
	return 0
}

// lastLine returns the line of b that ends at byte k.
func lastLine(b []byte, k int) string {
	start := k
	for start > 0 && b[start-1] != '\n' {
		start--
	}
	return string(b[start:k])
}

// declLine reports whether the line holding byte i starts a function's or
// a method's declaration: function, async function, export …, or a name
// (with its modifiers) followed by its parameters.
func declLine(b []byte, i int) bool {
	start := i
	for start > 0 && b[start-1] != '\n' {
		start--
	}
	l := strings.TrimLeft(string(b[start:i]), " \t")
	for _, kw := range []string{"export ", "default ", "public ", "private ", "protected ", "static ", "async ", "function ", "function* "} {
		l = strings.TrimPrefix(l, kw)
	}
	n := 0
	for n < len(l) && (isIdentByte(l[n]) || l[n] == '$') {
		n++
	}
	return n > 0 && n < len(l) && (l[n] == '(' || l[n] == '<')
}

// typeEnd returns where a type that starts at byte i ends: the first byte
// of stops outside brackets (<>, (), [], {}), not the = of an arrow =>,
// with the type at most one line long; false when there is none.
func typeEnd(b []byte, i int, stops string) (int, bool) {
	depth := 0
	for k := i; k < len(b) && k < i+256; k++ {
		c := b[k]
		switch {
		case c == '\n' && !strings.ContainsRune(stops, '\n'):
			return 0, false
		case depth == 0 && strings.IndexByte(stops, c) >= 0 && !(c == '=' && k+1 < len(b) && b[k+1] == '>'):
			return k, k > i
		case c == '<' || c == '(' || c == '[' || c == '{':
			depth++
		case c == '>' && k > 0 && b[k-1] == '=':
			// the arrow of a function type, (a: T) => U
		case c == '>' || c == ')' || c == ']' || c == '}':
			if depth--; depth < 0 {
				return 0, false
			}
		case c == '"' || c == '\'' || c == '`':
			k = skipQuoted(b, k)
		}
	}
	return 0, false
}

// skipQuoted returns the index of the quote that closes the string that
// starts at byte i, or the text's end.
func skipQuoted(b []byte, i int) int {
	q := b[i]
	for k := i + 1; k < len(b); k++ {
		switch b[k] {
		case '\\':
			k++
		case q:
			return k
		case '\n':
			if q != '`' {
				return k
			}
		}
	}
	return len(b)
}

// skipComment returns the index of the last byte of the comment (// or
// /*) that starts at byte i of text.
func skipComment(text string, i int) int {
	if text[i+1] == '/' {
		return lineEnd(text, i) - 1
	}
	return skipTo(text, i+2, "*/") - 1
}

// skipBlanks returns the index of the first byte from i that is not a
// space or a tab.
func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// blank overwrites b[from:to] with spaces, keeping line breaks.
func blank(b []byte, from, to int) {
	for k := from; k < to; k++ {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
}
