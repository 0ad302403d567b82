package program

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// This file is the flow analysis's expressions (for flow.go's statements):
// operators, then operands: literals, names, templates, attribute access,
// calls and indexing; and PowerShell's command statements, whose arguments
// are expressions.

// maxExprDepth bounds the nesting the expression parser follows.
const maxExprDepth = 64

// expr evaluates an expression: operands joined by operators. "+" joins
// strings; "/" joins paths (pathlib); "%" and "-f" format; everything else
// keeps its operands' taint.
func (f *flowState) expr() ev {
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxExprDepth {
		f.s.opaque(f.at(0), fmt.Sprintf("not analysed: an expression nested deeper than %d", maxExprDepth))
		f.skipLine()
		return ev{v: unknown()}
	}
	left := f.unary()
	for f.pos < len(f.toks) {
		t := f.peek(0)
		if t.kind != tokPunct && !(t.kind == tokWord && (t.s == "and" || t.s == "or" || t.s == "if" && f.lang == langPython || t.s == "-f" || t.s == "-join" || t.s == "-replace" || t.s == "eq" || t.s == "x" ||
			(t.s == "in" || t.s == "is" || t.s == "not" && f.is(1, "in")) && f.lang == langPython || t.s == "instanceof" && f.lang == langJS)) {
			break
		}
		op := t.s
		switch op {
		case "+", ".", "/", "%", "-f", "-join", "-replace", "||", "&&", "or", "and", "*", "-", "==", "!=", "<", ">", "?", ":", "??", "if", "else", "eq", "x", "|":
		case "in", "is", "not", "instanceof":
			if f.lang == langPerl && op == "not" {
				return left
			}
		default:
			return left
		}
		if op == ":" && f.lang == langPython || op == "." && f.lang != langPerl {
			return left
		}
		f.pos++
		for (op == "==" || op == "!=" || op == "<" || op == ">" || op == "is" || op == "not") && (f.is(0, "=") || f.is(0, "not") || f.is(0, "in")) {
			f.pos++ // ===, <=, is not, not in
		}
		if endOfStatement(f.peek(0)) {
			return left
		}
		if op == "if" && f.lang == langPython {
			return f.conditional(left)
		}
		right := f.unary()
		switch op {
		case "==", "!=", "<", ">", "in", "is", "not", "instanceof", "eq":
			// a comparison, a membership test: a yes or no, never the secret compared
			left = ev{v: structure(value{t: (left.v.t | right.v.t) &^ tHome})}
			if left.v.t&tSecret == 0 {
				left.v.shape = shapeScalar
			}
			continue
		case "+", ".":
			if left.v.known && right.v.known || left.v != (value{}) || right.v != (value{}) {
				left = ev{v: cat(left.v, right.v)}
			}
		case "/":
			if left.v.t&tHome != 0 || left.name == "pathlib.Path" || strings.HasSuffix(left.name, "Path") || left.v.path != pathNone || left.v.known && (strings.HasPrefix(left.v.s, homeMark) || strings.HasPrefix(left.v.s, "/")) {
				left = ev{v: joinPath(left.v, right.v)}
			} else {
				left = ev{v: value{t: left.v.t | right.v.t}}
			}
		case "-join":
			left = joinList(left, right.v)
		case "||", "&&", "or", "and", "??", "?", ":", "if", "else":
			if left.v == (value{}) {
				left = right
			} else if (op == "||" || op == "or" || op == "??") && !left.v.known && left.v.s == "" && left.v.t&^(tUnknown|tEnv|tParam) == 0 && classifyPath(right.v) != pathNone {
				// an override the analysis cannot see, or else a path it
				// knows (os.environ.get(X) or ~/.aws/credentials): the path
				t := left.v.t
				left = right
				left.v.t |= t
			} else {
				left.v.t |= right.v.t
			}
		case "-":
			left = ev{v: number(left.v, right.v)} // a difference is a number, whatever it was computed from
		case "*":
			if f.lang == langJS {
				left = ev{v: number(left.v, right.v)} // JavaScript's product is a number (Python's repeats a string)
				break
			}
			left = ev{v: value{t: (left.v.t | right.v.t) &^ tHome}}
		default:
			left = ev{v: value{t: (left.v.t | right.v.t) &^ tHome}}
		}
	}
	return left
}

