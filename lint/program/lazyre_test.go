package program

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/internal/lazyre/lazyretest"
)

// TestPatternsCompile compiles every pattern of the package, read from its
// source: they are compiled on first use, so a bad one would otherwise
// panic only when some input first reaches it.
func TestPatternsCompile(t *testing.T) {
	all, err := lazyretest.Literals(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 4 {
		t.Fatalf("%d patterns found, fewer than the package declares", len(all))
	}
	if err := lazyre.Check(all...); err != nil {
		t.Error(err)
	}
}
