package pull_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// Hostile live servers, made with the Go SDK: one that never answers
// resources/read, one that returns a new cursor on every page, and one that
// sends 32 MiB for a file listed as 10 bytes.

// bigSize is four times the 8 MiB a refusal may let cross the wire or
// allocate: enough to show the bound, small enough that a loaded machine
// makes the answer well within the request timeout.
const bigSize = 32 << 20

// limitServer serves one skill, h/s, with SKILL.md and x.md. mode "hang":
// resources/read of x.md never answers (until stop is closed); "big": x.md
// is listed as 10 bytes and sent as bigSize bytes; "pages": skills/list returns
// a new cursor on every page.
func limitServer(mode string, stop <-chan struct{}) (*mcp.Server, *counter) {
	skillMD, x := "---\nname: s\n---\n", "ten bytes!"
	caps := &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension(manifest.ExtensionName, nil)
	srv := mcp.NewServer(&mcp.Implementation{Name: "hostile-" + mode, Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	c := &counter{n: map[string]int{}}
	srv.AddReceivingMiddleware(c.middleware)
	ent := entry(hostileSkill{uri: "skill://h/s/SKILL.md", name: "s", files: []hostileFile{file("skill://h/s/SKILL.md", skillMD), file("skill://h/s/x.md", x)}})
	mcp.AddReceivingCustomMethod(srv, "skills/list", func(_ context.Context, _ *mcp.ServerSession, p *listParams) (*listResult, error) {
		res := &listResult{ResultType: "complete", Skills: []json.RawMessage{ent}}
		if mode == "pages" {
			page := 0
			if p != nil {
				fmt.Sscan(p.Cursor, &page)
			}
			res.NextCursor = fmt.Sprint(page + 1)
		}
		return res, nil
	})
	srv.AddResource(&mcp.Resource{URI: "skill://h/s/SKILL.md", Name: "SKILL.md"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "skill://h/s/SKILL.md", Text: skillMD}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "skill://h/s/x.md", Name: "x.md"}, func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		switch mode {
		case "hang":
			select {
			case <-stop:
			case <-ctx.Done():
			}
			return nil, ctx.Err()
		case "big":
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "skill://h/s/x.md", Text: strings.Repeat("a", bigSize)}}}, nil
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "skill://h/s/x.md", Text: x}}}, nil
	})
	return srv, c
}

// serveLimitStdio runs limitServer(mode) on stdin and stdout: the test
// binary as a hostile stdio server (see TestMain).
func serveLimitStdio(mode string) int {
	srv, _ := limitServer(mode, nil)
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func limitCommand(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PULL_TEST_HOSTILE="+mode)
	return cmd
}

// pullOne pulls every skill of src into a fresh folder, which it returns
// with the result and error.
func pullOne(t *testing.T, src *pull.Source) (string, *pull.Result, error) {
	t.Helper()
	dir := t.TempDir()
	all, err := src.Select(context.Background(), nil, true)
	must(t, err)
	res, err := pull.Pull(context.Background(), src, all, pull.Options{To: dir, KeepPath: true})
	return dir, res, err
}

// within fails the test if f does not return within d: without a timeout,
// a hostile server would hang it.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still waiting after %v", d)
	}
}

// TestRequestTimeout: a server that never answers one resources/read
// fails that file, and only that file, after the request timeout, and
// leaves nothing written. The timeout bounds every request, the connection's
// too: on a loaded machine starting the stdio server (or answering the
// other requests) can take longer than a short timeout, so a run whose
// timeout struck elsewhere is tried again with a longer one. The hanging
// read must still be the one that fails.
func TestRequestTimeout(t *testing.T) {
	stop := make(chan struct{})
	srv, _ := limitServer("hang", stop)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	defer close(stop)
	for name, connect := range map[string]func(pull.ConnectOptions) (*pull.Source, error){
		"http": func(opt pull.ConnectOptions) (*pull.Source, error) {
			return pull.ConnectHTTP(context.Background(), ts.URL, opt)
		},
		"stdio": func(opt pull.ConnectOptions) (*pull.Source, error) {
			return pull.ConnectCommand(context.Background(), limitCommand("hang"), opt)
		},
	} {
		t.Run(name, func(t *testing.T) {
			within(t, 60*time.Second, func() {
				for _, timeout := range []time.Duration{300 * time.Millisecond, 2 * time.Second, 8 * time.Second} {
					if requestTimesOut(t, connect, timeout) {
						return
					}
					t.Logf("timeout of %v struck before the hanging read; trying a longer one", timeout)
				}
				t.Error("the request timeout struck before the hanging read at every timeout tried")
			})
		})
	}
}

