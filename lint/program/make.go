package program

import (
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"strings"
)

// This file turns a Makefile into the shell script make would have run,
// for the shell analysis: make substitutes a variable's value into a
// recipe before the shell reads it, and runs $(shell …) when it reads the
// assignment, so a value fetched at the top of the file and echoed into sh
// in a recipe far below is one flow. The script keeps the Makefile's line
// starts (each line is the same length or padded to it), so a finding's
// offset names the Makefile's own line.

// makeAssign matches a Makefile variable assignment: the name, the
// operator and the value.
var makeAssign = &lazyre.RE{Expr: `^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(::?=|:::=|\?=|\+=|!=|=)\s*(.*)$`}

// makeRef matches a variable reference, $(NAME) or ${NAME}, optionally in
// single quotes, and a $(shell …) call.
var (
	makeRef   = &lazyre.RE{Expr: `'?\$[({]([A-Za-z_][\w.-]*)[)}]'?`}
	makeShell = &lazyre.RE{Expr: `\$[({]shell\s+`}
)

// makeScript returns the shell script of a Makefile's text: assignments
// become shell assignments (a $(shell …) value a command substitution,
// != a command's output), recipe lines the commands make runs (their @, -
// and + prefixes dropped, $$ the shell's $), references ${NAME} (in double
// quotes when the Makefile put them in single ones: make substitutes them
// before the shell reads the line), and every other line blank.
func makeScript(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for len(text) > 0 {
		line, rest, nl := strings.Cut(text, "\n")
		text = rest
		out := ""
		switch {
		case strings.HasPrefix(line, "\t"):
			t := strings.TrimLeft(line[1:], "@-+ \t")
			out = "\t" + makeRefs(t)
		default:
			if m := makeAssign.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[3], "=") {
				val := makeShell.Regexp().ReplaceAllString(m[3], "$$( ")
				if m[2] == "!=" {
					val = "$(" + val + ")"
				}
				if val = makeRefs(val); wholeSubst(val) && m[2] != "+=" {
					out = shellName(m[1]) + "=" + val // a command's output, not split: no quotes to escape its own
					break
				}
				val = strings.ReplaceAll(val, `"`, `\"`)
				if m[2] == "+=" {
					val = "${" + shellName(m[1]) + "} " + val
				}
				out = shellName(m[1]) + `="` + val + `"`
			}
		}
		b.WriteString(out)
		for n := len(out); n < len(line); n++ {
			b.WriteByte(' ')
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// wholeSubst reports whether a value is one command substitution,
// $( … ), from its start to its end.
func wholeSubst(v string) bool {
	if !strings.HasPrefix(v, "$(") {
		return false
	}
	return closeShellParen(v[1:]) == len(v)-2
}

// closeShellParen returns the index of the parenthesis that closes the
// one s starts with, or -1.
func closeShellParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// makeRefs writes make's variable references as the shell's, and make's
// escaped dollar ($$) as the one the shell reads, after the references so
// that $$(cmd) stays a command substitution.
func makeRefs(s string) string {
	s = strings.ReplaceAll(s, "$$", "\x00")
	s = makeShell.Regexp().ReplaceAllString(s, "$$( ")
	s = makeRef.Regexp().ReplaceAllStringFunc(s, func(r string) string {
		q := strings.HasPrefix(r, "'") && strings.HasSuffix(r, "'") && len(r) > 1
		name := shellName(makeRef.FindStringSubmatch(r)[1])
		if q {
			return `"${` + name + `}"`
		}
		lead, trail := "", ""
		if strings.HasPrefix(r, "'") {
			lead = "'"
		}
		if strings.HasSuffix(r, "'") {
			trail = "'"
		}
		return lead + "${" + name + "}" + trail
	})
	return strings.ReplaceAll(s, "\x00", "$")
}

// shellName returns a make variable's name as a shell name (make allows
// dots and dashes).
func shellName(n string) string {
	return strings.NewReplacer(".", "_", "-", "_").Replace(n)
}
