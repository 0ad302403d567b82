package program

import (
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// This file is what the flow analysis's expressions (flowexpr.go) do with
// tokens they do not evaluate: the ends of a chain, what is skipped (and
// what a secret among the skipped names may then reach), the names a
// region never set, PowerShell's type literals and wildcard look-ups.

// isPostfix reports whether the next token goes on a postfix chain: an
// attribute, a call or an index.
func (f *flowState) isPostfix() bool {
	return f.is(0, ".") || f.is(0, "?.") || f.is(0, "->") || f.is(0, "::") || f.is(0, "(") || f.is(0, "[")
}

// perlListOps are functions Perl and Ruby call without parentheses.
var perlListOps = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"system": true, "exec": true, "eval": true, "open": true, "require": true, "print": true, "spawn": true,
		"decode_base64": true, "reverse": true, "unlink": true, "rmtree": true, "remove_tree": true}
}}

// skipTo moves to the first closing bracket at this depth, or the
// statement's end. It takes nextElem's closer but stops at any closer: in
// text that does not balance, the first one still ends what the caller
// reads.
func (f *flowState) skipTo(string) {
	defer f.skipped(f.pos)
	depth := 0
	for f.pos < len(f.toks) && f.peek(0).kind != tokEOL {
		t := f.peek(0)
		if t.kind == tokPunct {
			switch t.s {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			}
		}
		f.pos++
	}
}

// global returns what a name means when the region did not set it.
func (f *flowState) global(name string) ev {
	if ownPlace(f.lang, name) {
		return ev{v: shippedValue(name)} // the script's own file or folder, in the skill
	}
	switch f.lang {
	case langPS:
		switch strings.ToLower(name) {
		case "$home":
			return ev{v: homeValue()}
		case "$profile":
			// The current user's profile, which every new session runs.
			v := lit(homeMark + "/documents/powershell/microsoft.powershell_profile.ps1")
			v.t |= tHome
			v.path = pathPersist
			return ev{v: v}
		case "$true", "$false", "$null":
			return ev{v: lit("")}
		}
		if strings.HasPrefix(name, "$") {
			return ev{v: unknown()}
		}
	case langPerl:
		if name == "$ENV" {
			return ev{name: "$ENV"}
		}
		if strings.HasPrefix(name, "$") {
			return ev{v: unknown()}
		}
	case langPython:
		switch name {
		case "True", "False", "None":
			return ev{v: lit("")}
		}
	case langJS:
		switch name {
		case "true", "false", "null", "undefined", "this":
			return ev{v: lit("")}
		}
	}
	return ev{name: name}
}

// nextElem moves past the comma after an element of a list or arguments
// that started at token start, past a token when the element read none
// (so the loop ends), or with skip to the rest of an element the parser
// did not follow.
func (f *flowState) nextElem(start int, closer string, skip func(string)) {
	switch {
	case f.is(0, ","), f.pos == start:
		f.pos++
	case !f.is(0, closer):
		skip(closer)
	}
}

// skipArg moves past the rest of an argument the parser did not follow
// (a comprehension, an arrow function), to the next comma or the closer.
func (f *flowState) skipArg(closer string) {
	defer f.skipped(f.pos)
	depth := 0
	for f.pos < len(f.toks) {
		t := f.peek(0)
		if t.kind == tokPunct {
			switch t.s {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			case ",":
				if depth == 0 {
					return
				}
			}
		}
		f.pos++
	}
}

// psType reads a PowerShell type literal: [Convert], [System.Text.Encoding].
func (f *flowState) psType() ev {
	f.pos++
	var b strings.Builder
	for f.pos < len(f.toks) && !f.is(0, "]") && f.peek(0).kind != tokEOL {
		b.WriteString(f.peek(0).s)
		f.pos++
	}
	f.pos++
	name := strings.ToLower(strings.TrimPrefix(strings.ToLower(b.String()), "system."))
	if name == "char" && f.peek(0).kind == tokWord {
		if n, err := strconv.Atoi(f.peek(0).s); err == nil && n > 0 && n < 0x110000 {
			f.pos++
			v := lit(string(rune(n)))
			v.t |= tBuilt
			return ev{v: v}
		}
	}
	return ev{name: "[" + name + "]"}
}

// psWildcardLookup reports whether the tokens at pos are a command looked
// up by a wildcard pattern, (Get-Command i*k*-ex*) or (gcm i*e*x), and
// returns the pattern, lower case. It moves nothing.
func (f *flowState) psWildcardLookup() (string, bool) {
	if !f.is(0, "(") {
		return "", false
	}
	return f.psWildcardAt(1)
}

// wildPrefix marks a value that holds a command found by a wildcard
// pattern ($c = Get-Command i*-ex*): the pattern follows it.
const wildPrefix = "\x00wild:"

// psWildcardAt is psWildcardLookup for a Get-Command at pos+at, outside
// parentheses.
func (f *flowState) psWildcardAt(at int) (string, bool) {
	if c := strings.ToLower(f.peek(at).s); f.peek(at).kind != tokWord || c != "get-command" && c != "gcm" {
		return "", false
	}
	var b strings.Builder
	wild := false
	for k := at + 1; k < at+64; k++ {
		t := f.peek(k)
		if t.kind == tokEOL || t.kind == tokPunct && (t.s == ")" || t.s == ";" || t.s == "|") {
			break
		}
		if t.kind == tokString {
			b.WriteString(t.s)
			wild = wild || strings.ContainsAny(t.s, "*?")
			continue
		}
		if t.s == "*" || t.s == "?" {
			wild = true
		}
		b.WriteString(t.s)
	}
	return strings.ToLower(b.String()), wild
}

// ownPlace reports a name that holds the running script's own file or
// folder (__file__, __dirname, __dir__, $PSScriptRoot; an ES module's
// import.meta.url is valueOf's): a path built on it
// is inside the skill, as one on CLAUDE_SKILL_DIR is.
func ownPlace(lang, name string) bool {
	switch lang {
	case langPython:
		return name == "__file__"
	case langJS:
		return name == "__dirname" || name == "__filename"
	case langRuby:
		return name == "__dir__" || name == "__FILE__"
	case langPerl:
		return name == "__FILE__"
	case langPS:
		return strings.EqualFold(name, "$PSScriptRoot") || strings.EqualFold(name, "$PSCommandPath")
	}
	return false
}