// maxCondTokens bounds how far conditional looks for a test's else, so a
// line of filters with none ([x for x in y if a if b …]) stays linear.
const maxCondTokens = 512

// conditional evaluates the rest of Python's a if cond else b after the
// if, a being then: the test, read for what it does, up to its else, and
// the value, one of a and b. A choice between values that hold no text
// (literals, numbers) holds none either.
func (f *flowState) conditional(then ev) ev {
	depth, k := 0, f.pos
	for end := min(len(f.toks), f.pos+maxCondTokens); k < end && f.toks[k].kind != tokEOL; k++ {
		t := f.toks[k]
		if t.kind == tokPunct && (t.s == "(" || t.s == "[" || t.s == "{") {
			depth++
		} else if t.kind == tokPunct && (t.s == ")" || t.s == "]" || t.s == "}") {
			if depth == 0 {
				break
			}
			depth--
		} else if depth == 0 && t.kind == tokWord && t.s == "else" {
			break
		}
	}
	toks := f.toks
	f.toks = toks[:k]
	f.expr() // the test
	f.toks, f.pos = toks, k
	if !f.is(0, "else") {
		return then // a comprehension's filter: [x for x in xs if t]
	}
	f.pos++
	other := f.expr()
	a, b := f.valueOf(then), f.valueOf(other)
	v := taintOf(^taint(0), a, b)
	if a.known && b.known && a.s == b.s {
		v.s, v.known = a.s, true
	} else if scalar(a) && scalar(b) && v.t&tSecret == 0 {
		v.shape = shapeScalar
	}
	return ev{v: v}
}

// unary evaluates an operand with its prefix operators.
func (f *flowState) unary() ev {
	for f.is(0, "not") || f.is(0, "!") || f.is(0, "-") || f.is(0, "await") || f.is(0, "typeof") || f.is(0, "*") || f.is(0, "**") || f.is(0, "\\") || f.is(0, "&") && f.lang != langPS || f.is(0, "lambda") {
		if f.is(0, "lambda") {
			for f.pos < len(f.toks) && !f.is(0, ":") && !endOfStatement(f.peek(0)) {
				f.pos++
			}
		}
		f.pos++
	}
	if f.is(0, "new") {
		f.pos++
		e := f.postfix()
		return e
	}
	if f.lang == langPS && f.is(0, "&") {
		f.pos++
		at := f.at(0)
		pattern, wild := f.psWildcardLookup()
		target := f.postfix()
		if tv := f.valueOf(target); !wild && tv.known && strings.HasPrefix(tv.s, wildPrefix) {
			pattern, wild = tv.s[len(wildPrefix):], true // & $c, where $c = Get-Command i*-ex*
		}
		if wild {
			f.psWildcardCall(pattern, at)
			return ev{v: value{t: tCmd}}
		}
		f.psInvoke(target, at)
		return ev{v: value{t: tCmd}}
	}
	return f.postfix()
}

// maxPostfix bounds the attribute accesses, calls and indexes chained on
// one operand.
const maxPostfix = 256

