package program

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
	"mvdan.cc/sh/v3/syntax"
)

// This file is the shell analysis: it parses a region of shell with
// mvdan.cc/sh (a real parser: assignments, pipes, command and process
// substitution, here-documents), walks its statements in order keeping what
// each variable and each file written may hold (value.go), and reports the
// sinks those values reach (shellsinks.go). A parse error does not end the
// analysis: it resumes on the next line.

// shellRegion analyses one region of shell.
func (s *scan) shellRegion(r region) {
	text := r.text
	if at, deep := tooNested(text); deep {
		s.opaque(r.off+at, fmt.Sprintf("not analysed: nested deeper than %d brackets", maxNesting))
		return
	}
	if s.roles&Markdown != 0 {
		text = stripPrompts(text)
	}
	st := &shellState{s: s, base: r.off, text: text, vars: map[string]value{}, files: map[string]*shFile{}, remotes: map[string]string{}}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	for from := 0; from < len(text); {
		rest := text[from:]
		var perr error
		// The loop never breaks: the parser's iterator may yield again after
		// its body returns false (a panic), so what follows an error is
		// skipped instead.
		for stmt, err := range p.StmtsSeq(strings.NewReader(rest)) {
			if err != nil && perr == nil {
				perr = err
			}
			if perr != nil || stmt == nil {
				continue
			}
			st.base = r.off + from
			st.stmt(stmt, value{})
		}
		if perr == nil {
			return
		}
		// Resume after the line the error is on.
		at := len(rest)
		var pe syntax.ParseError
		if errors.As(perr, &pe) {
			at = int(pe.Pos.Offset())
		}
		nl := strings.IndexByte(rest[min(at, len(rest)):], '\n')
		if nl < 0 {
			return
		}
		from += at + nl + 1
	}
}

// parsers keeps shell parsers for reuse: a Markdown file may hold many
// fenced blocks, and a parser is large next to a block.
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
}}

// stripPrompts blanks a "$ " or "> " prompt at the start of lines of a
// console transcript, keeping offsets.
func stripPrompts(text string) string {
	if !strings.Contains(text, "$ ") {
		return text
	}
	b := []byte(text)
	for i := 0; i < len(b); {
		j := i
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j+1 < len(b) && b[j] == '$' && b[j+1] == ' ' {
			b[j] = ' '
		}
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return string(b)
}

// stmts walks statements with no input and returns what they print.
func (st *shellState) stmts(list []*syntax.Stmt) value {
	var out value
	for _, x := range list {
		out = cat(out, st.stmt(x, value{}))
	}
	out.t &^= tBuilt
	return out
}

// stmt walks one statement, with stdin as its input, and returns what it
// prints.
func (st *shellState) stmt(x *syntax.Stmt, stdin value) value {
	st.steps++
	if x == nil {
		return value{}
	}
	if st.steps > len(st.text)+64 {
		if st.steps == len(st.text)+65 {
			st.s.opaque(st.off(x.Pos()), "not analysed: more statements than the text has bytes")
		}
		return value{}
	}
	// Input redirections and here-documents come first.
	var outFile []*syntax.Redirect
	for _, r := range x.Redirs {
		switch r.Op {
		case syntax.RdrIn:
			stdin = st.fileContent(st.word(r.Word))
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				stdin = st.word(r.Hdoc)
			}
		case syntax.WordHdoc:
			stdin = st.word(r.Word)
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			if r.N == nil || r.N.Value == "1" {
				outFile = append(outFile, r)
			}
		}
	}
	out := st.command(x.Cmd, stdin)
	for _, r := range outFile {
		target := st.word(r.Word)
		st.wrote(target, out, st.off(r.OpPos))
	}
	if len(outFile) > 0 {
		return value{}
	}
	return out
}

// command walks a command and returns what it prints.
func (st *shellState) command(c syntax.Command, stdin value) value {
	switch c := c.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			for _, a := range c.Assigns {
				st.assign(a)
			}
			return value{}
		}
		return st.call(c, stdin)
	case *syntax.DeclClause:
		for _, a := range c.Args {
			st.assign(a)
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			return st.stmt(c.Y, st.stmt(c.X, stdin))
		}
		return cat(st.stmt(c.X, stdin), st.stmt(c.Y, value{}))
	case *syntax.Block:
		return st.stmtsIn(c.Stmts, stdin)
	case *syntax.Subshell:
		return st.stmtsIn(c.Stmts, stdin)
	case *syntax.IfClause:
		out := st.stmts(c.Cond)
		out = cat(out, st.stmts(c.Then))
		if c.Else != nil {
			out = cat(out, st.command(c.Else, value{}))
		}
		return out
	case *syntax.WhileClause:
		return cat(st.stmts(c.Cond), st.stmts(c.Do))
	case *syntax.ForClause:
		if w, ok := c.Loop.(*syntax.WordIter); ok {
			var items value
			each := make([]value, len(w.Items))
			for i, it := range w.Items {
				each[i] = st.word(it)
				items = cat(items, each[i])
			}
			items.known = false
			items.s = ""
			items.t |= tUnknown
			if e, ok := weightiest(each); ok {
				items = e // the name holds each in turn: the one that matters most to a sink
			}
			st.vars[w.Name.Value] = items
		}
		return st.stmts(c.Do)
	case *syntax.CaseClause:
		var out value
		for _, it := range c.Items {
			out = cat(out, st.stmts(it.Stmts))
		}
		return out
	case *syntax.FuncDecl:
		st.stmt(c.Body, value{})
	case *syntax.TimeClause:
		return st.stmt(c.Stmt, stdin)
	case *syntax.CoprocClause:
		return st.stmt(c.Stmt, stdin)
	}
	return value{}
}

