package lint

import (
	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Rule describes one rule of the analyser.
type Rule struct {
	ID          string // stable: stored in manifests, used as the SARIF rule id and in waivers
	Family      string // the technique it detects; several rules may share one
	Severity    string // the strongest severity it gives
	Description string // one line: what it looks for
	// Caps are the capabilities (Capabilities) a finding of the rule at
	// warning or above shows, sorted bytewise; empty for a rule about what
	// a text tells the model.
	Caps    []string
	Example Example
}

// Example is a file a rule flags, for docs/lint.md and the tests.
type Example struct {
	File, Text string
}

// Rules returns every rule Analyze applies, in the order its findings come
// back. The slice is shared: callers do not change it.
func Rules() []Rule { return allRules.Get() }

// allRules is what Rules returns, built on first use.
var allRules = lazy.Value[[]Rule]{New: func() []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		ex := r.exText
		if r.exLong != nil {
			ex = r.exLong()
		}
		out[i] = Rule{ID: r.id, Family: r.family, Severity: r.max, Description: r.desc, Caps: r.caps, Example: Example{r.exFile, ex}}
	}
	return out
}}

// RuleByID returns the rule with the id, if there is one.
func RuleByID(id string) (Rule, bool) {
	if i, ok := ruleIndex.Get()[id]; ok {
		return Rules()[i], true
	}
	return Rule{}, false
}

// Analyze applies every rule to one file of a skill and returns its findings
// in rule order. file is the path relative to the skill folder,
// slash-separated; with the first bytes it gives the file's roles (what the
// file is and what will run or read it), which pick the rules that apply.
// Analyze accepts any bytes, reads every one of them (a big file in
// windows, see WindowBytes), and never fails.
//
// Analyze labels, it never blocks. Each rule gives at most one finding per
// file: the first line that matches with its strongest severity. Lines are
// split on "\n" with an optional "\r" and numbered from 1; columns count
// Unicode code points from 1. The excerpt is the trimmed line, valid UTF-8
// with control, format and bidirectional characters replaced by U+FFFD, at
// most MaxExcerpt bytes cut at a rune boundary; a match further right than
// fits starts the excerpt near the match, after "…".
//
// The rules are in rules.go, one table a reader can review in one place;
// docs/lint.md lists them with an example each.
func Analyze(file string, data []byte) []manifest.Finding {
	return analyze(file, data, codeState{})
}
