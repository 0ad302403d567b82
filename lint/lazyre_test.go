package lint

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// TestPatternsCompile compiles every pattern of the package: they are
// compiled on first use, so a bad one would otherwise panic only when some
// input first reaches it.
func TestPatternsCompile(t *testing.T) {
	if len(patterns) == 0 {
		t.Fatal("no patterns registered")
	}
	if err := lazyre.Check(patterns...); err != nil {
		t.Error(err)
	}
}
