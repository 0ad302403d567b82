package lint

import (
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/filekind"
	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/lint/sqlite"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file runs the rules over a file (analyze: window by window, each
// rule on the lines that hold its keys, scan.find), and joins the code
// analysis (package program) to them: it runs the analysis of a text once,
// when a rule first asks for its findings, analyses the layers it decodes
// as the same file would be (which is analyze again, a layer deeper), and
// turns what it found into hits of the rules.

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
			if f.Rule == "sensitive-path" && f.Excerpt != "" {
				s.code.readOnly = append(s.code.readOnly, f.Excerpt)
			}
			if g := (gradedLine{f.Rule, s.lineAt(f.Off)}); !slices.Contains(s.code.graded, g) {
				s.code.graded = append(s.code.graded, g)
			}
			continue
		}
		ri, ok := ruleIndex.Get()[f.Rule]
		if !ok {
			continue
		}
		if s.code.hits == nil {
			s.code.hits = map[int][]hit{}
		}
		s.code.hits[ri] = []hit{{off: f.Off, sev: f.Severity, excerpt: f.Excerpt}}
	}
}

// leftToCode reports whether rule ri's own matchers leave line i to the
// code analysis: the line where the analysis saw what the rule looks for
// whole and graded it itself (a write to a place that runs later, with
// the place and what was written: a plain command a cron line or a
// profile runs; git pointed at the repository's own hooks folder; an
// image URL whose query holds only values the analysis saw carry no
// data; a project's own install script piped to a shell, its URL built
// from values the analysis knows): its grade is the rule's.
func (s *scan) leftToCode(ri, i int) bool {
	if id := rules[ri].id; id != "persistence" && id != "agent-config" && id != "autorun-config" && id != "image-exfil" && id != "pipe-to-shell" {
		return false
	}
	s.extraHits(ri) // runs the analysis once
	return slices.Contains(s.code.graded, gradedLine{rules[ri].id, i})
}

// readOnlyPath reports a path (as a line names it) to a secret file that
// the code analysis saw read and graded itself: only structure of it
// reached anything (program's secretread.go), so the line is a note.
func (s *scan) readOnlyPath(p string) bool {
	s.extraHits(0) // runs the analysis once
	n := program.NormPath(p)
	for _, g := range s.code.readOnly {
		if g == n || strings.HasPrefix(g, n+"/") {
			return true
		}
	}
	return false
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

// analyze is Analyze with the state of the code analysis to start from: a
// layer of a file (analyzeLayer) carries its depth and the file's budget.
func analyze(file string, data []byte, code codeState) []manifest.Finding {
	if text, ok := filekind.UTF16Text(data); ok {
		data = text
	}
	roles := classify(file, data)
	if roles == roleBinary {
		return binaryFindings(file, data)
	}
	if code.budget == nil && len(data) > WindowBytes {
		code.budget = program.NewBudget() // one for the file, all its windows together
	}
	var out []manifest.Finding
	for w := (window{}); ; {
		w = w.next(data)
		out = mergeFindings(out, analyzeWindow(file, data, roles, w, code))
		if w.end == len(data) {
			return out
		}
	}
}

// analyzeWindow applies the text rules to window w of data.
func analyzeWindow(file string, data []byte, roles role, w window, code codeState) []manifest.Finding {
	s := newScan(file, data[w.start:w.end], roles)
	defer s.free()
	s.full, s.lineBase, s.colBase = len(data), w.line, w.col
	s.code = code
	var out []manifest.Finding
	for i := range rules {
		r := &rules[i]
		if r.roles != 0 && r.roles&roles == 0 {
			continue
		}
		if f, ok := s.find(i); ok {
			f.File = file
			if roles == roleData && (r.family == "prompt-injection" || r.family == "hidden-instructions") && Rank(f.Severity) > Rank(SeverityNote) && testData(file) {
				f.Severity = SeverityNote
				f.Excerpt = excerpt.Of("test data: "+f.Excerpt, 0)
			}
			out = append(out, f)
		}
	}
	return out
}

// testData reports a file under a folder of test or sample data (fixtures,
// testdata, evals, tests, red-team cases, examples, samples), or named for
// the attacks it holds (jailbreak_eval.jsonl, redteam-prompts.yaml; not a
// name as plain as fixtures.json, which an attack gives its payload): text the
// skill's tests, evaluations and examples feed to the code or the model
// under test, as a phishing triage skill's sample email, a log hunt's
// sample hits or a red-team suite's payloads are. What it says to a model
// is the case being tested, not an instruction to the agent; prose and
// code files are read as ever.
func testData(file string) bool {
	for _, seg := range strings.Split(path.Dir(file), "/") {
		switch strings.ToLower(seg) {
		case "fixtures", "fixture", "__fixtures__", "testdata", "test-data", "test_data", "tests", "test", "evals", "eval",
			"redteam", "red-team", "jailbreaks", "examples", "example", "samples", "sample":
			return true
		}
	}
	base := strings.ToLower(path.Base(file))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' }) {
		switch w {
		case "jailbreak", "jailbreaks", "redteam":
			return true // a data file named for the attacks it holds: jailbreak_eval_ko.jsonl
		}
	}
	return strings.Contains(base, "red-team") || strings.Contains(base, "red_team")
}

