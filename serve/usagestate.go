package serve

// What a Server holds of skill use (usage.go): its observers and the skill
// of each file URI read, depending on nothing above the Snapshot.

import (
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Use is one use of a skill: a call that found it and read its content.
type Use struct {
	Skill    string          // the skill's path: its URI without skill:// and /SKILL.md
	Kind     string          // UseGet, UseRead, UsePrompt or UseTool
	Method   string          // the MCP method ("resources/read", "tools/call", …)
	Caller   string          // the verified token's user ("token:NAME", "oauth:SUBJECT"); "" without authorization
	Catalog  manifest.Digest // the id of the catalog that answered
	Protocol string          // the protocol revision of the call
}

// UsageObserver learns of every skill use (ObserveUsage): the metrics and
// the usage log. SkillUsed runs on the request's goroutine after its
// answer is made: it must not block, nor keep u.
type UsageObserver interface {
	SkillUsed(u *Use)
}

// usageState is a Server's observers of skill use, and what it knows of
// the skills of file URIs.
type usageState struct {
	obs    atomic.Pointer[[]UsageObserver]
	skills atomic.Pointer[skillsOfURIs]
}

// skillsOfURIs remembers the skill of each file URI read from one catalog,
// so that counting a read costs a map lookup rather than a second search
// of the catalog (a read's own costs as much again as the rest of its
// counting). It holds at most maxSkillsOfURIs files; others are searched.
type skillsOfURIs struct {
	base *Snapshot
	m    sync.Map // file URI → skill path
	n    atomic.Int32
}
