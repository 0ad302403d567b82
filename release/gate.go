package release

// The gate over a diff's risk: what --fail-on-new and diff --sarif read.
// It uses both the diff (diff.go) and its risk (risk.go), which know
// nothing of it.

import (
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// NewAtOrAbove returns the findings new in the newer release (Risk.New)
// that no waiver covers and that reach the severity level: what
// --fail-on-new level fails on. An empty level returns none.
func (d *Diff) NewAtOrAbove(level string) []Finding {
	if level == "" {
		return nil
	}
	var out []Finding
	for _, f := range d.Risk.New {
		if f.Waived == "" && lint.Rank(f.Severity) >= lint.Rank(level) {
			out = append(out, f)
		}
	}
	return out
}

// SARIF returns the report of the findings new in the newer release, for
// lint.WriteSARIF: what diff --sarif prints.
func (d *Diff) SARIF() *lint.Report {
	rep := &lint.Report{Skills: []lint.Skill{}, Withheld: []manifest.Withheld{}}
	byPath := map[string]int{}
	for _, p := range d.pairs {
		if p.new != nil {
			rep.Checked++
		}
	}
	caps := map[string][]string{}
	for _, p := range d.pairs {
		if p.new != nil {
			caps[p.new.Path] = capabilities(p.new)
		}
	}
	for _, f := range d.Risk.New {
		i, ok := byPath[f.Skill]
		if !ok {
			i = len(rep.Skills)
			byPath[f.Skill] = i
			// Dir puts each result at <skill path>/<file>: a release knows no
			// library folder.
			rep.Skills = append(rep.Skills, lint.Skill{Library: f.Library, Path: f.Skill, Dir: f.Skill, URI: f.URI, Capabilities: caps[f.Skill]})
		}
		rep.Skills[i].Findings = append(rep.Skills[i].Findings, f.Finding)
	}
	return rep
}
