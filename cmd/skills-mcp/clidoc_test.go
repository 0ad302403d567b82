package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/kong"
)

// updateCLIDoc makes TestCLIReference write docs/cli.md (go generate).
var updateCLIDoc = flag.Bool("update-cli-doc", false, "write docs/cli.md from the commands' help")

// commandHelp is the help kong prints for args: --help, or a command and
// --help.
type commandHelp struct {
	args []string
	text string
}

// commandHelps renders the help of skills-mcp and of each of its commands
// (hidden ones too), as kong prints it for --help (80 columns, as through a
// pipe), in the model's order.
func commandHelps(t *testing.T) []commandHelp {
	t.Helper()
	var out bytes.Buffer
	exited := false
	k := newParser(&CLI{}, kong.Writers(&out, &out), kong.Exit(func(int) { exited = true }))
	args := [][]string{{"--help"}}
	for _, n := range k.Model.Children {
		if n.Type == kong.CommandNode {
			args = append(args, []string{n.Name, "--help"})
		}
	}
	var helps []commandHelp
	for _, a := range args {
		out.Reset()
		exited = false
		_, _ = k.Parse(a)
		if !exited || out.Len() == 0 {
			t.Fatalf("%q printed no help", a)
		}
		helps = append(helps, commandHelp{a, out.String()})
	}
	return helps
}

// cliReference renders docs/cli.md: commandHelps, each under a heading.
func cliReference(t *testing.T) []byte {
	t.Helper()
	var doc bytes.Buffer
	doc.WriteString("# CLI reference\n\n")
	doc.WriteString("Every command's `--help`, as `skills-mcp COMMAND --help` prints it. The pages of the manual (see the\n")
	doc.WriteString("[README](../README.md#the-manual)) say what the flags do and why. This page is generated: `go generate\n")
	doc.WriteString("./cmd/skills-mcp` writes it, and `TestCLIReference` fails when it is stale.\n")
	for _, h := range commandHelps(t) {
		title := strings.Join(append([]string{"skills-mcp"}, h.args[:len(h.args)-1]...), " ")
		text := strings.ReplaceAll(h.text, "```", "'''")
		fmt.Fprintf(&doc, "\n## %s\n\n```text\n%s```\n", title, strings.TrimRight(text, "\n")+"\n")
	}
	return doc.Bytes()
}

// TestCLIReference wants docs/cli.md to be what the commands' help says
// now; with -update-cli-doc (go generate ./cmd/skills-mcp) it writes it.
func TestCLIReference(t *testing.T) {
	want := cliReference(t)
	const path = "../../docs/cli.md"
	if *updateCLIDoc {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/cli.md is stale: run go generate ./cmd/skills-mcp")
	}
}

// recipeHeader is a Justfile recipe's first line: name, parameters, colon.
var recipeHeader = regexp.MustCompile(`^([a-z][a-z0-9-]*)( [^:]*)?:( |$)`)

// TestJustfileDocs wants each Justfile recipe's description, the one
// comment line `just --list` shows (the line right above the recipe), to be
// a whole sentence: a capital first, a full stop last. Details go on the
// comment lines above it, which `just --list` leaves out.
func TestJustfileDocs(t *testing.T) {
	data, err := os.ReadFile("../../Justfile")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	recipes := 0
	for i, l := range lines {
		m := recipeHeader.FindStringSubmatch(l)
		if m == nil || strings.Contains(l, ":=") {
			continue
		}
		recipes++
		doc := ""
		if i > 0 {
			doc = lines[i-1]
		}
		text, ok := strings.CutPrefix(doc, "# ")
		if !ok || text == "" || !(unicode.IsUpper(rune(text[0])) || text[0] == '`') || !strings.HasSuffix(text, ".") {
			t.Errorf("Justfile:%d: recipe %s: the comment line above it (%q) is not a sentence", i+1, m[1], doc)
		}
	}
	if recipes < 10 {
		t.Fatalf("only %d recipes found in the Justfile", recipes)
	}
}
