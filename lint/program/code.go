package program

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file runs the code analysis of a text: it picks the parts of the
// file that hold code (a program, a fenced block of Markdown, a recipe),
// hands each to the analysis of its language (shell.go, flow.go), and has
// the caller analyse again what they decode or build at run time, and what
// encoded.Find decodes, as the same file would be (lint/encoded), within a
// budget. Its findings join each rule's own in lint: the strongest of both
// is the rule's finding.

// Bounds of the analysis of one file, decoded layers included.
const (
	// maxCodeBytes is the code analysed per file, its windows and layers
	// together: past it the rest is left to the line rules, and reported
	// (unanalysed-code). It bounds the work and the memory of a file.
	maxCodeBytes = 1 << 20
	maxDepth     = 24      // layers of decoding or building analysed in a row
	maxLayers    = 64      // layers analysed per file, all depths together
	maxLayerText = 1 << 20 // bytes of layers analysed per file, all depths together
	// maxCodeLine is the longest line a region may hold to be parsed: a
	// longer one is packed or generated code, which minified-code reports
	// as opaque; the line rules and the decoding still read it.
	maxCodeLine = 16 << 10
)

// A Budget is what is left of the bounds for one file, shared by the
// layers under it.
type Budget struct {
	layers, bytes int
	code          int // bytes of code left to analyse
}

// NewBudget returns the budget of one file.
func NewBudget() *Budget { return &Budget{layers: maxLayers, bytes: maxLayerText, code: maxCodeBytes} }

// takeCode reports whether n more bytes of code fit, and counts them.
func (b *Budget) takeCode(n int) bool {
	if n > b.code {
		return false
	}
	b.code -= n
	return true
}

// budget returns the file's budget, made on first use.
func (s *scan) budget() *Budget {
	if s.in.Budget == nil {
		s.in.Budget = NewBudget() // the file's, shared by the layers under it
	}
	return s.in.Budget
}

// unanalysed is the rule of what the analysis could not read whole.
const unanalysed = "unanalysed-code"

// opaque reports, at byte off, code the analysis did not read whole, and
// why.
func (s *scan) opaque(off int, why string) {
	s.emit(unanalysed, off, SeverityWarning, why)
}

// Left returns the layers and bytes of layers the budget has left.
func (b *Budget) Left() (layers, bytes int) { return b.layers, b.bytes }

// take reports whether n more bytes of a layer fit, and counts them.
func (b *Budget) take(n int) bool {
	if b.layers <= 0 || n > b.bytes {
		return false
	}
	b.layers--
	b.bytes -= n
	return true
}

// Severities of a finding, from the strongest, as lint names them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityNote    = "note"
)

// Rank orders severities: error 3, warning 2, note 1, anything else 0.
func Rank(severity string) int {
	switch severity {
	case SeverityError:
		return 3
	case SeverityWarning:
		return 2
	case SeverityNote:
		return 1
	}
	return 0
}

// Kind says what a file is, as far as the analysis cares: which parts of
// it hold code.
type Kind uint8

// Kinds of file; a file may be more than one.
const (
	Markdown Kind = 1 << iota // its fenced blocks hold code
	Script                    // a program, whole
	AutoExec                  // a file a tool runs on its own, whole
	Manifest                  // a Makefile or Dockerfile: its recipes hold shell
)

// codeKinds are what a program is made of: the text is code, not instructions or
// documentation that mention it.
const codeKinds = Script | AutoExec | Manifest

// Input is one text to analyse: a file, a window of a big one, or a layer
// the analysis of one decoded or built.
type Input struct {
	File string // the path relative to the skill folder, slash-separated
	Text string
	// Starts are the offsets of the text's lines: Starts[i] starts line i,
	// and the last ends the last line, one past its "\n" (lint's scan).
	Starts []int
	Kind   Kind
	Lang   string  // the language of the whole text, when a layer says ("" for the file's own)
	Depth  int     // how many layers down this text is (0: the file)
	Budget *Budget // shared by every layer of one file; nil for a new one
	// Reanalyze analyses a layer as the caller analyses a file (its line
	// rules and this analysis), at the depth given and within the budget,
	// and returns its findings, whose Off is not used.
	Reanalyze func(file string, data []byte, depth int, b *Budget, lang string) []Finding
}

