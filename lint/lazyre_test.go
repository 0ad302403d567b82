package lint

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre/lazyretest"
)

// TestPatternsCompile compiles every pattern of the package, read from its
// source: they are compiled on first use, so a bad one would otherwise
// panic only when some input first reaches it.
func TestPatternsCompile(t *testing.T) {
	lazyretest.CheckPackage(t, ".", 30)
}
