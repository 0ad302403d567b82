package serve

// Helpers for the tests that run the real binary over HTTP with a token
// file (teamserver's tests have the same; the endpoint is theirs, the view
// each token is answered from is serve's).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeSkills writes each path → SKILL.md content below dir.
func writeSkills(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for p, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeTokens writes a token file of name → namespaces, each token being
// "tok-" + name, and returns its path.
func writeTokens(t testing.TB, path string, tokens map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# test tokens\n\n")
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range tokens {
			if !yield(k) {
				return
			}
		}
	}) {
		h := sha256.Sum256([]byte("tok-" + name))
		fmt.Fprintf(&b, "%s sha256:%s %s\n", name, hex.EncodeToString(h[:]), tokens[name])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o640); err != nil {
		t.Fatal(err)
	}
	return path
}

// syncBuffer is a goroutine-safe strings.Builder for a child's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServeHTTP starts `skills-mcp serve --http 127.0.0.1:0 args…` and returns
// its base URL, once it listens, and its stderr.
func startServeHTTP(t *testing.T, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(needBinary(t), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	re := regexp.MustCompile(`listening on (http://[0-9.:]+)` + Endpoint)
	for range 200 {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], cmd, stderr
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the server did not start:\n%s", stderr.String())
	return "", nil, nil
}
