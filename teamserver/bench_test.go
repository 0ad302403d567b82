package teamserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// BenchmarkServeResourceReadHTTP reads small files over streamable HTTP
// from 32 concurrent clients and reports requests per second. "sdk" uses
// 32 Go SDK client sessions (2025-11-25: the 2026-07-28 client would answer
// repeated reads from its own cache); "raw" posts 2026-07-28 requests with
// net/http, one connection per client. "sdk" and "bearer" also report
// cpu-µs/req, the process's CPU time (clients and server) per request:
// req/s moves with whatever else the machine runs, CPU time much less.
func BenchmarkServeResourceReadHTTP(b *testing.B) {
	const clients = 32
	bu := servetest.OpenBench(b, tempDir, 1000)
	var uris []string
	for i := range bu.NumSkills() {
		sk, err := bu.Skill(i)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range sk.Entry.Resources {
			uris = append(uris, r.URI)
		}
	}
	s := newServer(b, serve.Options{}, bu)
	ts := httptest.NewServer(httpHandler(s))
	defer ts.Close()
	url := ts.URL + Endpoint

	b.Run("sdk", func(b *testing.B) {
		sessions := make([]*mcp.ClientSession, clients)
		for i := range sessions {
			cs, err := newClient(b, nil).Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: &http.Transport{}}},
				&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			sessions[i] = cs
		}
		var next atomic.Int64
		b.SetParallelism((clients + 1) / 2) // × GOMAXPROCS (2) goroutines
		cpu0 := servetest.ProcCPU(b, os.Getpid())
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1) - 1)
			cs := sessions[i%clients]
			for j := i * 997; pb.Next(); j++ {
				if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uris[j%len(uris)]}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-cpu0)/float64(b.N)/1e3, "cpu-µs/req")
	})

	// "bearer": as "sdk", through bearer-token authorization (one token per
	// client; no rate limit, which would measure the limit instead).
	b.Run("bearer", func(b *testing.B) {
		tokens := map[string]string{}
		for i := range clients {
			tokens[fmt.Sprintf("c%d", i)] = "*"
		}
		a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: servetest.WriteTokens(b, filepath.Join(b.TempDir(), "tokens"), tokens)})
		if err != nil {
			b.Fatal(err)
		}
		ats := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: -1}}))
		defer ats.Close()
		sessions := make([]*mcp.ClientSession, clients)
		for i := range sessions {
			hc := &http.Client{Transport: bearerTransport{fmt.Sprintf("tok-c%d", i), &http.Transport{}}}
			cs, err := newClient(b, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ats.URL + Endpoint, HTTPClient: hc},
				&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			sessions[i] = cs
		}
		var next atomic.Int64
		b.SetParallelism((clients + 1) / 2)
		cpu0 := servetest.ProcCPU(b, os.Getpid())
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1) - 1)
			cs := sessions[i%clients]
			for j := i * 997; pb.Next(); j++ {
				if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uris[j%len(uris)]}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-cpu0)/float64(b.N)/1e3, "cpu-µs/req")
	})

	b.Run("raw", func(b *testing.B) {
		var next atomic.Int64
		b.SetParallelism((clients + 1) / 2)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1) - 1)
			post := httpPoster(&http.Client{Transport: &http.Transport{}}, url)
			for j := i * 997; pb.Next(); j++ {
				if err := rawRead(post, j, uris[j%len(uris)]); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
}

// poster posts one 2026-07-28 request with the given id, method, Mcp-Name
// header (if not empty) and params members (each followed by a comma; the
// _meta triple is added), and returns the 200 response's body: SSE or JSON,
// whichever the server chose.
type poster func(id int, method, name, params string) ([]byte, error)

func benchBody(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, method, params)
}

// httpPoster posts with a net/http client.
func httpPoster(hc *http.Client, url string) poster {
	return func(id int, method, name, params string) ([]byte, error) {
		req, err := servetest.StatelessRequest(url, id, method, name, params)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		return readBenchResponse(resp, method, name)
	}
}

func readBenchResponse(resp *http.Response, method, name string) ([]byte, error) {
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s %s: %d %s", method, name, resp.StatusCode, data)
	}
	return data, nil
}

// connPoster posts over one keep-alive connection of its own, writing each
// request itself and parsing the response with http.ReadResponse. It is a
// lean load generator: on a 2-core machine the clients share the cores with
// the server, and net/http's client (two goroutines per connection, a
// header map per request) would cost half as much CPU as the server.
func connPoster(b *testing.B, url string) poster { return connPosterAt(b, url, "2026-07-28") }

