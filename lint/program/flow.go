package program

import (
	"fmt"
	"strings"
)

// This file is the flow analysis of Python, JavaScript, PowerShell, Ruby,
// Perl and PHP over the tokens of tokens.go: statement by statement, it
// keeps what each name may hold (value.go) and what each imported name
// stands for, folds the strings a program builds (concatenation, join,
// char codes, decoding of known text), and hands each call to flowcalls.go,
// which knows sources and sinks by the names of flownames.go. It evaluates
// expressions with a small precedence-free parser that accepts anything:
// what it does not understand is an unknown value, never an error.

// flowRegion analyses a region of Python, JavaScript, PowerShell, Ruby or
// Perl.
func (s *scan) flowRegion(r region) {
	if at, deep := tooNested(r.text); deep {
		s.opaque(r.off+at, fmt.Sprintf("not analysed: nested deeper than %d brackets", maxNesting))
		return
	}
	f := &flowState{s: s, base: r.off, lang: r.lang, vars: map[string]ev{}, region: r.text}
	// The region is read in chunks of whole statements (tokenChunk), so its
	// tokens take memory for one chunk at a time.
	for from := 0; from < len(r.text); {
		f.toks, from = tokenChunk(r.text, r.lang, from, f.toks[:0])
		f.pos = 0
		f.chunk++
		for f.pos < len(f.toks) {
			start := f.pos
			s.asked = f.toks[f.pos].off < f.askedUntil
			f.statement()
			if f.pos == start {
				f.pos++
			}
			f.runBodies()
		}
		s.asked = false
	}
}

// runBodies reads the block bodies of the callbacks the statement just
// read gave to calls (flowexpr.go's callback), their parameters bound, and
// the bodies of the local functions it gave a secret, the secret bound to
// their parameters: each as statements of the text, the bodies they meet
// in turn.
func (f *flowState) runBodies() {
	// Each callback's body is met once, where it is written, and each
	// function is read again at most maxReruns times: the bound is never
	// reached by a text, and is there so that no text can loop.
	limit := (maxReruns + 1) * (len(f.toks) + 1)
	for n := 0; len(f.bodies) > 0; n++ {
		b := f.bodies[0]
		f.bodies = f.bodies[1:]
		if n >= limit {
			f.s.opaque(f.base+f.toks[min(b.span[0], len(f.toks)-1)].off, fmt.Sprintf("not analysed: more than %d bodies read for one statement", limit))
			f.bodies = nil
			return
		}
		saved := map[string]ev{}
		for k, v := range b.bind {
			if old, ok := f.vars[k]; ok {
				saved[k] = old
			}
			f.vars[k] = v
		}
		fi, cur := f.funcs[b.fn], f.cur
		if fi != nil {
			fi.running, f.cur = true, b.fn
		}
		toks, pos := f.toks, f.pos
		f.toks = toks[:min(b.span[1], len(toks))]
		for f.pos = b.span[0]; f.pos < len(f.toks); {
			start := f.pos
			f.statement()
			if f.pos == start {
				f.pos++
			}
		}
		f.toks, f.pos, f.cur = toks, pos, cur
		if fi != nil {
			fi.running = false
		}
		for k := range b.bind {
			if old, ok := saved[k]; ok {
				f.vars[k] = old
			} else {
				delete(f.vars, k)
			}
		}
	}
}

