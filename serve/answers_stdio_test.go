package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// stdioPeer is a server session over pipes, as ServeStdio runs one.
type stdioPeer struct {
	in      *io.PipeWriter
	answers chan []byte
}

func newStdioPeer(t *testing.T, s *Server, fast bool) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if fast {
			s.serveStdioFast(ctx, inR, outW)
		} else {
			s.mcp.Run(ctx, stdioTransport(inR, outW))
		}
	}()
	p := &stdioPeer{in: inW, answers: make(chan []byte, 16)}
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			l, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			p.answers <- l
		}
	}()
	t.Cleanup(func() { inW.Close(); cancel(); outW.Close(); <-done })
	return p
}

// call writes line and returns the next answer, or "" for a notification.
func (p *stdioPeer) call(t *testing.T, line string, notification bool) []byte {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	if notification {
		return nil
	}
	select {
	case a := <-p.answers:
		return a
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer to %s", line)
	}
	return nil
}

// TestAnswersStdio: over stdio, at both revisions, every request of the
// fixture sent three times gets the SDK's answer byte for byte each time,
// and the third comes from the kept answers.
func TestAnswersStdio(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	for _, rev := range []string{revision20251125, revision20260728} {
		t.Run(rev, func(t *testing.T) {
			var log bytes.Buffer
			ref := newServer(t, Options{PageSize: 2, AnswerBytes: -1}, b)
			s := newServer(t, Options{PageSize: 2, Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}, b)
			peers := []*stdioPeer{newStdioPeer(t, ref, false), newStdioPeer(t, s, true)}
			meta := ""
			if rev == revision20260728 {
				meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
			} else {
				for _, p := range peers {
					p.call(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, false)
					p.call(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true)
				}
			}
			reqs := append(catalogRequests(t, s.Snapshot()), diffRequest{MethodListSkills, "", ""},
				diffRequest{MethodListSkills, `"cursor":"bm90IGEgY3Vyc29y"`, ""})
			id := 1
			for _, req := range reqs {
				params := req.params
				if meta != "" {
					if params != "" {
						params += ","
					}
					params += meta
				}
				for range 3 {
					line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, id, req.method, params)
					want := peers[0].call(t, line, false)
					if got := peers[1].call(t, line, false); !bytes.Equal(got, want) {
						t.Fatalf("%s:\n%.400s\nwant\n%.400s", line, got, want)
					}
					id++
				}
			}
			if n := strings.Count(log.String(), "answer=pre-encoded"); n < len(reqs)/2 {
				t.Fatalf("%d answers pre-encoded for %d requests sent three times", n, len(reqs))
			}
		})
	}
}
