package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file is the flow analysis's reading of a Python script that asks
// the user at the terminal before it writes, as shellconsent.go is the
// shell's: if input("Write this to .mcp.json? [y/N] ").lower() == "y":
// and the block under it run only on a yes, and so does the rest of the
// script after if answer != "y": sys.exit(). A write that runs later made
// there is the user's to have agreed to (scan.asked, scan.agreed).

// ynPrompt matches a prompt's text that asks a yes or no question.
var ynPrompt = &lazyre.RE{Expr: `(?i)[\[(]\s*y(?:es)?\s*/\s*n(?:o)?\s*[\])]|\byes/no\b`}

// pyYes matches a condition's test for a yes answer, and pyNot a negated
// one.
var (
	pyYes = &lazyre.RE{Expr: `(?i)==\s*["']y(?:es)?["']|\bin\s*[\[({]\s*["']y(?:es)?["']|startswith\(\s*["']y["']|!=\s*["']y(?:es)?["']|\bnot\s+in\s*[\[({]\s*["']y`}
	pyNot = &lazyre.RE{Expr: `(?i)!=|\bnot\b`}
)

// pyConsent reads, at an if of Python or Ruby whose keyword is the token
// at, a condition on the user's answer to a yes-or-no prompt (an input()
// call in it, a name one set, or a call of a function of the region that
// asks and returns the test, callsConfirm), and returns the offset in the
// region up to which the script runs only on a yes: the end of the block
// under it for a yes test, the region's end for a no test whose block
// exits. -1 for none. The block is the lines indented deeper than the if.
func (f *flowState) pyConsent(at int) int {
	t := f.region
	end := lineEnd(t, at)
	cond := t[at:end]
	asks := strings.Contains(cond, "input(") && ynPrompt.MatchString(cond)
	for _, w := range strings.FieldsFunc(cond, func(r rune) bool { return r >= 0x80 || !isIdentByte(byte(r)) }) {
		asks = asks || f.answers[w] // the name whole: an answer "a" is not every word with an a in it
	}
	called := f.callsConfirm(cond)
	if !called && (!asks || !pyYes.MatchString(cond)) {
		return -1
	}
	block := indentBlock(t, at)
	if pyNot.MatchString(cond) || called && strings.Contains(cond, "!") {
		if exitsIn(t[end:block]) {
			return len(t)
		}
		return -1
	}
	return block
}

// rbGuard reads a Ruby statement that leaves unless the user said yes, its
// first word the token at (exit 0 unless confirm?("Install?"), return if
// !confirm?(…)), and returns the region's end, up to which the script runs
// only on a yes, or -1.
func (f *flowState) rbGuard(at int) int {
	line := f.region[at:lineEnd(f.region, at)]
	if i := strings.Index(line, " unless "); i >= 0 && !strings.Contains(line[i:], "!") && f.callsConfirm(line[i:]) {
		return len(f.region)
	}
	if i := strings.Index(line, " if "); i >= 0 && (strings.Contains(line[i:], "!") || strings.Contains(line[i:], " not ")) && f.callsConfirm(line[i:]) {
		return len(f.region)
	}
	return -1
}

// exitsIn reports whether a block of Python or Ruby leaves the script or
// the function on one of its lines.
func exitsIn(block string) bool {
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(l)
		for _, w := range []string{"sys.exit", "exit(", "exit ", "return", "raise SystemExit", "abort"} {
			if strings.HasPrefix(l, w) || l == strings.TrimSpace(w) {
				return true
			}
		}
	}
	return false
}

// indentBlock returns the offset where the block under the line holding
// byte at ends: the end of the last line after it indented deeper than it
// (blank lines go on with the block).
func indentBlock(t string, at int) int {
	lineStart := strings.LastIndexByte(t[:at], '\n') + 1
	indent := len(t[lineStart:at]) - len(strings.TrimLeft(t[lineStart:at], " \t"))
	end := lineEnd(t, at)
	for end < len(t) {
		next := strings.IndexByte(t[end+1:], '\n')
		line := t[end+1:]
		if next >= 0 {
			line = t[end+1 : end+1+next]
		}
		if trimmed := strings.TrimLeft(line, " \t"); trimmed != "" && len(line)-len(trimmed) <= indent {
			break
		}
		if next < 0 {
			return len(t)
		}
		end += 1 + next
	}
	return end
}

// noteAnswer records name as holding the user's answer when the rest of
// its assignment's line, from the region's offset at, reads a yes-or-no
// prompt (answer = input("Proceed? [y/N] ").strip().lower()).
func (f *flowState) noteAnswer(name string, at int) {
	rhs := f.region[at:lineEnd(f.region, at)]
	if f.lang == langPS {
		name = strings.ToLower(name)
		rhs = strings.TrimLeft(rhs, "( ")
	}
	if (strings.HasPrefix(rhs, "input(") || f.lang == langPS && len(rhs) >= 9 && strings.EqualFold(rhs[:9], "read-host")) && ynPrompt.MatchString(rhs) {
		if f.answers == nil {
			f.answers = map[string]bool{}
		}
		f.answers[name] = true
	}
}

