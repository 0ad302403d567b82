package lazyretest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLiterals finds each literal's pattern, sums and constants included,
// skips test files, and refuses an Expr it cannot evaluate.
func TestLiterals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package p\n\nimport \"x/lazyre\"\n\nconst b = \"b\"\n\nvar a = &lazyre.RE{Expr: `^a` + b}\n\nvar t = []struct{ re *lazyre.RE }{{re: &lazyre.RE{Expr: `c|d`}}}\n")
	write("a_test.go", "package p\n\nvar z = &lazyre.RE{Expr: `(`}\n")
	got, err := Literals(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Expr != "^ab" || got[1].Expr != "c|d" {
		t.Fatalf("got %v, want ^ab and c|d", got)
	}
	write("b.go", "package p\n\nfunc e() string { return `x` }\n\nvar b = &lazyre.RE{Expr: e()}\n")
	if _, err := Literals(dir); err == nil || !strings.Contains(err.Error(), "b.go:5") {
		t.Errorf("an Expr from a call: %v, want an error naming b.go:5", err)
	}
}
