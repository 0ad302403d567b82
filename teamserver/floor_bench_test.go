package teamserver

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// floorEnv makes this test binary (TestMain) the floor server of
// BenchmarkServeHTTPFloor: it serves the answers in the file it names.
const floorEnv = "SKILLS_MCP_FLOOR_ANSWERS"

// floorTLSEnv names the certificate and key files (PEM, a space between)
// with which the floor server serves HTTPS (HTTP/2 and HTTP/1.1 by ALPN)
// instead of HTTP/1.1 and h2c.
const floorTLSEnv = "SKILLS_MCP_FLOOR_TLS"

// floorAnswers are the answers the floor server gives: method + " " + uri
// (or cursor) → the answer's bytes after the id.
type floorAnswers map[string][]byte

// runFloorServer is a bare net/http server, HTTP/1.1 and h2c (or HTTPS,
// see floorTLSEnv), that decodes each POST's JSON-RPC request and answers
// the captured bytes of its method and uri under its id: what answering
// costs with nothing but net/http and encoding/json.
func runFloorServer(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var ans floorAnswers
	if err := json.Unmarshal(data, &ans); err != nil {
		return err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				URI    string `json:"uri"`
				Cursor string `json:"cursor"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		tail, ok := ans[req.Method+" "+req.Params.URI+req.Params.Cursor]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache, no-transform")
		out := make([]byte, 0, len(`{"jsonrpc":"2.0","id":`)+len(req.ID)+len(tail))
		out = append(append(append(out, `{"jsonrpc":"2.0","id":`...), req.ID...), tail...)
		w.Write(out)
	})
	srv := &http.Server{Handler: h, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	if files := strings.Fields(os.Getenv(floorTLSEnv)); len(files) == 2 {
		pair, err := tls.LoadX509KeyPair(files[0], files[1])
		if err != nil {
			return err
		}
		srv.Protocols.SetHTTP2(true)
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}
	} else {
		srv.Protocols.SetUnencryptedHTTP2(true)
	}
	return serveUntilInterrupt(srv)
}

// h2Poster posts over a connection of its own with HTTP/2 over TLS,
// trusting roots only, through net/http's client.
func h2Poster(roots *x509.Certificate, url string) poster {
	pool := x509.NewCertPool()
	pool.AddCert(roots)
	p := new(http.Protocols)
	p.SetHTTP2(true)
	return httpPoster(&http.Client{Transport: &http.Transport{Protocols: p, TLSClientConfig: &tls.Config{RootCAs: pool}}}, url)
}

// h2cPoster posts over a connection of its own with HTTP/2 without TLS
// (prior knowledge), through net/http's client.
func h2cPoster(url string) poster {
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	return httpPoster(&http.Client{Transport: &http.Transport{Protocols: p}}, url)
}

// loadResult is what one load run measured.
type loadResult struct {
	n   int64
	d   time.Duration
	lat []time.Duration
}

func (r loadResult) rate() float64 { return float64(r.n) / r.d.Seconds() }

// p99 returns the 99th percentile latency.
func (r loadResult) p99() time.Duration {
	l := append([]time.Duration(nil), r.lat...)
	slices.Sort(l)
	if len(l) == 0 {
		return 0
	}
	return l[len(l)*99/100]
}

// load runs clients goroutines, each with its own poster, calling do for
// d, and returns the requests answered and their latencies.
func load(b *testing.B, clients int, d time.Duration, newPoster func() poster, do func(post poster, j int) error) loadResult {
	var wg sync.WaitGroup
	var n atomic.Int64
	lats := make([][]time.Duration, clients)
	stop := time.Now().Add(d)
	start := time.Now()
	for i := range clients {
		wg.Go(func() {
			post := newPoster()
			for j := i * 997; time.Now().Before(stop); j++ {
				t0 := time.Now()
				if err := do(post, j); err != nil {
					b.Error(err)
					return
				}
				lats[i] = append(lats[i], time.Since(t0))
				n.Add(1)
			}
		})
	}
	wg.Wait()
	r := loadResult{n: n.Load(), d: time.Since(start)}
	for _, l := range lats {
		r.lat = append(r.lat, l...)
	}
	return r
}

// BenchmarkServeHTTPFloor measures the built command (`serve --http`, a
// 1,000-skill bundle file) beside a bare net/http floor server
// (runFloorServer) that answers the same bytes, captured from the command,
// under each request's id: the same 32 keep-alive clients, in one run,
// alternating floor and command BENCH_FLOOR_ROUNDS times (default 3) for
// BENCH_FLOOR_SECONDS each (default 2). "read" is resources/read of the
// bundle's small files, "list" the first skills/list page; "h1" are lean
// HTTP/1.1 clients (connPoster), "h2c" net/http's client over HTTP/2
// without TLS, "h2" net/http's client over HTTP/2 over TLS (both servers
// with one self-signed ECDSA P-256 certificate: ours with --tls-cert). It
// reports both rates, ours as a percentage of the floor's, and both p99
// latencies. With BENCH_REFERENCE_CMD set (referenceEnv), the h1 runs
// alternate the reference server too, on the same skills written as
// folders, and report its rate, ours ÷ its ("x-reference") and its p99.
// Run it with -benchtime 1x. BENCH_SERVER_ENV adds
// variables to the command's environment (SKILLS_ANSWER_CACHE_MIB=0: no
// kept answers).
func BenchmarkServeHTTPFloor(b *testing.B) {
	const clients = 32
	bu := servetest.OpenBench(b, tempDir, 1000)
	var uris []string
	for i := range bu.NumSkills() {
		for _, r := range mustSkill(b, bu, i).Entry.Resources {
			uris = append(uris, r.URI)
		}
	}
	secs, rounds := 2.0, 3
	if v, err := strconv.ParseFloat(os.Getenv("BENCH_FLOOR_SECONDS"), 64); err == nil {
		secs = v
	}
	if v, err := strconv.Atoi(os.Getenv("BENCH_FLOOR_ROUNDS")); err == nil {
		rounds = v
	}
	ours := startHTTP(b, servetest.BenchBundle(b, tempDir, 1000), strings.Fields(os.Getenv("BENCH_SERVER_ENV"))...)

	// The answers the floor gives are the command's own.
	ans := floorAnswers{}
	capture := connPoster(b, ours.url)
	cut := func(data []byte, id int) []byte {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d`, id)
		if !bytes.HasPrefix(data, []byte(head)) {
			b.Fatalf("answer %.100s", data)
		}
		return bytes.Clone(data[len(head):])
	}
	for i, u := range uris {
		data, err := capture(i, "resources/read", u, fmt.Sprintf(`"uri":%q,`, u))
		if err != nil {
			b.Fatal(err)
		}
		ans["resources/read "+u] = cut(data, i)
	}
	data, err := capture(1, "skills/list", "", "")
	if err != nil {
		b.Fatal(err)
	}
	ans["skills/list "] = cut(data, 1)
	raw, _ := json.Marshal(ans)
	file := filepath.Join(b.TempDir(), "answers.json")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), floorEnv+"="+file)
	floor := startListening(b, cmd)
	certFile, keyFile, cert := writeCert(b, b.TempDir(), 1)
	cmd = exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), floorEnv+"="+file, floorTLSEnv+"="+certFile+" "+keyFile)
	floorTLS := startListening(b, cmd)
	cmd = exec.Command(servetest.Binary(b), "serve", "--http", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile,
		servetest.BenchBundle(b, tempDir, 1000))
	cmd.Env = append(os.Environ(), strings.Fields(os.Getenv("BENCH_SERVER_ENV"))...)
	oursTLS := startListening(b, cmd)
	var ref *httpServer
	refURIs := uris
	if command := os.Getenv(referenceEnv); command != "" {
		ref, refURIs = startReference(b, command, 1000, uris)
	}

	read := func(post poster, j int) error { return rawRead(post, j, uris[j%len(uris)]) }
	refRead := func(post poster, j int) error { return rawRead(post, j, refURIs[j%len(refURIs)]) }
	list := func(post poster, j int) error { _, err := rawListPage(post, j, ""); return err }
	for _, tc := range []struct {
		name      string
		do, refDo func(poster, int) error
	}{{"read", read, refRead}, {"list", list, list}} {
		for _, proto := range []string{"h1", "h2c", "h2"} {
			b.Run(tc.name+"/"+proto, func(b *testing.B) {
				newPoster := func(url string) func() poster {
					switch proto {
					case "h2c":
						return func() poster { return h2cPoster(url) }
					case "h2":
						return func() poster { return h2Poster(cert, url) }
					}
					return func() poster { return connPoster(b, url) }
				}
				fsrv, osrv := floor, ours
				if proto == "h2" {
					fsrv, osrv = floorTLS, oursTLS
				}
				type side struct {
					newPoster func() poster
					do        func(poster, int) error
					sum       *loadResult
				}
				for b.Loop() {
					var f, o, rf loadResult
					sides := []side{{newPoster(fsrv.url), tc.do, &f}, {newPoster(osrv.url), tc.do, &o}}
					if ref != nil && proto == "h1" {
						sides = append(sides, side{func() poster { return connPosterAt(b, ref.url, referenceVersion) }, tc.refDo, &rf})
					}
					for range rounds {
						for _, side := range sides {
							r := load(b, clients, time.Duration(secs*float64(time.Second)), side.newPoster, side.do)
							side.sum.n += r.n
							side.sum.d += r.d
							side.sum.lat = append(side.sum.lat, r.lat...)
						}
					}
					b.ReportMetric(f.rate(), "floor-req/s")
					b.ReportMetric(o.rate(), "ours-req/s")
					b.ReportMetric(100*o.rate()/f.rate(), "%-of-floor")
					b.ReportMetric(float64(f.p99())/1e6, "floor-p99-ms")
					b.ReportMetric(float64(o.p99())/1e6, "ours-p99-ms")
					if rf.n > 0 {
						b.ReportMetric(rf.rate(), "reference-req/s")
						b.ReportMetric(o.rate()/rf.rate(), "x-reference")
						b.ReportMetric(float64(rf.p99())/1e6, "reference-p99-ms")
					}
				}
			})
		}
	}
}
