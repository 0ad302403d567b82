package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file runs the code analysis of a file once, when a rule first asks
// for its findings: it picks the parts of the file that hold code (a
// program, a fenced block of Markdown, a recipe), hands each to the
// analysis of its language (shell.go, flow.go), and analyses again what
// they decode or build at run time, and what findEncoded decodes, as the
// same file would be (decode.go), within a budget. Its findings join each
// rule's own (scan.find): the strongest of both is the rule's finding.

// Bounds of the analysis of one file, decoded layers included.
const (
	maxCodeBytes = 2 << 20 // code analysed per file; past it the rest is left to the line rules
	maxDepth     = 24      // layers of decoding or building analysed in a row
	maxLayers    = 64      // layers analysed per file, all depths together
	maxLayerText = 1 << 20 // bytes of layers analysed per file, all depths together
	// maxCodeLine is the longest line a region may hold to be parsed: a
	// longer one is packed or generated code, which minified-code reports
	// as opaque; the line rules and the decoding still read it.
	maxCodeLine = 16 << 10
)

// A budget is what is left of the bounds for one call of Analyze, shared by
// the layers under it.
type budget struct {
	layers, bytes int
}

func newBudget() *budget { return &budget{layers: maxLayers, bytes: maxLayerText} }

// take reports whether n more bytes of a layer fit, and counts them.
func (b *budget) take(n int) bool {
	if b.layers <= 0 || n > b.bytes {
		return false
	}
	b.layers--
	b.bytes -= n
	return true
}

// codeState is what the code analysis found in one file.
type codeState struct {
	done   bool
	depth  int     // how many layers down this text is (0: the file)
	budget *budget // shared by every layer of one Analyze call
	lang   string  // the language of the whole text, when a layer says ("" for the file's own)
	hits   map[int][]hit
}

// A lang is a language the code analysis reads.
const (
	langShell  = "sh"
	langPython = "py"
	langJS     = "js"
	langPS     = "ps1"
	langRuby   = "rb"
	langPerl   = "pl"
)

// langOf returns the language of a program by its name and first line.
func langOf(file, text string) string {
	ext := strings.ToLower(path.Ext(file))
	switch ext {
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return langShell
	case ".py", ".pyw":
		return langPython
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return langJS
	case ".ps1", ".psm1", ".psd1":
		return langPS
	case ".rb", ".rake":
		return langRuby
	case ".pl", ".pm", ".php":
		return langPerl
	}
	if base := strings.ToLower(path.Base(file)); base == ".envrc" || strings.Contains(file, "hooks/") && ext == "" {
		if !strings.HasPrefix(text, "#!") {
			return langShell
		}
	}
	if strings.HasPrefix(text, "#!") {
		first := text[:min(len(text), 128)]
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		switch {
		case strings.Contains(first, "python"):
			return langPython
		case strings.Contains(first, "node") || strings.Contains(first, "deno") || strings.Contains(first, "bun"):
			return langJS
		case strings.Contains(first, "pwsh") || strings.Contains(first, "powershell"):
			return langPS
		case strings.Contains(first, "ruby"):
			return langRuby
		case strings.Contains(first, "perl") || strings.Contains(first, "php"):
			return langPerl
		case strings.Contains(first, "sh"):
			return langShell
		}
	}
	return ""
}

// fenceLang returns the language of a Markdown fence's info string.
func fenceLang(info string) string {
	f := strings.Fields(strings.ToLower(strings.Trim(info, " \t{}.")))
	if len(f) == 0 {
		return langShell // an unlabelled block is most often commands
	}
	switch strings.TrimPrefix(f[0], "language-") {
	case "bash", "sh", "shell", "zsh", "console", "shell-session", "terminal", "ksh", "fish", "sh-session", "cmd", "dockerfile", "makefile", "text", "plain", "txt":
		return langShell
	case "python", "py", "python3", "ipython", "pycon":
		return langPython
	case "js", "javascript", "node", "ts", "typescript", "jsx", "tsx", "mjs", "cjs":
		return langJS
	case "powershell", "ps1", "pwsh", "ps":
		return langPS
	case "ruby", "rb":
		return langRuby
	case "perl", "pl", "php":
		return langPerl
	}
	return ""
}

// A region is a part of the text in one language.
type region struct {
	off  int // where it starts in the text
	text string
	lang string
}

// regions returns the parts of the file that hold code.
func (s *scan) regions() []region {
	if s.code.lang != "" {
		return []region{{0, s.text, s.code.lang}}
	}
	switch {
	case s.roles&roleMarkdown != 0:
		return s.fences()
	case s.roles&(roleScript|roleAutoExec) != 0:
		if l := langOf(s.file, s.text); l != "" {
			return []region{{0, s.text, l}}
		}
	case s.roles&roleManifest != 0:
		return s.recipes()
	}
	return nil
}

// fences returns the fenced blocks of a Markdown file in a language the
// analysis reads.
func (s *scan) fences() []region {
	var out []region
	fence, lang, start := "", "", 0
	for i := 0; i < s.lines(); i++ {
		l := s.line(i)
		if fence != "" {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				if lang != "" {
					out = append(out, region{start, s.text[start:s.starts[i]], lang})
				}
				fence = ""
			}
			continue
		}
		if f, info, ok := openFence(l); ok {
			fence, lang, start = f, fenceLang(info), s.starts[i+1]
			if start > len(s.text) {
				start = len(s.text)
			}
		}
	}
	if fence != "" && lang != "" && start < len(s.text) {
		out = append(out, region{start, s.text[start:], lang})
	}
	return out
}

