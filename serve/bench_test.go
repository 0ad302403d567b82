package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// BenchmarkServeSkillsList pages through skills/list in memory, one page per
// iteration, with the SDK client, and reports the page latency percentiles,
// for the default page size and for smaller and larger ones. The "server"
// runs time the server's own part: the handler and the JSON encoding of its
// result (the SDK then encodes the envelope and the client decodes it all).
func BenchmarkServeSkillsList(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d/page=%d/server", n, DefaultPageSize), func(b *testing.B) {
			s := newServer(b, Options{}, servetest.OpenBench(b, tempDir, n))
			lat := make([]time.Duration, 0, b.N)
			cursor := ""
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				res, err := s.listSkills(context.Background(), nil, &ListSkillsParams{Cursor: cursor})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(res); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				cursor = res.NextCursor
			}
			b.StopTimer()
			servetest.ReportPercentiles(b, lat, "page")
		})
		for _, size := range []int{50, 100, 200} { // 50 is DefaultPageSize
			for _, p := range protocols {
				b.Run(fmt.Sprintf("skills=%d/page=%d/%s", n, size, p.name), func(b *testing.B) {
					s := newServer(b, Options{PageSize: size}, servetest.OpenBench(b, tempDir, n))
					cs := connectMem(b, s, p.version, nil)
					ctx := context.Background()
					lat := make([]time.Duration, 0, b.N)
					cursor := ""
					b.ResetTimer()
					for range b.N {
						start := time.Now()
						res, err := listSkills(ctx, cs, cursor)
						lat = append(lat, time.Since(start))
						if err != nil {
							b.Fatal(err)
						}
						cursor = res.NextCursor
					}
					b.StopTimer()
					servetest.ReportPercentiles(b, lat, "page")
				})
			}
		}
	}
}

// stdioServer is the built command serving a bundle over stdio (serve
// bundle args…), driven with raw JSON-RPC lines.
type stdioServer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startStdio(b *testing.B, bundle string, args ...string) *stdioServer {
	return startStdioBinary(b, servetest.Binary(b), bundle, args...)
}

// startStdioBinary is startStdio of the command at bin.
func startStdioBinary(b *testing.B, bin, bundle string, args ...string) *stdioServer {
	cmd := exec.Command(bin, append([]string{"serve", bundle}, args...)...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &stdioServer{cmd, in, bufio.NewReaderSize(out, 1<<20)}
}

// call writes lines and reads responses until one has the given id.
func (p *stdioServer) call(b *testing.B, id int, lines ...string) []byte {
	if _, err := io.WriteString(p.in, strings.Join(lines, "\n")+"\n"); err != nil {
		b.Fatal(err)
	}
	want := []byte(fmt.Sprintf(`"id":%d,`, id))
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Contains(line, want) {
			return line
		}
	}
}

// peakRSS returns the child's peak resident set so far (VmHWM), in bytes.
// (The rusage of a child started by a Go program is no use here: Linux
// counts in it the parent's memory, shared until exec.)
func (p *stdioServer) peakRSS(b *testing.B) int64 { return procPeakRSS(b, p.cmd.Process.Pid) }

// procPeakRSS returns the peak resident set (VmHWM) of process pid so far.
func procPeakRSS(b *testing.B, pid int) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skip("no /proc to read the peak RSS from")
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb)
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/PID/status")
	return 0
}

// stop closes stdin and waits for the child to exit.
func (p *stdioServer) stop(b *testing.B) {
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		b.Fatal(err)
	}
}

const (
	initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	initDone = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// BenchmarkServeStdioFirstList measures, for a 1,000-skill bundle file, the
// time from starting `skills-mcp serve` to reading the first skills/list
// page, and (tools/list) the tool list a host without SEP-2640 asks for
// first: initialize, initialized and the request are written at once, as a
// host does. It also reports the CPU time the child used over its whole
// life (start, three requests, exit), which a loaded machine inflates less,
// and its page faults (on this VM some 15 µs each for fresh memory).
func BenchmarkServeStdioFirstList(b *testing.B) {
	bundle := servetest.BenchBundle(b, tempDir, 1000)
	for _, tc := range []struct{ method, want string }{
		{"skills/list", `"skills":[{`},
		{"tools/list", `"tools":[{`},
	} {
		b.Run(strings.TrimSuffix(tc.method, "/list"), func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			var cpu time.Duration
			var faults int64
			for range b.N {
				start := time.Now()
				p := startStdio(b, bundle)
				res := p.call(b, 2, initLine, initDone, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":%q,"params":{}}`, tc.method))
				lat = append(lat, time.Since(start))
				b.StopTimer()
				if !bytes.Contains(res, []byte(tc.want)) {
					b.Fatalf("%s: %s", tc.method, res)
				}
				p.stop(b)
				cpu += p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
				if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					faults += ru.Minflt + ru.Majflt
				}
				b.StartTimer()
			}
			b.StopTimer()
			servetest.ReportPercentiles(b, lat, "first-list")
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/run")
			b.ReportMetric(float64(faults)/float64(b.N), "faults/run")
		})
	}
	// The same binary printing its version: process start, package
	// initialisation and kong, with no serving. What the machine charges
	// for starting a process drifts by ±15 % here from minute to minute, so
	// the figures are worth reading together.
	b.Run("version", func(b *testing.B) {
		ver := make([]time.Duration, 0, b.N)
		for range b.N {
			start := time.Now()
			if out, err := exec.Command(servetest.Binary(b), "--version").Output(); err != nil || len(out) == 0 {
				b.Fatalf("--version: %q, %v", out, err)
			}
			ver = append(ver, time.Since(start))
		}
		servetest.ReportPercentiles(b, ver, "version")
	})
}

// BenchmarkServeStdioPeakRSS serves a 10,000-skill bundle over stdio, lists
// every skill and resource and reads 3,000 files, then reports the child's
// peak resident set (VmHWM).
func BenchmarkServeStdioPeakRSS(b *testing.B) {
	bundle := servetest.BenchBundle(b, tempDir, 10000)
	var peak int64
	for range b.N {
		p := startStdio(b, bundle)
		p.call(b, 1, initLine, initDone)
		id := 2
		for _, method := range []string{"skills/list", "resources/list"} {
			cursor := ""
			for {
				params := "{}"
				if cursor != "" {
					params = fmt.Sprintf(`{"cursor":%q}`, cursor)
				}
				res := p.call(b, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
				id++
				_, rest, ok := bytes.Cut(res, []byte(`"nextCursor":"`))
				if !ok {
					break
				}
				cursor = string(rest[:bytes.IndexByte(rest, '"')])
			}
		}
		for i := range 3000 {
			uri := fmt.Sprintf("skill://ns%d/skill-%05d/references/guide.md", (i*3)%10, i*3)
			res := p.call(b, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, id, uri))
			if !bytes.Contains(res, []byte(`"contents"`)) {
				b.Fatalf("%s: %s", uri, res)
			}
			id++
		}
		peak = max(peak, p.peakRSS(b))
		p.stop(b)
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-rss")
}
