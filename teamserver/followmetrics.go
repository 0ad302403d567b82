package teamserver

// Metrics of serve --follow: what the follower checked, served and refused
// (live.FollowObserver), by source. The sources are the references on the
// command line, so the label set is bounded by the configuration.

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// followMetrics are the skills_mcp_follow_* family.
type followMetrics struct {
	checks   *prometheus.CounterVec
	updates  *prometheus.CounterVec
	refusals *prometheus.CounterVec
	age      *prometheus.Desc
	info     *prometheus.Desc

	mu     sync.Mutex
	served map[string]servedRelease // by source
}

type servedRelease struct {
	digest string
	since  time.Time
}

func newFollowMetrics(reg *prometheus.Registry) *followMetrics {
	f := &followMetrics{served: map[string]servedRelease{}}
	f.checks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_follow_checks_total", Help: "Checks of a followed reference, by source and outcome (unchanged, updated, refused, error).",
	}, []string{"source", "outcome"})
	f.updates = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_follow_updates_total", Help: "New releases of a followed reference swapped in, by source.",
	}, []string{"source"})
	f.refusals = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "skills_mcp_follow_refusals_total", Help: "Releases refused and checks failed, by source and reason (unreachable, refused, signature, invalid, conflict).",
	}, []string{"source", "reason"})
	f.age = prometheus.NewDesc("skills_mcp_follow_release_age_seconds", "Seconds since the release served for a followed reference began to be served.", []string{"source"}, nil)
	f.info = prometheus.NewDesc("skills_mcp_follow_release_info", "The release served for a followed reference (its digest labels a constant 1).", []string{"source", "digest"}, nil)
	reg.MustRegister(f.checks, f.updates, f.refusals, f)
	return f
}

// Describe implements prometheus.Collector for the gauges of the served
// releases.
func (f *followMetrics) Describe(ch chan<- *prometheus.Desc) { ch <- f.age; ch <- f.info }

// Collect implements prometheus.Collector.
func (f *followMetrics) Collect(ch chan<- prometheus.Metric) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	for src, r := range f.served {
		ch <- prometheus.MustNewConstMetric(f.age, prometheus.GaugeValue, now.Sub(r.since).Seconds(), src)
		ch <- prometheus.MustNewConstMetric(f.info, prometheus.GaugeValue, 1, src, r.digest)
	}
}
