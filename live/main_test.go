package live

// What the tests of live share: the real command built once (TestMain), and
// SDK clients of a serve.Server in memory, over HTTP, or of the command.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// endpoint is the MCP path of the servers the tests start.
const endpoint = "/mcp"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "live-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	servetest.Build(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Protocol revisions every client test runs with: the initialize handshake
// most hosts speak, and the SDK's default (2026-07-28, server/discover).
var protocols = []struct{ name, version string }{
	{"2025-11-25", "2025-11-25"},
	{"2026-07-28", ""},
}

// newClient returns an SDK client that knows the SEP-2640 methods.
func newClient(t testing.TB, opts *mcp.ClientOptions) *mcp.Client {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "live-test", Version: "1"}, opts)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*serve.ListSkillsParams, *serve.ListSkillsResult](c, serve.MethodListSkills),
		mcp.AddSendingCustomMethod[*serve.GetSkillParams, *serve.GetSkillResult](c, serve.MethodGetSkill),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// connectMem connects a client to s over in-memory transports.
func connectMem(t testing.TB, s *serve.Server, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return servetest.ConnectMem(t, newClient(t, opts), s.MCP(), version)
}

// connectHTTP connects a client to s over streamable HTTP on a loopback
// listener.
func connectHTTP(t testing.TB, s *serve.Server, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(endpoint, s.MCPHandler(1<<20))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return connectURL(t, ts.URL+endpoint, nil, version, opts)
}

// connectURL connects a client to the MCP endpoint url through hc (the
// default client if nil).
func connectURL(t testing.TB, url string, hc *http.Client, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := newClient(t, opts).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectBearer connects a client over streamable HTTP to the server at
// base with a bearer token.
func connectBearer(t testing.TB, base, token string) *mcp.ClientSession {
	t.Helper()
	return connectURL(t, base+endpoint, &http.Client{Transport: bearerTransport{token}}, "", nil)
}

// connectCommand starts `skills-mcp args…` with env added, and connects to it;
// the session is closed, and the process waited for, when the test ends.
func connectCommand(t testing.TB, version string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	return servetest.ConnectCommand(t, newClient(t, nil), version, env, args...)
}

func listSkills(ctx context.Context, cs *mcp.ClientSession, cursor string) (*serve.ListSkillsResult, error) {
	return mcp.CallCustomMethod[*serve.ListSkillsParams, *serve.ListSkillsResult](ctx, cs, serve.MethodListSkills, &serve.ListSkillsParams{Cursor: cursor})
}

func getSkill(ctx context.Context, cs *mcp.ClientSession, uri string) (*serve.GetSkillResult, error) {
	return mcp.CallCustomMethod[*serve.GetSkillParams, *serve.GetSkillResult](ctx, cs, serve.MethodGetSkill, &serve.GetSkillParams{URI: uri})
}

// entry is the part of a skills/list entry the tests look at.
type entry struct {
	URI         string         `json:"uri"`
	Frontmatter map[string]any `json:"frontmatter"`
	Resources   []struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
	} `json:"resources"`
}

// served pages through skills/list and returns every skill's URI.
func served(t testing.TB, cs *mcp.ClientSession) []string {
	t.Helper()
	var uris []string
	cursor := ""
	for range 1000 {
		res, err := listSkills(context.Background(), cs, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range res.Skills {
			var e entry
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			uris = append(uris, e.URI)
		}
		if cursor = res.NextCursor; cursor == "" {
			return uris
		}
	}
	t.Fatal("skills/list never ends")
	return nil
}

// bundleFile builds the library at dir into a bundle file and returns its
// path.
func bundleFile(t testing.TB, dir string, lib build.Library) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lib.skb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lib.Root = dir
	if _, err := build.Build(build.Options{Libraries: []build.Library{lib}}, f); err != nil {
		t.Fatal(err)
	}
	return path
}
