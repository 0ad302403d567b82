package build

import (
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"regexp"
	"testing"
)

// TestPatternsCompile compiles every pattern of the package: they are
// compiled on first use, so a bad one would otherwise panic only when some
// input first reaches it.
func TestPatternsCompile(t *testing.T) {
	all := []*lazyre.RE{
		namespaceRE, sidecarDigest, nameRE,
	}
	for _, l := range all {
		if _, err := regexp.Compile(l.Expr); err != nil {
			t.Errorf("pattern %s: %v", l, err)
		}
		first := l.Regexp()
		if first == nil || l.Regexp() != first {
			t.Errorf("pattern %s: not compiled once", l)
		}
	}
}