// A Finding is what the analysis found for a rule: at byte Off of the
// text, with a severity and, when the line does not say it, an excerpt.
// A Finding with no Severity reports what the analysis graded itself at
// Off for its Rule (a write by gradeWrite: the place written and what was
// written were seen), so the rule's line matchers leave that line to it.
type Finding struct {
	Rule     string
	Off      int
	Severity string
	Excerpt  string
}

// scan is the analysis of one text.
type scan struct {
	file   string
	roles  Kind
	text   string
	starts []int
	in     Input
	hits   map[string]Finding
	graded []Finding   // what the analysis graded itself (a write by gradeWrite), with no severity (see Finding)
	plain  []string    // the places (normPath) a write graded a note put a plain job, service or entry (gradeWrite)
	reads  secretReads // the reads of secret files, graded at the end (secretread.go)
	creds  []string    // the credentials' variables the text reads from the environment (envsecret.go)
	// asked says the shell being walked runs only after the user answered
	// yes at the terminal (shellconsent.go): a write that runs later is
	// theirs to have agreed to.
	asked bool
	facts int // how many facts the text handed on (fact)
}

// lines returns the number of lines.
func (s *scan) lines() int { return len(s.starts) - 1 }

// line returns line i without its "\n" and a final "\r".
func (s *scan) line(i int) string {
	return strings.TrimSuffix(s.text[s.starts[i]:s.starts[i+1]-1], "\r")
}

