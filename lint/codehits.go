package lint

import (
	"slices"

	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file joins the code analysis (package program) to the rules: it
// runs the analysis of a text once, when a rule first asks for its
// findings, analyses the layers it decodes as the same file would be, and
// turns what it found into hits of the rules (scan.find).

// codeState is what the code analysis found in one text.
type codeState struct {
	done   bool
	depth  int             // how many layers down this text is (0: the file)
	budget *program.Budget // shared by every layer of one file
	lang   string          // the language of the whole text, when a layer says ("" for the file's own)
	hits   map[int][]hit
	graded []gradedLine // the lines where the analysis graded a rule's matter itself (program.Finding)
}

// extraHits returns what the code analysis found for rule ri.
func (s *scan) extraHits(ri int) []hit {
	if !s.code.done {
		s.code.done = true
		s.analyseCode()
	}
	return s.code.hits[ri]
}

// analyseCode runs the code analysis of the text and keeps its findings
// as hits of the rules they name.
func (s *scan) analyseCode() {
	in := program.Input{File: s.file, Text: s.text, Starts: s.starts, Kind: programKind(s.roles),
		Lang: s.code.lang, Depth: s.code.depth, Budget: s.code.budget, Reanalyze: reanalyze}
	for _, f := range program.Analyze(in) {
		if f.Severity == "" {
			if g := (gradedLine{f.Rule, s.lineAt(f.Off)}); !slices.Contains(s.code.graded, g) {
				s.code.graded = append(s.code.graded, g)
			}
			continue
		}
		ri, ok := ruleIndex()[f.Rule]
		if !ok {
			continue
		}
		if s.code.hits == nil {
			s.code.hits = map[int][]hit{}
		}
		s.code.hits[ri] = []hit{{off: f.Off, sev: f.Severity, excerpt: f.Excerpt}}
	}
}

// gradedLine is a line where the code analysis graded rule's matter.
type gradedLine struct {
	rule string
	line int
}

// leftToCode reports whether rule ri's own matchers leave line i to the
// code analysis: the line where the analysis saw what the rule looks for
// whole and graded it itself (a write to a place that runs later, with
// the place and what was written: a plain command a cron line or a
// profile runs; git pointed at the repository's own hooks folder): its
// grade is the rule's.
func (s *scan) leftToCode(ri, i int) bool {
	if id := rules[ri].id; id != "persistence" && id != "autorun-config" {
		return false
	}
	s.extraHits(ri) // runs the analysis once
	return slices.Contains(s.code.graded, gradedLine{rules[ri].id, i})
}

// programKind returns what the code analysis needs to know of a file's
// roles.
func programKind(r role) program.Kind {
	var k program.Kind
	if r&roleMarkdown != 0 {
		k |= program.Markdown
	}
	if r&roleScript != 0 {
		k |= program.Script
	}
	if r&roleAutoExec != 0 {
		k |= program.AutoExec
	}
	if r&roleManifest != 0 {
		k |= program.Manifest
	}
	return k
}

// reanalyze is program.Input.Reanalyze: a layer analysed as a file.
func reanalyze(file string, data []byte, depth int, b *program.Budget, lang string) []program.Finding {
	fs := analyzeLayer(file, data, depth, b, lang)
	out := make([]program.Finding, len(fs))
	for i, f := range fs {
		out[i] = program.Finding{Rule: f.Rule, Severity: f.Severity, Excerpt: f.Excerpt}
	}
	return out
}

// analyzeLayer is Analyze for a layer of a file: its depth, the budget it
// shares with the file, and the language it is in ("" for the file's).
func analyzeLayer(file string, data []byte, depth int, b *program.Budget, lang string) []manifest.Finding {
	return analyze(file, data, codeState{depth: depth, budget: b, lang: lang})
}
