package usage

import "github.com/skills-mcp/skills-mcp/manifest"

// Kinds of skill use (Use.Kind).
const (
	Get    = "get"    // skills/get of the skill
	Read   = "read"   // resources/read of one of its files (SKILL.md included)
	Prompt = "prompt" // prompts/get of its prompt
	Tool   = "tool"   // the get_skill or read_skill_file tool on it
)

// Use is one use of a skill: a call that found it and read its content.
type Use struct {
	Skill    string          // the skill's path: its URI without skill:// and /SKILL.md
	Kind     string          // Get, Read, Prompt or Tool
	Method   string          // the MCP method ("resources/read", "tools/call", …)
	Caller   string          // the verified token's user ("token:NAME", "oauth:SUBJECT"); "" without authorization
	Catalog  manifest.Digest // the id of the catalog that answered
	Protocol string          // the protocol revision of the call
}

// Observer learns of every skill use (serve's Server.ObserveUsage): the
// metrics and the usage log. SkillUsed runs on the request's goroutine after its
// answer is made: it must not block, nor keep u.
type Observer interface {
	SkillUsed(u *Use)
}
