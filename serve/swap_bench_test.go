//go:build linux

package serve

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// BenchmarkFollowSwaps swaps a 1,000-skill release in b.N times, as a
// follower does (each release read into memory afresh, two releases in
// turn, some files read between swaps), and reports the resident memory
// after the first swap and after the last (after a collection; and after
// the freed memory went back to the system), and the live heap.
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
	var first, firstHeap, firstReturned int64
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
			first, firstHeap, firstReturned = rss(b), liveHeap(), rssReturned(b)
		}
	}
	last, lastHeap, lastReturned := rss(b), liveHeap(), rssReturned(b)
	// The server is what is measured, with the releases' bytes the loop
	// opens from: neither may be collected before the last figures, or
	// they would compare a smaller heap with the first.
	runtime.KeepAlive(s)
	runtime.KeepAlive(data)
	b.ReportMetric(float64(first)/(1<<20), "rss-first-MiB")
	b.ReportMetric(float64(last)/(1<<20), "rss-last-MiB")
	b.ReportMetric(float64(firstReturned)/(1<<20), "rss-returned-first-MiB")
	b.ReportMetric(float64(lastReturned)/(1<<20), "rss-returned-last-MiB")
	b.ReportMetric(float64(firstHeap)/(1<<20), "heap-first-MiB")
	b.ReportMetric(float64(lastHeap)/(1<<20), "heap-last-MiB")
}

// rssReturned is the process's resident memory once the memory the
// collector freed is returned to the system (debug.FreeOSMemory): what the
// server holds, without the pages the scavenger has not yet given back.
func rssReturned(b *testing.B) int64 {
	debug.FreeOSMemory()
	return rss(b)
}

// liveHeap is the bytes of live heap objects after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// rss is the process's resident memory after a collection.
func rss(b *testing.B) int64 {
	runtime.GC()
	return servetest.RSS(b)
}