// IsGitHookName reports whether base is a name git runs a hook by
// (pre-commit, post-checkout, …): a file so named without an extension is
// a shell script whether or not it starts with #! (husky's hooks do not).
func IsGitHookName(base string) bool {
	switch base {
	case "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
		"pre-push", "post-rewrite", "pre-merge-commit", "pre-auto-gc", "post-applypatch", "pre-applypatch", "applypatch-msg":
		return true
	}
	return false
}

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
	case ".go":
		return langGo
	case ".bat", ".cmd":
		return langBatch
	case ".reg":
		return langReg
	}
	if base := strings.ToLower(path.Base(file)); base == ".envrc" || ext == "" && (strings.Contains(file, "hooks/") || IsGitHookName(base)) {
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

// IsPython reports whether the program file, whose text starts with
// text, is Python (by its name or its #! line).
func IsPython(file, text string) bool { return langOf(file, text) == langPython }

// IsShell reports whether the program file, whose text starts with text,
// is a shell script (by its name or its #! line).
func IsShell(file, text string) bool { return langOf(file, text) == langShell }

// IsJS reports whether the program file, whose text starts with text, is
// JavaScript or TypeScript (by its name or its #! line).
func IsJS(file, text string) bool { return langOf(file, text) == langJS }

// fenceLang returns the language of a Markdown fence's info string.
func fenceLang(info string) string {
	f := strings.Fields(strings.ToLower(strings.Trim(info, " \t{}.")))
	if len(f) == 0 {
		return langShell // an unlabelled block is most often commands
	}
	switch strings.TrimPrefix(f[0], "language-") {
	case "bash", "sh", "shell", "zsh", "console", "shell-session", "terminal", "ksh", "fish", "sh-session", "makefile", "text", "plain", "txt":
		return langShell
	case "dockerfile", "docker", "containerfile":
		return langDocker
	case "bat", "batch", "cmd", "dos", "batchfile", "winbatch", "doscon":
		return langBatch
	case "reg", "registry":
		return langReg
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
	// preset are shell variables the region starts with, NAME=value (a
	// Dockerfile's platform ARGs, which BuildKit sets).
	preset []string
}

// regions returns the parts of the file that hold code.
func (s *scan) regions() []region {
	if s.in.Lang != "" {
		return []region{{off: 0, text: s.text, lang: s.in.Lang}}
	}
	switch {
	case s.roles&Markdown != 0:
		return s.fences()
	case s.roles&(Script|AutoExec) != 0:
		if l := langOf(s.file, s.text); l != "" {
			text := s.text
			switch strings.ToLower(path.Ext(s.file)) {
			case ".ts", ".tsx", ".mts", ".cts":
				text = tsStrip(text) // TypeScript's annotations blanked: JavaScript to the reader
			}
			out := []region{{off: 0, text: text, lang: l}}
			if l == langGo {
				out = append(out, goGenerate(s)...)
			}
			return out
		}
	case s.roles&Manifest != 0:
		return s.recipes()
	}
	return nil
}

// goGenerate returns the commands of a Go file's //go:generate
// directives as shell, one region a line: go generate runs each as a
// command (its words split as the shell splits them, near enough).
func goGenerate(s *scan) []region {
	if !strings.Contains(s.text, "//go:generate ") {
		return nil
	}
	var out []region
	for i := range s.lines() {
		l := s.line(i)
		if rest, ok := strings.CutPrefix(l, "//go:generate "); ok {
			out = append(out, region{off: s.starts[i] + len(l) - len(rest), text: rest, lang: langShell})
		}
	}
	return out
}

// fences returns the fenced blocks of a Markdown file in a language the
// analysis reads.
func (s *scan) fences() []region {
	if !strings.Contains(s.text, "```") && !strings.Contains(s.text, "~~~") {
		return nil // a fence is three backticks or tildes
	}
	var out []region
	fence, lang, start := "", "", 0
	for i := 0; i < s.lines(); i++ {
		l := s.line(i)
		if fence != "" {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				out = appendRegion(out, region{off: start, text: s.text[start:s.starts[i]], lang: lang})
				fence = ""
			}
			continue
		}
		if f, info, ok := OpenFence(l); ok {
			fence, lang, start = f, fenceLang(info), s.starts[i+1]
			if start > len(s.text) {
				start = len(s.text)
			}
		}
	}
	if fence != "" && start < len(s.text) {
		out = appendRegion(out, region{off: start, text: s.text[start:], lang: lang})
	}
	return out
}

// appendRegion appends a fenced block's region to out: none for a
// language the analysis does not read, a Dockerfile's as its script.
func appendRegion(out []region, r region) []region {
	switch r.lang {
	case "":
		return out
	case langDocker:
		return append(out, dockerRegions(r.text, r.off)...)
	}
	return append(out, r)
}

// dockerRegions returns the code of a Dockerfile's text, which starts at
// byte off of the file: one shell region of its RUN instructions
// (dockerScript), and a region of its own for each RUN heredoc in
// another language.
func dockerRegions(text string, off int) []region {
	script, bodies, preset := dockerScript(text)
	var out []region
	if script != "" {
		out = append(out, region{off: off, text: script, lang: langShell, preset: preset})
	}
	for _, b := range bodies {
		if lang := langOf("", text[b.start:b.end]); lang != "" && lang != langShell {
			out = append(out, region{off: off + b.start, text: text[b.start:b.end], lang: lang})
		}
	}
	return out
}

// OpenFence reports whether a Markdown line opens a fenced code block, with
// the fence and the info string after it.
func OpenFence(l string) (fence, info string, ok bool) {
	t := TrimIndent(l)
	if t == "" || t[0] != '`' && t[0] != '~' {
		return "", "", false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return "", "", false
	}
	return t[:n], t[n:], true
}

// TrimIndent returns l without its leading spaces and tabs: what
// strings.TrimLeft(l, " \t") returns, without building a set of the two
// on every line.
func TrimIndent(l string) string {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return l[i:]
}

// recipes returns the shell of a manifest: Makefile recipe lines,
// Dockerfile RUN instructions, whole for other names (left to the line
// rules).
func (s *scan) recipes() []region {
	base := strings.ToLower(path.Base(s.file))
	var out []region
	switch {
	case base == "makefile" || base == "gnumakefile" || strings.HasPrefix(base, "makefile.") || strings.HasSuffix(base, ".mk") || strings.HasSuffix(base, ".mak"):
		return []region{{off: 0, text: makeScript(s.text), lang: langShell}}
	case base == "justfile":
		for i := range s.lines() {
			if l := s.line(i); strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") {
				out = append(out, region{off: s.starts[i], text: l, lang: langShell})
			}
		}
	case strings.HasPrefix(base, "dockerfile") || base == "containerfile" || strings.HasSuffix(base, ".dockerfile"):
		return dockerRegions(s.text, 0)
	}
	return out
}