// connPosterAt is connPoster sending version in the Mcp-Protocol-Version
// header (the body's _meta keeps the revision connPoster sends).
func connPosterAt(b *testing.B, url, version string) poster {
	host := strings.TrimPrefix(strings.TrimSuffix(url, Endpoint), "http://")
	var conn net.Conn
	var br *bufio.Reader
	b.Cleanup(func() {
		if conn != nil {
			conn.Close()
		}
	})
	var req []byte
	return func(id int, method, name, params string) ([]byte, error) {
		if conn == nil {
			c, err := net.Dial("tcp", host)
			if err != nil {
				return nil, err
			}
			conn, br = c, bufio.NewReaderSize(c, 64<<10)
		}
		body := benchBody(id, method, params)
		req = fmt.Appendf(req[:0], "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: %s\r\nMcp-Method: %s\r\n",
			Endpoint, host, version, method)
		if name != "" {
			req = fmt.Appendf(req, "Mcp-Name: %s\r\n", name)
		}
		req = fmt.Appendf(req, "Content-Length: %d\r\n\r\n%s", len(body), body)
		if _, err := conn.Write(req); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return nil, err
		}
		return readBenchResponse(resp, method, name)
	}
}

// rawRead reads one resource and checks that contents came back.
func rawRead(post poster, id int, uri string) error {
	data, err := post(id, "resources/read", uri, fmt.Sprintf(`"uri":%q,`, uri))
	if err != nil {
		return err
	}
	if !bytes.Contains(data, []byte(`"contents"`)) {
		return fmt.Errorf("resources/read %s: %s", uri, data)
	}
	return nil
}

// rawListPage gets one skills/list page and returns the next cursor (""
// after the last page).
func rawListPage(post poster, id int, cursor string) (string, error) {
	params := ""
	if cursor != "" {
		params = fmt.Sprintf(`"cursor":%q,`, cursor)
	}
	data, err := post(id, "skills/list", "", params)
	if err != nil {
		return "", err
	}
	if !bytes.Contains(data, []byte(`"skills":[{`)) {
		return "", fmt.Errorf("skills/list: %.200s", data)
	}
	_, rest, ok := bytes.Cut(data, []byte(`"nextCursor":"`))
	if !ok {
		return "", nil
	}
	return string(rest[:bytes.IndexByte(rest, '"')]), nil
}

// httpServer is the built command serving a bundle over streamable HTTP.
type httpServer struct {
	cmd *exec.Cmd
	url string // the MCP endpoint
}

// startHTTP runs `skills-mcp serve --http 127.0.0.1:0 bundle` (with env
// added) and waits until it logs the address it listens on.
func startHTTP(b *testing.B, bundle string, env ...string) *httpServer {
	b.Helper()
	cmd := exec.Command(servetest.Binary(b), "serve", "--http", "127.0.0.1:0", bundle)
	cmd.Env = append(os.Environ(), env...)
	return startListening(b, cmd)
}

// startListening starts cmd and waits until it logs "listening on
// http://ADDR/mcp" on stderr. It is interrupted and waited for when the
// benchmark ends.
func startListening(b *testing.B, cmd *exec.Cmd) *httpServer {
	b.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok && (strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://")) {
				found <- strings.TrimRight(rest, `"`)
				break
			}
		}
		close(found)
		io.Copy(io.Discard, stderr)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			b.Fatalf("%s exited before listening", cmd.Path)
		}
		return &httpServer{cmd, url}
	case <-time.After(20 * time.Second):
		b.Fatalf("%s: not listening after 20s", cmd.Path)
	}
	return nil
}

// sdkFloorEnv makes this test binary (TestMain) serve one tiny resource over
// streamable HTTP with the SDK alone.
const sdkFloorEnv = "SKILLS_MCP_SDK_FLOOR_SERVER"

// sdkFloorURI is the one resource the SDK floor server serves.
const sdkFloorURI = "test://floor/guide.md"

// runSDKFloorServer is the server process of BenchmarkServeHTTPSDKFloor,
// which starts the test binary with sdkFloorEnv set (see TestMain). It
// serves one 24-byte text resource, registered with the SDK's own
// AddResource, with the same streamable HTTP options as HTTPHandler, until
// interrupted.
func runSDKFloorServer() error {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	s.AddResource(&mcp.Resource{URI: sdkFloorURI, Name: "guide.md", MIMEType: "text/markdown"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: req.Params.URI, MIMEType: "text/markdown", Text: "Guide for skill-00001.\n"}}}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	return serveUntilInterrupt(&http.Server{Handler: h})
}

// serveUntilInterrupt serves srv (over TLS when it has a TLSConfig) on a
// loopback port, which it logs as
// startListening waits for, until the process is interrupted: the server
// processes of the floor benchmarks.
func serveUntilInterrupt(srv *http.Server) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	scheme := "http"
	if srv.TLSConfig != nil {
		scheme = "https"
	}
	fmt.Fprintf(os.Stderr, "listening on %s://%s%s\n", scheme, ln.Addr(), Endpoint)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	serve := srv.Serve
	if srv.TLSConfig != nil {
		serve = func(ln net.Listener) error { return srv.ServeTLS(ln, "", "") }
	}
	if err := serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// BenchmarkServeHTTPSDKFloor is what a resources/read over HTTP costs in the