// find returns the finding of rule r (rules[ri]) in the file, if any: the
// first match with the strongest severity, of the rule's own matchers and
// of the code analysis.
func (s *scan) find(ri int) (manifest.Finding, bool) {
	best, found := s.findOwn(ri)
	for _, h := range s.extraHits(ri) {
		i := s.lineAt(h.off)
		f := s.finding(ri, i, h.off-s.starts[i], s.exampleSev(ri, i, s.sevAt(i, h.sev)))
		if h.excerpt != "" {
			f.Excerpt = excerpt.Of(h.excerpt, 0)
		}
		if !found || Rank(f.Severity) > Rank(best.Severity) {
			best, found = f, true
		}
	}
	return best, found
}

// findOwn returns the finding of rule r's own matchers.
func (s *scan) findOwn(ri int) (manifest.Finding, bool) {
	r := &rules[ri]
	var best manifest.Finding
	found := false
	// take keeps f if it is stronger than what was found, and reports
	// whether the search is over: nothing can beat f.
	take := func(f manifest.Finding) bool {
		if !found || Rank(f.Severity) > Rank(best.Severity) {
			best, found = f, true
		}
		return best.Severity == r.max
	}
	if r.file != nil {
		for _, h := range r.file(s) {
			i := s.lineAt(h.off)
			sev := h.sev
			if r.family != "auto-exec" { // the rule that grades running on its own needs no floor for it
				sev = s.sevAt(i, sev)
			}
			f := s.finding(ri, i, h.off-s.starts[i], s.exampleSev(ri, i, sev))
			if h.excerpt != "" {
				f.Excerpt = excerpt.Of(h.excerpt, 0)
			}
			if take(f) {
				break
			}
		}
		return best, found
	}
	look := func(i int, keys keySet) bool {
		if s.leftToCode(ri, i) {
			return false
		}
		start, sev := s.matchLine(ri, i, keys)
		if sev == "" {
			return false
		}
		return take(s.finding(ri, i, start, sev))
	}
	// The candidate lines: those holding a key of a pattern, or all of them
	// for a multi-line matcher or an unkeyed rule.
	if r.unkeyed {
		for i := range s.lines() {
			if look(i, keySet{}) {
				break
			}
		}
		return best, found
	}
	if r.multi != nil {
		h := 0
		for i := range s.lines() {
			var keys keySet
			if h < len(s.hits) && s.hits[h] == i {
				keys = s.hitKeys[h]
				h++
			}
			if look(i, keys) {
				break
			}
		}
		return best, found
	}
	want := ruleKeys().rules[ri]
	for h, i := range s.hits {
		if s.hitKeys[h].meets(want) && look(i, s.hitKeys[h]) {
			break
		}
	}
	return best, found
}

