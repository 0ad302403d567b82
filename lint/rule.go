package lint

import (
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file says what a rule of the table (rules.go) is made of: its
// matchers, and the hits of its whole-file finders.

// A rule is one entry of the table.
type rule struct {
	id, family, desc string
	max              string // the strongest severity the rule gives
	// caps are the capabilities (caps.go) a finding of the rule shows,
	// sorted bytewise; none for rules about what a text tells the model.
	caps []string
	// capsOf, when set, gives a finding's capabilities (a subset of caps)
	// from its excerpt, for a rule whose patterns show different ones.
	capsOf         func(excerpt string) []string
	exFile, exText string // an example it flags
	// exLong builds an example too long to write out (exText is empty),
	// when Rules is first called rather than at start-up.
	exLong func() string
	roles  role  // the file roles it reads; 0: every text file
	where  uint8 // line flags a match needs (any of them); 0: any line
	prose  bool  // on a prose line, a warning word before a match clears it
	// unkeyed rules read few, small files (manifests, frontmatter): every
	// line they may read is tried, and their keys stay out of the index
	// that every file pays for.
	unkeyed bool
	pats    []pattern
	// multi, when set, also looks at line i and the lines after it; it
	// returns the match start in line i and a severity, or "" for none.
	multi func(s *scan, i int) (int, string)
	// file, when set, searches the whole text instead of the key-gated
	// lines, for what spans lines or needs no key.
	file func(s *scan) []hit
	// bin, when set, looks at a binary file (roles roleBinary).
	bin func(file string, data []byte) (sev, excerpt string)
	// code says the code analysis (package program) gives findings of this rule;
	// with it a rule needs no matcher of its own.
	code bool
}

// A pattern is one regular expression of a rule.
type pattern struct {
	keys []string // lowercase, not empty: the line must hold one of them before re runs
	all  []string // lowercase: the line must also hold each of them
	re   *lazyre.RE
	sev  string
	// check, when set, decides on a match m (submatch indexes into line i):
	// it returns the severity, or "" to reject the match.
	check func(s *scan, i int, m []int) string
}

// shell names a Unix shell or PowerShell, with an optional /bin/ or
// /usr/local/bin/ path, at a word boundary.
const shell = `(?:(?:/usr)?(?:/local)?/bin/)?(?:(?:ba|z|da|k|fi)?sh|pwsh|powershell)\b`
