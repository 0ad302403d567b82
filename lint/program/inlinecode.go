package program

import "strings"

// This file reads code a shell command gives an interpreter inline
// (python3 -c "…", node -e "…") that a shell variable the analysis cannot
// see is spliced into: python3 -c "print(open('$OUT/x.json').read())". The
// shell analysis (shell.go) spells such code with holeMark where each of
// those values goes; when every hole sits inside a plain string literal of
// the interpreter's language, the program around the holes is fixed, and
// the analysis reads it with each such literal turned into the
// language's own input (holeInput: a command-line argument), a value it
// cannot see in the place of a string.
// Code run from such a string (exec('$CODE')) is then code it cannot
// resolve, as it would be in a file. A hole anywhere else (the whole code,
// a name, an f-string's braces) leaves the code unresolved, as before.
//
// Only values no one but the user chooses are spelled as holes (shell.go
// decides): the environment, a script's arguments, a name it never sets.
// A value read from a file or fetched may carry quotes that end the
// literal and go on as code, so it is never a hole.

// holeMark stands in the spelled code for a value the shell analysis
// cannot see.
const holeMark = "\x00hole\x00"

// holeInput is what replaces a literal holding a hole in lang: the
// program's first argument, which the analysis of a file of that
// language cannot see either.
func holeInput(lang string) string {
	switch lang {
	case langPython:
		return "sys.argv[1]"
	case langJS:
		return "process.argv[2]"
	case langRuby:
		return "ARGV[0]"
	}
	return "$ARGV[0]" // Perl
}

// holeLang reports a language whose inline code holes are read in: one
// the token reader knows strings of (tokens.go).
func holeLang(lang string) bool {
	return lang == langPython || lang == langJS || lang == langRuby || lang == langPerl
}

// unholed returns code, spelled with holeMark, with every string literal
// that holds a hole replaced by holeInput; ok is false when a hole sits
// anywhere but inside a plain string literal (no interpolation), or the
// language is not one of holeLang's.
func unholed(code, lang string) (string, bool) {
	if !holeLang(lang) || !strings.Contains(code, holeMark) {
		return "", false
	}
	toks, _ := tokenRun(code, lang, 0, nil, len(code)+1, maxChunkTokens)
	var b strings.Builder
	last, holes := 0, 0
	for k, t := range toks {
		if t.kind != tokString {
			continue
		}
		end := len(code)
		if k+1 < len(toks) {
			end = toks[k+1].off
		}
		end = t.off + len(strings.TrimRight(code[t.off:end], " \t\r\n"))
		span := code[t.off:end]
		if !strings.Contains(span, holeMark) {
			continue
		}
		if q := span[len(span)-1]; q != '\'' && q != '"' && q != '`' {
			return "", false // the literal's end is not where the analysis thinks
		}
		holes += strings.Count(span, holeMark)
		b.WriteString(code[last:t.off])
		b.WriteString(holeInput(lang))
		last = end
	}
	if holes != strings.Count(code, holeMark) {
		return "", false
	}
	b.WriteString(code[last:])
	return b.String(), true
}