// statement reads one statement.
func (f *flowState) statement() {
	for f.pos < len(f.toks) && endOfStatement(f.peek(0)) {
		f.pos++
	}
	if f.pos >= len(f.toks) {
		return
	}
	t := f.peek(0)
	if t.kind == tokWord && f.lang == langRuby && (t.s == "exit" || t.s == "return" || t.s == "abort" || t.s == "raise") {
		if end := f.rbGuard(t.off); end > f.askedUntil {
			f.askedUntil = end // exit 0 unless confirm?("Install?"): the rest runs only on a yes
		}
	}
	if t.kind == tokWord {
		switch t.s {
		case "import", "from":
			if f.lang == langPython || f.lang == langJS {
				f.imports()
				return
			}
		case "const", "let", "var", "my", "our", "local", "export", "global", "private", "public", "static", "readonly":
			f.pos++
			if !f.destructuring() {
				f.statement() // which would skip the { of const { a } = … as a block's
			}
			return
		case "def", "function", "sub", "fn", "async", "class", "func":
			f.funcDecl()
			return
		case "for", "foreach":
			f.forLoop()
			return
		case "with":
			if f.lang == langPython {
				f.with()
				return
			}
		case "return", "yield":
			if t.s == "yield" && f.lang != langPython && f.lang != langJS {
				break
			}
			f.pos++
			if !endOfStatement(f.peek(0)) {
				v := f.valueOf(f.expr())
				if fi := f.funcs[f.cur]; fi != nil {
					fi.returns |= v.t & (tFetched | tDecoded | tSecret | tEnv | tSaved | tCmd | tBuilt)
					if v.t&tSecret != 0 {
						if !fi.secretRet {
							fi.secretRet, fi.retStore = true, v.store
						} else {
							fi.retStore = joinStores(fi.retStore, v.store)
						}
					}
					if fi.saves {
						fi.returns |= tSaved // download_to_temp(url) returns the file it wrote
					}
				}
			}
			return
		case "await", "throw", "raise", "if", "elif", "while", "unless", "until", "else", "try", "except", "catch", "finally", "do", "then", "echo", "assert":
			if t.s == "if" && (f.lang == langPython || f.lang == langPS || f.lang == langRuby) {
				end := -1
				if f.lang == langPS {
					end = f.psConsent(t.off)
				} else {
					end = f.pyConsent(t.off)
				}
				if end > f.askedUntil {
					f.askedUntil = end
				}
				if end > t.off {
					f.s.asked = true // the block may be read as part of this statement (PowerShell's { } is an expression)
				}
			}
			f.pos++
			if !endOfStatement(f.peek(0)) && !f.is(0, ":") {
				f.expr()
			}
			return
		case "use", "require", "include", "require_once":
			if f.lang == langPerl || f.lang == langRuby && t.s == "require" {
				f.skipLine()
				return
			}
		}
	}
	if f.destructuring() {
		return
	}
	// An element or attribute set: name[k] = expr, name.attr = expr: the
	// container holds what it is given.
	if t.kind == tokWord && f.is(1, "[") {
		save := f.pos
		f.pos += 2
		f.skipArg("]")
		if f.is(0, "]") && (f.is(1, "=") || f.is(1, "+=")) {
			f.pos += 2
			v := f.expr()
			old := f.vars[t.s]
			old.v = taintOf(^tHome, old.v, f.valueOf(v))
			old.v.shape = shapeRaw // a container the program fills: raw, whatever it names its parts
			f.vars[t.s] = old
			return
		}
		f.pos = save
	}
	// Go's a, b := f(): the first name takes the call's value (the rest
	// are errors and flags).
	if f.lang == langGo && t.kind == tokWord && f.is(1, ",") {
		k := 1
		for f.is(k, ",") && f.peek(k+1).kind == tokWord {
			k += 2
		}
		if f.is(k, "=") {
			f.pos += k + 1
			f.vars[t.s] = f.expr()
			return
		}
	}
	// Python's and Ruby's a, b = expr: the names take the tuple's parts, or
	// what iterating the value gives them (a secret's: iterSecret).
	if (f.lang == langPython || f.lang == langRuby) && t.kind == tokWord && f.is(1, ",") {
		k := 1
		for f.is(k, ",") && f.peek(k+1).kind == tokWord {
			k += 2
		}
		if f.is(k, "=") {
			var names []string
			for j := 0; j < k; j += 2 {
				names = append(names, f.peek(j).s)
			}
			f.pos += k + 1
			first := f.expr()
			var parts []ev
			for f.is(0, ",") && len(parts) < len(names) {
				f.pos++
				parts = append(parts, f.expr())
			}
			parts = append([]ev{first}, parts...)
			for i, n := range names {
				switch {
				case len(parts) > 1 && i < len(parts):
					f.vars[n] = parts[i]
				case len(parts) == 1 && f.valueOf(first).t&tSecret != 0:
					f.vars[n] = ev{v: iterSecret(f.valueOf(first), false, len(names))[i]}
				}
			}
			return
		}
	}
	// Assignment: name = expr, name.attr = expr, name += expr, a, b = …
	if t.kind == tokWord {
		k := 1
		for f.is(k, ".") && f.peek(k+1).kind == tokWord || f.is(k, ":") && f.lang == langPython && f.peek(k+1).kind == tokWord && !f.is(k+2, "(") {
			k += 2
		}
		if f.is(k, "=") || f.is(k, "+=") || f.is(k, ".=") {
			op := f.peek(k).s
			name := t.s
			dotted := ""
			if k > 1 && f.is(1, ".") {
				var b strings.Builder
				for j := 0; j < k; j++ {
					b.WriteString(f.peek(j).s)
				}
				dotted = b.String()
			}
			if pattern, ok := f.psWildcardAt(k + 1); ok && f.lang == langPS && k == 1 {
				f.vars[name] = ev{v: lit(wildPrefix + pattern)}
				f.pos += k + 1
				f.skipLine()
				return
			}
			f.pos += k + 1
			if k == 1 && (f.lang == langPython || f.lang == langPS) && f.pos < len(f.toks) {
				f.noteAnswer(name, f.toks[f.pos].off)
			}
			v := f.expr()
			if op != "=" {
				old := f.vars[name]
				v = ev{v: cat(old.v, v.v)}
			}
			if k == 1 {
				// A name may hold any value it was given: one the analysis
				// cannot see (an override from the environment, often in a
				// branch) does not erase a path it knows.
				if old, ok := f.vars[name]; ok && op == "=" && old.name == "" && !v.v.known && v.v.s == "" &&
					v.v.t&^(tUnknown|tEnv|tParam) == 0 && classifyPath(old.v) != pathNone {
					old.v.t |= v.v.t
					v = old
				}
				f.vars[name] = v
			} else if _, held := f.vars[dotted]; dotted != "" && (held || f.valueOf(v).t&tSecret != 0) {
				f.vars[dotted] = v // self.cfg = a secret: the attribute holds it (attr finds it by its dotted name)
				if root, ok := f.vars[name]; ok && root.name == "" {
					// bundle.k = a secret: the object the program fills holds it, as bundle["k"] = … does
					root.v = taintOf(^tHome, root.v, f.valueOf(v))
					root.v.shape = shapeRaw
					f.vars[name] = root
				}
			}
			if f.lang == langJS && f.is(0, ",") && f.peek(1).kind == tokWord && f.is(2, "=") {
				f.pos++ // var fs=require("fs"),os=require("os"): the next statement is the next name's
			}
			return
		}
	}
	if f.lang == langPS && t.kind == tokWord && isCmdlet(t.s) {
		f.psCommand()
		return
	}
	if f.lang == langPS && t.kind == tokWord && psLaterNative(t.s) {
		f.psNative()
		return
	}
	v := f.expr()
	// The rest of the statement, for what the expression left.
	for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) {
		start := f.pos
		if f.is(0, "=") && f.lang != langPS {
			// an assignment to a target not read (os.environ[k] = …,
			// obj.attr[k] = …): what it is given goes where the analysis
			// does not follow
			f.pos++
			f.s.escape(f.valueOf(f.expr()))
			continue
		}
		w := f.expr()
		v = ev{v: taintOf(^taint(0), f.valueOf(v), f.valueOf(w))}
		if f.pos == start {
			f.pos++
		}
	}
	if f.lang == langPS {
		f.s.escape(f.valueOf(v)) // PowerShell writes an expression's value out, or down a pipeline to what it runs
	}
}

