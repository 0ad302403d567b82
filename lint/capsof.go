package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/lint/source"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file reads capabilities off findings (FindingCaps, SkillCaps) by
// their rules, and gates on them (Deny); the names themselves are caps.go's.

// ruleIndex maps a rule id to its place in Rules.
var ruleIndex = lazy.Value[map[string]int]{New: func() map[string]int {
	m := make(map[string]int, len(rules))
	for i, r := range rules {
		m[r.id] = i
	}
	return m
}}

// FindingCaps returns the capabilities a finding shows: its rule's, when
// the finding is at warning or above, or a note of running a download
// whose excerpt names a project's own install script (source.Installer:
// graded a note for its source, not for doubt that it runs), or a note of
// tool-grant (the shell granted by its bare name). Any other
// note shows none (it is the analyser's low confidence), nor does a
// finding of a rule Analyze does not have (another tool's, imported from
// SARIF: its rules say nothing in this vocabulary).
func FindingCaps(f *manifest.Finding) []string {
	i, ok := ruleIndex.Get()[f.Rule]
	if Rank(f.Severity) < Rank(SeverityWarning) {
		if ok && f.Severity == SeverityNote && rules[i].family == "remote-exec" && namesInstaller(f.Excerpt) {
			return rules[i].caps // a project's own install script: trusted, and still run
		}
		if ok && f.Severity == SeverityNote && f.Rule == "tool-grant" {
			return rules[i].caps // the shell granted by its bare name: common, and still granted
		}
		return nil
	}
	if ok {
		if r := &rules[i]; r.capsOf != nil {
			return r.capsOf(f.Excerpt)
		}
		return rules[i].caps
	}
	return nil
}

// SkillCaps returns the capabilities of a skill with the findings fs:
// those of every finding (FindingCaps), waived ones included, sorted
// bytewise, nil for none. A waiver accepts a finding, it does not undo
// what the skill does: an agent still sees it (Deny, which gates, leaves
// waived findings out).
func SkillCaps(fs []manifest.Finding) []string {
	var out []string
	for i := range fs {
		for _, c := range FindingCaps(&fs[i]) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// CheckDeny reports what is wrong with a list of denied capabilities: each
// one of Capabilities.
func CheckDeny(deny []string) error {
	for _, c := range deny {
		if !IsCapability(c) {
			return fmt.Errorf("deny: unknown capability %q (capabilities: %s)", c, strings.Join(Capabilities, ", "))
		}
	}
	return nil
}

// A Denial is a finding that shows a denied capability.
type Denial struct {
	Finding manifest.Finding
	Caps    []string // the finding's capabilities that deny names, sorted
}

// Deny returns the findings of fs that no waiver covers and that show a
// capability of deny (FindingCaps), in the order of fs: each withholds its
// skill, under the finding's rule. A waived finding does not: the waiver,
// bound to the file's digest, is the operator's acceptance of that rule in
// that file, as it is for --fail-on.
func Deny(deny []string, fs []manifest.Finding) []Denial {
	if len(deny) == 0 {
		return nil
	}
	var out []Denial
	for i := range fs {
		if fs[i].Waived != "" {
			continue
		}
		var caps []string
		for _, c := range FindingCaps(&fs[i]) {
			if slices.Contains(deny, c) {
				caps = append(caps, c)
			}
		}
		if len(caps) > 0 {
			out = append(out, Denial{fs[i], caps})
		}
	}
	return out
}

// namesInstaller reports whether an excerpt names a URL of a project's own
// install script (source.Installer).
func namesInstaller(excerpt string) bool {
	for _, w := range strings.Fields(excerpt) {
		w = strings.Trim(w, `"'(),;`)
		if i := strings.Index(w, "https://"); i >= 0 && source.Installer(w[i:]) {
			return true
		}
	}
	return false
}
