package teamserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/internal/livetest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/live"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

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
	servetest.Build(dir) // the command needBinary gives
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The hand-built fixture bundles of internal/bundletest.
type fixture = bundletest.Fixture

func exampleFixture() fixture { return bundletest.Example() }
func memBundle(t testing.TB, fx fixture) (*manifest.Bundle, *bundletest.CountingReader) {
	t.Helper()
	return bundletest.Mem(t, fx)
}

func fileBundle(t testing.TB, fx fixture) (*manifest.Bundle, string) {
	t.Helper()
	return bundletest.File(t, fx)
}

// newServer is serve.New of bundles, logging to the test.
func newServer(t testing.TB, opt serve.Options, bundles ...*manifest.Bundle) *serve.Server {
	t.Helper()
	if opt.Logger == nil {
		opt.Logger = servetest.Logger(t)
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

// startLive starts a live server (live.New) that Runs until the test
// ends.
func startLive(t testing.TB, opt live.Options) *live.Live {
	t.Helper()
	if opt.Server.Logger == nil {
		opt.Server.Logger = servetest.Logger(t)
	}
	if opt.Debounce == 0 {
		opt.Debounce = livetest.Debounce
	}
	return livetest.Start(t, func() (*live.Live, error) { return live.New(opt) })
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