// stmtsIn walks a list whose first statement reads stdin.
func (st *shellState) stmtsIn(list []*syntax.Stmt, stdin value) value {
	var out value
	for i, x := range list {
		in := value{}
		if i == 0 {
			in = stdin
		}
		out = cat(out, st.stmt(x, in))
	}
	out.t &^= tBuilt
	return out
}

// assign records a variable's value.
func (st *shellState) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	var v value
	switch {
	case a.Value != nil:
		v = st.word(a.Value)
	case a.Array != nil:
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				v = cat(v, lit(" "), st.word(e.Value))
			}
		}
	default:
		return
	}
	if a.Append {
		v = cat(st.vars[a.Name.Value], v)
	}
	st.vars[a.Name.Value] = v
}

// word evaluates a word.
func (st *shellState) word(w *syntax.Word) value {
	if w == nil {
		return value{}
	}
	if len(w.Parts) == 1 {
		return st.part(w.Parts[0], true)
	}
	vs := make([]value, 0, len(w.Parts))
	for i, p := range w.Parts {
		vs = append(vs, st.part(p, i == 0))
	}
	return cat(vs...)
}

// part evaluates one part of a word; first says whether it starts the word
// (where ~ is the home folder).
func (st *shellState) part(p syntax.WordPart, first bool) value {
	switch p := p.(type) {
	case *syntax.Lit:
		if first && (p.Value == "~" || strings.HasPrefix(p.Value, "~/")) {
			v := lit(homeMark + p.Value[1:])
			v.t |= tHome
			v.path = classifyPath(v)
			return v
		}
		v := lit(p.Value)
		v.path = classifyPath(v)
		return v
	case *syntax.SglQuoted:
		if p.Dollar {
			v := lit(encoded.Unescape(p.Value))
			if strings.Contains(p.Value, `\x`) || strings.Contains(p.Value, `\0`) || strings.Contains(p.Value, `\u`) {
				v.t |= tBuilt
			}
			return v
		}
		return lit(p.Value)
	case *syntax.DblQuoted:
		vs := make([]value, 0, len(p.Parts))
		for i, q := range p.Parts {
			vs = append(vs, st.part(q, first && i == 0 && false))
		}
		if len(vs) == 0 {
			return lit("")
		}
		if len(vs) == 1 {
			return vs[0]
		}
		return cat(vs...)
	case *syntax.ParamExp:
		return st.param(p)
	case *syntax.CmdSubst:
		v := st.stmts(p.Stmts)
		return v
	case *syntax.ProcSubst:
		out := st.stmts(p.Stmts)
		v := lit("/dev/fd/63")
		if p.Op == syntax.CmdIn {
			name := "/dev/fd/63"
			st.files[name] = &shFile{holds: out.t, off: st.off(p.OpPos)}
		}
		return v
	case *syntax.ArithmExp:
		return value{}
	}
	return value{}
}

// param evaluates a parameter expansion.
func (st *shellState) param(p *syntax.ParamExp) value {
	if p.Param == nil {
		return unknown()
	}
	name := p.Param.Value
	v, ok := st.vars[name]
	if !ok {
		switch name {
		case "HOME":
			v = lit(homeMark)
			v.t |= tHome
		case "XDG_CONFIG_HOME":
			v = lit(homeMark + "/.config")
			v.t |= tHome
		case "USERPROFILE", "APPDATA":
			v = lit(homeMark)
			v.t |= tHome
		case "0", "BASH_SOURCE", "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT":
			v = shippedValue(name) // the skill's folder, or this script in it
		default:
			v = unknown()
		}
	}
	if p.Length || p.Excl || p.Slice != nil {
		return value{t: v.t &^ tHome}
	}
	if p.Repl != nil {
		r := value{t: v.t | tBuilt}
		return r
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			if !ok || !v.known {
				d := st.word(p.Exp.Word)
				d.t |= v.t &^ tUnknown
				return d
			}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			v.t |= tGuarded
			if !v.known {
				v.t &^= tUnknown
			}
		default:
			return value{t: v.t | tBuilt}
		}
	}
	return v
}