// recipes returns the shell of a manifest: Makefile recipe lines,
// Dockerfile RUN instructions, whole for other names (left to the line
// rules).
func (s *scan) recipes() []region {
	base := strings.ToLower(path.Base(s.file))
	var out []region
	switch {
	case base == "makefile" || base == "gnumakefile" || base == "justfile":
		for i := range s.lines() {
			if l := s.line(i); strings.HasPrefix(l, "\t") || base == "justfile" && strings.HasPrefix(l, "    ") {
				out = append(out, region{s.starts[i], l, langShell})
			}
		}
	case strings.HasPrefix(base, "dockerfile") || base == "containerfile":
		for i := range s.lines() {
			l := s.line(i)
			if t := strings.TrimLeft(l, " \t"); len(t) > 4 && strings.EqualFold(t[:4], "run ") {
				out = append(out, region{s.starts[i] + len(l) - len(t) + 4, t[4:], langShell})
			}
		}
	}
	return out
}

// extraHits returns what the code analysis found for rule ri.
func (s *scan) extraHits(ri int) []hit {
	if !s.code.done {
		s.code.done = true
		s.analyseCode()
	}
	return s.code.hits[ri]
}

// emit records a finding of rule id at byte off of the text.
func (s *scan) emit(id string, off int, sev, excerpt string) {
	ri, ok := ruleIndex[id]
	if !ok {
		return
	}
	if s.code.hits == nil {
		s.code.hits = map[int][]hit{}
	}
	off = max(0, min(off, len(s.text)))
	if hs := s.code.hits[ri]; len(hs) > 0 && Rank(hs[0].sev) >= Rank(sev) {
		return // one finding per rule: the first of the strongest
	}
	s.code.hits[ri] = []hit{{off: off, sev: sev, excerpt: excerpt}}
}

// analyseCode runs the analyses of the file's code and its layers.
func (s *scan) analyseCode() {
	if s.code.budget == nil {
		s.code.budget = newBudget()
	}
	left := maxCodeBytes
	for _, r := range s.regions() {
		if len(r.text) > left {
			break
		}
		left -= len(r.text)
		if longestLine(r.text) > maxCodeLine {
			continue
		}
		switch r.lang {
		case langShell:
			s.shellRegion(r)
		default:
			s.flowRegion(r)
		}
	}
	if s.code.depth < maxDepth {
		for _, e := range findEncoded(s.text, maxLayers) {
			s.layer(e.off, e.how, e.text, "")
		}
	}
}

// layer analyses text, which the file decodes or builds at byte off, as
// the same file would be (or as a program in lang), and takes its findings
// as the file's own at off, the excerpt saying what was decoded.
func (s *scan) layer(off int, how, text, lang string) {
	if s.code.depth >= maxDepth || !s.code.budget.take(len(text)) {
		return
	}
	file := s.file
	if lang != "" {
		file = "layer." + lang
	}
	for _, f := range analyzeLayer(file, []byte(text), s.code.depth+1, s.code.budget, lang) {
		s.emit(f.Rule, off, f.Severity, how+": "+f.Excerpt)
	}
}

// analyzeLayer is Analyze for a layer of a file: its depth, the budget it
// shares with the file, and the language it is in ("" for the file's).
func analyzeLayer(file string, data []byte, depth int, b *budget, lang string) []manifest.Finding {
	return analyze(file, data, codeState{depth: depth, budget: b, lang: lang})
}

// longestLine returns the length of the longest line of text.
func longestLine(text string) int {
	longest := 0
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			i = len(text)
		}
		longest = max(longest, i)
		text = text[min(i+1, len(text)):]
	}
	return longest
}

// gradeWrite reports a write of content to target when target is a place
// that runs later (persistence) or configures an agent: one rule for the
// shell analysis and the flow analysis of the other languages. A project's
// own file named relatively in instructions or documentation is a note, as
// the line rules grade it; a VS Code task file whose known content has no
// folderOpen task runs nothing by itself.
func (s *scan) gradeWrite(target, content value, at int) {
	p := target.path
	if p == pathNone {
		p = classifyPath(target)
	}
	n := normPath(target.s)
	if p != pathNone && bareRelative(target) && s.roles&roleCode == 0 {
		// A project's file, in instructions or documentation: a note, as
		// the line rules grade it.
		rule := "persistence"
		if p == pathAgentConfig {
			rule = "agent-config"
		}
		s.emit(rule, at, SeverityNote, "")
		return
	}
	switch p {
	case pathPersist:
		sev := SeverityWarning
		if strings.Contains(n, "authorized_keys") {
			sev = SeverityError
		}
		s.emit("persistence", at, sev, "")
	case pathAgentConfig:
		if strings.Contains(n, ".vscode/tasks.json") && content.known && !strings.Contains(content.s, "folderOpen") {
			return // a task file runs by itself only with runOn folderOpen
		}
		sev := SeverityWarning
		if strings.HasPrefix(n, homeMark+"/") {
			sev = SeverityError
		}
		s.emit("agent-config", at, sev, "")
	}
}
