package program

import "strings"

// This file reads an expanded batch line (batch.go) as cmd.exe does: its
// commands, split at & && || | and a block's parentheses outside quotes,
// with ^ escaping the next character; each command's redirections; if's
// condition and for's header, which come before the command they run; and
// walks each command (exec) with its input and the files it writes, its
// words read by batchwords.go and what it does known to batchcmds.go.

// run walks the commands of an expanded line, with stdin as the first one's
// input, and returns what the last prints.
func (b *batchState) run(l []bchar, stdin value) value {
	b.nest++
	defer func() { b.nest-- }()
	if b.nest > maxBatchDepth {
		return value{}
	}
	var out value
	for pos := 0; pos < len(l); {
		c, op, next := b.next(l, pos)
		if next <= pos {
			next = pos + 1
		}
		pos = next
		if c == nil {
			continue
		}
		out = b.exec(c, stdin)
		stdin = value{}
		switch {
		case op == "|":
			stdin = out
		case b.nest == 1:
			b.sh.s.escape(out) // what the script prints is the output: an agent's transcript
		}
	}
	return out
}

// next reads the command that starts at pos: it reads if's condition,
// for's header and else before it, and returns the command (nil for none),
// the operator that ends it and where the next one starts.
func (b *batchState) next(l []bchar, pos int) (*bcmd, string, int) {
	for {
		for pos < len(l) && (isSpace(l[pos]) || l[pos].c == '@' && l[pos].kind == bFile) {
			pos++
		}
		if pos >= len(l) {
			return nil, "", pos
		}
		switch {
		case isOp(l[pos], "("):
			b.depth++
			pos++
			continue
		case isOp(l[pos], ")") && b.depth > 0:
			b.depth--
			return nil, ")", pos + 1
		case isOp(l[pos], "&|"):
			return nil, "", opEnd(l, pos)
		}
		w, end := word(l, pos)
		switch strings.ToLower(w) {
		case "if":
			pos = b.condition(l, end)
			continue
		case "else":
			pos = end
			continue
		case "for":
			next, ok := b.forHeader(l, end)
			if ok {
				pos = next
				continue
			}
		}
		return b.simple(l, pos)
	}
}

// opEnd returns where what follows the operator at pos starts.
func opEnd(l []bchar, pos int) int {
	if pos+1 < len(l) && isOp(l[pos+1], "&|") && l[pos+1].c == l[pos].c {
		return pos + 2
	}
	return pos + 1
}

// condition reads an if's condition from pos and returns where the command
// it guards starts; the variables it tests count as handled when empty.
func (b *batchState) condition(l []bchar, pos int) int {
	next := func() string {
		for pos < len(l) && isSpace(l[pos]) {
			pos++
		}
		start := pos
		w, end := word(l, pos)
		for k := start; k < end; k++ {
			if (l[k].kind == bVar || l[k].kind == bValue) && b.vals[l[k].v].name != "" {
				b.tested[b.vals[l[k].v].name] = true
			}
		}
		pos = end
		return w
	}
	w := next()
	for strings.EqualFold(w, "/i") || strings.EqualFold(w, "not") {
		w = next()
	}
	switch strings.ToLower(w) {
	case "exist", "errorlevel", "cmdextversion":
		next()
		return pos
	case "defined":
		b.tested[strings.ToUpper(next())] = true
		return pos
	}
	if i := strings.Index(w, "=="); i >= 0 {
		if i+2 == len(w) {
			next() // "A"== "B"
		}
		return pos
	}
	switch op := strings.ToLower(next()); {
	case op == "==" || op == "equ" || op == "neq" || op == "lss" || op == "leq" || op == "gtr" || op == "geq":
		next()
	}
	return pos
}

