package lint

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file reads a program of a skill together with the skill's own
// modules it imports or sources, which Analyze (a file alone) cannot: a
// Python script that calls registry.collect() from a module beside it, a
// shell script that sources lib/common.sh. A flow that starts in one file
// and ends in another (a secret gathered in one module and posted by
// another, a download one script's library runs) is seen only so.
//
// Invariants: the pass only adds findings, or raises one of a file's
// findings to the severity the joined reading gives; it never lowers one.
// Each program is read once more at most, with at most maxImported files
// and maxJoined bytes joined, direct imports and theirs, and a skill's
// joined readings add up to maxSkillJoined bytes at most, so the cost
// stays a bounded multiple of the skill's size.

// Bounds of the joined reading: per program, and for the whole skill (a
// skill of many programs that all import one large module is read joined
// until the skill's bound, then each program alone, as Analyze reads it).
const (
	maxImported    = 8
	maxJoined      = 256 << 10
	maxSkillJoined = 4 << 20
)

// WithImports returns fs with the findings each Python, JavaScript or shell program of
// the skill (its paths, data returning a file's bytes) shows when read
// after the skill's modules it imports or sources: a finding of a rule the
// file did not have, or a stronger one, is added, its excerpt naming the
// modules read with it. A finding the joined reading places in an
// imported module is that module's.
func WithImports(paths []string, data func(path string) []byte, fs []manifest.Finding) []manifest.Finding {
	have := make(map[string]bool, len(paths))
	for _, p := range paths {
		have[p] = true
	}
	var shells []joinedProgram
	budget := maxSkillJoined
	for _, p := range paths {
		text := data(p)
		lang := importLang(p, text)
		if lang == "" {
			continue
		}
		prog := joinedProgram{file: p, text: text, parts: []part{{file: p, size: strings.Count(string(text), "\n") + 1}}}
		if deps := importedFiles(p, text, lang, have, data); len(deps) > 0 {
			if joined, parts, ok := joinImports(p, text, lang, deps, have, data); ok && len(joined) <= budget {
				budget -= len(joined)
				prog.text, prog.parts = joined, parts
				for _, f := range analyze(p, joined, codeState{}) {
					if Rank(f.Severity) < Rank(SeverityWarning) {
						continue
					}
					file, line, ok := partAt(parts, f.Line)
					if !ok {
						continue
					}
					f.File, f.Line = file, line
					f.Excerpt = excerpt.Of("read with "+strings.Join(prog.others(file), ", ")+": "+f.Excerpt, 0)
					fs = raise(fs, f)
				}
			}
		}
		if lang == "shell" {
			shells = append(shells, prog)
		}
	}
	if len(shells) > 1 {
		fs = savedThenRun(shells, fs)
	}
	return fs
}

// A joinedProgram is a program of the skill as WithImports reads it: its
// text, joined after the modules it imports, and where each file's lines
// are in it.
type joinedProgram struct {
	file  string
	text  []byte
	parts []part
}

// others returns the files of the joined reading other than file.
func (p joinedProgram) others(file string) []string {
	out := []string{}
	for _, q := range p.parts {
		if q.file != file {
			out = append(out, q.file)
		}
	}
	return out
}

// savedThenRun finds a file one shell program of the skill runs or
// sources that another saves a download to (sync-pins.sh curls the team's
// list into ~/.cache/pins/team.env, check.sh's library sources it): a
// download run, graded as one file's would be (download-exec, a warning).
// The paths are compared as each program's analysis spells them, so both
// must build them the same way, as a shared library does.
func savedThenRun(progs []joinedProgram, fs []manifest.Finding) []manifest.Finding {
	type fact struct {
		prog       int
		file, path string
		line       int
	}
	var saved, runs []fact
	for i, p := range progs {
		for _, f := range programFacts(p.file, p.text) {
			file, line, ok := partAt(p.parts, f.line)
			if !ok {
				continue
			}
			x := fact{prog: i, file: file, path: f.path, line: line}
			if f.saved {
				saved = append(saved, x)
			} else {
				runs = append(runs, x)
			}
		}
	}
	for _, r := range runs {
		for _, s := range saved {
			if s.path != r.path || s.prog == r.prog {
				continue
			}
			fs = raise(fs, manifest.Finding{Rule: "download-exec", File: r.file, Line: r.line, Severity: SeverityWarning,
				Excerpt: excerpt.Of("runs "+r.path+", which "+progs[s.prog].file+" saves from a download", 0)})
			break
		}
	}
	return fs
}