// postfix evaluates an operand with what follows it: .attr, (args), [i].
func (f *flowState) postfix() ev {
	start := f.pos
	e := f.primary()
	for range maxPostfix {
		switch {
		case (f.is(0, ".") || f.is(0, "?.") || f.is(0, "->") || f.is(0, "::")) && f.peek(1).kind == tokWord && !(f.is(0, ".") && f.lang == langPerl):
			name := f.peek(1).s
			f.pos += 2
			e = f.attr(e, name)
			if f.lang == langRuby && e.recv != nil && !f.is(0, "(") && !f.is(0, "=") {
				// Ruby calls a method without parentheses: words.join.
				e = f.call(e, nil, nil, f.base+f.toks[min(start, len(f.toks)-1)].off)
			}
		case f.is(0, "->") && f.is(1, "(") && f.lang == langPerl:
			f.pos++ // $code->(…) calls what $code refers to
		case f.is(0, "("):
			at := f.base + f.toks[min(start, len(f.toks)-1)].off
			prev := f.elem
			f.elem = nil
			if e.recv != nil {
				if rv := f.valueOf(*e.recv); rv.t&tSecret != 0 {
					f.elem = &iterSecret(rv, false, 1)[0]
				}
			}
			args, kw := f.args(")")
			f.elem = prev
			e = f.call(e, args, kw, at)
		case f.is(0, "["):
			e = f.index(e)
		case f.is(0, "{") && f.lang == langPerl && strings.HasPrefix(e.name, "$"):
			f.pos++
			k := f.expr()
			if f.is(0, "}") {
				f.pos++
			}
			e = f.attr(e, k.v.s)
		case (f.peek(0).kind == tokString || f.peek(0).kind == tokTmpl) && e.v.known && f.peek(-1).kind == tokString && f.lang == langPython:
			e = ev{v: cat(e.v, f.primary().v)} // "a" "b"
		case f.lang == langPerl && e.name != "" && e.v == (value{}) && (f.peek(0).kind == tokString || f.peek(0).kind == tokTmpl || f.peek(0).kind == tokWord && strings.HasPrefix(f.peek(0).s, "$")) && perlListOps.Get()[e.name]:
			// Perl and Ruby call without parentheses: system "…", eval $x.
			at := f.base + f.toks[min(start, len(f.toks)-1)].off
			var args []ev
			for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) {
				args = append(args, f.expr())
				if !f.is(0, ",") {
					break
				}
				f.pos++
			}
			e = f.call(e, args, nil, at)
		case f.lang == langRuby && e.name != "" && e.v == (value{}) && (f.peek(0).kind == tokString || f.peek(0).kind == tokTmpl) && perlListOps.Get()[e.name]:
			at := f.base + f.toks[min(start, len(f.toks)-1)].off
			args := []ev{f.expr()}
			e = f.call(e, args, nil, at)
		default:
			return e
		}
	}
	if f.isPostfix() {
		// The rest of the chain is not followed: reported, never skipped.
		f.s.opaque(f.at(0), fmt.Sprintf("not analysed: more than %d calls, attributes or indexes chained on one operand", maxPostfix))
	}
	return e
}

// elements reads the comma-separated expressions after an opening
// bracket up to closer, and the closer: their values, and the last one as
// the expression it is (a parenthesised expression is that one alone).
func (f *flowState) elements(closer string) ([]value, [][]value, ev) {
	f.pos++
	var elems []value
	var rows [][]value
	var last ev
	for f.pos < len(f.toks) && !f.is(0, closer) {
		start := f.pos
		if c, ok := f.comprehension(closer); ok {
			last = c
		} else {
			last = f.expr()
		}
		elems = append(elems, f.valueOf(last))
		if len(last.elems) > 0 && len(rows) < maxRows {
			rows = append(rows, last.elems)
		}
		f.nextElem(start, closer, f.skipTo)
	}
	f.pos++
	return elems, rows, last
}

// maxRows bounds the rows a literal keeps.
const maxRows = 64