// forHeader reads a for's header from pos (its options, its variable, the
// set in parentheses and do), gives the variable what it takes from the
// set, and returns where the command it runs starts.
func (b *batchState) forHeader(l []bchar, pos int) (int, bool) {
	skip := func() {
		for pos < len(l) && isSpace(l[pos]) {
			pos++
		}
	}
	lines := false // for /f: the set is a command, a string or files
	var name string
	for {
		skip()
		if pos >= len(l) {
			return pos, false
		}
		if l[pos].kind == bRef {
			name = b.refs[l[pos].v]
			pos++
			break
		}
		w, end := word(l, pos)
		if end == pos {
			return pos, false
		}
		pos = end
		if strings.EqualFold(w, "/f") {
			lines = true
		}
		if len(w) > 1 && w[0] == '%' { // %i typed at a prompt, in a fenced block
			name = "%%" + w[1:2]
			break
		}
	}
	skip()
	if w, end := word(l, pos); strings.EqualFold(w, "in") {
		pos = end
	}
	skip()
	if pos >= len(l) || !isOp(l[pos], "(") {
		return pos, false
	}
	start, depth, in := pos+1, 0, false
	for pos++; pos < len(l); pos++ {
		c := l[pos]
		if c.c == '"' && c.kind != bValue && c.kind != bRef {
			in = !in
		}
		if in || c.kind != bFile {
			continue
		}
		if c.c == '(' {
			depth++
		}
		if c.c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	set := l[start:min(pos, len(l))]
	pos++
	b.vars[name] = b.forSet(set, lines)
	skip()
	if w, end := word(l, pos); strings.EqualFold(w, "do") {
		pos = end
	}
	return pos, true
}

// forSet returns what a for's variable takes from its set: a command's
// output ('cmd'), a string, a file's lines, or each item in turn (the one
// that matters most to a sink).
func (b *batchState) forSet(set []bchar, lines bool) value {
	t := 0
	for t < len(set) && isSpace(set[t]) {
		t++
	}
	set = set[t:]
	if lines && len(set) > 0 && set[0].kind == bFile && (set[0].c == '\'' || set[0].c == '`') {
		end := len(set)
		for k := len(set) - 1; k > 0; k-- {
			if set[k].kind == bFile && set[k].c == set[0].c {
				end = k
				break
			}
		}
		inner := make([]bchar, 0, end)
		for _, c := range set[1:end] {
			if c.kind == bFile && c.c == '^' {
				continue // ^| inside the quotes
			}
			inner = append(inner, c)
		}
		out := b.run(inner, value{})
		return value{t: (out.t | tCmd) &^ tBuilt, id: out.id}
	}
	items := b.words(set)
	if lines {
		if len(set) > 0 && set[0].c == '"' {
			return joinArgs(items)
		}
		var t taint
		for _, it := range items {
			t |= b.sh.fileContent(it).t
		}
		return value{t: t | tUnknown}
	}
	if e, ok := weightiest(items); ok {
		return e
	}
	v := joinArgs(items)
	return value{t: v.t | tUnknown}
}

// simple reads a simple command at pos up to the operator that ends it,
// taking its redirections out.
func (b *batchState) simple(l []bchar, pos int) (*bcmd, string, int) {
	c := &bcmd{at: int(l[pos].off), text: make([]bchar, 0, min(len(l)-pos, 128))}
	in := false
	for pos < len(l) {
		ch := l[pos]
		if ch.c == '"' && ch.kind != bValue && ch.kind != bRef {
			in = !in
		}
		if !in && ch.kind == bFile {
			switch ch.c {
			case '&', '|':
				op := "&"
				if ch.c == '|' && !(pos+1 < len(l) && l[pos+1].c == '|' && l[pos+1].kind == bFile) {
					op = "|"
				}
				return c, op, opEnd(l, pos)
			case ')':
				if b.depth > 0 {
					return c, "", pos // the block's end is read next
				}
			case '<', '>':
				fd := byte('1')
				if n := len(c.text); n > 0 && c.text[n-1].kind == bFile && '0' <= c.text[n-1].c && c.text[n-1].c <= '9' &&
					(n == 1 || isSpace(c.text[n-2])) {
					fd = c.text[n-1].c
					c.text = c.text[:n-1]
				}
				op := ch.c
				pos++
				if op == '>' && pos < len(l) && l[pos].c == '>' {
					pos++
				}
				if pos < len(l) && l[pos].c == '&' { // 2>&1
					pos += 2
					continue
				}
				for pos < len(l) && isSpace(l[pos]) {
					pos++
				}
				start := pos
				_, end := word(l, pos)
				target := l[start:end]
				pos = end
				switch {
				case op == '<':
					c.in = target
				case fd == '1':
					c.outs = append(c.outs, target)
				}
				continue
			}
		}
		if ch.kind == bFile && ch.c == '^' && !in && pos+1 < len(l) {
			pos++
			e := l[pos]
			if e.kind == bFile {
				e.kind = bEsc
			}
			c.text = append(c.text, e)
			pos++
			continue
		}
		c.text = append(c.text, ch)
		pos++
	}
	return c, "", pos
}

// exec walks one command with its input and returns what it prints.
func (b *batchState) exec(c *bcmd, stdin value) value {
	if c.in != nil {
		if t := b.target(c.in); t != (value{}) {
			stdin = b.sh.readSecret(t, c.at)
			if f, ok := b.written(t); ok {
				stdin = f.body()
			}
		}
	}
	out := b.command(c.text, stdin, c.at)
	if len(c.outs) == 0 {
		return out
	}
	for _, t := range c.outs {
		if tv := b.target(t); tv != (value{}) && !strings.EqualFold(tv.s, "nul") {
			b.sh.wrote(tv, out, c.at)
		}
	}
	return value{}
}

// target returns the file a redirection names.
func (b *batchState) target(l []bchar) value {
	as := b.split(l, false)
	if len(as) == 0 {
		return value{}
	}
	return as[0].v
}
