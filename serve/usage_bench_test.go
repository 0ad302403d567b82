//go:build unix

package serve

import (
	"context"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// countUses is an observer that counts.
type countUses struct{ n atomic.Int64 }

func (c *countUses) SkillUsed(*usage.Use) { c.n.Add(1) }

// BenchmarkUsageMiddleware is what usageMiddleware adds to a resources/read
// that answered, over the files of a 1,000-skill bundle: "off" with no
// observer, "on" finding each file's skill for an observer that only
// counts (teamserver's BenchmarkSkillUseCost is what its metrics add).
func BenchmarkUsageMiddleware(b *testing.B) {
	bu := servetest.OpenBench(b, tempDir, 1000)
	var reqs []*mcp.ReadResourceRequest
	for i := range bu.NumSkills() {
		sk, err := bu.Skill(i)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range sk.Entry.Resources {
			reqs = append(reqs, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: r.URI}})
		}
	}
	s, err := New([]*manifest.Bundle{bu}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	answered := func(context.Context, string, mcp.Request) (mcp.Result, error) { return &readResult{}, nil }
	h := s.usageMiddleware(answered)
	ctx := context.Background()
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			var c countUses
			if mode == "on" {
				s.ObserveUsage(&c)
			}
			i := 0
			cpu0 := cpuNanos(b)
			for b.Loop() {
				if _, err := h(ctx, "resources/read", reqs[i%len(reqs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(cpuNanos(b)-cpu0)/float64(b.N), "cpu-ns/op")
			if mode == "on" && c.n.Load() != int64(i) {
				b.Fatalf("%d uses of %d reads", c.n.Load(), i)
			}
		})
	}
}

// cpuNanos is the CPU time the process used so far: on a shared machine
// wall-clock ns/op counts the time waiting for a core too.
func cpuNanos(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
