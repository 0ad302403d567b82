package lint

import "github.com/skills-mcp/skills-mcp/internal/lazyre"

// patterns holds every pattern rx declared, for the test that compiles them.
var patterns []*lazyre.RE

// rx declares a lint pattern, compiled on its first use: a program that links
// lint but never analyses a file pays nothing for its patterns at start-up.
func rx(expr string) *lazyre.RE {
	l := &lazyre.RE{Expr: expr}
	patterns = append(patterns, l)
	return l
}