// imports reads import statements and records what each name stands for.
func (f *flowState) imports() {
	if f.lang == langPython {
		if f.is(0, "from") {
			f.pos++
			mod := f.dotted()
			if f.is(0, "import") {
				f.pos++
			}
			for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) {
				if f.is(0, "(") || f.is(0, ")") || f.is(0, ",") {
					f.pos++
					continue
				}
				n := f.peek(0).s
				f.pos++
				alias := n
				if f.is(0, "as") {
					alias = f.peek(1).s
					f.pos += 2
				}
				f.vars[alias] = ev{name: mod + "." + n}
			}
			return
		}
		f.pos++
		for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) {
			if f.is(0, ",") {
				f.pos++
				continue
			}
			mod := f.dotted()
			alias := strings.SplitN(mod, ".", 2)[0]
			name := alias
			if f.is(0, "as") {
				alias = f.peek(1).s
				name = mod
				f.pos += 2
			}
			if alias == "" {
				f.pos++
				continue
			}
			f.vars[alias] = ev{name: name}
		}
		return
	}
	// JavaScript: import x from 'm'; import {a as b} from 'm'; import * as x from 'm'
	f.pos++
	var names [][2]string
	for f.pos < len(f.toks) && !f.is(0, "from") && f.peek(0).kind != tokString && !endOfStatement(f.peek(0)) || f.is(0, "{") || f.is(0, "}") {
		t := f.peek(0)
		switch {
		case t.kind == tokWord && t.s == "as" && len(names) > 0:
			names[len(names)-1][1] = f.peek(1).s
			f.pos += 2
			continue
		case t.kind == tokWord && t.s != "type":
			names = append(names, [2]string{t.s, t.s})
		case t.s == "*":
			names = append(names, [2]string{"*", "*"})
		}
		f.pos++
	}
	if f.is(0, "from") {
		f.pos++
	}
	mod := moduleName(f.peek(0).s)
	f.pos++
	for i, n := range names {
		switch {
		case n[0] == "*" || i == 0 && n[0] == n[1] && len(names) == 1:
			f.vars[n[1]] = ev{name: mod}
		default:
			f.vars[n[1]] = ev{name: mod + "." + n[0]}
		}
	}
}

