package lint

import (
	"fmt"

	"github.com/skills-mcp/skills-mcp/lint/sarif"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Waiver is the operator's acceptance of one rule in one file of one skill,
// as the configuration file states it. It is bound to the file's digest:
// when the file changes, the finding is back. Nothing inside a skill can
// waive a finding; only the configuration file holds waivers.
type Waiver struct {
	Skill  string          `json:"skill"`  // the skill's path: namespace, then folders ("acme/deploy")
	Rule   string          `json:"rule"`   // a rule id of Rules, or an imported one: tool/rule (IsImportedRule)
	Digest manifest.Digest `json:"digest"` // sha256:… of the file the finding is in
	Reason string          `json:"reason"` // why it is accepted: shown wherever the finding is
}

// Check reports what is wrong with a waiver, naming the field.
func (w *Waiver) Check() error {
	switch {
	case w.Skill == "":
		return fmt.Errorf("waiver needs a skill (its path: namespace/folders)")
	case w.Reason == "":
		return fmt.Errorf("waiver for %s: needs a reason", w.Skill)
	case w.Digest == (manifest.Digest{}):
		return fmt.Errorf("waiver for %s: needs the digest of the file (sha256:…)", w.Skill)
	}
	if _, ok := RuleByID(w.Rule); !ok && !sarif.IsImportedRule(w.Rule) {
		return fmt.Errorf("waiver for %s: unknown rule %q (a rule of lint, or tool/rule for an imported one)", w.Skill, w.Rule)
	}
	return nil
}

// Waive marks the findings of the skill at skillPath that a waiver covers:
// Waived takes the waiver's reason. digest returns the digest of a file of
// the skill by its path.
func Waive(ws []Waiver, skillPath string, fs []manifest.Finding, digest func(file string) manifest.Digest) {
	for i := range fs {
		f := &fs[i]
		for _, w := range ws {
			if w.Skill == skillPath && w.Rule == f.Rule && w.Digest == digest(f.File) {
				f.Waived = w.Reason
				break
			}
		}
	}
}

// FailOn returns the findings at or above the severity level that no waiver
// covers: the ones that fail a build or lint run given --fail-on level.
// An empty level fails on nothing.
func FailOn(level string, fs []manifest.Finding) []manifest.Finding {
	if level == "" {
		return nil
	}
	var out []manifest.Finding
	for _, f := range fs {
		if f.Waived == "" && Rank(f.Severity) >= Rank(level) {
			out = append(out, f)
		}
	}
	return out
}

// FileDigest is one file of a skill with the digest a waiver names it by.
type FileDigest struct {
	File   string          `json:"file"` // relative to the skill folder, slash-separated
	Digest manifest.Digest `json:"digest"`
	Size   int64           `json:"size"`
}

// Finding is a finding as the reports list it: with the digest of its file,
// the value a waiver of it binds to.
type Finding struct {
	manifest.Finding
	Digest manifest.Digest `json:"digest"`
}

// Bindings returns every file of s with its digest, and each finding of s
// with the digest of its file: all a waiver needs besides a reason. inspect
// and lint list both from here, so a waiver written from either binds the
// same bytes Waive checks.
func Bindings(s *manifest.Skill) ([]FileDigest, []Finding) {
	files := make([]FileDigest, len(s.Files))
	for i, f := range s.Files {
		files[i] = FileDigest{File: f.Path, Digest: s.Entry.Resources[i].Digest, Size: s.Entry.Resources[i].Size}
	}
	var fs []Finding
	for _, f := range s.Findings {
		b := Finding{Finding: f}
		for _, fd := range files {
			if fd.File == f.File {
				b.Digest = fd.Digest
				break
			}
		}
		fs = append(fs, b)
	}
	return files, fs
}
