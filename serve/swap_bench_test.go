//go:build linux

package serve

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// BenchmarkFollowSwaps swaps a 1,000-skill release in b.N times, as a
// follower does (each release read into memory afresh, two releases in
// turn, some files read between swaps), and reports the resident memory
// after the first swap and after the last, after a collection each.
func BenchmarkFollowSwaps(b *testing.B) {
	var data [2][]byte
	for i, n := range []int{1000, 999} {
		d, err := os.ReadFile(servetest.BenchBundle(b, tempDir, n))
		if err != nil {
			b.Fatal(err)
		}
		data[i] = d
	}
	open := func(i int) *manifest.Bundle {
		bu, err := manifest.Open(bytes.NewReader(bytes.Clone(data[i%2])), int64(len(data[i%2])))
		if err != nil {
			b.Fatal(err)
		}
		return bu
	}
	s, err := New([]*manifest.Bundle{open(0)}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var first int64
	i := 0
	for b.Loop() {
		i++
		if err := s.Swap([]*manifest.Bundle{open(i)}); err != nil {
			b.Fatal(err)
		}
		snap := s.Snapshot()
		for k := 0; k < snap.Len(); k += 97 {
			if _, err := s.read(ctx, snap.URI(k)); err != nil {
				b.Fatal(err)
			}
		}
		if i == 1 {
			first = rss(b)
		}
	}
	last := rss(b)
	b.ReportMetric(float64(first)/(1<<20), "rss-first-MiB")
	b.ReportMetric(float64(last)/(1<<20), "rss-last-MiB")
}

// rss is the process's resident memory after a collection.
func rss(b *testing.B) int64 {
	runtime.GC()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	b.Skip("no VmRSS")
	return 0
}
