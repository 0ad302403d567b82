package program

import (
	"fmt"
	"strings"
)

// This file is the analysis of Windows batch files (.bat, .cmd) and of
// fenced blocks labelled bat, batch or cmd, read as cmd.exe reads them: a
// line joined to the next by a final ^, its %VAR%, %1, %~dp0 and !VAR!
// expanded, then split at the operators outside quotes (& && || | and the
// parentheses of a block) with ^ escaping the next character; the
// redirections taken out; if and for read for the command they run; and
// each command's words split as the C runtime splits a command line (a
// program's argv). Every character keeps where it came from, so a word is
// a value (value.go) with the taint of the variables that built it.
// batchcmds.go knows what the commands do; what it does not know is handed
// to the shell analysis's table of commands (shellState.run), which the two
// share, as they share what was written to files.

// batchRegion analyses one region of batch.
func (s *scan) batchRegion(r region) {
	sh := &shellState{s: s, base: r.off, text: r.text, vars: map[string]value{}, files: map[string]*shFile{}, remotes: map[string]string{},
		folded: map[string]*shFile{}}
	b := &batchState{sh: sh, vars: map[string]value{}, tested: map[string]bool{}, grow: 2*len(r.text) + maxValue}
	text := r.text
	var raw []bchar
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\n')
		end := len(text)
		if j >= 0 {
			end = i + j
		}
		line := strings.TrimSuffix(text[i:end], "\r")
		next := end + 1
		cont := continues(line)
		if cont {
			line = line[:len(line)-1]
		}
		if len(raw)+len(line) > maxBatchLine {
			s.opaque(r.off+i, fmt.Sprintf("not analysed: a batch line of more than %d KiB", maxBatchLine>>10))
			raw = raw[:0]
			for cont && next < len(text) { // skip the rest of the logical line
				k := strings.IndexByte(text[next:], '\n')
				if k < 0 {
					next = len(text)
					break
				}
				cont = continues(strings.TrimSuffix(text[next:next+k], "\r"))
				next += k + 1
			}
			i = next
			continue
		}
		from := 0
		if s.roles&Markdown != 0 && len(raw) == 0 {
			from = promptLen(line) // a console transcript's C:\src> prompt
		}
		for k := from; k < len(line); k++ {
			raw = append(raw, bchar{c: line[k], off: int32(r.off + i + k)})
		}
		if !cont || next >= len(text) {
			b.line(raw)
			raw = raw[:0]
		}
		i = next
	}
}

// promptLen returns the length of a cmd.exe or PowerShell prompt that
// starts a line of a console transcript (C:\src>, PS C:\src>), or 0.
func promptLen(line string) int {
	t := TrimIndent(line)
	t = strings.TrimPrefix(t, "PS ")
	if len(t) < 3 || !isLetter(t[0]) || t[1] != ':' || t[2] != '\\' {
		return 0
	}
	gt := strings.IndexByte(t, '>')
	if gt < 0 || strings.ContainsAny(t[:gt], `"<|&`) {
		return 0
	}
	return len(line) - len(t) + gt + 1
}

// continues reports whether a line ends with a ^ outside quotes: cmd.exe
// joins the next line to it.
func continues(line string) bool {
	in := false
	for k := 0; k < len(line); k++ {
		switch line[k] {
		case '"':
			in = !in
		case '^':
			if !in {
				if k == len(line)-1 {
					return true
				}
				k++
			}
		}
	}
	return false
}

// line analyses one logical line.
func (b *batchState) line(raw []bchar) {
	t := 0
	for t < len(raw) && (raw[t].c == ' ' || raw[t].c == '\t' || raw[t].c == '@') {
		t++
	}
	rest := raw[t:]
	if len(rest) == 0 || rest[0].c == ':' || isRem(rest) {
		return // a label, a :: comment, a rem
	}
	b.vals, b.refs = b.vals[:0], b.refs[:0]
	b.run(b.expand(rest), value{})
}

// isRem reports a rem comment.
func isRem(l []bchar) bool {
	if len(l) < 3 || l[0].c|0x20 != 'r' || l[1].c|0x20 != 'e' || l[2].c|0x20 != 'm' {
		return false
	}
	return len(l) == 3 || l[3].c == ' ' || l[3].c == '\t' || l[3].c == '.' || l[3].c == ':'
}

