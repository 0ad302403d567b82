package serve

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// BenchmarkServeStdioPaired is BenchmarkServeStdioFirstList's skills/list
// against another build of the command, named by BENCH_OLD_BINARY (for
// instance the binary built from an older commit): each iteration starts
// the new binary and the old one, in alternating order, serving the same
// 1,000-skill bundle file (BENCH_SKILLS for another count), and times the
// first skills/list page of each; it also reads each child's peak resident
// set just before it exits. Run it with -benchtime 60x for 60 runs each.
func BenchmarkServeStdioPaired(b *testing.B) {
	old := os.Getenv("BENCH_OLD_BINARY")
	if old == "" {
		b.Skip("BENCH_OLD_BINARY names no binary to pair against")
	}
	n := 1000
	if v := os.Getenv("BENCH_SKILLS"); v != "" {
		fmt.Sscan(v, &n)
	}
	bundle := servetest.BenchBundle(b, tempDir, n)
	bins := [2]string{servetest.Binary(b), old}
	var lat [2][]time.Duration
	var rss [2][]int64
	one := func(side int) {
		start := time.Now()
		p := startStdioBinary(b, bins[side], bundle)
		res := p.call(b, 2, initLine, initDone, `{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}}`)
		lat[side] = append(lat[side], time.Since(start))
		if !bytes.Contains(res, []byte(`"skills":[{`)) {
			b.Fatalf("%s: %.200s", bins[side], res)
		}
		rss[side] = append(rss[side], p.peakRSS(b))
		p.stop(b)
	}
	for i := range b.N {
		one(i % 2)
		one(1 - i%2)
	}
	b.StopTimer()
	med := func(d []time.Duration) float64 { slices.Sort(d); return float64(d[len(d)/2]) / 1e6 }
	p90 := func(d []time.Duration) float64 { slices.Sort(d); return float64(d[len(d)*9/10]) / 1e6 }
	mib := func(r []int64) float64 { slices.Sort(r); return float64(r[len(r)/2]) / (1 << 20) }
	b.ReportMetric(med(lat[0]), "new-p50-ms")
	b.ReportMetric(med(lat[1]), "old-p50-ms")
	b.ReportMetric(p90(lat[0]), "new-p90-ms")
	b.ReportMetric(p90(lat[1]), "old-p90-ms")
	b.ReportMetric(mib(rss[0]), "new-MiB-rss")
	b.ReportMetric(mib(rss[1]), "old-MiB-rss")
}
