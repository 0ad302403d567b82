package release

import (
	"cmp"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Risk is how the analysis of the skills that changed, moved, appeared or
// went changed. Skills whose records are identical are not listed: their
// findings and capabilities are by definition unchanged.
type Risk struct {
	New       []Finding `json:"new"`       // in the newer release, matching none of the older's
	Gone      []Finding `json:"gone"`      // in the older release, matching none of the newer's
	Unchanged []Finding `json:"unchanged"` // in both (as the newer release has them)
	// StaleWaivers are findings of both releases that a waiver covered in
	// the older one and none covers in the newer: the file changed (a
	// waiver is bound to its digest) or the skill moved.
	StaleWaivers     []Finding       `json:"staleWaivers"`
	NewCapabilities  []CapabilitySet `json:"newCapabilities"`  // per skill, what the newer release shows and the older did not
	GoneCapabilities []CapabilitySet `json:"goneCapabilities"` // per skill, what the older release showed and the newer does not
}

func (r *Risk) empty() bool {
	return len(r.New) == 0 && len(r.Gone) == 0 && len(r.StaleWaivers) == 0 &&
		len(r.NewCapabilities) == 0 && len(r.GoneCapabilities) == 0
}

// Finding is a finding of one skill of a release, with the digest of its
// file (what a waiver binds to).
type Finding struct {
	Skill   string `json:"skill"` // the skill's path in its release
	Library string `json:"library"`
	URI     string `json:"uri"`
	lint.Finding
	// OldLine is where the finding was in the older release, when it is in
	// both (Unchanged, StaleWaivers); 0 otherwise.
	OldLine int `json:"oldLine,omitempty"`
}

// CapabilitySet is a skill and some of its capabilities.
type CapabilitySet struct {
	Skill        string   `json:"skill"`
	Capabilities []string `json:"capabilities"`
}

// capabilities returns what a skill was seen to do: the capabilities its
// manifest lists, or for a bundle written before they were listed, those
// of its findings (lint.SkillCaps), which is what build stores.
func capabilities(s *manifest.Skill) []string {
	if s == nil {
		return nil
	}
	if len(s.Capabilities) > 0 {
		return s.Capabilities
	}
	return lint.SkillCaps(s.Findings)
}

// pair is one skill on both sides (old or new nil when only one has it).
type pair struct {
	old, new *manifest.Skill
	moved    bool
}

// path is the pair's path in the newer release, else in the older.
func (p pair) path() string {
	if p.new != nil {
		return p.new.Path
	}
	return p.old.Path
}

// compareRisk compares the findings and capabilities of each pair.
func compareRisk(pairs []pair) Risk {
	r := Risk{New: []Finding{}, Gone: []Finding{}, Unchanged: []Finding{}, StaleWaivers: []Finding{},
		NewCapabilities: []CapabilitySet{}, GoneCapabilities: []CapabilitySet{}}
	for _, p := range pairs {
		var of, nf []lint.Finding
		if p.old != nil {
			_, of = lint.Bindings(p.old)
		}
		if p.new != nil {
			_, nf = lint.Bindings(p.new)
		}
		m := matchFindings(of, nf)
		used := make([]bool, len(of))
		for k, f := range nf {
			if m[k] < 0 {
				r.New = append(r.New, finding(p.new, f, 0))
				continue
			}
			o := of[m[k]]
			used[m[k]] = true
			r.Unchanged = append(r.Unchanged, finding(p.new, f, o.Line))
			if o.Waived != "" && f.Waived == "" {
				r.StaleWaivers = append(r.StaleWaivers, finding(p.new, f, o.Line))
			}
		}
		for k, f := range of {
			if !used[k] {
				r.Gone = append(r.Gone, finding(p.old, f, 0))
			}
		}
		oc, nc := capabilities(p.old), capabilities(p.new)
		if add := minus(nc, oc); len(add) > 0 {
			r.NewCapabilities = append(r.NewCapabilities, CapabilitySet{p.path(), add})
		}
		if del := minus(oc, nc); len(del) > 0 {
			r.GoneCapabilities = append(r.GoneCapabilities, CapabilitySet{p.path(), del})
		}
	}
	for _, fs := range [][]Finding{r.New, r.Gone, r.Unchanged, r.StaleWaivers} {
		sortFindings(fs)
	}
	return r
}

func finding(s *manifest.Skill, f lint.Finding, oldLine int) Finding {
	return Finding{Skill: s.Path, Library: s.Library, URI: s.Entry.URI, Finding: f, OldLine: oldLine}
}

// sortFindings sorts by skill, file, line, column and rule.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Skill, b.Skill), strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.Rule, b.Rule))
	})
}

// minus returns the elements of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// matchFindings pairs the findings of one skill in two releases: for each
// finding of nf, the index in of of the same finding, or -1 for a new one.
// This is the one rule of a finding's identity, which diff and the
// new-findings gate share. Two findings are the same when they have the
// same rule and the same line content (the excerpt: the trimmed line, as
// the analyser cut it), in the same file (by path, or failing that by the
// file's digest, for a file that moved within the skill), and the newer's
// severity is no higher than the older's (a finding that got worse is
// new). The line number is not part of it, so a finding whose line moved
// (lines added above it) is the same finding; between candidates the
// nearest line wins (ties to the earlier line). Each finding of of matches
// at most one of nf.
func matchFindings(of, nf []lint.Finding) []int {
	out := make([]int, len(nf))
	for k := range out {
		out[k] = -1
	}
	// By path first, so a file that stayed keeps its findings even when an
	// identical file appears elsewhere; then by digest, among the rest.
	byFile := newCandidates(of, out, func(f lint.Finding) (string, bool) { return f.File, true })
	for k, f := range nf {
		if b := byFile.take(f); b >= 0 {
			out[k] = b
		}
	}
	byDigest := newCandidates(of, out, func(f lint.Finding) (string, bool) {
		return string(f.Digest[:]), !f.Digest.IsZero()
	})
	for k, f := range nf {
		if out[k] < 0 {
			out[k] = byDigest.take(f)
		}
	}
	return out
}
