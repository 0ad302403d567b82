package build

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genLibrary writes n skills of four files each (about 14 KB a skill, the
// shape of a real library: SKILL.md, a reference, a script and an asset).
func genLibrary(tb testing.TB, n int) (root string, files []string, bytes int64) {
	tb.Helper()
	root = tb.TempDir()
	body := strings.Repeat("Step: do the thing carefully and check the result.\n", 60)
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		dir := filepath.Join(root, fmt.Sprintf("cat-%02d", i%50), name)
		content := map[string]string{
			"SKILL.md":             fmt.Sprintf("---\nname: %s\ndescription: Generated skill %d for benchmarks.\n---\n%s", name, i, body),
			"references/REF.md":    strings.Repeat(fmt.Sprintf("Reference line %d.\n", i), 300),
			"scripts/run.py":       fmt.Sprintf("print(%d)\n", i) + strings.Repeat("# comment\n", 100),
			"assets/data-file.bin": strings.Repeat(string(rune('a'+i%26)), 4096) + fmt.Sprint(i),
		}
		for p, c := range content {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				tb.Fatal(err)
			}
			files = append(files, full)
			bytes += int64(len(c))
		}
	}
	return root, files, bytes
}

// sha256sumTime runs coreutils sha256sum over files, the yardstick for
// build throughput, and returns the time it took and the CPU time it used.
func sha256sumTime(tb testing.TB, files []string) (wall, cpu time.Duration) {
	tb.Helper()
	if _, err := exec.LookPath("sha256sum"); err != nil {
		tb.Skip("sha256sum not installed")
	}
	start := time.Now()
	for i := 0; i < len(files); i += 2000 {
		cmd := exec.Command("sha256sum", files[i:min(i+2000, len(files))]...)
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			tb.Fatal(err)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return time.Since(start), cpu
}

func benchmarkBuild(b *testing.B, n int, noLint bool) {
	root, files, total := genLibrary(b, n)
	ref, refCPU := sha256sumTime(b, files)
	opt := Options{Libraries: []Library{{Namespace: "gen", Root: root}}, NoLint: noLint}
	b.SetBytes(total)
	b.ResetTimer()
	start, startCPU := time.Now(), cpuTime()
	for b.Loop() {
		if _, err := Build(opt, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	perCPU := (cpuTime() - startCPU) / time.Duration(b.N)
	b.ReportMetric(float64(ref)/float64(per), "x-sha256sum")
	b.ReportMetric(float64(ref.Milliseconds()), "sha256sum-ms")
	// On a busy machine wall times swing; CPU times do not, so the ratio
	// of CPU time per byte is the steadier figure.
	if perCPU > 0 {
		b.ReportMetric(float64(refCPU)/float64(perCPU), "x-sha256sum-cpu")
	}
}

// BenchmarkBuild1k and BenchmarkBuild10k report build throughput, with
// every lint rule on, and its ratio to sha256sum over the same files
// (target ≥ 0.7), by wall time and by CPU time. BenchmarkBuild1kNoLint is
// the same build without the analyser, to show what it costs.
func BenchmarkBuild1k(b *testing.B)       { benchmarkBuild(b, 1000, false) }
func BenchmarkBuild10k(b *testing.B)      { benchmarkBuild(b, 10000, false) }
func BenchmarkBuild1kNoLint(b *testing.B) { benchmarkBuild(b, 1000, true) }