// emit records a finding of rule id at byte off of the text.
func (s *scan) emit(id string, off int, sev, excerpt string) {
	if s.hits == nil {
		s.hits = map[string]Finding{}
	}
	off = max(0, min(off, len(s.text)))
	if h, ok := s.hits[id]; ok && Rank(h.Severity) >= Rank(sev) {
		return // one finding per rule: the first of the strongest
	}
	s.hits[id] = Finding{Rule: id, Off: off, Severity: sev, Excerpt: excerpt}
}

// Facts a file's analysis hands on to the skill's (lint's WithImports):
// a path a download was saved to, and a path of a file the program runs
// or sources, each a Finding with no severity whose Excerpt is the path
// as far as the analysis sees it. A download one script saves and another
// sources is seen only so.
const (
	FactSaved = "fact:saved"
	FactRuns  = "fact:runs"
)

// maxFacts bounds the facts one text hands on.
const maxFacts = 256

// fact records one of the facts of a path p at byte off: p's text must
// name a file (a slash in it), not a descriptor.
func (s *scan) fact(rule string, off int, p value) {
	if !strings.Contains(p.s, "/") || strings.HasPrefix(p.s, "/dev/") || s.facts >= maxFacts {
		return
	}
	s.facts++
	s.graded = append(s.graded, Finding{Rule: rule, Off: max(0, min(off, len(s.text))), Excerpt: p.s})
}

// layer analyses text, which the file decodes or builds at byte off, as
// the same file would be (or as a program in lang), and takes its findings
// as the file's own at off, the excerpt saying what was decoded.
func (s *scan) layer(off int, how, text, lang string) { s.layerOf(off, how, text, lang, false) }

// layerOf is layer; agreed says the user agreed at the terminal to the
// command the layer is (scan.agreed): a job it registers (crontab -,
// launchctl bootstrap) is theirs, a note, as a write they agreed to is.
func (s *scan) layerOf(off int, how, text, lang string, agreed bool) {
	if s.in.Depth >= maxDepth {
		s.opaque(off, fmt.Sprintf("%s: not analysed: more than %d layers deep", how, maxDepth))
		return
	}
	if !s.budget().take(len(text)) {
		s.opaque(off, fmt.Sprintf("%s: not analysed: past the %d layers or %d KiB of decoded text a file may hold", how, maxLayers, maxLayerText>>10))
		return
	}
	file := s.file
	if lang != "" {
		file = "layer." + lang
	}
	if s.in.Reanalyze == nil {
		return
	}
	for _, f := range s.in.Reanalyze(file, []byte(text), s.in.Depth+1, s.in.Budget, lang) {
		if f.Severity == "" {
			continue // a layer's graded write: its line is not the file's
		}
		if agreed && f.Severity == SeverityWarning && (f.Rule == "persistence" || f.Rule == "autorun-config") {
			s.emit(f.Rule, off, SeverityNote, how+" after the user answered yes at the terminal: "+f.Excerpt)
			continue
		}
		s.emit(f.Rule, off, f.Severity, how+": "+f.Excerpt)
	}
}