// A programFact is a path a program saved a download to (saved) or runs,
// and the line (1-based) where.
type programFact struct {
	saved bool
	path  string
	line  int
}

// programFacts returns the facts the code analysis of a program hands on
// (program.FactSaved, program.FactRuns).
func programFacts(file string, data []byte) []programFact {
	s := newScan(file, data, classify(file, data))
	defer s.free()
	var out []programFact
	for _, f := range program.Analyze(program.Input{File: file, Text: s.text, Starts: s.starts, Kind: programKind(s.roles)}) {
		if f.Severity != "" || f.Rule != program.FactSaved && f.Rule != program.FactRuns {
			continue
		}
		out = append(out, programFact{saved: f.Rule == program.FactSaved, path: f.Excerpt, line: s.lineAt(f.Off) + 1})
	}
	return out
}

// raise adds f to fs unless fs already holds a finding of f's rule in f's
// file at least as strong; a weaker one is replaced.
func raise(fs []manifest.Finding, f manifest.Finding) []manifest.Finding {
	weaker := -1
	for i, g := range fs {
		if g.File != f.File || g.Rule != f.Rule {
			continue
		}
		if Rank(g.Severity) >= Rank(f.Severity) {
			return fs
		}
		weaker = i
	}
	if weaker >= 0 {
		fs[weaker] = f
		return fs
	}
	return append(fs, f)
}

// importLang returns "python" or "shell" for a program the pass reads,
// "" for any other file.
func importLang(file string, text []byte) string {
	head := string(text[:min(len(text), 256)])
	switch {
	case program.IsPython(file, head):
		return "python"
	case program.IsShell(file, head):
		return "shell"
	case program.IsJS(file, head):
		return "js"
	}
	return ""
}

// An import is a module of the skill a program imports, and the name the
// program calls its functions through (registry for registry.collect(),
// "" when it imports names alone or sources a file).
type anImport struct {
	file, qual string
}

// importedFiles returns the skill's files that the program file imports
// or sources, and those they import in turn, deepest first, at most
// maxImported.
func importedFiles(file string, text []byte, lang string, have map[string]bool, data func(string) []byte) []anImport {
	var out []anImport
	seen := map[string]bool{file: true}
	var walk func(f string, t []byte, depth int)
	walk = func(f string, t []byte, depth int) {
		for _, im := range importsOf(f, t, lang, have) {
			if seen[im.file] || len(out) >= maxImported {
				continue
			}
			seen[im.file] = true
			if depth < 1 {
				walk(im.file, data(im.file), depth+1)
			}
			if depth > 0 {
				im.qual = "" // a module's own qualifier names nothing in the program
			}
			out = append(out, im)
		}
	}
	walk(file, text, 0)
	return out
}

// importsOf returns the skill's files that one file imports (Python:
// import a.b, from a import b, from .a import b) or sources (shell:
// source FILE, . FILE), looked for beside the file, in the folder above
// it and at the skill's root.
func importsOf(file string, text []byte, lang string, have map[string]bool) []anImport {
	find := finder(file, have)
	var out []anImport
	for _, line := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(line)
		switch lang {
		case "python":
			out = append(out, pyImports(t, find)...)
		case "shell":
			if p := sourced(t); p != "" {
				if f := find(p); f != "" {
					out = append(out, anImport{file: f})
				}
			}
		case "js":
			if im, ok := jsImport(t, find); ok {
				out = append(out, im)
			}
		}
	}
	return out
}

// finder returns a function that finds a path a file names relative to
// it among the skill's files: beside the file, in the folder above it, or
// at the skill's root ("" when none is the skill's, or it is the file).
func finder(file string, have map[string]bool) func(string) string {
	dir := path.Dir(file)
	return func(rel string) string {
		for _, base := range []string{dir, path.Dir(dir), "."} {
			if p := path.Clean(path.Join(base, rel)); have[p] && p != file {
				return p
			}
		}
		return ""
	}
}

