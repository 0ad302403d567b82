package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/alecthomas/kong"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// A shell block (```sh or ```bash) of README.md or a docs/ page is run by
// TestREADME when the line before it is readmeMark, or readmeMark's form
// with options, "<!-- readme-test: OPTION ... -->":
//
//   - background: the block is one command that runs until its page's
//     script ends (a server); the next block starts once the port of the
//     block (3939, 3940 or 3941) listens;
//   - registry: the page needs a registry: a real one (docker-registry)
//     starts on loopback, ghcr.io and registry.example.com in the page's
//     blocks name it, plain http is allowed to it (SKILLS_REGISTRY_PLAIN_HTTP,
//     and oras is given --plain-http);
//   - oauth: the page needs an OAuth authorization server: the test's
//     (internal/oauthtest) starts on loopback, https://issuer.example.com in
//     the page's blocks names it.
//
// A marked block's output, as the page shows it, follows it in a fence of
// its own after outputMark: the test wants the block's stdout and stderr to
// be those lines, with digests and log times as they come (see
// normalOutput). Ports 3939, 3940 and 3941 in a page's blocks are free loopback
// ports in the test. A block no test can run says why, on the line before it: personMark followed by
// the reason. Any other shell block is an error (TestDocsBlocksMarked), so
// no example goes untested unnoticed.
const (
	readmeMark = "<!-- readme-test -->"
	personMark = "<!-- needs-a-person: "
	outputMark = "<!-- readme-output -->"
)

// readmeBlock is one shell block of a page.
type readmeBlock struct {
	line   int    // of the opening fence, 1-based
	text   string // without the fences
	run    bool   // marked to run
	opts   string // the mark's options, space-separated
	person string // the reason no test runs it
	output string // what the page shows it prints, when outputMark says so
}

// docPages returns the manual's pages, relative to the repository root:
// README.md, then docs/*.md in name order.
func docPages(t testing.TB) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("docs/ holds %d pages; the manual has more", len(pages))
	}
	out := []string{"README.md"}
	for _, p := range pages {
		out = append(out, "docs/"+filepath.Base(p))
	}
	return out
}

// readPage reads a page named as docPages names it.
func readPage(t testing.TB, page string) []byte {
	t.Helper()
	md, err := os.ReadFile(filepath.Join("../..", page))
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// readmeBlocks returns the shell blocks of md, the page named page, with
// their marks. A mark that is not followed by a shell block, an unknown
// option, a person mark without a reason and an unclosed block are errors.
func readmeBlocks(page string, md []byte) ([]readmeBlock, error) {
	lines := strings.Split(string(md), "\n")
	var blocks []readmeBlock
	fence := false
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		isMark := l == readmeMark || strings.HasPrefix(l, "<!-- readme-test:") || strings.HasPrefix(l, personMark)
		if strings.HasPrefix(lines[i], "```") && !isMark {
			shell := lines[i] == "```sh" || lines[i] == "```bash"
			if fence || !shell {
				fence = !fence
				continue
			}
		}
		if fence || (!isMark && lines[i] != "```sh" && lines[i] != "```bash") {
			continue
		}
		var b readmeBlock
		open := i
		if isMark {
			switch {
			case l == readmeMark:
				b.run = true
			case strings.HasPrefix(l, personMark):
				b.person = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, personMark), "-->"))
				if b.person == "" || !strings.HasSuffix(l, "-->") {
					return nil, fmt.Errorf("%s:%d: %s needs a reason, then -->", page, i+1, personMark)
				}
			default:
				b.run = true
				b.opts = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "<!-- readme-test:"), "-->"))
				for _, o := range strings.Fields(b.opts) {
					if o != "background" && o != "registry" && o != "oauth" {
						return nil, fmt.Errorf("%s:%d: unknown readme-test option %q", page, i+1, o)
					}
				}
			}
			open = i + 1
			if open >= len(lines) || (lines[open] != "```sh" && lines[open] != "```bash") {
				return nil, fmt.Errorf("%s:%d: %s is not followed by a sh or bash block", page, i+1, l)
			}
		}
		b.line = open + 1
		j := open + 1
		for ; j < len(lines) && lines[j] != "```"; j++ {
			b.text += lines[j] + "\n"
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: block never closed", page, b.line)
		}
		// The output a reader is shown: the next fence, when outputMark
		// (after prose, or nothing) is on the line before it.
		for k := j + 1; b.run && k+1 < len(lines) && !strings.HasPrefix(lines[k], "```") && !strings.HasPrefix(lines[k], "<!-- readme-test") && !strings.HasPrefix(lines[k], personMark); k++ {
			if strings.TrimSpace(lines[k]) != outputMark {
				continue
			}
			if !strings.HasPrefix(lines[k+1], "```") || lines[k+1] == "```sh" || lines[k+1] == "```bash" {
				return nil, fmt.Errorf("%s:%d: %s is not followed by an output block", page, k+1, outputMark)
			}
			b.output = "\n"
			m := k + 2
			for ; m < len(lines) && lines[m] != "```"; m++ {
				b.output += lines[m] + "\n"
			}
			b.output = strings.TrimPrefix(b.output, "\n")
			if m == len(lines) {
				return nil, fmt.Errorf("%s:%d: output block never closed", page, k+2)
			}
			j = m
			break
		}
		blocks = append(blocks, b)
		i = j
	}
	return blocks, nil
}

