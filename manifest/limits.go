package manifest

import "fmt"

// SEP-2640 limits on one skill.
const (
	MaxSkillFiles = 512      // resources per skill, SKILL.md included
	MaxSkillBytes = 16 << 20 // sum of the sizes of a skill's resources
)

// Rules of the SEP-2640 limits on one skill, as CheckSkillLimits names
// them (build withholds a skill by the same names).
const (
	RuleTooManyFiles = "too-many-files" // more than MaxSkillFiles files
	RuleTooLarge     = "too-large"      // more than MaxSkillBytes bytes in all
)

// LimitError reports a skill over one of the SEP-2640 limits.
type LimitError struct {
	Rule  string // RuleTooManyFiles or RuleTooLarge
	Count int64  // the skill's files, or its bytes
	Limit int64  // MaxSkillFiles or MaxSkillBytes
}

// Text says what is over which limit, without the rule's name.
func (e *LimitError) Text() string {
	if e.Rule == RuleTooManyFiles {
		return fmt.Sprintf("%d files exceeds the SEP-2640 limit of %d per skill", e.Count, e.Limit)
	}
	return fmt.Sprintf("%d bytes (%.1f MiB) exceeds the SEP-2640 limit of %d (16 MiB) per skill", e.Count, float64(e.Count)/(1<<20), e.Limit)
}

// Error is Text and the rule: "513 files exceeds the SEP-2640 limit of 512
// per skill (rule too-many-files)".
func (e *LimitError) Error() string { return e.Text() + " (rule " + e.Rule + ")" }

// CheckSkillLimits reports whether a skill of files files holding bytes
// bytes in all keeps the SEP-2640 limits (servers should not serve a skill
// over either): the one check of them, which Check applies to every
// manifest written and parsed, build to every skill folder it reads, and
// the readers of other formats (a ToolHive skill's layer) to what they
// unpack, as early as a count is known. The error is a *LimitError.
func CheckSkillLimits(files int, bytes int64) error {
	if files > MaxSkillFiles {
		return &LimitError{Rule: RuleTooManyFiles, Count: int64(files), Limit: MaxSkillFiles}
	}
	if bytes > MaxSkillBytes {
		return &LimitError{Rule: RuleTooLarge, Count: bytes, Limit: MaxSkillBytes}
	}
	return nil
}