// primary evaluates a literal, a name or a bracketed expression.
func (f *flowState) primary() ev {
	t := f.peek(0)
	switch t.kind {
	case tokString:
		f.pos++
		return ev{v: lit(t.s)}
	case tokTmpl:
		f.pos++
		f.gradeImage(t.s, f.base+t.off)
		return ev{v: f.template(t.s)}
	case tokExec:
		f.pos++
		v := f.template(t.s)
		f.execSink(v, langShell, f.base+t.off, false)
		return ev{v: value{t: tCmd}}
	case tokWord:
		f.pos++
		if c := t.s[0]; '0' <= c && c <= '9' {
			return ev{v: lit(t.s)}
		}
		if f.lang == langPS && isCmdlet(t.s) && t.s != "New-Object" {
			f.pos--
			return ev{v: f.psCommand()}
		}
		if f.lang == langPS && strings.EqualFold(t.s, "$env") && f.is(0, ":") && f.peek(1).kind == tokWord {
			name := f.peek(1).s
			f.pos += 2
			return ev{v: f.envVar(name)}
		}
		if f.lang == langPerl && t.s == "scalar" && !f.is(0, "(") && !endOfStatement(f.peek(0)) {
			return f.postfix() // scalar reverse '…': the context, not a call
		}
		if v, ok := f.vars[t.s]; ok {
			v.from = t.s
			return v
		}
		return f.global(t.s)
	case tokPunct:
		switch t.s {
		case "(":
			elems, rows, last := f.elements(")")
			if len(elems) > 1 {
				l := listOf(elems)
				l.rows = rows
				return l
			}
			return last
		case "[":
			if f.lang == langPS && f.peek(1).kind == tokWord && (f.is(2, "]") || f.is(2, ".")) {
				return f.psType()
			}
			elems, rows, _ := f.elements("]")
			l := listOf(elems)
			l.rows = rows
			return l
		case "{":
			if f.is(1, "}") {
				f.pos += 2
				return ev{emptyMap: true}
			}
			f.pos++
			var out value
			var rows [][]value
			for f.pos < len(f.toks) && !f.is(0, "}") {
				start := f.pos
				e := f.expr()
				if len(e.elems) > 0 && len(rows) < maxRows {
					rows = append(rows, e.elems) // a value that is a tuple: what .items() and .values() unpack
				}
				v := f.valueOf(e)
				out = withSecret(out, v)
				if f.pos == start {
					f.pos++
				}
			}
			f.pos++
			return ev{v: value{t: out.t, store: out.store}, rows: rows}
		case "\\":
			if f.lang == langPerl && f.is(1, "&") && f.peek(2).kind == tokWord {
				f.pos += 2
				return f.postfix() // \&CORE::system: a reference to the function, called as it
			}
		case "@":
			if f.lang == langPS && (f.is(1, "(") || f.is(1, "{")) {
				f.pos++
				return f.primary()
			}
		}
	}
	return ev{}
}

// attr evaluates e.name: a qualified name for a module or a function, a
// method of a value otherwise.
func (f *flowState) attr(e ev, name string) ev {
	for _, base := range []string{e.from, e.name} {
		if v, ok := f.vars[base+"."+name]; ok && base != "" {
			v.from = base + "." + name // an attribute the text set (self.cfg = …)
			return v
		}
	}
	if e.name != "" && e.v == (value{}) && e.file == nil && len(e.elems) == 0 {
		q := e.name + "." + name
		switch q {
		case "process.env":
			return ev{name: q}
		case "os.environ":
			return ev{name: q}
		}
		if strings.HasPrefix(e.name, "process.env") || e.name == "$ENV" || e.name == "ENV" {
			return ev{v: f.envVar(name)}
		}
		return ev{name: q}
	}
	// A method or an attribute of a value: the call decides; an attribute
	// keeps the value's taint, and of a secret's tree is that field.
	r := e
	if v := f.valueOf(e); v.t&tSecret != 0 {
		return ev{v: field(v, lit(name)), name: "." + name, recv: &r}
	}
	return ev{v: value{t: e.v.t &^ tHome, s: e.v.s, known: false}, name: "." + name, recv: &r}
}