// dotted reads a dotted name: os.path.
func (f *flowState) dotted() string {
	var b strings.Builder
	for f.is(0, ".") {
		b.WriteString(".") // from . import x
		f.pos++
	}
	for f.peek(0).kind == tokWord {
		b.WriteString(f.peek(0).s)
		f.pos++
		if !f.is(0, ".") || f.peek(1).kind != tokWord {
			break
		}
		b.WriteString(".")
		f.pos++
	}
	return b.String()
}

// destructure reads {a, b: c} or [a, b] before "=", and returns the names
// bound and the members they take ({b: c} binds c to b).
func (f *flowState) destructure() (names, members []string, ok bool) {
	save := f.pos
	open := f.peek(0).s
	closer := "}"
	if open == "[" {
		closer = "]"
	}
	f.pos++
	for f.pos < len(f.toks) && !f.is(0, closer) {
		t := f.peek(0)
		if t.kind == tokEOL || t.kind == tokPunct && t.s != "," && t.s != ":" {
			f.pos = save
			return nil, nil, false
		}
		if t.kind == tokWord {
			if f.is(1, ":") {
				f.pos += 2
				if f.peek(0).kind == tokWord {
					names, members = append(names, f.peek(0).s), append(members, t.s)
				}
			} else {
				names, members = append(names, t.s), append(members, t.s)
			}
		}
		f.pos++
	}
	f.pos++
	if !f.is(0, "=") || len(names) == 0 {
		f.pos = save
		return nil, nil, false
	}
	f.pos++
	return names, members, true
}

// destructuring reads a destructuring assignment, const {exec, spawn} =
// require('child_process'), if one starts here: each name holds its
// member of the value.
func (f *flowState) destructuring() bool {
	if !(f.is(0, "{") || f.is(0, "[") && f.lang == langJS) {
		return false
	}
	names, members, ok := f.destructure()
	if !ok {
		return false
	}
	v := f.expr()
	for i, n := range names {
		f.vars[n] = ev{v: v.v, name: joinName(v.name, members[i])}
	}
	return true
}