// expand returns the line with its variables and arguments expanded, as
// cmd.exe does before it reads the line's operators.
func (b *batchState) expand(raw []bchar) []bchar {
	out := make([]bchar, 0, len(raw))
	budget := maxBatchLine // characters variables may add to the line
	put := func(v value, name string, off int32) {
		v = b.charge(v, off)
		idx := int32(len(b.vals))
		b.vals = append(b.vals, bval{v: v, name: name})
		if v.known && len(v.s) <= budget {
			budget -= len(v.s)
			for k := 0; k < len(v.s); k++ {
				out = append(out, bchar{c: v.s[k], kind: bVar, v: idx, off: off})
			}
			return
		}
		out = append(out, bchar{kind: bValue, v: idx, off: off})
	}
	ref := func(name string, off int32) {
		out = append(out, bchar{kind: bRef, v: int32(len(b.refs)), off: off})
		b.refs = append(b.refs, name)
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c.c == '%' && i+1 < len(raw) && raw[i+1].c == '%':
			// %%i, %%~nxi: a for variable; %% alone a percent sign.
			if n, name := forVar(raw[i+2:]); n > 0 {
				ref(name, c.off)
				i += 1 + n
				continue
			}
			out = append(out, c)
			i++
		case c.c == '%' && i+1 < len(raw) && (raw[i+1].c == '~' || raw[i+1].c == '*' || '0' <= raw[i+1].c && raw[i+1].c <= '9'):
			n, arg := argRef(raw[i+1:])
			if n == 0 {
				out = append(out, c)
				continue
			}
			v := value{t: tUnknown | tParam} // what the script was given
			if arg == '0' {
				v = shippedValue("0") // the script itself, or its folder
			}
			put(v, "%"+string(arg), c.off)
			i += n
		case c.c == '%':
			j := i + 1
			for j < len(raw) && raw[j].c != '%' && j-i <= 256 {
				j++
			}
			if j >= len(raw) || raw[j].c != '%' || j == i+1 {
				out = append(out, c)
				continue
			}
			name, op := varName(raw[i+1 : j])
			put(b.modify(b.lookup(name), op), name, c.off)
			i = j
		case c.c == '!' && b.delayedName(raw[i+1:]) > 0:
			n := b.delayedName(raw[i+1:])
			name, _ := varName(raw[i+1 : i+1+n])
			ref("!"+name, c.off)
			i += n + 1
		default:
			out = append(out, c)
		}
	}
	return out
}

// forVar reads a for variable after %%: modifiers (~dpnx) and a letter.
// It returns the characters read and the variable's name ("%%i").
func forVar(l []bchar) (int, string) {
	n := 0
	if n < len(l) && l[n].c == '~' {
		n++
		for n < len(l) && strings.IndexByte("fdpnxsatz$", l[n].c|0x20) >= 0 && n+1 < len(l) && isLetter(l[n+1].c) {
			n++
		}
	}
	if n < len(l) && isLetter(l[n].c) {
		return n + 1, "%%" + string(l[n].c)
	}
	return 0, ""
}

// argRef reads an argument after %: *, a digit, or ~modifiers and a
// digit. It returns the characters read and the argument ('*' or a digit).
func argRef(l []bchar) (int, byte) {
	if l[0].c == '*' || '0' <= l[0].c && l[0].c <= '9' {
		return 1, l[0].c
	}
	n := 1
	for n < len(l) && strings.IndexByte("fdpnxsatz", l[n].c|0x20) >= 0 {
		n++
	}
	if n < len(l) && '0' <= l[n].c && l[n].c <= '9' {
		return n + 1, l[n].c
	}
	return 0, 0
}

// delayedName returns the length of a !NAME! reference's name, when NAME is
// a variable the file set (so that a lone ! in text stays text), or 0.
func (b *batchState) delayedName(l []bchar) int {
	for j := 0; j < len(l) && j <= 256; j++ {
		if l[j].c == '!' {
			if j == 0 {
				return 0
			}
			name, _ := varName(l[:j])
			if _, ok := b.vars[name]; ok {
				return j
			}
			return 0
		}
		if l[j].c == ' ' || l[j].c == '%' {
			return 0
		}
	}
	return 0
}

// varName splits a reference's inside (NAME, NAME:~1,3, NAME:a=b) into the
// name, upper case, and its modifier.
func varName(l []bchar) (string, string) {
	var sb strings.Builder
	for _, c := range l {
		sb.WriteByte(c.c)
	}
	s := sb.String()
	name, op, _ := strings.Cut(s, ":")
	return strings.ToUpper(name), op
}