// SDK alone: "read" of BenchmarkServeHTTPBinary (32 lean keep-alive clients)
// against a server that has nothing of ours, only the SDK serving one small
// resource it holds in memory, with the memory limit the command gives a
// 1,000-skill server (GOGC=off). The difference between the two benchmarks'
// server CPU per request is what our code costs.
func BenchmarkServeHTTPSDKFloor(b *testing.B) {
	const clients = 32
	fi, err := os.Stat(servetest.BenchBundle(b, tempDir, 1000))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), sdkFloorEnv+"=1", "GOGC=off", fmt.Sprintf("GOMEMLIMIT=%d", 30<<20-fi.Size()))
	srv := startListening(b, cmd)
	var next atomic.Int64
	b.SetParallelism((clients + 1) / 2)
	cpu0 := srv.cpuTime(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1) - 1)
		post := connPoster(b, srv.url)
		for j := i * 997; pb.Next(); j++ {
			if err := rawRead(post, j, sdkFloorURI); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	b.ReportMetric(float64(srv.cpuTime(b)-cpu0)/float64(b.N)/1e3, "server-cpu-µs/req")
	b.ReportMetric(float64(procPeakRSS(b, srv.cmd.Process.Pid))/(1<<20), "MiB-peak-rss")
}

// cpuTime returns the user+system CPU time the server has used so far, all
// threads included.
func (p *httpServer) cpuTime(b *testing.B) time.Duration {
	return servetest.ProcCPU(b, p.cmd.Process.Pid)
}

// BenchmarkServeHTTPBinary measures what users run: the built command
// serving a 1,000-skill bundle file with `serve --http`, with its production
// GC settings, in its own process. "read" drives it with 32 concurrent
// keep-alive clients posting resources/read for small files, and reports
// requests per second, the server's CPU time per request (user+system, all
// threads: the figure that a loaded machine inflates least), the clients'
// (this process's) CPU time per request, which shares the two cores, and
// the server's peak resident set. With both cores to themselves, server and
// clients serve 2 s / (server + client CPU per request) requests a second.
// "list" pages through skills/list (default page size) from one client and
// reports the page latency and the server's CPU time per page;
// "list-under-load" does the same while the 32 clients keep reading, and
// reports their rate too.
//
// BENCH_SERVER_ENV adds variables to the server's environment, to compare
// GC settings with the built-in ones: BENCH_SERVER_ENV="GOGC=200 GOMEMLIMIT=64MiB".
func BenchmarkServeHTTPBinary(b *testing.B) {
	const clients = 32
	bu := servetest.OpenBench(b, tempDir, 1000)
	var uris []string
	for i := range bu.NumSkills() {
		for _, r := range mustSkill(b, bu, i).Entry.Resources {
			uris = append(uris, r.URI)
		}
	}
	srv := startHTTP(b, servetest.BenchBundle(b, tempDir, 1000), strings.Fields(os.Getenv("BENCH_SERVER_ENV"))...)
	url := srv.url

	b.Run("read", func(b *testing.B) {
		var next atomic.Int64
		b.SetParallelism((clients + 1) / 2) // × GOMAXPROCS (2) goroutines
		cpu0, self0 := srv.cpuTime(b), servetest.ProcCPU(b, os.Getpid())
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1) - 1)
			post := connPoster(b, url)
			for j := i * 997; pb.Next(); j++ {
				if err := rawRead(post, j, uris[j%len(uris)]); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		b.ReportMetric(float64(srv.cpuTime(b)-cpu0)/float64(b.N)/1e3, "server-cpu-µs/req")
		b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-self0)/float64(b.N)/1e3, "client-cpu-µs/req")
		b.ReportMetric(float64(procPeakRSS(b, srv.cmd.Process.Pid))/(1<<20), "MiB-peak-rss")
	})

	listPages := func(b *testing.B) (serverCPU time.Duration) {
		post := connPoster(b, url)
		lat := make([]time.Duration, 0, b.N)
		cursor := ""
		cpu0 := srv.cpuTime(b)
		b.ResetTimer()
		for i := range b.N {
			start := time.Now()
			next, err := rawListPage(post, i, cursor)
			lat = append(lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			cursor = next
		}
		b.StopTimer()
		servetest.ReportPercentiles(b, lat, "page")
		return srv.cpuTime(b) - cpu0
	}
	b.Run("list", func(b *testing.B) {
		cpu := listPages(b)
		b.ReportMetric(float64(cpu)/float64(b.N)/1e3, "server-cpu-µs/page")
	})

	b.Run("list-under-load", func(b *testing.B) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var reads atomic.Int64
		for i := range clients {
			wg.Go(func() {
				post := connPoster(b, url)
				for j := i * 997; ; j++ {
					select {
					case <-stop:
						return
					default:
					}
					if err := rawRead(post, j, uris[j%len(uris)]); err != nil {
						b.Error(err)
						return
					}
					reads.Add(1)
				}
			})
		}
		time.Sleep(100 * time.Millisecond) // let the load settle
		r0, t0 := reads.Load(), time.Now()
		listPages(b)
		b.ReportMetric(float64(reads.Load()-r0)/time.Since(t0).Seconds(), "load-req/s")
		close(stop)
		wg.Wait()
	})
}

func mustSkill(b *testing.B, bu *manifest.Bundle, i int) *manifest.Skill {
	sk, err := bu.Skill(i)
	if err != nil {
		b.Fatal(err)
	}
	return sk
}
