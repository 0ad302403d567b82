package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// This file is how the shell analysis tells a write the user agreed to at
// the terminal: a script that asks (read -p "Install this schedule? [y/N]"
// ok) and goes on only on yes ([[ $ok == [yY]* ]] || exit 1; if [[ … ]];
// then …; case $ok in y*) …) shows the user what it will do and lets them
// refuse. A write that runs later (a crontab line, a start-up file, an
// agent's configuration) made only after such a yes is a note, not a
// warning: the user decided it (scan.gradeWrite). A yes does not vouch for
// what is written: a fetched, decoded or secret content keeps its grade,
// and so does every other sink.

// yesPattern matches a test's text that compares with a yes: [yY]*, y,
// yes, ^[Yy], Y*.
var yesPattern = &lazyre.RE{Expr: `(?:^|[^\w])(?:\[[yY]{2}\]|[yY](?:es|ES)?)(?:\*|\b|\]|\s|$)|\^\(?\[?[yY]`}

// noPattern matches a test's text true when the answer is not yes.
var noPattern = &lazyre.RE{Expr: `!=|!~|^\s*!\s|\[\[\s*!\s|\[\s*!\s|-z\s`}

// readAnswer returns the variable a read command (its words after the
// name) stores the user's answer in: the last of its names, or REPLY.
// -p PROMPT, -t, -n, -d and -u take a value.
func readAnswer(rest []value) string {
	name := "REPLY"
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.known {
			continue
		}
		switch {
		case a.s == "-p" || a.s == "-t" || a.s == "-n" || a.s == "-N" || a.s == "-d" || a.s == "-u" || a.s == "-a" || a.s == "-i":
			i++
		case strings.HasPrefix(a.s, "-"):
		default:
			name = a.s
		}
	}
	return name
}

// consent says what a condition means for a question the script asked:
// +1 true on yes, -1 true on anything but yes, 0 no such test.
func (st *shellState) consent(cond []*syntax.Stmt) int {
	if len(cond) != 1 || st.answers == nil && len(st.funcs) == 0 {
		return 0
	}
	x := cond[0]
	if b, ok := x.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt && !x.Negated {
		if st.consent([]*syntax.Stmt{b.X}) > 0 || st.consent([]*syntax.Stmt{b.Y}) > 0 {
			return 1 // (( DO_RC )) && ask "Append the block?": true only on yes too
		}
		return 0
	}
	if call, ok := x.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
		if f := st.function(call.Args[0].Lit()); f != nil && f.asks {
			if x.Negated {
				return -1
			}
			return 1
		}
	}
	text := st.source(x)
	if text == "" || !yesPattern.MatchString(text) || !st.namesAnswer(text) {
		return 0
	}
	if x.Negated || noPattern.MatchString(text) {
		return -1
	}
	return 1
}

// namesAnswer reports whether text expands a variable a read stored an
// answer in.
func (st *shellState) namesAnswer(text string) bool {
	for name := range st.answers {
		if strings.Contains(text, "$"+name) || strings.Contains(text, "${"+name) {
			return true
		}
	}
	return false
}

// source returns the text of a statement of the region, "" when the
// statement was parsed from another text (a function walked at its call
// keeps its own).
func (st *shellState) source(x *syntax.Stmt) string {
	return st.span(int(x.Pos().Offset()), int(x.End().Offset()))
}

// span returns the region's text between two offsets of the text being
// parsed, or "" when they are not in it.
func (st *shellState) span(from, to int) string {
	from, to = from+st.base-st.start, to+st.base-st.start
	if from < 0 || to > len(st.text) || from >= to {
		return ""
	}
	return st.text[from:to]
}

// wordSource returns the text of a word of the region, or "".
func (st *shellState) wordSource(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	return st.span(int(w.Pos().Offset()), int(w.End().Offset()))
}

// asking marks, when yes, what is walked next as run only on the user's
// yes, and returns what ends it.
func (st *shellState) asking(yes bool) func() {
	if !yes || st.s.asked {
		return func() {}
	}
	st.s.asked = true
	return func() { st.s.asked = false }
}

// asksYes reports a function that asks the user and returns whether they
// said yes: a read, then a test of a yes as its last statement
// (confirm() { read -r -p "$1 [y/N] " a; [[ $a == [yY]* ]]; }).
func asksYes(body *syntax.Stmt) bool {
	b, ok := body.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) < 2 {
		return false
	}
	read := false
	for _, x := range b.Stmts[:len(b.Stmts)-1] {
		if o, ok := x.Cmd.(*syntax.BinaryCmd); ok && o.Op == syntax.OrStmt {
			x = o.X // read -r -p "$1 [y/N] " a < /dev/tty || return 1
		}
		if c, ok := x.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == "read" {
			read = true
		}
	}
	last, ok := b.Stmts[len(b.Stmts)-1].Cmd.(*syntax.TestClause)
	if !ok || !read || b.Stmts[len(b.Stmts)-1].Negated {
		return false
	}
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, last)
	return yesPattern.MatchString(sb.String()) && !noPattern.MatchString(sb.String())
}

// exits reports a list that ends the script or the function on every
// path it takes at its top: an exit or a return among its statements.
func exits(list []*syntax.Stmt) bool {
	for _, x := range list {
		switch c := x.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) > 0 && (c.Args[0].Lit() == "exit" || c.Args[0].Lit() == "return") {
				return true
			}
		case *syntax.Block:
			if exits(c.Stmts) {
				return true
			}
		case *syntax.BinaryCmd:
			if c.Op == syntax.AndStmt && exits([]*syntax.Stmt{c.Y}) {
				return true // echo "not scheduled" && exit 1
			}
		}
	}
	return false
}

// yesItem reports a case item whose patterns match only a yes (y, Y*,
// [yY]|[yY][eE][sS]).
func yesItem(it *syntax.CaseItem) bool {
	if len(it.Patterns) == 0 {
		return false
	}
	for _, p := range it.Patterns {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, p)
		s := strings.TrimSpace(sb.String())
		if s == "*" || !yesPattern.MatchString(s) {
			return false
		}
	}
	return true
}
