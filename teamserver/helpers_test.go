package teamserver

// The helpers this package's tests share with the other's, from
// internal/servetest.

import (
	"log/slog"
	"os/exec"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// syncBuffer is a goroutine-safe buffer for a child's stderr.
type syncBuffer = servetest.Buffer

// needBinary returns the skills-mcp command TestMain built, and skips a test
// when it could not be built; under CI that is a failure.
func needBinary(t testing.TB) string { t.Helper(); return servetest.Binary(t) }

// writeTokens writes a token file of name → namespaces, each token being
// "tok-" + name, and returns its path.
func writeTokens(t testing.TB, path string, tokens map[string]string) string {
	t.Helper()
	return servetest.WriteTokens(t, path, tokens)
}

// startServeHTTP starts `skills-mcp serve --http 127.0.0.1:0 args…` and
// returns its base URL, once it listens, and its stderr.
func startServeHTTP(t *testing.T, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	return servetest.StartHTTP(t, Endpoint, args...)
}

// interopDir returns the folder of the pinned npm tools when it holds need;
// else the test is skipped (a failure under CI).
func interopDir(t *testing.T, need ...string) string {
	t.Helper()
	return servetest.InteropDir(t, need...)
}

func testLogger(t testing.TB) *slog.Logger { return servetest.Logger(t) }

func tokenHash(tok string) string { return servetest.TokenHash(tok) }

// benchBundle writes (once per process) a bundle of n skills of three small
// files each to a file in tempDir, and returns its path.
func benchBundle(b *testing.B, n int) string { b.Helper(); return servetest.BenchBundle(b, tempDir, n) }

func openBench(b *testing.B, n int) *manifest.Bundle { return servetest.OpenBench(b, tempDir, n) }

// reportPercentiles reports the median and 99th percentile of d in ms.
func reportPercentiles(b *testing.B, d []time.Duration, unit string) {
	servetest.ReportPercentiles(b, d, unit)
}

// procCPU returns the user+system CPU time process pid has used so far.
func procCPU(b *testing.B, pid int) time.Duration { return servetest.ProcCPU(b, pid) }
