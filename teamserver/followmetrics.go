package teamserver

// Metrics of serve --follow: what the follower checked, served and refused
// (live.FollowObserver), by source. The sources are the references on the
// command line, so the label set is bounded by the configuration.

import (
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/promtext"
)

// followMetrics are the skills_mcp_follow_* family.
type followMetrics struct {
	checks   *promtext.CounterVec
	updates  *promtext.CounterVec
	refusals *promtext.CounterVec

	mu     sync.Mutex
	served map[string]servedRelease // by source
}

type servedRelease struct {
	digest string
	since  time.Time
}

func newFollowMetrics(reg *promtext.Registry) *followMetrics {
	f := &followMetrics{served: map[string]servedRelease{}}
	f.checks = reg.NewCounterVec("skills_mcp_follow_checks_total", "Checks of a followed reference, by source and outcome (unchanged, updated, refused, error).",
		"source", "outcome")
	f.updates = reg.NewCounterVec("skills_mcp_follow_updates_total", "New releases of a followed reference swapped in, by source.", "source")
	f.refusals = reg.NewCounterVec("skills_mcp_follow_refusals_total", "Releases refused and checks failed, by source and reason (unreachable, refused, signature, invalid, conflict).",
		"source", "reason")
	// The gauges of the served releases, at scrape time.
	reg.NewGaugeFunc("skills_mcp_follow_release_age_seconds", "Seconds since the release served for a followed reference began to be served.", []string{"source"},
		func(emit func(float64, ...string)) {
			now := time.Now()
			f.each(func(src string, r servedRelease) { emit(now.Sub(r.since).Seconds(), src) })
		})
	reg.NewGaugeFunc("skills_mcp_follow_release_info", "The release served for a followed reference (its digest labels a constant 1).", []string{"source", "digest"},
		func(emit func(float64, ...string)) {
			f.each(func(src string, r servedRelease) { emit(1, src, r.digest) })
		})
	return f
}

// each calls fn for every source's served release, under the lock.
func (f *followMetrics) each(fn func(string, servedRelease)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for src, r := range f.served {
		fn(src, r)
	}
}
