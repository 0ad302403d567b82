package teamserver

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
)

// referenceEnv names the command (split on spaces) that runs the reference
// server in BenchmarkServeHTTPFloor, for example
// "node /tmp/thirdbrain/dist/index.js"; the benchmark adds
// --lib bench=DIR --http PORT. Unset, the reference leg is skipped.
const referenceEnv = "BENCH_REFERENCE_CMD"

// referenceVersion is the protocol revision the reference's SDK accepts in
// the Mcp-Protocol-Version header.
const referenceVersion = "2025-11-25"

// startReference writes the skills of the n-skill benchmark bundle
// (bundletest.Big) as folders to a library directory, runs command on it
// over streamable HTTP, and returns the server and, for each of uris (the
// bundle's), the reference's URI of the same file.
func startReference(b *testing.B, command string, n int, uris []string) (*httpServer, []string) {
	b.Helper()
	dir := b.TempDir()
	fx := bundletest.Big(n)
	for p, files := range fx {
		for rel, text := range files {
			f := filepath.Join(dir, filepath.FromSlash(p), filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	refURIs := make([]string, len(uris))
	for i, u := range uris {
		segs := strings.Split(strings.TrimPrefix(u, "skill://"), "/")
		for k := 1; k < len(segs) && refURIs[i] == ""; k++ {
			if _, ok := fx[strings.Join(segs[:k], "/")][strings.Join(segs[k:], "/")]; ok {
				refURIs[i] = "skill://bench/" + strings.Join(segs, "/")
			}
		}
		if refURIs[i] == "" {
			b.Fatalf("%s: no such file among the skills written for the reference", u)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	args := strings.Fields(command)
	cmd := exec.Command(args[0], append(args[1:], "--lib", "bench="+dir, "--http", strconv.Itoa(port))...)
	// No periodic rescan of the library during the run.
	cmd.Env = append(os.Environ(), "SKILLS_RESCAN_SECONDS=0")
	return startListening(b, cmd), refURIs
}