// index evaluates e[…]: [::-1] reverses; os.environ['HOME'] reads a
// variable; anything else keeps the taint.
func (f *flowState) index(e ev) ev {
	f.pos++
	var k ev
	reversed := false
	if f.is(0, ":") && f.is(1, ":") && f.is(2, "-") && f.is(3, "1") {
		reversed = true
		f.pos += 4
	} else if !f.is(0, "]") {
		k = f.expr()
	}
	f.skipTo("]")
	if f.is(0, "]") {
		f.pos++
	}
	switch {
	case reversed && e.v.known:
		v := lit(encoded.Reverse(e.v.s))
		v.t = e.v.t | tDecoded | tBuilt
		return ev{v: v}
	case reversed:
		return ev{v: value{t: e.v.t | tDecoded}}
	case e.name == "os.environ" || e.name == "process.env" || e.name == "ENV" || e.name == "$ENV" || e.name == "$_ENV" || e.name == "$_SERVER":
		return ev{v: f.envVar(k.v.s)}
	case e.name == "globals" || e.name == "locals" || e.name == "__builtins__" || e.name == "window" || e.name == "globalThis":
		if k.v.t&(tBuilt|tDecoded) != 0 && !f.is(0, "=") { // globals()[dag_id] = dag sets a name, reaching none
			sev := SeverityWarning
			if k.v.s != "" && k.v.t&tDecoded == 0 && !prefixOfRisky(k.v.s) {
				sev = SeverityNote // globals()[f"load_{fmt}"]: a start no risky name has, as getattr's
			}
			f.s.emit("dynamic-exec", f.at(0), sev, "reaches a function by a name built at run time: "+k.v.s)
		}
		if k.v.known {
			return ev{name: k.v.s}
		}
		return ev{v: unknown()}
	case e.recv == nil && e.name != "" && e.v == (value{}) && k.v.known && (k.v.t&(tBuilt|tDecoded) != 0) && !digits(k.v.s):
		f.s.emit("dynamic-exec", f.at(0), SeverityWarning, "reaches a function by a name built at run time: "+k.v.s)
		return ev{name: e.name + "." + k.v.s}
	}
	if n, err := strconv.Atoi(k.v.s); err == nil && k.v.known && n >= 0 && n < len(e.elems) {
		return ev{v: e.elems[n]}
	}
	if v := f.valueOf(e); v.t&tSecret != 0 {
		return ev{v: field(v, f.valueOf(k))} // a field of a secret's tree, or an element
	}
	return ev{v: value{t: e.v.t&^tHome | tUnknown}} // an item the analysis does not know: never nothing
}

// args reads a call's arguments up to closer: positional, and keyword
// (name=value, name: value).
func (f *flowState) args(closer string) ([]ev, map[string]ev) {
	f.pos++
	var args []ev
	var kw map[string]ev
	for f.pos < len(f.toks) && !f.is(0, closer) {
		start := f.pos
		for f.pos < len(f.toks) && f.peek(0).kind == tokEOL {
			f.pos++
		}
		if f.peek(0).kind == tokWord && (f.is(1, "=") || f.is(1, ":") && f.lang == langRuby || f.is(1, "=>") && f.lang != langJS) {
			name := f.peek(0).s
			f.pos += 2
			if kw == nil {
				kw = map[string]ev{}
			}
			kw[name] = f.expr()
		} else if c, ok := f.comprehension(closer); ok {
			args = append(args, c)
		} else if c, ok := f.callback(closer); ok {
			args = append(args, c)
		} else if n := f.spread(); n > 0 {
			// *parts (Python, Ruby), ...parts (JavaScript, PHP): the list's
			// elements, each an argument of its own
			// (Path.home().joinpath(*(".aws", "credentials")),
			// path.join(os.homedir(), ...segments)).
			f.pos += n
			l := f.expr()
			if len(l.elems) == 0 {
				args = append(args, l)
			}
			for _, v := range l.elems {
				args = append(args, ev{v: v})
			}
		} else {
			args = append(args, f.expr())
		}
		for f.pos < len(f.toks) && f.peek(0).kind == tokEOL {
			f.pos++
		}
		f.nextElem(start, closer, f.skipArg)
	}
	f.pos++
	return args, kw
}

// spread returns the length in tokens of the spread operator an argument
// starts with, or 0: * in Python and Ruby (not **), ... in JavaScript and
// PHP.
func (f *flowState) spread() int {
	switch f.lang {
	case langPython, langRuby:
		if f.is(0, "*") && !f.is(1, "*") {
			return 1
		}
	case langJS, langPerl:
		if f.is(0, ".") && f.is(1, ".") && f.is(2, ".") {
			return 3
		}
	}
	return 0
}

// What follows is what the flow analysis (flowcalls.go) knows of PowerShell's
// command statements: a cmdlet, its parameters and arguments, and what
// invoking an expression runs.