// requestTimesOut connects with the request timeout and pulls the one
// skill. It reports false when the timeout struck before the hanging read
// (in the connection, or reading SKILL.md), and checks the pull failed as
// it should otherwise.
func requestTimesOut(t *testing.T, connect func(pull.ConnectOptions) (*pull.Source, error), timeout time.Duration) bool {
	t.Helper()
	timedOut := fmt.Sprintf("no answer within %v (the request timeout)", timeout)
	src, err := connect(pull.ConnectOptions{Name: "hang", RequestTimeout: timeout})
	if err != nil && strings.Contains(err.Error(), timedOut) {
		return false
	}
	must(t, err)
	defer src.Close()
	dir, res, err := pullOne(t, src)
	if err != nil && res != nil && len(res.Skills) == 1 && strings.Contains(res.Skills[0].Error, timedOut) &&
		!strings.Contains(res.Skills[0].Error, "x.md: resources/read") {
		return false
	}
	if err == nil || res.Failed != 1 || !strings.Contains(res.Skills[0].Error, "x.md: resources/read skill://h/s/x.md: "+timedOut) {
		t.Errorf("err = %v, result %+v", err, res)
	}
	sameTree(t, readTree(t, dir), nil)
	noTempFiles(t, dir)
	return true
}

// TestOverallTimeout: the caller's deadline ends a pull from a server that
// never answers, even without a request timeout, and says why.
func TestOverallTimeout(t *testing.T) {
	stop := make(chan struct{})
	srv, _ := limitServer("hang", stop)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	defer close(stop)
	within(t, 30*time.Second, func() {
		src, err := pull.ConnectHTTP(context.Background(), ts.URL, pull.ConnectOptions{Name: "hang", RequestTimeout: -1})
		must(t, err)
		defer src.Close()
		ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, fmt.Errorf("timed out (overall)"))
		defer cancel()
		all, _ := src.Select(ctx, nil, true)
		dir := t.TempDir()
		_, err = pull.Pull(ctx, src, all, pull.Options{To: dir})
		if err == nil || err.Error() != "timed out (overall)" {
			t.Errorf("err = %v", err)
		}
		noTempFiles(t, dir)
	})
}

func TestPageLimit(t *testing.T) {
	srv, count := limitServer("pages", nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	for _, c := range []struct{ max, want int }{{5, 5}, {0, pull.DefaultMaxPages}} {
		_, err := pull.ConnectHTTP(context.Background(), ts.URL, pull.ConnectOptions{Name: "pages", MaxPages: c.max})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("server pages: skills/list: still returning a cursor after %d pages (the page limit)", c.want)) {
			t.Errorf("max %d: err = %v", c.max, err)
		}
		if n := count.reset(); n["skills/list"] != c.want {
			t.Errorf("max %d: %d pages asked for", c.max, n["skills/list"])
		}
	}
}

// countingProxy forwards TCP connections to addr and counts the bytes that
// go from the server to the client.
func countingProxy(t *testing.T, addr string) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer s.Close()
				go io.Copy(s, c)
				buf := make([]byte, 32<<10)
				for {
					k, err := s.Read(buf)
					if k > 0 {
						if _, werr := c.Write(buf[:k]); werr != nil {
							return
						}
						n.Add(int64(k))
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String(), &n
}

const bigError = "x.md: size mismatch: the listing says 10 bytes, the server sent more than the"

// TestOversizedAnswerHTTP: a file listed as 10 bytes and sent as 32 MiB is
// refused after a few KiB have crossed the wire, as JSON or as an event
// stream, and nothing is left on disk.
func TestOversizedAnswerHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("the server makes a 32 MiB answer")
	}
	srv, _ := limitServer("big", nil)
	for _, jsonResponse := range []bool{true, false} {
		t.Run(fmt.Sprintf("json=%v", jsonResponse), func(t *testing.T) {
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
			defer ts.Close()
			addr, sent := countingProxy(t, ts.Listener.Addr().String())
			src, err := pull.ConnectHTTP(context.Background(), "http://"+addr, pull.ConnectOptions{Name: "big"})
			must(t, err)
			defer src.Close()
			before := sent.Load()
			dir, res, err := pullOne(t, src)
			if err == nil || res.Failed != 1 || !strings.Contains(res.Skills[0].Error, bigError) {
				t.Fatalf("err = %v, result %+v", err, res)
			}
			sameTree(t, readTree(t, dir), nil)
			noTempFiles(t, dir)
			if n := sent.Load() - before; n > 8<<20 {
				t.Errorf("%d bytes crossed the wire before the refusal", n)
			} else {
				t.Logf("%d of %d bytes crossed the wire before the refusal", n, bigSize)
			}
		})
	}
}

// TestOversizedAnswerStdio: the same over stdio, with the server in
// another process so that what this one allocates is pull's alone.
func TestOversizedAnswerStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("the server makes a 32 MiB answer")
	}
	src, err := pull.ConnectCommand(context.Background(), limitCommand("big"), pull.ConnectOptions{Name: "big"})
	must(t, err)
	defer src.Close()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	dir, res, err := pullOne(t, src)
	runtime.ReadMemStats(&m1)
	if err == nil || res.Failed != 1 || !strings.Contains(res.Skills[0].Error, bigError) {
		t.Fatalf("err = %v, result %+v", err, res)
	}
	sameTree(t, readTree(t, dir), nil)
	noTempFiles(t, dir)
	if n := m1.TotalAlloc - m0.TotalAlloc; n > 8<<20 {
		t.Errorf("pull allocated %d bytes before the refusal", n)
	} else {
		t.Logf("pull allocated %d bytes for a %d-byte answer before the refusal", n, bigSize)
	}
}