// gradeExec reports code run (by eval, exec, sh -c, an interpreter's
// input): decoded, fetched and piped to an interpreter or not, or, when
// unresolved counts, a value the analysis cannot resolve. One rule for the
// shell analysis and the flow analysis of the other languages.
func (s *scan) gradeExec(code value, at int, stdin, unresolved bool) {
	s.escape(code)
	switch {
	case code == (value{}):
	case code.t&tDecoded != 0:
		s.emit("eval-decode", at, SeverityError, "")
	case code.t&tFetched != 0 && stdin && code.installer && code.t&^(tFetched|tCmd) == 0:
		// A project's own install script, from its own host over checked
		// https; the line rule, which reads words, leaves the line to this.
		s.emit("pipe-to-shell", at, SeverityNote, "")
		s.graded = append(s.graded, Finding{Rule: "pipe-to-shell", Off: max(0, min(at, len(s.text)))})
	case code.t&tFetched != 0 && stdin:
		s.emit("pipe-to-shell", at, SeverityWarning, "")
	case code.t&tFetched != 0 && code.installer && code.t&^(tFetched|tCmd) == 0:
		s.emit("remote-exec", at, SeverityNote, "") // bash -c "$(curl …)" of a project's own install script
	case code.t&tFetched != 0:
		s.emit("remote-exec", at, SeverityWarning, "")
	case unresolved && !code.known && code.t&tUnknown != 0 && !stdin:
		s.emit("dynamic-exec", at, SeverityWarning, "runs a value the analysis cannot resolve")
	}
}

// gradeSend reports a secret or the environment reaching the network: one
// rule for the shell and the flow analyses.
func (s *scan) gradeSend(v value, at int) {
	s.escape(v)
	use, inURL := credentialUse(v, s.creds)
	switch {
	case v.t&tEnv != 0:
		s.emit("env-exfil", at, SeverityError, "")
	case use:
	case inURL:
		s.emit("secret-exfil", at, SeverityWarning, "a named credential (an environment variable, a password store's item) in the address of a request")
	case v.t&tSecret != 0:
		s.emit("secret-exfil", at, SeverityError, "")
	}
}

// credential is the value of the credential's environment variable name,
// which the scan records: a request to a host none of them names is not
// their use.
func (s *scan) credential(name string) value {
	name = strings.ToUpper(name)
	if len(s.creds) < maxCreds && !slices.Contains(s.creds, name) {
		s.creds = append(s.creds, name)
	}
	return value{t: tSecret, store: storeEnv}
}

// gradeCredentialTo grades a request to the address url (its known start,
// or "") that sends the values vs: a credential from the environment among
// them, in a header or the body, sent to a known host that none of the
// credentials the text reads names, is a warning (secret-exfil); to a
// host it may be for, or one the analysis cannot see, it is use.
func (s *scan) gradeCredentialTo(url string, vs []value, at int) {
	h := hostOf(url)
	if h == "" || relatedHost(h, s.creds) {
		return
	}
	for _, v := range vs {
		if use, _ := credentialUse(v, s.creds); use {
			s.emit("secret-exfil", at, SeverityWarning, "a named credential (an environment variable, a password store's item) sent to "+h+", a host its name does not name")
			return
		}
	}
}

