package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/kong"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// readmeMark, on the line before a fenced sh or bash block of README.md or
// a docs/ page, makes TestREADME run the block.
const readmeMark = "<!-- readme-test -->"

// readmeBlock is one runnable shell block of a page.
type readmeBlock struct {
	line int // of the opening fence, 1-based
	text string
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

// readmeBlocks returns the blocks of md, the page named page, that follow
// readmeMark.
func readmeBlocks(page string, md []byte) ([]readmeBlock, error) {
	lines := strings.Split(string(md), "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != readmeMark {
			continue
		}
		if i+1 >= len(lines) || (lines[i+1] != "```sh" && lines[i+1] != "```bash") {
			return nil, fmt.Errorf("%s:%d: %s is not followed by a sh or bash block", page, i+1, readmeMark)
		}
		b := readmeBlock{line: i + 2}
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			b.text += lines[j] + "\n"
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: block never closed", page, b.line)
		}
		blocks = append(blocks, b)
		i = j
	}
	return blocks, nil
}

// TestREADME runs the marked shell blocks of README.md and of every docs/
// page: each page is a script of its own, its blocks run in order, with
// bash -euo pipefail, in one folder that starts as a copy of the example
// library (testdata/example: skills.json, acme/, community/), with
// skills-mcp on PATH. So a documented command that stops working, or whose
// output no longer fits what the next block of its page does with it,
// fails the build. A block may use $SKILLS_SIGNING_KEY: it holds
// release.key once a block of its page made it, as a CI secret would.
func TestREADME(t *testing.T) {
	dir := t.TempDir()
	total := 0
	for _, page := range docPages(t) {
		blocks, err := readmeBlocks(page, readPage(t, page))
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) == 0 {
			continue
		}
		total += len(blocks)
		var script bytes.Buffer
		fmt.Fprintf(&script, "# %s's marked shell blocks, in order.\n", page)
		script.WriteString("[!exec:bash] skip 'bash is not installed'\n")
		script.WriteString("exec sh -c 'cp -R \"$TESTDATA\"/example/. .'\n")
		ar := &txtar.Archive{}
		for i, b := range blocks {
			name := fmt.Sprintf("block%02d.sh", i+1)
			fmt.Fprintf(&script, "\n# %s:%d\nexec bash -euo pipefail %s\n", page, b.line, name)
			prelude := "if [ -f release.key ]; then SKILLS_SIGNING_KEY=$(cat release.key); export SKILLS_SIGNING_KEY; fi\n"
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(prelude + b.text)})
		}
		ar.Comment = script.Bytes()
		name := strings.TrimSuffix(strings.ReplaceAll(page, "/", "-"), ".md") + ".txtar"
		if err := os.WriteFile(filepath.Join(dir, name), txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if total < 6 {
		t.Fatalf("the manual marks %d blocks with %s; the walkthrough has more", total, readmeMark)
	}
	testscript.Run(t, scriptParams(t, dir))
}

// TestREADMEBlocks checks the extractor on a small document.
func TestREADMEBlocks(t *testing.T) {
	md := "text\n" + readmeMark + "\n```sh\necho one\n```\n```sh\necho skipped\n```\n" + readmeMark + "\n```bash\necho two\necho three\n```\n"
	got, err := readmeBlocks("x.md", []byte(md))
	if err != nil || len(got) != 2 || got[0] != (readmeBlock{3, "echo one\n"}) || got[1] != (readmeBlock{10, "echo two\necho three\n"}) {
		t.Errorf("got %+v, %v", got, err)
	}
	if _, err := readmeBlocks("x.md", []byte(readmeMark+"\ntext\n")); err == nil {
		t.Error("a mark without a block was accepted")
	}
	if _, err := readmeBlocks("x.md", []byte(readmeMark+"\n```sh\necho\n")); err == nil {
		t.Error("an unclosed block was accepted")
	}
}

// TestREADMEFlags wants every flag of every command, and every variable
// that sets one, named in README.md or a docs/ page, so a new flag cannot
// go undocumented.
func TestREADMEFlags(t *testing.T) {
	var all []byte
	for _, page := range docPages(t) {
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