// blankFromImports returns a Python or JavaScript text with each line
// that imports names from a module of the joined reading ("from M import
// names", import { names } from "./m.js", const { names } = require("./m"))
// turned into blanks: the names are the module's functions, defined
// earlier in the joined text, not an unknown module's.
func blankFromImports(file string, text []byte, joined, have map[string]bool) []byte {
	find := finder(file, have)
	out := text
	for off := 0; off < len(text); {
		end := off + bytes.IndexByte(text[off:], '\n')
		if end < off {
			end = len(text)
		}
		t := strings.TrimSpace(string(text[off:end]))
		var ims []anImport
		switch {
		case strings.HasPrefix(t, "from ") && strings.Contains(t, " import ") && !strings.HasSuffix(t, "(") && !strings.HasSuffix(t, "\\"):
			ims = pyImports(t, find)
		case strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "const ") || strings.HasPrefix(t, "let ") || strings.HasPrefix(t, "var "):
			if im, ok := jsImport(t, find); ok && strings.Contains(t, "{") {
				ims = []anImport{im} // import { send } from "./lib.js", const { send } = require("./lib")
			}
		}
		for _, im := range ims {
			if joined[im.file] && im.qual == "" {
				if len(out) > 0 && &out[0] == &text[0] {
					out = slices.Clone(text)
				}
				for k := off; k < end; k++ {
					out[k] = ' '
				}
				break
			}
		}
		off = end + 1
	}
	return out
}

// pyImports returns the modules of the skill one Python line imports.
func pyImports(t string, find func(string) string) []anImport {
	module := func(dotted string) string {
		rel := strings.ReplaceAll(strings.TrimLeft(dotted, "."), ".", "/")
		if rel == "" {
			return ""
		}
		if f := find(rel + ".py"); f != "" {
			return f
		}
		return find(rel + "/__init__.py")
	}
	var out []anImport
	switch {
	case strings.HasPrefix(t, "import "):
		for _, part := range strings.Split(strings.TrimPrefix(t, "import "), ",") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			qual := f[0]
			if len(f) == 3 && f[1] == "as" {
				qual = f[2]
			}
			if m := module(f[0]); m != "" {
				out = append(out, anImport{file: m, qual: qual})
			}
		}
	case strings.HasPrefix(t, "from "):
		f := strings.Fields(t)
		if len(f) < 4 || f[2] != "import" {
			return nil
		}
		if m := module(f[1]); m != "" && !strings.HasSuffix(m, "/__init__.py") {
			out = append(out, anImport{file: m}) // from sources import PROVIDERS: names, no qualifier
		}
		pkg := strings.ReplaceAll(strings.TrimLeft(f[1], "."), ".", "/")
		for _, n := range strings.Split(strings.Join(f[3:], " "), ",") {
			nf := strings.Fields(strings.Trim(n, " ()"))
			if len(nf) == 0 || !isIdent(nf[0]) {
				continue
			}
			qual := nf[0]
			if len(nf) == 3 && nf[1] == "as" {
				qual = nf[2]
			}
			rel := path.Join(pkg, nf[0]) + ".py"
			if pkg == "" {
				rel = nf[0] + ".py"
			}
			if m := find(rel); m != "" {
				out = append(out, anImport{file: m, qual: qual}) // from auditlib import registry: a module
			}
		}
	}
	return out
}

// jsImport returns the module of the skill one JavaScript line imports
// by a relative path (const lib = require("./lib"), import * as lib from
// "./lib.js", import { send } from "./lib.mjs"), with the name the line
// calls it by ("" for named imports).
func jsImport(t string, find func(string) string) (anImport, bool) {
	m := jsImportLine.Regexp().FindStringSubmatch(t)
	if m == nil {
		return anImport{}, false
	}
	spec := m[len(m)-1]
	qual := ""
	switch {
	case m[1] != "":
		qual = m[1] // const lib = require("./lib")
	case m[2] != "":
		qual = m[2] // import * as lib from "./lib.js"
	case m[3] != "":
		qual = m[3] // import lib from "./lib.js"
	}
	for _, ext := range []string{"", ".js", ".mjs", ".cjs", ".ts", "/index.js"} {
		if f := find(spec + ext); f != "" && importLang(f, nil) == "js" {
			return anImport{file: f, qual: qual}, true
		}
	}
	return anImport{}, false
}

