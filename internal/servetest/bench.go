package servetest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

var (
	benchMu      sync.Mutex
	benchBundles = map[string]string{} // dir and skill count → bundle file
)

// BenchBundle writes (once per process) a bundle of n skills of three small
// files each (bundletest.Big) to a file in dir, and returns its path.
func BenchBundle(b *testing.B, dir string, n int) string {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	p := filepath.Join(dir, fmt.Sprintf("skills-%d.skb", n))
	if _, ok := benchBundles[p]; ok {
		return p
	}
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	bundletest.Write(b, f, bundletest.Big(n))
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	benchBundles[p] = p
	return p
}

// OpenBench opens BenchBundle's bundle of n skills, closed when b ends.
func OpenBench(b *testing.B, dir string, n int) *manifest.Bundle {
	bu, err := manifest.OpenFile(BenchBundle(b, dir, n))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bu.Close() })
	return bu
}

// ReportPercentiles reports the median and 99th percentile of d in ms.
func ReportPercentiles(b *testing.B, d []time.Duration, unit string) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2])/1e6, "p50-ms/"+unit)
	b.ReportMetric(float64(d[len(d)*99/100])/1e6, "p99-ms/"+unit)
}

// ProcCPU returns the user+system CPU time process pid has used so far, all
// threads included (/proc/PID/stat, in USER_HZ ticks: 10 ms on Linux); the
// benchmark is skipped where there is no /proc.
func ProcCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skip("no /proc to read CPU times from")
	}
	// The fields after the command name (which may hold spaces) start at
	// field 3 (state); utime and stime are fields 14 and 15.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	var ticks int64
	for _, v := range f[11:13] {
		var n int64
		fmt.Sscan(v, &n)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// RSS is the process's resident memory now (VmRSS of /proc/self/status);
// b is skipped where there is none.
func RSS(b *testing.B) int64 {
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
