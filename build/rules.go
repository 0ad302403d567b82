package build

// This file names the rules that withhold a skill and the Problem that
// cites one.

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Rules that withhold a skill. Each problem names one of them.
const (
	RuleSymlink         = "symlink"
	RuleIrregularFile   = "irregular-file"
	RulePathInvalid     = "path-invalid"
	RuleCaseCollision   = "case-collision"
	RuleArchive         = "archive"
	RuleFileTooLarge    = "file-too-large"
	RuleTooManyFiles    = manifest.RuleTooManyFiles
	RuleTooLarge        = manifest.RuleTooLarge
	RuleNameMissing     = "name-missing"
	RuleNameInvalid     = "name-invalid"
	RuleNameTooLong     = "name-too-long"
	RuleNameMismatch    = "name-mismatch"
	RuleDescMissing     = "description-missing"
	RuleDescTooLong     = "description-too-long"
	RuleCompatTooLong   = "compatibility-too-long"
	RuleUnreadable      = "unreadable"
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
	maxCollectedFiles   = 2 * manifest.MaxSkillFiles
)

// Problem is one reason to withhold a skill: a rule broken by a file.
type Problem struct {
	File string // relative to the skill folder; "" for the skill as a whole
	Rule string
	Msg  string
}

// String names the file as manifest.QuoteName renders it: a name that is
// not plain, not valid UTF-8 say, is quoted with Go escapes.
func (p Problem) String() string {
	if p.File == "" {
		return fmt.Sprintf("%s (rule %s)", p.Msg, p.Rule)
	}
	return fmt.Sprintf("%s: %s (rule %s)", manifest.QuoteName(p.File), p.Msg, p.Rule)
}

// validText returns s, or s quoted with Go escapes when it is not valid
// UTF-8.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strconv.Quote(s)
}
