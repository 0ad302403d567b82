package serve

// Benchmarks of the prompts and the instructions.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// BenchmarkPromptsList lists the prompts and reports the latency
// percentiles of a whole listing, one page: 1,000 skills at the default
// limit (no per-skill prompts), 200 at it, and 1,000 with the limit raised
// to 1,000. "sdk" lists in memory with the SDK client (2025-11-25: under
// 2026-07-28 the client caches the list for its ttlMs), so it includes the
// client's decoding of the list; "stdio" writes the request to the built
// command serving the bundle file and reads the response line, undecoded:
// what the server costs a host over stdio, with the server's CPU time per
// listing (all threads: a loaded machine inflates it less than latency).
func BenchmarkPromptsList(b *testing.B) {
	for _, tc := range []struct{ skills, limit, prompts int }{{1000, 0, 1}, {200, 0, 201}, {1000, 1000, 1001}} {
		name := fmt.Sprintf("skills=%d/limit=%d", tc.skills, max(tc.limit, DefaultPromptLimit))
		b.Run(name+"/sdk", func(b *testing.B) {
			s := newServer(b, Options{PromptLimit: tc.limit}, servetest.OpenBench(b, tempDir, tc.skills))
			cs := connectMem(b, s, "2025-11-25", nil)
			ctx := context.Background()
			if res, err := cs.ListPrompts(ctx, nil); err != nil || len(res.Prompts) != tc.prompts {
				b.Fatalf("prompts/list: %d prompts, %v", len(res.Prompts), err)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				if _, err := cs.ListPrompts(ctx, nil); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			servetest.ReportPercentiles(b, lat, "list")
		})
		b.Run(name+"/stdio", func(b *testing.B) {
			p := startStdio(b, servetest.BenchBundle(b, tempDir, tc.skills), "--prompt-limit", fmt.Sprint(max(tc.limit, DefaultPromptLimit)))
			defer p.stop(b)
			p.call(b, 1, initLine, initDone)
			list := func(id int) []byte {
				return p.call(b, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"prompts/list","params":{}}`, id))
			}
			var first struct {
				Result mcp.ListPromptsResult `json:"result"`
			}
			if err := json.Unmarshal(list(2), &first); err != nil || len(first.Result.Prompts) != tc.prompts {
				b.Fatalf("prompts/list: %d prompts, want %d (%v)", len(first.Result.Prompts), tc.prompts, err)
			}
			lat := make([]time.Duration, 0, b.N)
			cpu0 := servetest.ProcCPU(b, p.cmd.Process.Pid)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				list(3 + i)
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			servetest.ReportPercentiles(b, lat, "list")
			b.ReportMetric(float64(servetest.ProcCPU(b, p.cmd.Process.Pid)-cpu0)/float64(b.N)/1e6, "server-cpu-ms/list")
		})
	}
}

// BenchmarkInstructions builds the instructions of a 1,000-skill bundle
// file (BENCH_SKILLS for another count; the first thing a session waits
// for), with the catalog (auto: too large, so the categories) and without,
// and reports the CPU time of the building thread, which a loaded machine
// inflates less than wall time.
func BenchmarkInstructions(b *testing.B) {
	n := 1000
	if v := os.Getenv("BENCH_SKILLS"); v != "" {
		fmt.Sscan(v, &n)
	}
	bu := servetest.OpenBench(b, tempDir, n)
	for _, mode := range []CatalogMode{CatalogAuto, CatalogNever} {
		b.Run(string(mode), func(b *testing.B) {
			s := newServer(b, Options{Catalog: mode}, bu)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			for range b.N {
				c := &catalog{snap: s.Snapshot()}
				t0 := threadCPU(b)
				_ = s.discovery.buildInstructions(c)
				cpu += threadCPU(b) - t0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e3, "cpu-µs/op")
		})
	}
}

// threadCPU returns the CPU time of the calling OS thread.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		b.Skip("no per-thread CPU time here")
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