// has reports whether the block's mark carries option o.
func (b readmeBlock) has(o string) bool {
	return slices.Contains(strings.Fields(b.opts), o)
}

// pageScript returns the testscript of one page's runnable blocks, or nil
// when it has none. ports replace docPorts in the blocks.
func pageScript(page string, blocks []readmeBlock, ports [len(docPorts)]int) ([]byte, error) {
	var pairs []string
	for i, p := range docPorts {
		pairs = append(pairs, p, strconv.Itoa(ports[i]))
	}
	local := strings.NewReplacer(pairs...)
	var script bytes.Buffer
	ar := &txtar.Archive{}
	registry, oauth, usesCosign := false, false, false
	for _, b := range blocks {
		registry = registry || b.run && b.has("registry")
		usesCosign = usesCosign || b.run && strings.Contains(b.text, "cosign ")
		oauth = oauth || b.run && b.has("oauth")
	}
	fmt.Fprintf(&script, "# %s's marked shell blocks, in order.\n", page)
	script.WriteString("[!exec:bash] skip 'bash is not installed'\n")
	if page == "README.md" {
		// As in a clone of the repository.
		script.WriteString("exec sh -c 'mkdir -p testdata/example && cp -R \"$TESTDATA\"/example/. testdata/example/'\n")
	} else {
		script.WriteString("exec sh -c 'cp -R \"$TESTDATA\"/example/. .'\n")
	}
	prelude := "if [ -f release.key ]; then SKILLS_SIGNING_KEY=$(cat release.key); export SKILLS_SIGNING_KEY; fi\n"
	if registry {
		script.WriteString("[!registry] skip 'docker-registry is not installed'\nregistry\nenv SKILLS_REGISTRY_PLAIN_HTTP=true\n")
		prelude += "oras() { command oras \"$1\" --plain-http \"${@:2}\"; }\n"
		// cosign reaches a plain-http registry only when told, and only
		// in its commands that talk to one.
		prelude += "cosign() { case $1 in verify|verify-attestation|sign|attest) command cosign \"$1\" --allow-http-registry \"${@:2}\" ;; *) command cosign \"$@\" ;; esac; }\n"
	}
	if oauth {
		script.WriteString("oauth-issuer\n")
	}
	if usesCosign {
		script.WriteString("[!cosign] skip 'cosign is not installed'\n")
	}
	n := 0
	for _, b := range blocks {
		if !b.run {
			continue
		}
		n++
		text := local.Replace(b.text)
		if oauth {
			text = strings.ReplaceAll(text, "https://issuer.example.com", "${ISSUER}")
		}
		if registry {
			text = strings.ReplaceAll(strings.ReplaceAll(text, "ghcr.io", "${REGISTRY}"), "registry.example.com", "${REGISTRY}")
		}
		name := fmt.Sprintf("block%02d.sh", n)
		fmt.Fprintf(&script, "\n# %s:%d\n", page, b.line)
		if b.has("background") {
			cmd := strings.TrimSpace(text)
			if strings.Contains(cmd, "\n") {
				return nil, fmt.Errorf("%s:%d: a background block is one command", page, b.line)
			}
			text = "exec " + cmd + "\n"
			port := ports[0]
			for i, p := range docPorts {
				if strings.Contains(b.text, p) {
					port = ports[i]
				}
			}
			if b.output != "" {
				// A server's output goes on while the page's next
				// blocks run: it is kept in a file, and compared once
				// it holds as many lines as the page shows.
				log := fmt.Sprintf("background%02d.log", n)
				text = "exec " + cmd + " >" + log + " 2>&1\n"
				out := fmt.Sprintf("output%02d.txt", n)
				fmt.Fprintf(&script, "exec bash -euo pipefail %s &\nwait-port %d\nlog-is %s %s\n", name, port, log, out)
				shown := local.Replace(b.output)
				ar.Files = append(ar.Files, txtar.File{Name: out, Data: []byte(shown)})
			} else {
				fmt.Fprintf(&script, "exec bash -euo pipefail %s &\nwait-port %d\n", name, port)
			}
		} else {
			fmt.Fprintf(&script, "exec bash -euo pipefail %s\n", name)
			if b.output != "" {
				out := fmt.Sprintf("output%02d.txt", n)
				fmt.Fprintf(&script, "output-is %s\n", out)
				ar.Files = append(ar.Files, txtar.File{Name: out, Data: []byte(b.output)})
			}
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(prelude + text)})
	}
	if n == 0 {
		return nil, nil
	}
	ar.Comment = script.Bytes()
	return txtar.Format(ar), nil
}