// psArg reads an argument of a PowerShell command: a bare word is a string
// in a command's arguments (-Name DisableAntiSpyware, -Path build), any
// other expression its value.
func (f *flowState) psArg() value {
	if t := f.peek(0); t.kind == tokWord && !strings.HasPrefix(t.s, "$") && !strings.HasPrefix(t.s, "-") && !f.is(1, "(") && !f.is(1, ".") && !f.is(1, "[") {
		f.pos++
		return lit(t.s)
	}
	return f.valueOf(f.unary())
}

// psCommand reads a PowerShell command statement: a cmdlet, its
// parameters and arguments.
func (f *flowState) psCommand() value {
	at := f.at(0)
	name := f.peek(0).s
	f.pos++
	var pos []value
	params := map[string]value{}
	from := f.pos
	for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) && !f.is(0, "|") && !f.is(0, ")") {
		t := f.peek(0)
		if t.kind == tokWord && strings.HasPrefix(t.s, "-") && len(t.s) > 1 {
			p := strings.ToLower(t.s[1:])
			f.pos++
			if psSwitches.Get()[p] || endOfStatement(f.peek(0)) || f.peek(0).kind == tokWord && strings.HasPrefix(f.peek(0).s, "-") && len(f.peek(0).s) > 1 || f.is(0, "|") {
				params[p] = lit("true")
				continue
			}
			params[p] = f.psArg()
			continue
		}
		start := f.pos
		pos = append(pos, f.psArg())
		if f.pos == start {
			f.pos++
		}
	}
	first := func(keys ...string) value {
		for _, k := range keys {
			if v, ok := params[k]; ok {
				return v
			}
		}
		if len(pos) > 0 {
			return pos[0]
		}
		return value{}
	}
	var out value
	switch strings.ToLower(name) {
	case "invoke-expression", "iex":
		f.execSink(first("command"), langPS, at, false)
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget", "start-bitstransfer":
		for _, v := range params {
			f.sendCheck(v, at)
		}
		if b, ok := params["infile"]; ok {
			f.sendCheck(f.readPath(b, at), at)
		}
		if o, ok := params["outfile"]; ok {
			f.wrote(o, value{t: tFetched}, at)
			f.vars["\x00file:"+o.s] = ev{v: value{t: tFetched}}
		} else if d, ok := params["destination"]; ok {
			f.vars["\x00file:"+d.s] = ev{v: value{t: tFetched}}
		} else {
			out = value{t: tFetched | tCmd, installer: f.psInstaller(name, f.toks[from:min(f.pos, len(f.toks))])}
		}
	case "start-process", "saps", "start":
		p := first("filepath")
		if fl, ok := f.vars["\x00file:"+p.s]; ok && p.s != "" && fl.v.t&tFetched != 0 {
			f.s.emit("download-exec", at, SeverityWarning, "")
		}
	case "set-content", "add-content", "out-file", "sc", "ni", "new-item":
		p := first("path", "filepath", "literalpath")
		content, ok := params["value"]
		if l := strings.ToLower(name); !ok && (l == "ni" || l == "new-item") {
			content = lit("") // an empty file, or a folder
		}
		f.wrote(p, content, at)
		if p.s != "" {
			f.vars["\x00file:"+p.s] = ev{v: content} // what a task or a process run from it later runs
		}
	case "new-scheduledtaskaction":
		out = cat(lit(taskMark), params["execute"], lit(" "), params["argument"])
	case "set-itemproperty", "new-itemproperty", "sp":
		entry, val := params["name"], params["value"]
		if _, ok := params["name"]; !ok && len(pos) > 1 {
			entry = pos[1]
		}
		if _, ok := params["value"]; !ok && len(pos) > 2 {
			val = pos[2]
		}
		key := first("path", "literalpath")
		if securityOff(key.s, entry.s, val.s) {
			f.s.emit("security-off", at, SeverityWarning, name+" "+entry.s+": switches a protection off")
		}
		if autorunKey(key.s, entry.s) {
			f.gradeRunKey(strings.ToLower(name), key.s, val, at)
		}
	case "register-scheduledtask":
		switch a := params["action"]; {
		case f.plainTask(a):
			f.s.graded = append(f.s.graded, Finding{Rule: "autorun-config", Off: at})
			f.s.emit("autorun-config", at, SeverityNote, "")
		case f.s.agreed(a) && !encodedTask(a.s):
			f.s.graded = append(f.s.graded, Finding{Rule: "autorun-config", Off: at})
			f.s.emit("autorun-config", at, SeverityNote, "registered after the user answered yes at the terminal")
		}
	case "remove-item", "rm", "del":
		if _, ok := params["recurse"]; ok {
			f.removeCheck(first("path", "literalpath"), at)
		}
	case "get-content", "gc", "cat":
		out = f.readPath(first("path", "literalpath"), at)
	case "copy-item", "cp", "copy":
		src := first("path", "literalpath")
		dst := params["destination"]
		if len(pos) > 1 {
			dst = pos[1]
		}
		content := f.readPath(src, at)
		f.wrote(dst, content, at)
		if dst.s != "" {
			f.vars["\x00file:"+dst.s] = ev{v: content} // what a task run from the copy later runs
		}
	case "join-path":
		out = joinPath(first("path"), params["childpath"])
		if len(pos) > 1 {
			out = joinPath(pos[0], pos[1])
		}
		for _, more := range pos[min(2, len(pos)):] {
			out = joinPath(out, more) // PowerShell 7's Join-Path a b c: the rest are -AdditionalChildPath
		}
		if v, ok := params["additionalchildpath"]; ok {
			out = joinPath(out, v)
		}
	default:
		// A secret given to a command the analysis does not follow
		// (Write-Output, a module's cmdlet) reaches what it does.
		f.s.escapeAll(pos...)
		for _, v := range params {
			f.s.escape(v)
		}
	}
	if f.is(0, "|") {
		f.pos++
		if f.peek(0).kind == tokWord && (strings.EqualFold(f.peek(0).s, "iex") || strings.EqualFold(f.peek(0).s, "invoke-expression")) {
			f.execSink(out, langPS, at, true)
		}
		if f.peek(0).kind == tokWord && (strings.EqualFold(f.peek(0).s, "convertfrom-json") || strings.EqualFold(f.peek(0).s, "convertfrom-yaml")) && out.t&tSecret != 0 {
			f.pos++
			out = parsedFrom(out, shapeMap) // the store's content parsed
		}
	}
	return out
}

