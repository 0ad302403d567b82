package teamserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// BenchmarkServeHTTPHandler times the server's own part of a resources/read
// over streamable HTTP, as BenchmarkServeResourceReadHTTP's SDK clients send
// it (2025-11-25), handed straight to Handler: no network, no client, one
// goroutine. What the HTTP layers (host check, limits, authorization,
// metrics, access log) add per request shows here with less of the noise
// of a shared machine, best in cpu-µs/req: the process's CPU time (garbage
// collection included) per request, which waiting for a core does not
// inflate as it does ns/op. Every file is read once before the timing, so
// that the answers are kept (as on a server that has run a while). "none"
// is HTTPHandler(); "sdk" the same without kept answers; "bearer" is
// authorization by a file of 32 tokens, with metrics, as
// BenchmarkServeResourceReadHTTP/bearer.
func BenchmarkServeHTTPHandler(b *testing.B) {
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
	run := func(b *testing.B, h http.Handler, token string) {
		bodies := make([]string, len(uris))
		for i, u := range uris {
			bodies[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, i+2, u)
		}
		read := func(i int) {
			r := httptest.NewRequest("POST", "http://127.0.0.1"+Endpoint, strings.NewReader(bodies[i%len(bodies)]))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			if token != "" {
				r.Header.Set("Authorization", "Bearer "+token)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"contents"`) {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
		for i := range bodies { // the steady state: every answer kept
			read(i)
		}
		i := 0
		cpu0 := servetest.ProcCPU(b, os.Getpid())
		for b.Loop() {
			read(i)
			i++
		}
		b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-cpu0)/float64(b.N)/1e3, "cpu-µs/req")
	}
	b.Run("none", func(b *testing.B) {
		run(b, httpHandler(s), "")
	})
	// "sdk": as "none", every request answered by the SDK (no kept answers).
	b.Run("sdk", func(b *testing.B) {
		run(b, httpHandler(newServer(b, serve.Options{AnswerBytes: -1}, bu)), "")
	})
	b.Run("bearer", func(b *testing.B) {
		tokens := map[string]string{}
		for i := range 32 {
			tokens[fmt.Sprintf("c%d", i)] = "*"
		}
		a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: servetest.WriteTokens(b, filepath.Join(b.TempDir(), "tokens"), tokens)})
		if err != nil {
			b.Fatal(err)
		}
		run(b, Handler(s, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: -1}}), "tok-c17")
	})
}

// BenchmarkHTTPLayers is what the HTTP layers of Handler (host check,
// limits, authorization by a file of 32 tokens, metrics, the access log)
// cost one request, around an MCP handler that only answers 200: compare
// with the CPU time of a whole resources/read (BenchmarkServeHTTPHandler).
// "none" is HTTPHandler(); "metrics" adds Metrics; "bearer" adds
// authorization, without a rate (as BenchmarkServeResourceReadHTTP/bearer);
// "bearer+rate" with one; "bearer+log" also writes the access line, at info
// level, to a text handler (as skills-mcp serve does to stderr).
func BenchmarkHTTPLayers(b *testing.B) {
	tokens := map[string]string{}
	for i := range 32 {
		tokens[fmt.Sprintf("c%d", i)] = "acme"
	}
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: servetest.WriteTokens(b, filepath.Join(b.TempDir(), "tokens"), tokens)})
	if err != nil {
		b.Fatal(err)
	}
	nop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	quiet := slog.New(slog.DiscardHandler)
	info := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	for _, tc := range []struct {
		name string
		log  *slog.Logger
		opt  Options
	}{
		{"none", quiet, Options{}},
		{"metrics", quiet, Options{Metrics: NewMetrics()}},
		{"bearer", quiet, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: -1}}},
		{"bearer+rate", quiet, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: 1e9}}},
		{"bearer+log", info, Options{Auth: a, Metrics: NewMetrics(), Limits: Limits{Rate: -1}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := &server{log: tc.log}
			h := s.handler(tc.opt, nop)
			req := httptest.NewRequest("POST", "http://127.0.0.1"+Endpoint, strings.NewReader(listBody))
			req.Header.Set("Authorization", "Bearer tok-c17")
			b.ReportAllocs()
			cpu0 := servetest.ProcCPU(b, os.Getpid())
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
			b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-cpu0)/float64(b.N), "cpu-ns/req")
		})
	}
}

// BenchmarkSkillUseCost is what Metrics.SkillUsed costs a use, over the
// skills of the 1,000-skill bench bundle (serve's BenchmarkUsageMiddleware
// is the rest of counting a read). Against BenchmarkServeHTTPHandler/bearer
// (a whole read) it is the overhead, less noisy on a shared machine than
// the difference of two whole reads.
func BenchmarkSkillUseCost(b *testing.B) {
	snap := newServer(b, serve.Options{}, servetest.OpenBench(b, tempDir, 1000)).Snapshot()
	uses := make([]usage.Use, snap.Len())
	for k := range uses {
		uses[k] = usage.Use{Skill: strings.TrimSuffix(strings.TrimPrefix(snap.URI(k), manifest.URIScheme), "/"+manifest.SkillFile),
			Kind: usage.Read, Method: "resources/read", Catalog: snap.ID()}
	}
	m := NewMetrics()
	i := 0
	cpu0 := servetest.ProcCPU(b, os.Getpid())
	for b.Loop() {
		m.SkillUsed(&uses[i%len(uses)])
		i++
	}
	b.ReportMetric(float64(servetest.ProcCPU(b, os.Getpid())-cpu0)/float64(b.N), "cpu-ns/op")
}