// matchLine returns where rule r (rules[ri]) matches line i, which holds the
// keys keys, and with what severity: the strongest there, or "" for no
// match.
func (s *scan) matchLine(ri, i int, keys keySet) (int, string) {
	r := &rules[ri]
	if r.where != 0 && (s.flag(i)&r.where == 0 || s.flag(i)&lineProse != 0) {
		return -1, "" // not a line of code, or a comment in one
	}
	line := s.line(i)
	start, best := -1, ""
	// In Markdown other than SKILL.md, code quoted in a prose line (a
	// table of patterns, an inline example) is documentation: a note.
	quoted := s.roles&roleMarkdown != 0 && s.roles&roleSkill == 0 && s.flag(i)&lineProse != 0
	consider := func(at int, sev string) bool {
		if quoted && sev != SeverityNote && (strings.HasPrefix(strings.TrimSpace(line), "|") || strings.Count(line[:at], "`")%2 == 1) {
			sev = SeverityNote
		}
		if r.family == "supply-chain" && sev != SeverityNote && s.roles&roleScript != 0 && s.inMessage(i, at) {
			sev = SeverityNote // print("Install with: pip install git+…"): advice the script prints
		}
		if sev != SeverityNote && s.roles&(roleScript|roleData) != 0 && s.inPattern(i, at) {
			sev = SeverityNote // re.compile(rb"(curl|wget|bash|sh -c)"): a scanner's pattern
		}
		sev = s.exampleSev(ri, i, s.sevAt(i, sev))
		if Rank(sev) > Rank(best) {
			start, best = at, sev
		}
		return best == r.max
	}
	pats := ruleKeys().pats[ri]
	for k := range r.pats {
		p := &r.pats[k]
		// The keys of p.all hold no letters (a test checks), so the line's
		// case does not matter.
		if !r.unkeyed && !keys.meets(pats[k]) || !containsAll(line, p.all) {
			continue
		}
		// The first maxMatches matches of a line are enough to grade it, and
		// bound the work of checks that read the line (a long line of
		// matches would otherwise cost its length squared).
		for _, m := range p.re.FindAllStringSubmatchIndex(line, maxMatches) {
			sev := p.sev
			if p.check != nil {
				sev = p.check(s, i, m)
			}
			if Rank(sev) > Rank(SeverityNote) && r.id == "sensitive-path" && (s.flag(i)&lineCode != 0 || s.roles&roleScript != 0) && s.readOnlyPath(line[m[0]:m[1]]) {
				// The code analysis saw the file read, and only its
				// structure (names, counts) reach anything: its grade,
				// for the code and the comments of a script alike.
				sev = SeverityNote
			}
			if sev == "" || r.prose && s.flag(i)&lineProse != 0 && negatedProse(s.clauseBefore(i, m[0])) {
				continue
			}
			if consider(m[0], sev) {
				return start, best
			}
		}
	}
	if r.multi != nil {
		if at, sev := r.multi(s, i); sev != "" {
			consider(at, sev)
		}
	}
	return start, best
}

// binaryFindings returns the findings of a binary file: the rules with a
// bin matcher. An SQLite database that package sqlite reads whole is not
// opaque: its text (the schema's SQL, every table's rows) is analysed as a
// data file's, its findings at the database's first line.
func binaryFindings(file string, data []byte) []manifest.Finding {
	var rows []manifest.Finding
	read := false // an SQLite database whose text the analysis read whole
	why := ""     // or why it could not
	if k, name := filekind.Sniff(data); k == filekind.Database && name == "SQLite" {
		if text, err := sqlite.Text(data); err != nil {
			why = "an SQLite database the analyser cannot read whole: " + err.Error()
		} else {
			read = true
			rows = analyze(file+"\x00rows", []byte(text), codeState{})
			for i := range rows {
				rows[i].File, rows[i].Line, rows[i].Column = file, 1, 1 // its lines are rows, not the file's
			}
		}
	}
	var out []manifest.Finding
	for _, r := range rules {
		if r.bin == nil {
			continue
		}
		if sev, ex := r.bin(file, data); sev != "" {
			switch {
			case read && r.id == "opaque-file":
				sev, ex = SeverityNote, "an SQLite database, read whole: its schema and every table's text are read as text"
			case why != "" && r.id == "opaque-file":
				ex = why // what stopped the reading: a binary blob, a page it cannot follow
			}
			out = append(out, manifest.Finding{Rule: r.id, File: file, Line: 1, Column: 1, Severity: sev, Excerpt: ex})
		}
	}
	return mergeFindings(out, rows)
}