// psInvoke reports & $x: running a command or script block by value.
func (f *flowState) psInvoke(target ev, at int) {
	v := f.valueOf(target)
	if fl, ok := f.vars["\x00file:"+v.s]; ok && v.s != "" && fl.v.t&tFetched != 0 {
		f.s.emit("download-exec", at, SeverityWarning, "")
		return
	}
	if v.t&(tFetched|tDecoded) != 0 {
		f.execSink(v, langPS, at, false)
	}
}

// psRunsCode are the commands that run the text they are given as code.
var psRunsCode = []string{"invoke-expression", "iex", "invoke-command", "icm"}

// psWildcardCall grades a call of a command found by a wildcard pattern:
// the script never spells the name it runs, which is a finding in itself,
// and when the pattern matches a command that runs text as code, the
// argument after it is that code.
func (f *flowState) psWildcardCall(pattern string, at int) {
	f.s.emit("dynamic-exec", at, SeverityWarning, "calls a command found by the wildcard pattern "+pattern)
	for _, c := range psRunsCode {
		if ok, _ := path.Match(pattern, c); ok && !endOfStatement(f.peek(0)) {
			f.execSink(f.valueOf(f.expr()), langPS, at, false)
			return
		}
	}
}

// comprehension evaluates a Python comprehension or generator at pos, up
// to closer ([c["name"] for c in cfg["contexts"] if c], {k: v for k, v in
// d.items()}): its loop names are bound first, then its element is
// evaluated with them, so what it collects is what its loop gives. False,
// moving nothing, when the element at pos is not one.
func (f *flowState) comprehension(closer string) (ev, bool) {
	if f.lang != langPython {
		return ev{}, false
	}
	at, depth := -1, 0
scan:
	for k := f.pos; k < len(f.toks); k++ {
		t := f.toks[k]
		switch {
		case t.kind == tokEOL:
			break scan
		case t.kind == tokPunct && (t.s == "(" || t.s == "[" || t.s == "{"):
			depth++
		case t.kind == tokPunct && (t.s == ")" || t.s == "]" || t.s == "}"):
			if depth == 0 {
				break scan
			}
			depth--
		case t.kind == tokPunct && t.s == "," && depth == 0:
			break scan
		case t.kind == tokWord && t.s == "for" && depth == 0 && k > f.pos:
			at = k
			break scan
		}
	}
	if at < 0 {
		return ev{}, false
	}
	start := f.pos
	f.pos = at
	for f.is(0, "for") {
		f.pos++
		var names []string
		for f.peek(0).kind == tokWord && f.peek(0).s != "in" || f.is(0, ",") || f.is(0, "(") || f.is(0, ")") {
			if f.peek(0).kind == tokWord {
				names = append(names, f.peek(0).s)
			}
			f.pos++
		}
		if !f.is(0, "in") {
			break
		}
		f.pos++
		f.bindLoop(names, f.expr(), false)
		for f.is(0, "if") {
			f.pos++
			f.expr()
		}
	}
	end := f.pos
	f.pos = start
	v := f.valueOf(f.expr())
	if f.is(0, ":") {
		f.pos++
		v = taintOf(^taint(0), v, f.valueOf(f.expr())) // a mapping's entry: its name and its value
	}
	f.pos = end
	if !f.is(0, closer) && !f.is(0, ",") {
		f.skipArg(closer)
	}
	return ev{v: v}, true
}