// jsImportLine matches a JavaScript line that imports a module by a
// relative path: the name it binds (require's, a namespace's or a
// default import's), and the path.
var jsImportLine = &lazyre.RE{Expr: `^(?:(?:const|let|var)\s+(?:([A-Za-z_$][\w$]*)|\{[^}]*\})\s*=\s*require\(\s*|import\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)|\{[^}]*\})\s+from\s+)["'](\.{1,2}/[^"']+)["']`}

// sourced returns the relative path a shell line sources, or "": the
// literal path, or what follows the script's own folder
// ("$(dirname "$0")/lib/common.sh", "$HERE/lib.sh").
func sourced(t string) string {
	var rest string
	switch {
	case strings.HasPrefix(t, "source "):
		rest = t[len("source "):]
	case strings.HasPrefix(t, ". "):
		rest = t[2:]
	default:
		return ""
	}
	for _, end := range []string{" ;", ";", " &&", " ||", " #"} {
		if k := strings.Index(rest, end); k >= 0 {
			rest = rest[:k]
		}
	}
	p := strings.NewReplacer(`"`, "", "'", "").Replace(strings.TrimSpace(rest))
	if strings.ContainsAny(p, " \t") && !strings.Contains(p, "$(") {
		return "" // source FILE ARGS: the first word only when no substitution holds a blank
	}
	if strings.Contains(p, "$") {
		k := max(strings.LastIndexByte(p, ')'), strings.LastIndexByte(p, '}'))
		if k < 0 {
			// $HERE/lib.sh: the variable's name ends at the first slash
			k = strings.IndexByte(p, '/') - 1
		}
		if k < 0 || k+1 >= len(p) || p[k+1] != '/' {
			return ""
		}
		p = p[k+2:]
	}
	if p == "" || strings.ContainsAny(p, "$`*?") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return ""
	}
	return p
}

// A part is one file's lines in a joined text: its first line there
// (0-based) and how many.
type part struct {
	file        string
	start, size int
}

// joinImports returns the modules' texts, then the program's with the
// qualifiers it calls them through blanked (registry.collect( reads
// collect(, the same length), one after the other, and where each file's
// lines are; false past maxJoined.
func joinImports(file string, text []byte, lang string, deps []anImport, have map[string]bool, data func(string) []byte) ([]byte, []part, bool) {
	var b []byte
	var parts []part
	line := 0
	add := func(f string, t []byte) {
		n := strings.Count(string(t), "\n")
		if len(t) > 0 && t[len(t)-1] != '\n' {
			n++
			t = append(slices.Clip(t), '\n')
		}
		parts = append(parts, part{file: f, start: line, size: n})
		b = append(b, t...)
		line += n
	}
	var quals []string
	joined := map[string]bool{}
	for _, d := range deps {
		joined[d.file] = true
	}
	for _, d := range deps {
		t := data(d.file)
		if len(b)+len(t) > maxJoined {
			return nil, nil, false
		}
		if lang != "shell" {
			t = blankFromImports(d.file, t, joined, have)
		}
		add(d.file, t)
		if d.qual != "" {
			quals = append(quals, d.qual)
		}
	}
	if len(b)+len(text) > maxJoined {
		return nil, nil, false
	}
	if lang != "shell" {
		text = blankFromImports(file, text, joined, have)
	}
	add(file, blankQualifiers(text, quals))
	return b, parts, true
}

// blankQualifiers returns text with each "qual." that starts a name
// turned into as many spaces: the module's functions read as the
// program's own. One that opens a string (f"parsers.{name}") is text
// naming a module, and stays.
func blankQualifiers(text []byte, quals []string) []byte {
	if len(quals) == 0 {
		return text
	}
	out := slices.Clone(text)
	for _, q := range quals {
		q += "."
		for i := 0; ; {
			j := bytes.Index(out[i:], []byte(q))
			if j < 0 {
				break
			}
			j += i
			if j == 0 || !isIdentByte(out[j-1]) && !strings.ContainsRune(".\"'`", rune(out[j-1])) { // "parsers.{name}" names a module, in text
				for k := j; k < j+len(q); k++ {
					out[k] = ' '
				}
			}
			i = j + len(q)
		}
	}
	return out
}

// partAt returns the file and its line (1-based) of a joined text's line.
func partAt(parts []part, line int) (string, int, bool) {
	for _, p := range parts {
		if line-1 >= p.start && line-1 < p.start+p.size {
			return p.file, line - p.start, true
		}
	}
	return "", 0, false
}
