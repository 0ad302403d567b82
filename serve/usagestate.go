package serve

// What a Server holds of skill use (usage.go): its observers and the skill
// of each file URI read, depending on nothing above the Snapshot.

import (
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// usageState is a Server's observers of skill use, and what it knows of
// the skills of file URIs.
type usageState struct {
	obs    atomic.Pointer[[]usage.Observer]
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