// funcDecl reads a function's head: its parameters hold unknown values.
// Where its body ends is kept (bodyEnd), for a call that gives it a secret.
func (f *flowState) funcDecl() {
	head := f.pos
	var fi *funcInfo
	defer func() {
		if fi != nil && fi.body == [2]int{} {
			if from, to, ok := f.bodyEnd(head); ok {
				fi.body, fi.chunk = [2]int{from, to}, f.chunk
			}
		}
	}()
	for f.pos < len(f.toks) && !f.is(0, "(") && !endOfStatement(f.peek(0)) {
		if t := f.peek(0); t.kind == tokWord && t.s != "def" && t.s != "function" && t.s != "sub" && t.s != "async" && t.s != "fn" && t.s != "func" {
			f.cur = t.s
			if f.funcs == nil {
				f.funcs = map[string]*funcInfo{}
			}
			if f.funcs[t.s] == nil {
				f.funcs[t.s] = &funcInfo{}
			}
			fi = f.funcs[t.s]
			fi.params, fi.body = nil, [2]int{}
		}
		f.pos++
	}
	if !f.is(0, "(") {
		return
	}
	f.pos++
	depth := 1
	for f.pos < len(f.toks) && depth > 0 {
		t := f.peek(0)
		switch {
		case t.s == "(" && t.kind == tokPunct:
			depth++
		case t.s == ")" && t.kind == tokPunct:
			depth--
		case t.kind == tokWord && depth == 1 && (f.is(-1, "(") || f.is(-1, ",") || f.is(-1, "*")):
			f.vars[t.s] = ev{v: value{t: tParam}}
			if fi != nil {
				fi.params = append(fi.params, t.s)
			}
		}
		f.pos++
	}
}

// bodyEnd returns the tokens of the body of the function whose head starts
// at token head, the head read up to its parameters' end: a Python body
// to the first line indented no deeper than the def, a braced body to
// its closing brace. False when the end is not in this chunk.
func (f *flowState) bodyEnd(head int) (int, int, bool) {
	switch f.lang {
	case langPython:
		k := f.pos
		for k < len(f.toks) && f.toks[k].kind != tokEOL {
			k++
		}
		from := k + 1
		indent := f.indentOf(f.toks[head].off)
		for k = from; k < len(f.toks); k++ {
			if f.toks[k].kind != tokEOL && f.toks[k-1].kind == tokEOL && f.indentOf(f.toks[k].off) <= indent {
				return from, k, from < k
			}
		}
		return from, len(f.toks), from < len(f.toks) && from < k
	case langJS:
		k := f.pos
		for k < len(f.toks) && !(f.toks[k].kind == tokPunct && f.toks[k].s == "{") {
			if f.toks[k].kind == tokPunct && f.toks[k].s == ";" {
				return 0, 0, false
			}
			k++
		}
		depth := 0
		for j := k; j < len(f.toks); j++ {
			if t := f.toks[j]; t.kind == tokPunct && (t.s == "{" || t.s == "}") {
				if t.s == "{" {
					depth++
				} else if depth--; depth == 0 {
					return k + 1, j, true
				}
			}
		}
	}
	return 0, 0, false
}

// indentOf returns the indentation of the line of the region that holds
// byte off.
func (f *flowState) indentOf(off int) int {
	start := strings.LastIndexByte(f.region[:min(off, len(f.region))], '\n') + 1
	n := 0
	for start+n < len(f.region) && (f.region[start+n] == ' ' || f.region[start+n] == '\t') {
		n++
	}
	return n
}

// forLoop reads a for loop's head: its variable holds what the loop walks.
// Names may be unpacked (for k, v in d.items(), for (const [k, v] of …)).
func (f *flowState) forLoop() {
	f.pos++
	if f.is(0, "(") {
		f.pos++
	}
	var names []string
	for f.peek(0).kind == tokWord && f.peek(0).s != "in" && f.peek(0).s != "of" || f.is(0, ",") || (f.is(0, "[") || f.is(0, "]") || f.is(0, "(") || f.is(0, ")")) && len(names) < 8 {
		if f.peek(0).kind == tokWord && f.peek(0).s != "const" && f.peek(0).s != "let" && f.peek(0).s != "var" && f.peek(0).s != "my" {
			names = append(names, f.peek(0).s)
		}
		f.pos++
	}
	if f.is(0, "in") || f.is(0, "of") {
		keys := f.is(0, "in") && f.lang == langJS // for … in walks names
		f.pos++
		f.bindLoop(names, f.expr(), keys)
	}
}

// with reads Python's with EXPR as NAME.
func (f *flowState) with() {
	f.pos++
	for {
		v := f.expr()
		if f.is(0, "as") && f.peek(1).kind == tokWord {
			f.vars[f.peek(1).s] = v
			f.pos += 2
		}
		if !f.is(0, ",") {
			break
		}
		f.pos++
	}
}