// runLayer analyses again, in lang, code run whose text is known.
func (s *scan) runLayer(code value, lang string, at int) {
	if code.known && code.s != "" {
		how := "runs"
		if code.t&tDecoded != 0 {
			how = "runs decoded"
		}
		s.layerOf(at, how, code.s, lang, s.agreed(code))
	}
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
	if !target.known || target.s != "/dev/null" {
		s.escape(content) // a file holds it; /dev/null holds nothing
	}
	p := target.path
	if p == pathNone {
		p = classifyPath(target)
	}
	n := normPath(target.s)
	if p == pathAgentConfig && bareRelative(target) && s.roles&codeKinds == 0 {
		// A project's file, in instructions or documentation: a note, as
		// the line rules grade it. (A project's hook is graded by what it
		// is given to run, as any place that runs later.)
		s.emit("agent-config", at, SeverityNote, "")
		return
	}
	if p == pathPersist {
		s.graded = append(s.graded, Finding{Rule: "persistence", Off: max(0, min(at, len(s.text)))})
		if text, ok := persistShell(n, content.s); ok {
			s.layer(at, "writes "+path.Base(n), text, langShell) // what the later run does is read as code too
		}
	}
	switch p {
	case pathPersist:
		sev := SeverityWarning
		if strings.Contains(n, "authorized_keys") {
			sev = SeverityError
		} else if plainCommand(content) || content.known && strings.TrimSpace(content.s) == "" ||
			content.t&tShipped != 0 && content.t&(tFetched|tDecoded|tSecret|tEnv) == 0 {
			sev = SeverityNote // a plain command, nothing at all, or a file the skill ships (read on its own)
			if target.known {
				s.plain = append(s.plain, n)
			}
		}
		if sev == SeverityWarning && s.agreed(content) {
			if target.known {
				s.plain = append(s.plain, n) // loading it (launchctl bootstrap) is this write's grade too
			}
			s.emit("persistence", at, SeverityNote, "written after the user answered yes at the terminal")
			s.graded = append(s.graded, Finding{Rule: "persistence", Off: max(0, min(at, len(s.text)))})
			return
		}
		s.emit("persistence", at, sev, "")
	case pathAgentConfig:
		if strings.Contains(n, ".vscode/tasks.json") && content.known && !strings.Contains(content.s, "folderOpen") {
			return // a task file runs by itself only with runOn folderOpen
		}
		sev := SeverityWarning
		if strings.HasPrefix(n, homeMark+"/") {
			sev = SeverityError
		} else if s.agreed(content) {
			s.emit("agent-config", at, SeverityNote, "written after the user answered yes at the terminal")
			for _, r := range []string{"agent-config", "persistence"} { // the persistence rule's lines name agent files too
				s.graded = append(s.graded, Finding{Rule: r, Off: max(0, min(at, len(s.text)))})
			}
			return
		}
		s.emit("agent-config", at, sev, "")
	}
}

// agreed reports a write the user agreed to at the terminal (scan.asked)
// whose content came from no download, decoding, secret or the
// environment: a yes to a schedule is not one to what a server sends.
func (s *scan) agreed(content value) bool {
	return s.asked && content.t&(tFetched|tDecoded|tSecret|tEnv) == 0
}

// persistShell returns the shell that content written to the place p (a
// normPath) makes a later run execute: a shell start-up file's text, a
// crontab's commands without their times; false for another place, or
// for a script with a #! line (the shell analysis reads that as its
// language: shellState.wrote).
func persistShell(p, content string) (string, bool) {
	if strings.TrimSpace(content) == "" || strings.HasPrefix(content, "#!") {
		return "", false
	}
	switch path.Base(p) {
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".xprofile", ".xinitrc":
		return content, true
	}
	if !strings.Contains(p, "/cron") {
		return "", false
	}
	var b strings.Builder
	for l := range strings.Lines(content) {
		f := strings.Fields(l)
		n := 5 // minute, hour, day, month, weekday
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "="):
			continue // a comment, or a variable (SHELL=, MAILTO=)
		case strings.HasPrefix(f[0], "@"):
			n = 1 // @reboot, @daily
		case strings.HasPrefix(p, "/etc/cron"):
			n = 6 // the system's tables name the user
		}
		if len(f) > n {
			b.WriteString(strings.Join(f[n:], " "))
			b.WriteByte('\n')
		}
	}
	return b.String(), b.Len() > 0
}

