package frontmatter

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// TestPatternsCompile compiles every pattern of the package: they are
// compiled on first use, so a bad one would otherwise panic only when some
// input first reaches it.
func TestPatternsCompile(t *testing.T) {
	if err := lazyre.Check(yamlErrorLine, coreNull, coreTrue, coreFalse, coreInt10, coreInt8, coreInt16, coreFloat, coreInfNaN); err != nil {
		t.Error(err)
	}
}
