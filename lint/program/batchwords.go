package program

import "strings"

// This file reads the words of an expanded batch line (batchstate.go):
// cmd.exe's words, with their quotes, for the line's syntax; a command's
// words split as the C runtime splits a program's command line, or as
// cmd.exe splits them for its own commands; and the value characters make.

// A bcmd is one command of a line, its redirections taken out.
type bcmd struct {
	text []bchar   // the command, from its first word
	outs [][]bchar // targets of > and >> (standard output)
	in   []bchar   // the source of <
	at   int       // where it starts in the region
}

// isSpace reports a character cmd.exe separates words with.
func isSpace(c bchar) bool {
	return c.kind != bValue && c.kind != bRef && (c.c == ' ' || c.c == '\t')
}

// isOp reports a character that is an operator outside quotes: the file's
// own, not escaped and not a variable's value.
func isOp(c bchar, chars string) bool {
	return c.kind == bFile && strings.IndexByte(chars, c.c) >= 0
}

// word returns the word at pos as cmd.exe reads it (quotes kept, ^ escapes
// taken), with what it holds as text, and where it ends.
func word(l []bchar, pos int) (string, int) {
	var sb strings.Builder
	in := false
	for ; pos < len(l); pos++ {
		c := l[pos]
		if c.c == '"' && c.kind != bValue && c.kind != bRef {
			in = !in
		}
		if !in && (isSpace(c) || isOp(c, "&|()<>")) {
			break
		}
		if c.kind == bFile || c.kind == bVar || c.kind == bEsc {
			sb.WriteByte(c.c)
		}
	}
	return sb.String(), pos
}

// barg is one word of a command as a program gets it.
type barg struct {
	v      value
	quoted bool    // it started with a quote
	chars  []bchar // its characters, quotes taken out
	from   int     // where in the text it starts
}

// split splits a command's text into its words: as the C runtime does for
// a program (crt: spaces end a word outside quotes, 2n backslashes and a
// quote are n backslashes and a quote that opens or closes, 2n+1 of them n
// and a literal quote), or as cmd.exe does for its own commands (quotes
// open and close, a backslash is a backslash).
func (b *batchState) split(l []bchar, crt bool) []barg {
	var out []barg
	buf := make([]bchar, 0, len(l)) // every word's characters, one after another
	for pos := 0; pos < len(l); {
		for pos < len(l) && l[pos].kind != bValue && l[pos].kind != bRef && (l[pos].c == ' ' || l[pos].c == '\t') {
			pos++
		}
		if pos >= len(l) {
			break
		}
		a := barg{quoted: l[pos].c == '"' && l[pos].kind != bValue && l[pos].kind != bRef, from: pos}
		in, start := false, len(buf)
		for pos < len(l) {
			c := l[pos]
			if c.kind == bValue || c.kind == bRef {
				buf = append(buf, c)
				pos++
				continue
			}
			if !in && (c.c == ' ' || c.c == '\t') {
				break
			}
			if c.c == '\\' && crt {
				n := 0
				for pos+n < len(l) && l[pos+n].c == '\\' && l[pos+n].kind != bValue && l[pos+n].kind != bRef {
					n++
				}
				if pos+n < len(l) && l[pos+n].c == '"' && l[pos+n].kind != bValue && l[pos+n].kind != bRef {
					for range n / 2 {
						buf = append(buf, l[pos])
					}
					if n%2 == 1 {
						buf = append(buf, l[pos+n])
						pos += n + 1
						continue
					}
					pos += n
					continue // the quote is read next
				}
				buf = append(buf, l[pos:pos+n]...)
				pos += n
				continue
			}
			if c.c == '"' {
				if in && pos+1 < len(l) && l[pos+1].c == '"' && l[pos+1].kind != bValue && l[pos+1].kind != bRef {
					buf = append(buf, l[pos+1]) // "" inside quotes is a quote
					pos += 2
					continue
				}
				in = !in
				pos++
				continue
			}
			buf = append(buf, c)
			pos++
		}
		a.chars = buf[start:len(buf):len(buf)]
		a.v = b.valueOf(a.chars)
		out = append(out, a)
	}
	return out
}

// words returns the values of split's words, split as cmd.exe does.
func (b *batchState) words(l []bchar) []value {
	as := b.split(l, false)
	out := make([]value, len(as))
	for i, a := range as {
		out[i] = a.v
	}
	return out
}

// valueOf returns the value characters make: the file's text is a literal,
// a variable's known text carries its taint (the variable itself when it is
// used whole), a value not known whole stands as it is.
func (b *batchState) valueOf(l []bchar) value {
	var parts []value
	for i := 0; i < len(l); {
		c := l[i]
		switch c.kind {
		case bValue:
			parts = append(parts, b.vals[c.v].v)
			i++
			continue
		case bRef:
			parts = append(parts, b.charge(b.resolve(b.refs[c.v]), c.off))
			i++
			continue
		}
		j := i
		var sb strings.Builder
		for j < len(l) && sameRun(l[j], c) {
			sb.WriteByte(l[j].c)
			j++
		}
		s := sb.String()
		if c.kind == bVar {
			src := b.vals[c.v].v
			if s == src.s && (i == 0 || !sameRun(l[i-1], c)) {
				parts = append(parts, src)
			} else {
				parts = append(parts, value{s: s, known: true, t: src.t})
			}
		} else {
			v := lit(s)
			v.path = classifyPath(v)
			parts = append(parts, v)
		}
		i = j
	}
	return cat(parts...)
}

// sameRun reports whether c continues the run of characters that started
// with first: the file's text, or one variable's.
func sameRun(c, first bchar) bool {
	if first.kind == bVar {
		return c.kind == bVar && c.v == first.v
	}
	return c.kind == bFile || c.kind == bEsc
}

// resolve returns what a for variable or a !delayed! one holds when its
// command runs.
func (b *batchState) resolve(name string) value {
	if n, ok := strings.CutPrefix(name, "!"); ok {
		return b.lookup(n)
	}
	if v, ok := b.vars[name]; ok {
		return v
	}
	return unknown()
}

// written returns what this region wrote to the file v names, by its path
// as written or as normPath folds it.
func (b *batchState) written(v value) (*shFile, bool) {
	if k := fileKey(v); k != "" {
		if f, ok := b.sh.files[k]; ok {
			return f, true
		}
	}
	if v.known && v.s != "" {
		f, ok := b.sh.folded[strings.ToLower(v.s)]
		return f, ok
	}
	return nil, false
}

// charsText returns the known text of characters.
func charsText(l []bchar) []byte {
	out := make([]byte, 0, len(l))
	for _, c := range l {
		if c.kind != bValue && c.kind != bRef {
			out = append(out, c.c)
		}
	}
	return out
}