// callback evaluates a JavaScript function literal given as an argument
// (x => x.name, (a, b) => { … }, function (x) { … }): its parameters hold
// what the call's receiver gives it (f.elem, a secret's part) or what its
// caller passes, and its body is read as the text's own; its value is
// what an expression body gives. False, moving nothing, for anything else.
func (f *flowState) callback(closer string) (ev, bool) {
	if f.lang != langJS {
		return ev{}, false
	}
	save := f.pos
	if f.is(0, "async") {
		f.pos++
	}
	var names []string
	switch {
	case f.peek(0).kind == tokWord && f.is(1, "=>"):
		names = append(names, f.peek(0).s)
		f.pos += 2
	case f.is(0, "(") || f.is(0, "function"):
		fn := f.is(0, "function")
		if fn {
			f.pos++
			if f.peek(0).kind == tokWord {
				f.pos++
			}
		}
		if !f.is(0, "(") {
			f.pos = save
			return ev{}, false
		}
		for f.pos++; f.pos < len(f.toks) && !f.is(0, ")"); f.pos++ {
			if t := f.peek(0); t.kind == tokWord {
				names = append(names, t.s)
			} else if t.kind == tokEOL || t.kind == tokPunct && !strings.Contains(",[]{}=", t.s) {
				f.pos = save
				return ev{}, false
			}
		}
		f.pos++
		if !fn && !f.is(0, "=>") || fn && !f.is(0, "{") {
			f.pos = save
			return ev{}, false
		}
		if !fn {
			f.pos++
		}
	default:
		return ev{}, false
	}
	for i, n := range names {
		if f.elem != nil {
			f.vars[n] = ev{v: iterSecret(*f.elem, false, len(names))[i]}
		} else {
			f.vars[n] = ev{v: value{t: tParam}}
		}
	}
	if !f.is(0, "{") {
		return ev{v: f.valueOf(f.expr()), callback: true}, true
	}
	end, depth := -1, 0
	for k := f.pos; k < len(f.toks); k++ {
		if t := f.toks[k]; t.kind == tokPunct && (t.s == "{" || t.s == "}") {
			if t.s == "{" {
				depth++
			} else if depth--; depth == 0 {
				end = k
				break
			}
		}
	}
	if end < 0 {
		f.pos = save
		return ev{}, false
	}
	// The body's statements are read when the statement that holds the
	// call is (flow.go's runBodies), with its parameters bound now.
	f.bodies = append(f.bodies, bodyRun{span: [2]int{f.pos + 1, end}})
	f.pos = end + 1
	if f.elem != nil {
		return ev{v: *f.elem, callback: true}, true // what it returns is not followed: the part it is given, at most
	}
	return ev{callback: true}, true
}
