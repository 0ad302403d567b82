package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// readmeMark, on the line before a fenced sh or bash block of README.md,
// makes TestREADME run the block.
const readmeMark = "<!-- readme-test -->"

// readmeBlock is one runnable shell block of README.md.
type readmeBlock struct {
	line int // of the opening fence, 1-based
	text string
}

// readmeBlocks returns the blocks of md that follow readmeMark.
func readmeBlocks(md []byte) ([]readmeBlock, error) {
	lines := strings.Split(string(md), "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != readmeMark {
			continue
		}
		if i+1 >= len(lines) || (lines[i+1] != "```sh" && lines[i+1] != "```bash") {
			return nil, fmt.Errorf("README.md:%d: %s is not followed by a sh or bash block", i+1, readmeMark)
		}
		b := readmeBlock{line: i + 2}
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			b.text += lines[j] + "\n"
		}
		if j == len(lines) {
			return nil, fmt.Errorf("README.md:%d: block never closed", b.line)
		}
		blocks = append(blocks, b)
		i = j
	}
	return blocks, nil
}

// TestREADME runs the README's marked shell blocks, in order, with bash
// -euo pipefail, in one folder that starts as a copy of the example library
// (testdata/example: skills.json, acme/, community/), with skills-mcp on
// PATH. So a documented command that stops working, or whose output no
// longer fits what the next block does with it, fails the build. A block
// may use $SKILLS_SIGNING_KEY: it holds release.key once a block made it,
// as a CI secret would.
func TestREADME(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := readmeBlocks(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 6 {
		t.Fatalf("README.md marks %d blocks with %s; the walkthrough has more", len(blocks), readmeMark)
	}
	var script bytes.Buffer
	script.WriteString("# README.md's marked shell blocks, in order.\n")
	script.WriteString("[!exec:bash] skip 'bash is not installed'\n")
	script.WriteString("exec sh -c 'cp -R \"$TESTDATA\"/example/. .'\n")
	ar := &txtar.Archive{}
	for i, b := range blocks {
		name := fmt.Sprintf("block%02d.sh", i+1)
		fmt.Fprintf(&script, "\n# README.md:%d\nexec bash -euo pipefail %s\n", b.line, name)
		prelude := "if [ -f release.key ]; then SKILLS_SIGNING_KEY=$(cat release.key); export SKILLS_SIGNING_KEY; fi\n"
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(prelude + b.text)})
	}
	ar.Comment = script.Bytes()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "readme.txtar"), txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, scriptParams(t, dir))
}

// TestREADMEBlocks checks the extractor on a small document.
func TestREADMEBlocks(t *testing.T) {
	md := "text\n" + readmeMark + "\n```sh\necho one\n```\n```sh\necho skipped\n```\n" + readmeMark + "\n```bash\necho two\necho three\n```\n"
	got, err := readmeBlocks([]byte(md))
	if err != nil || len(got) != 2 || got[0] != (readmeBlock{3, "echo one\n"}) || got[1] != (readmeBlock{10, "echo two\necho three\n"}) {
		t.Errorf("got %+v, %v", got, err)
	}
	if _, err := readmeBlocks([]byte(readmeMark + "\ntext\n")); err == nil {
		t.Error("a mark without a block was accepted")
	}
	if _, err := readmeBlocks([]byte(readmeMark + "\n```sh\necho\n")); err == nil {
		t.Error("an unclosed block was accepted")
	}
}

// TestREADMEFlags wants every flag of every command, and every variable
// that sets one, named in README.md, so a new flag cannot go undocumented.
func TestREADMEFlags(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(md)
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
				t.Errorf("%s %s is not in README.md", n.Path(), name)
			}
			for _, env := range f.Envs {
				if !strings.Contains(doc, env) {
					t.Errorf("%s %s: variable %s is not in README.md", n.Path(), name, env)
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
