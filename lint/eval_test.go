package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEvalReports prints how the analyser does on real corpora: for each
// `lint --json` report in the folder SKILLS_LINT_EVAL (one per folder of
// libraries, which `just lint-eval` writes), per library (a technique, in
// the attack corpus) how many skills are flagged at warning or above and by
// which rules in which files, then per family how many skills it flags.
// Without SKILLS_LINT_EVAL it is skipped.
func TestEvalReports(t *testing.T) {
	dir := os.Getenv("SKILLS_LINT_EVAL")
	if dir == "" {
		t.Skip("SKILLS_LINT_EVAL names no folder of lint --json reports (see just lint-eval)")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reports in %s: %v", dir, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var r Report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		fmt.Print(evalSummary(strings.TrimSuffix(filepath.Base(file), ".json"), &r))
	}
}

// evalSummary formats the figures of one report.
func evalSummary(name string, r *Report) string {
	type lib struct {
		skills, flagged int
		hits            []string
	}
	libs := map[string]*lib{}
	families := map[string]int{}
	flagged := 0
	for _, s := range r.Skills {
		l := libs[s.Library]
		if l == nil {
			l = &lib{}
			libs[s.Library] = l
		}
		l.skills++
		seen := map[string]bool{}
		hit := false
		for _, f := range s.Findings {
			if f.Waived != "" || Rank(f.Severity) < Rank(SeverityWarning) {
				continue
			}
			hit = true
			l.hits = append(l.hits, fmt.Sprintf("%s %s (%s:%d)", f.Severity, f.Rule, f.File, f.Line))
			if r, ok := RuleByID(f.Rule); ok && !seen[r.Family] {
				seen[r.Family] = true
				families[r.Family]++
			}
		}
		if hit {
			l.flagged++
			flagged++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "== %s: %d skills analysed, %d withheld; %d flagged at warning or above (%.1f%%)\n",
		name, r.Checked, len(r.Withheld), flagged, 100*float64(flagged)/float64(max(r.Checked, 1)))
	names := make([]string, 0, len(libs))
	for n := range libs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		l := libs[n]
		fmt.Fprintf(&b, "  %-20s %d flagged of %d with findings: %s\n", n, l.flagged, l.skills, strings.Join(l.hits, ", "))
	}
	fams := make([]string, 0, len(families))
	for f := range families {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	for _, f := range fams {
		fmt.Fprintf(&b, "  family %-22s %d skill(s)\n", f, families[f])
	}
	return b.String()
}