// reachesOut matches what a unit, a cron line, a start-up entry or a
// task makes a later run do beyond starting a program: fetch (a download
// tool or a URL), decode, hand a string to a shell or an interpreter, open
// a socket, run a program from a temporary folder (anyone may write to
// /tmp; Windows's %TEMP% is where downloads and droppers land, and nothing
// installs a program there), or change how later commands resolve (an
// alias, a preloaded library, a prompt hook).
var reachesOut = &lazyre.RE{Expr: `(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|invoke-expression|iex|` +
	`start-bitstransfer|bitsadmin|certutil|mshta|rundll32|regsvr32|nc|ncat|netcat|socat|telnet|base64|xxd|openssl|eval|` +
	`powershell|pwsh|osascript|alias|ld_preload|dyld_insert_libraries|prompt_command)\b|https?://|ftp://|/dev/(?:tcp|udp)/|` +
	`(?:^|[\s'"=;|&(])/(?:tmp|var/tmp|dev/shm)/|(?:appdata[\\/]local|[\\/]windows)[\\/]temp[\\/]|(?:%te?mp%|\$env:te?mp)[\\/]|` +
	`\b(?:ba|z|da|k)?sh\s+-\w*c|\b(?:python[0-9.]*|node|perl|ruby|php)\s+-\w*[ce]\b|\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|node|perl|ruby)\b`}

// shellHook matches a tool's shell hook as its install instructions give
// it for a shell's start-up file: eval "$(direnv hook bash)", eval
// "$(starship init zsh)", eval "$(pyenv init -)", source <(kubectl
// completion bash), fish's zoxide init fish | source, PowerShell's
// Invoke-Expression (&starship init powershell) and oh-my-posh init pwsh
// --config "…" | Invoke-Expression, each also behind a check that the
// program is there (command -v direnv >/dev/null && eval …). What it runs
// is that program's own output, and the program is named.
var shellHook = &lazyre.RE{Expr: `^(?:(?:command\s+-v|type|which|hash)\s+[\w-]+\s*(?:>\s*/dev/null)?\s*(?:2>&1)?\s*&&\s*)?eval\s+"\$\((?:command\s+)?[a-z][\w-]*\s+(?:hook|init|activate|env|completion|shellenv)(?:\s+[-\w]*)*\)"\s*$|` +
	`^(?:source|\.)\s+<\([a-z][\w-]*\s+(?:completion|init|hook)(?:\s+[-\w]*)*\)\s*$|` +
	`^[a-z][\w-]*\s+(?:init|hook|completion|activate|env)(?:\s+[-\w]*)*\s*\|\s*source\s*$|` +
	`^(?i:invoke-expression|iex)\s*\(\s*&\s*(?:\{\s*\(\s*)?[a-z][\w-]*\s+(?:init|completion|hook|activate)` + psHookArgs + `(?:\s*\|\s*(?i:out-string))?\s*(?:\)\s*\}\s*)?\)\s*$|` +
	`^\(?\s*&?\s*[a-z][\w-]*\s+(?:init|completion|hook|activate)` + psHookArgs + `\s*\)?(?:\s*\|\s*(?i:out-string))?\s*\|\s*(?i:invoke-expression|iex)\s*$`}

// psHookArgs are the words a PowerShell hook's command may take: options,
// names, and a quoted path (oh-my-posh's --config "$env:POSH_THEMES_PATH\x.omp.json").
const psHookArgs = `(?:\s+(?:-[-\w]*|[\w.=-]+|"[^"\x60;|&]*"|'[^'\x60;|&]*'))*`

// argShell matches a shell given -c and a script that is wholly an
// expansion the analysis cannot see: in a value, such a script is an empty
// quoted string (its unknown parts add no text; taint says where they came
// from).
var argShell = &lazyre.RE{Expr: `\b(?:ba|z|da|k)?sh\s+-\w*c\s*(?:''|"")(?:\s|$)`}