// docPorts are the ports a page's blocks may listen on; the test gives
// each a free loopback port of its own.
var docPorts = [...]string{"3939", "3940", "3941"}

// freePorts returns a loopback port nothing listens on now for each of
// docPorts.
func freePorts(t *testing.T) [len(docPorts)]int {
	t.Helper()
	var ports [len(docPorts)]int
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// TestREADME runs the marked shell blocks of README.md and of every docs/
// page: each page is a script of its own, its blocks run in order, with
// bash -euo pipefail, in one folder that starts as a copy of the example
// library (testdata/example: skills.json, acme/, community/; for README.md,
// a folder holding testdata/example, as a clone does), with skills-mcp on
// PATH. So a documented command that stops working, or whose output no
// longer fits what the next block of its page does with it, fails the
// build. A block may use $SKILLS_SIGNING_KEY: it holds release.key once a
// block of its page made it, as a CI secret would.
func TestREADME(t *testing.T) {
	dir := t.TempDir()
	total := 0
	for _, page := range docPages(t) {
		blocks, err := readmeBlocks(page, readPage(t, page))
		if err != nil {
			t.Fatal(err)
		}
		ar, err := pageScript(page, blocks, freePorts(t))
		if err != nil {
			t.Fatal(err)
		}
		if ar == nil {
			continue
		}
		total++
		name := strings.TrimSuffix(strings.ReplaceAll(page, "/", "-"), ".md") + ".txtar"
		if err := os.WriteFile(filepath.Join(dir, name), ar, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if total < 6 {
		t.Fatalf("%d pages of the manual have blocks to run; the walkthrough has more", total)
	}
	p := scriptParams(t, dir)
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
		return setup(e)
	}
	// wait-port PORT waits until 127.0.0.1:PORT takes connections.
	p.Cmds["wait-port"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 || neg {
			ts.Fatalf("usage: wait-port PORT")
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			c, err := net.DialTimeout("tcp", "127.0.0.1:"+args[0], time.Second)
			if err == nil {
				c.Close()
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("nothing listens on port %s after 20s: %v", args[0], err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// output-is FILE wants the last command's stdout and stderr, together,
	// to be FILE's lines, both as normalOutput gives them.
	p.Cmds["output-is"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 || neg {
			ts.Fatalf("usage: output-is FILE")
		}
		got := normalOutput(ts.ReadFile("stdout") + ts.ReadFile("stderr"))
		if want := normalOutput(ts.ReadFile(args[0])); got != want {
			ts.Fatalf("the page shows\n%s\nthe block printed\n%s", want, got)
		}
	}
	// log-is LOG FILE waits until LOG, the output of a background block,
	// holds as many lines as FILE, then wants those lines to be FILE's,
	// both as normalOutput gives them.
	p.Cmds["log-is"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 || neg {
			ts.Fatalf("usage: log-is LOG FILE")
		}
		want := normalOutput(ts.ReadFile(args[1]))
		lines := strings.Count(want, "\n") + 1
		deadline := time.Now().Add(20 * time.Second)
		for {
			got, _ := os.ReadFile(ts.MkAbs(args[0]))
			if all := strings.SplitAfter(string(got), "\n"); len(all) > lines || time.Now().After(deadline) {
				if n := min(lines, len(all)); normalOutput(strings.Join(all[:n], "")) != want {
					ts.Fatalf("the page shows\n%s\nthe server printed\n%s", want, normalOutput(string(got)))
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	testscript.Run(t, p)
}

// variableOutput is what changes from run to run, or with any change to the
// example library or the format: digests (full or cut short) and log times.
var variableOutput = regexp.MustCompile(`sha256:[0-9a-f]{12,64}|time=\S+`)

// normalOutput is out with variableOutput blanked and its lines trimmed.
func normalOutput(out string) string {
	out = variableOutput.ReplaceAllStringFunc(out, func(s string) string {
		if strings.HasPrefix(s, "time=") {
			return "time=…"
		}
		return "sha256:…"
	})
	return strings.TrimSpace(out)
}

// TestDocsBlocksMarked wants every shell block of the manual marked: run
// by TestREADME, or needing a person, with the reason.
func TestDocsBlocksMarked(t *testing.T) {
	for _, page := range docPages(t) {
		blocks, err := readmeBlocks(page, readPage(t, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if !b.run && b.person == "" {
				t.Errorf("%s:%d: a shell block neither marked %s nor %sREASON -->", page, b.line, readmeMark, personMark)
			}
		}
	}
}

// TestREADMEBlocks checks the extractor on a small document.
func TestREADMEBlocks(t *testing.T) {
	md := "text\n" + readmeMark + "\n```sh\necho one\n```\n```sh\necho unmarked\n```\n" +
		"<!-- readme-test: background -->\n```bash\nserve\n```\n" +
		personMark + "a browser -->\n```sh\nopen\n```\n```json\n{}\n```\n"
	got, err := readmeBlocks("x.md", []byte(md))
	want := []readmeBlock{
		{line: 3, text: "echo one\n", run: true},
		{line: 6, text: "echo unmarked\n"},
		{line: 10, text: "serve\n", run: true, opts: "background"},
		{line: 14, text: "open\n", person: "a browser"},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, bad := range []string{
		readmeMark + "\ntext\n",
		readmeMark + "\n```sh\necho\n",
		"<!-- readme-test: sometimes -->\n```sh\necho\n```\n",
		personMark + "-->\n```sh\necho\n```\n",
		readmeMark + "\n```sh\necho\n```\n" + outputMark + "\ntext\n",
	} {
		if _, err := readmeBlocks("x.md", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	out := readmeMark + "\n```sh\necho hi\n```\n\nIt prints:\n\n" + outputMark + "\n```\nhi sha256:0123456789ab\n```\n"
	if got, err := readmeBlocks("x.md", []byte(out)); err != nil || len(got) != 1 || got[0].output != "hi sha256:0123456789ab\n" {
		t.Errorf("output: got %+v, %v", got, err)
	}
	if normalOutput("time=2026-12-02T02:02:50Z a sha256:0123456789ab\n") != "time=… a sha256:…" {
		t.Error("normalOutput")
	}
	s, err := pageScript("x.md", want, [3]int{4000, 4001, 4002})
	if err != nil || !strings.Contains(string(s), "exec bash -euo pipefail block02.sh &\nwait-port 4000\n") || strings.Contains(string(s), "unmarked") {
		t.Errorf("pageScript: %v\n%s", err, s)
	}
	bg := []readmeBlock{{line: 2, text: "serve --http 3939\n", run: true, opts: "background", output: "listening on 3939\n"}}
	if s, err := pageScript("x.md", bg, [3]int{4000, 4001, 4002}); err != nil || !strings.Contains(string(s), "serve --http 4000 >background01.log 2>&1\n") ||
		!strings.Contains(string(s), "wait-port 4000\nlog-is background01.log output01.txt\n") || !strings.Contains(string(s), "listening on 4000\n") {
		t.Errorf("pageScript, a background block's output: %v\n%s", err, s)
	}
}

// TestREADMEFlags wants every flag of every command, and every variable
// that sets one, named in README.md or a docs/ page other than the
// generated docs/cli.md, so a new flag cannot go undocumented.
func TestREADMEFlags(t *testing.T) {
	var all []byte
	for _, page := range docPages(t) {
		if page == "docs/cli.md" {
			continue // the generated help names every flag; a page must say what it does
		}
		all = append(append(all, readPage(t, page)...), '\n')
	}
	doc := string(all)
	k := newParser(&CLI{})
	var walk func(n *kong.Node)
	seen := 0
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Hidden || f.Name == "help" {
				continue
			}
			seen++
			name := "--" + f.Name
			if f.Tag.Negatable != "" {
				name = "--[no-]" + f.Name
			}
			documented := func(name string) bool {
				return strings.Contains(doc, name+" ") || strings.Contains(doc, name+"`") || strings.Contains(doc, name+"=")
			}
			if !documented(name) && (f.Short == 0 || !documented("-"+string(f.Short))) {
				t.Errorf("%s %s is not in README.md or docs/", n.Path(), name)
			}
			for _, env := range f.Envs {
				if !strings.Contains(doc, env) {
					t.Errorf("%s %s: variable %s is not in README.md or docs/", n.Path(), name, env)
				}
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(k.Model.Node)
	if seen < 30 {
		t.Fatalf("only %d flags in the model", seen)
	}
}

// mdLink is a Markdown link's target: ](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchors returns the GitHub anchors of md's headings (outside fenced
// blocks): lower case, punctuation but hyphens and underscores dropped,
// spaces as hyphens.
func anchors(md []byte) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		h := strings.TrimLeft(l, "#")
		if fence || len(h) == len(l) || !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestDocsLinks wants every relative link of README.md and docs/ to name a
// file that exists and, with #anchor, a heading of it.
func TestDocsLinks(t *testing.T) {
	for _, page := range docPages(t) {
		md := readPage(t, page)
		for _, m := range mdLink.FindAllSubmatch(md, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			data, err := os.ReadFile(filepath.Join("../..", dest))
			if err != nil {
				t.Errorf("%s: link %s: %v", page, target, err)
				continue
			}
			if anchor != "" && !anchors(data)[anchor] {
				t.Errorf("%s: link %s: %s has no heading #%s", page, target, dest, anchor)
			}
		}
	}
}

// testName is a Go test, benchmark or fuzz target a page names.
var testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*`)

// TestDocsTestNames wants every test, benchmark and fuzz target a page of
// the manual names to exist in some _test.go file of the repository (or,
// as a -run pattern may, to begin the names of some), so a renamed or
// removed test cannot leave the manual pointing at nothing.
func TestDocsTestNames(t *testing.T) {
	defined := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]*)\(`)
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			defined[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !defined["TestDocsTestNames"] {
		t.Fatal("the walk found no tests")
	}
	for _, page := range docPages(t) {
		for i, line := range strings.Split(string(readPage(t, page)), "\n") {
			for _, name := range testName.FindAllString(line, -1) {
				if !defined[name] && !prefixOfOne(defined, name) {
					t.Errorf("%s:%d: names %s, which no _test.go file defines", page, i+1, name)
				}
			}
		}
	}
}

// prefixOfOne reports whether some defined name begins with prefix.
func prefixOfOne(defined map[string]bool, prefix string) bool {
	for name := range defined {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// TestDocsLayout wants every package of the repository named in the
// layout of docs/design.md, so a new package is described where a
// newcomer looks for it.
func TestDocsLayout(t *testing.T) {
	design := string(readPage(t, "docs/design.md"))
	_, layout, ok := strings.Cut(design, "## Layout\n")
	if !ok {
		t.Fatal("docs/design.md has no Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	named := map[string]bool{}
	for _, l := range strings.Split(layout, "\n") {
		for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' }) {
			named[strings.TrimSuffix(f, "/")] = true
		}
	}
	seen := 0
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); n == "node_modules" || n == "testdata" || strings.HasPrefix(n, ".") && path != "../.." {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		prod := slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") })
		if rel, _ := filepath.Rel("../..", path); prod && rel != "." {
			seen++
			if !named[filepath.ToSlash(rel)] {
				t.Errorf("package %s is not in the layout of docs/design.md", filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil || seen < 20 {
		t.Fatalf("walked %d packages: %v", seen, err)
	}
}
