package teamserver

// skills_mcp_skill_uses_total{skill, kind}: the uses of each skill
// (usage.Observer). The skill label is bounded: the first
// MaxUsageSkills skills used since the start have a series each, any other
// counts under "other"; kind is one of four.

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/internal/promtext"
)

// MaxUsageSkills is the most skills skills_mcp_skill_uses_total names, in
// the order they are first used; the uses of any other skill count under
// the skill "other".
const MaxUsageSkills = 1000

// usageOther is the skill label past MaxUsageSkills.
const usageOther = "other"

type usageKey struct{ skill, kind string }

// usageMetrics resolves each series once: lookups read a map without a
// lock, and a new series copies it (the set is bounded).
type usageMetrics struct {
	uses   *promtext.CounterVec
	series atomic.Pointer[map[usageKey]promtext.Counter]
	mu     sync.Mutex
	named  map[string]bool // skills with a label of their own
}

func newUsageMetrics(reg *promtext.Registry) *usageMetrics {
	u := &usageMetrics{named: map[string]bool{}}
	u.uses = reg.NewCounterVec("skills_mcp_skill_uses_total",
		"Uses of a skill, by skill (its path; \"other\" past the first 1000 skills used) and kind (get, read, prompt, tool).",
		"skill", "kind")
	m := map[usageKey]promtext.Counter{}
	u.series.Store(&m)
	return u
}

func (u *usageMetrics) counter(skill, kind string) promtext.Counter {
	if c := (*u.series.Load())[usageKey{skill, kind}]; c != nil {
		return c
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	cur := *u.series.Load()
	if c := cur[usageKey{skill, kind}]; c != nil {
		return c
	}
	label := skill
	if !u.named[skill] {
		if len(u.named) >= MaxUsageSkills {
			label = usageOther
		} else {
			u.named[skill] = true
		}
	}
	c := u.uses.WithLabelValues(label, kind)
	// Skills past the cap share a series, but the lookup remembers each
	// only up to a bound, so that a server whose releases bring ever new
	// skills does not grow it forever (the rest take this lock).
	if len(cur) < maxUsageKeys || label != usageOther {
		next := maps.Clone(cur)
		next[usageKey{skill, kind}] = c
		u.series.Store(&next)
	}
	return c
}

// maxUsageKeys bounds the lookup of usageMetrics: every labelled skill of
// every kind, and as many skills past the cap again.
const maxUsageKeys = 8 * MaxUsageSkills