// plainCommand reports whether content written to a place that runs it
// later is seen (whole, or all but the arguments it was given) and starts
// only a program: nothing fetched, decoded or secret flows into it, and no
// line but a comment reaches out in one of reachesOut's ways. Such a write is a service or
// timer the skill installs in the open, a note; what the analysis cannot
// see, or a later run that fetches or decodes, is a warning.
func plainCommand(content value) bool {
	if strings.TrimSpace(content.s) == "" || content.t&(tFetched|tDecoded|tSecret|tEnv) != 0 {
		return false
	}
	// printf's and echo -e's "\n" break lines as the file will hold them.
	for l := range strings.Lines(strings.ReplaceAll(content.s, `\n`, "\n")) {
		t := TrimIndent(l)
		if strings.HasPrefix(t, "<?xml") || strings.HasPrefix(t, "<!DOCTYPE") {
			continue // an XML file's declaration of its format (a plist's DTD address is not fetched)
		}
		if content.t&tCmd == 0 {
			// A shell handed only what the script was given (sh -c "$2",
			// the start command the user named) runs that argument: it is
			// seen where the script is called, as any argument is. A
			// command's output there is not an argument.
			t = argShell.Regexp().ReplaceAllString(t, "")
		}
		if !strings.HasPrefix(t, "#") && !shellHook.MatchString(t) && reachesOut.MatchString(t) {
			return false // a comment line runs nothing
		}
	}
	return true
}

// readStore records a read of the secret file at p, at byte at, through a
// path built at run time or not (secretread.go), and returns its content.
func (s *scan) readStore(p value, at int, built bool) value { return s.reads.add(p, at, built) }

// escape records that v reached a sink (secretread.go).
func (s *scan) escape(v value) { s.reads.escape(v) }

// escapeAll records that each value reached a sink.
func (s *scan) escapeAll(vs ...value) {
	for _, v := range vs {
		s.escape(v)
	}
}

// gradeReads grades the reads of secret files once the text is analysed:
// a read that reached a sink is a warning (a literal path's is the line
// rules'), one of which only structure reached anything a note, and its
// path is handed to the line rules as graded (a Finding with no severity,
// whose Excerpt is the path) unless another read of it reached a sink.
func (s *scan) gradeReads() {
	leaked := s.reads.leaked()
	for _, r := range s.reads {
		switch {
		case r.escaped && r.built:
			s.emit("sensitive-path", r.off, SeverityWarning, "")
		case r.escaped:
		default:
			s.emit("sensitive-path", r.off, SeverityNote, "")
			if !leaked[r.path] {
				s.graded = append(s.graded, Finding{Rule: "sensitive-path", Off: max(0, min(r.off, len(s.text))), Excerpt: r.path})
			}
		}
	}
}

// autorunKey reports a registry key and value name Windows runs: the Run
// and RunOnce keys, Winlogon's Shell and Userinit, a program's debugger
// (Image File Execution Options), cmd.exe's AutoRun, the user's logon
// script (Environment's UserInitMprLogonScript).
func autorunKey(k, name string) bool {
	k = strings.ToLower(strings.Trim(k, `"`))
	if strings.HasSuffix(k, `\environment`) && strings.EqualFold(name, "UserInitMprLogonScript") {
		return true
	}
	for _, n := range []string{`\currentversion\run`, `\currentversion\policies\explorer\run`, `\currentversion\winlogon`,
		`\image file execution options\`, `\command processor`} {
		if strings.Contains(k, n) {
			return true
		}
	}
	return false
}

// securityOff reports a registry value that switches a protection off:
// Defender's policies (DisableAntiSpyware, DisableRealtimeMonitoring, …,
// set to 1), User Account Control (EnableLUA 0), a firewall profile
// (EnableFirewall 0). key, name and data as written; data is the value's
// number or string.
func securityOff(key, name, data string) bool {
	k, n := strings.ToLower(strings.Trim(key, `"`)), strings.ToLower(name)
	d := strings.TrimLeft(strings.ToLower(strings.TrimSpace(data)), "0x")
	switch {
	case strings.Contains(k, `\windows defender`) && strings.HasPrefix(n, "disable"):
		return d == "1"
	case strings.HasSuffix(k, `\policies\system`) && n == "enablelua", strings.Contains(k, `\firewallpolicy\`) && n == "enablefirewall":
		return d == ""
	}
	return false
}
