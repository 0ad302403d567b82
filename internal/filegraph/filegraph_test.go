package filegraph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneWay holds the packages that have been rebuilt to the house rule:
// the arrows between their files run one way. A cycle fails the test with
// the arrows inside it; move the shared piece down into a lower file, or
// pass the value down, to break it. -v logs each package's figures.
func TestOneWay(t *testing.T) {
	for _, pkg := range []string{"release", "serve", "teamserver", "search", "lint/filekind", "manifest", "skilltext", "cosign", "live", "serve/wire", "serve/usage", "serve/answers", "build", "build/frontmatter", "lint", "lint/sarif", "lint/excerpt", "lint/encoded", "oci", "pull", "lint/program", "wellknown", "cosign/keyless", "internal/fetch", "internal/promtext", "internal/lazyre", "cmd/skills-mcp"} {
		g, err := Load(filepath.Join("..", "..", pkg))
		if err != nil {
			t.Fatal(err)
		}
		cycles := g.Cycles()
		t.Logf("%s: %d files, %d lines, %d arrows, %d cycles", pkg, len(g.Files), g.Lines, g.NumArrows(), len(cycles))
		for _, c := range cycles {
			t.Errorf("%s: the files %s reach each other:\n\t%s", pkg, strings.Join(c, " "), strings.Join(g.Back(c), "\n\t"))
		}
	}
}

// TestCycleFound: the check sees a cycle through a type, a method and a
// field, and none once the arrow back is gone.
func TestCycleFound(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package p\n\nimport \"strings\"\n\ntype A struct{ b *B }\n\nfunc (a *A) Name() string { return strings.ToUpper(a.b.name) }\n")
	write("b.go", "package p\n\ntype B struct{ name string }\n\nfunc (b *B) Up(a *A) string { return a.Name() }\n")
	write("c.go", "package p\n\nfunc c(b *B) string { return b.name }\n")
	write("x_test.go", "package p\n\nfunc x(a *A) {}\n")
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Cycles(); len(c) != 1 || strings.Join(c[0], " ") != "a.go b.go" {
		t.Fatalf("cycles %v, want [a.go b.go]; arrows %v", c, g.Arrows)
	}
	if got := strings.Join(g.Back(g.Cycles()[0]), "; "); got != "a.go -> b.go: B name; b.go -> a.go: A Name" {
		t.Errorf("back arrows %q", got)
	}
	if g.NumArrows() != 3 || len(g.Files) != 3 {
		t.Errorf("%d arrows over %v, want 3 over three files", g.NumArrows(), g.Files)
	}
	write("b.go", "package p\n\ntype B struct{ name string }\n")
	g, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Cycles(); len(c) != 0 {
		t.Errorf("cycles %v after the arrow back went", c)
	}
}
