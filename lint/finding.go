package lint

import (
	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

// This file holds what every finding carries: its severity and rank, and
// the bound on its excerpt. It is the bottom of the package: it points at
// no other file.

// MaxExcerpt is the longest excerpt a finding carries, in bytes.
const MaxExcerpt = excerpt.Max

// Severities of a finding, from the strongest.
const (
	// SeverityError is code or instructions that attack the user: a reverse
	// shell, exfiltration, persistence, hidden instructions.
	SeverityError = program.SeverityError
	// SeverityWarning is risky but common: a pipe-to-shell installer, a
	// destructive command scoped to the user's home. Whatever runs without
	// the model deciding (hooks, pre-prompt expansion, files tools run on
	// their own, install hooks) is never below a warning.
	SeverityWarning = program.SeverityWarning
	// SeverityNote is worth knowing: likely legitimate.
	SeverityNote = program.SeverityNote
)

// Rank orders severities: error 3, warning 2, note 1, anything else 0.
func Rank(severity string) int { return program.Rank(severity) }
