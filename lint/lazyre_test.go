package lint

import (
	"regexp"
	"testing"
)

// TestPatternsCompile compiles every pattern of the package: they are
// compiled on first use, so a bad one would otherwise panic only when some
// input first reaches it.
func TestPatternsCompile(t *testing.T) {
	if len(patterns) == 0 {
		t.Fatal("no patterns registered")
	}
	for _, l := range patterns {
		if _, err := regexp.Compile(l.Expr); err != nil {
			t.Errorf("pattern %s: %v", l, err)
		}
		first := l.Regexp()
		if first == nil || l.Regexp() != first {
			t.Errorf("pattern %s: not compiled once", l)
		}
	}
}