// psConsent is pyConsent for PowerShell, whose if's condition is in
// parentheses and whose block is in braces: a condition that calls a
// function of the region asking a yes-or-no question with Read-Host and
// returning the answer's test, or tests Read-Host's answer itself, for a
// yes. It returns the offset of the block's closing brace, or, for a
// negated test (-not, !) whose block exits, the region's end; -1 for none.
func (f *flowState) psConsent(at int) int {
	t := f.region
	open := braceAfter(t, at)
	if open < 0 {
		return -1
	}
	cond := t[at:open]
	asks := strings.Contains(strings.ToLower(cond), "read-host") && ynPrompt.MatchString(cond) && strings.Contains(cond, "-match") ||
		f.callsConfirm(cond) || psShouldAsk(t, cond) || f.testsAnswer(cond)
	if !asks {
		return -1
	}
	end := matchingBrace(t, open)
	if end < 0 {
		return -1
	}
	lower := strings.ToLower(cond)
	if strings.Contains(lower, "-not") || strings.Contains(cond, "!") {
		if b := strings.ToLower(t[open:end]); strings.Contains(b, "exit") || strings.Contains(b, "return") || strings.Contains(b, "throw") {
			return len(t)
		}
		return -1
	}
	return end
}

// testsAnswer reports whether a PowerShell if's condition tests, for a
// yes, a variable Read-Host gave a yes-or-no answer (noteAnswer): -match,
// -eq, -like or -in against a y.
func (f *flowState) testsAnswer(cond string) bool {
	lower := strings.ToLower(cond)
	if !psYes.MatchString(lower) {
		return false
	}
	for name := range f.answers {
		if strings.Contains(lower, "$"+strings.TrimPrefix(name, "$")+" ") {
			return true
		}
	}
	return false
}

// psYes matches a PowerShell comparison with a yes: -match '^[yY]',
// -match '^(y|yes)$', -eq 'y', -like 'y*', -in 'y','yes'.
var psYes = &lazyre.RE{Expr: `-(?:i|c)?(?:match|eq|like|in)\s+['"]\^?\(?(?:\[y|y)`}

// psShouldAsk reports whether an if's condition cond asks the user
// through PowerShell's own confirmation: $PSCmdlet.ShouldContinue, which
// always asks, or $PSCmdlet.ShouldProcess in a script t that declares
// ConfirmImpact High, for which PowerShell asks unless told -Confirm:$false.
func psShouldAsk(t, cond string) bool {
	lower := strings.ToLower(cond)
	if strings.Contains(lower, "$pscmdlet.shouldcontinue(") {
		return true
	}
	return strings.Contains(lower, "$pscmdlet.shouldprocess(") && psHighImpact.MatchString(t)
}

// psHighImpact matches a CmdletBinding that declares ConfirmImpact High.
var psHighImpact = &lazyre.RE{Expr: `(?i)\bConfirmImpact\s*=\s*['"]?High\b`}

// callsConfirm reports whether cond calls a function of the region whose
// body asks a yes-or-no question and returns a test of the answer for a
// yes: Read-Host tested with -match in PowerShell, input() in Python,
// gets in Ruby (confirm?(q) print "#{q} [y/N] "; $stdin.gets.to_s.strip.casecmp('y').zero?).
func (f *flowState) callsConfirm(cond string) bool {
	if f.confirms == nil {
		f.confirms = f.askingFuncs() // found once per region: an if asks only whether it calls one
	}
	lower := strings.ToLower(cond)
	for _, name := range f.confirms {
		if i := strings.Index(lower, name); i >= 0 && (i == 0 || !isIdentByte(lower[i-1])) {
			return true
		}
	}
	return false
}

// Heads of the functions askingFuncs reads: PowerShell's function NAME {,
// and Python's and Ruby's def NAME.
var (
	psConfirmFunc = &lazyre.RE{Expr: `(?i)\bfunction\s+([\w-]+)[^{\n]*\{`}
	defHead       = &lazyre.RE{Expr: `(?m)^[ \t]*def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)`}
)

// rbYes matches Ruby's test of an answer for a yes: casecmp('y'),
// =~ /^y/i, start_with?('y'), %w[y yes].include?.
var rbYes = &lazyre.RE{Expr: `(?i)casecmp\??\(\s*['"]y|=~\s*/\\?[\^A]?\[?y|start_with\?\(\s*['"]y|%w[\[(]\s*y\b|\[\s*['"]y['"]\s*,\s*['"]yes['"]\s*\]\.include\?`}

// askingFuncs returns the lower-case names of the region's functions that
// ask the user yes or no and return the answer's test.
func (f *flowState) askingFuncs() []string {
	out := []string{}
	t := f.region
	switch f.lang {
	case langPS:
		for _, m := range psConfirmFunc.Regexp().FindAllStringSubmatchIndex(t, 32) {
			end := matchingBrace(t, m[1]-1)
			if end < 0 {
				continue
			}
			body := strings.ToLower(t[m[1]:end])
			if strings.Contains(body, "read-host") && ynPrompt.MatchString(body) && strings.Contains(body, "-match") {
				out = append(out, strings.ToLower(t[m[2]:m[3]]))
			}
		}
	case langPython, langRuby:
		for _, m := range defHead.Regexp().FindAllStringSubmatchIndex(t, 64) {
			body := t[m[1]:indentBlock(t, m[1])]
			reads := strings.Contains(body, "input(")
			if f.lang == langRuby {
				reads = strings.Contains(body, "gets") || strings.Contains(body, "readline")
			}
			if reads && ynPrompt.MatchString(body) && (pyYes.MatchString(body) || rbYes.MatchString(body)) {
				out = append(out, strings.ToLower(t[m[2]:m[3]]))
			}
		}
	}
	return out
}

// braceAfter returns the offset of the first { after at outside
// parentheses, on the if's line or the next, or -1.
func braceAfter(t string, at int) int {
	depth := 0
	for i := at; i < len(t) && i < at+2048; i++ {
		switch t[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '{':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// matchingBrace returns the offset of the } that closes the { at open,
// counting braces and skipping quoted strings, or -1.
func matchingBrace(t string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(t); i++ {
		c := t[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
