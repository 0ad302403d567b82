package teamserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/serve"
)

func TestHTTPHostAndOrigin(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	ts := httptest.NewServer(httpHandler(s, "skills.example.com", "proxy.example.com:8443"))
	defer ts.Close()
	const list = `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`
	for _, tc := range []struct {
		path, host, origin string
		want               int
	}{
		{"/mcp", "", "", 200},
		{"/mcp", "localhost:3939", "", 200},
		{"/mcp", "LOCALHOST", "http://localhost:3939", 200},
		{"/mcp", "127.0.0.1:1", "http://127.0.0.1:1", 200},
		{"/mcp", "127.9.9.9", "", 200},
		{"/mcp", "[::1]:3939", "http://[::1]:3939", 200},
		{"/mcp", "skills.example.com", "https://skills.example.com", 200},
		{"/mcp", "skills.example.com:9000", "", 200},
		{"/mcp", "proxy.example.com:8443", "https://proxy.example.com:8443", 200},
		{"/mcp", "proxy.example.com:8444", "", 403},
		{"/mcp", "proxy.example.com", "", 403},
		{"/mcp", "evil.example.com", "", 403},
		{"/mcp", "evil.example.com:3939", "http://evil.example.com:3939", 403},
		{"/mcp", "localhost.evil.example.com", "", 403},
		{"/mcp", "127.0.0.1.nip.io", "", 403},
		{"/mcp", "localhost:3939", "http://evil.example.com", 403},
		{"/mcp", "localhost:3939", "null", 403},
		{"/mcp", "localhost:3939", "file://", 403},
		{"/mcp", "192.168.1.10:3939", "", 403},
		{"/", "localhost", "", 404},
		{"/mcp/", "localhost", "", 404},
		{"/sse", "localhost", "", 404},
		{"/other", "evil.example.com", "", 403},
	} {
		hdr := http.Header{"Mcp-Protocol-Version": {"2025-11-25"}}
		if tc.origin != "" {
			hdr.Set("Origin", tc.origin)
		}
		req, _ := http.NewRequest("POST", ts.URL+tc.path, strings.NewReader(list))
		req.Header = hdr
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s Host %q Origin %q: %d, want %d", tc.path, tc.host, tc.origin, resp.StatusCode, tc.want)
		}
	}
}

func TestBindAddress(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"3939", "127.0.0.1:3939"},
		{":3939", "127.0.0.1:3939"},
		{"0", "127.0.0.1:0"},
		{"localhost:80", "localhost:80"},
		{"0.0.0.0:3939", "0.0.0.0:3939"},
		{"[::]:3939", "[::]:3939"},
		{"[::1]:3939", "[::1]:3939"},
		{"", "error"},
		{"http", "error"},
		{"70000", "error"},
		{"-1", "error"},
		{"host:", "error"},
		{"::", "error"},
		{"a:b:c", "error"},
	} {
		got, err := bindAddress(tc.in)
		if err != nil {
			got = "error"
		}
		if got != tc.want {
			t.Errorf("bindAddress(%q) = %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestListenAllInterfacesNeedsAllowedHosts(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		err := ListenAndServe(context.Background(), s, addr, Options{})
		if err == nil || !strings.Contains(err.Error(), "SKILLS_ALLOWED_HOSTS") {
			t.Errorf("%s without allowed hosts: %v", addr, err)
		}
	}
}

// TestListenAndServeShutdown starts the server on a real port, holds a
// request in flight and a 2026-07-28 subscription stream open, then cancels
// the context: the request completes, the stream ends, the server stops.
func TestListenAndServeShutdown(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	entered, release := make(chan struct{}), make(chan struct{})
	s.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*serve.GetSkillParams); ok && strings.Contains(p.URI, "git-workflow") {
				close(entered)
				<-release
			}
			return next(ctx, method, req)
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- wrapServer(s).serveListener(ctx, ln, Options{}) }()
	url := "http://" + ln.Addr().String() + Endpoint

	listener, err := newClient(t, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {},
	}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	cs, err := newClient(t, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var wg sync.WaitGroup
	var getErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, getErr = getSkill(context.Background(), cs, "skill://community/git-workflow/SKILL.md")
	}()
	<-entered
	cancel()
	time.Sleep(100 * time.Millisecond) // shutdown has begun: new connections are refused
	if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		c.Close()
		t.Error("the listener still accepts connections after cancel")
	}
	close(release)
	wg.Wait()
	if getErr != nil {
		t.Errorf("the request in flight failed: %v", getErr)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop (a subscription stream held it?)")
	}
}
