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

	"github.com/skills-mcp/skills-mcp/serve/wire"
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
			s.answers.ServeStdio(ctx, s.mcp, inR, outW)
		} else {
			s.mcp.Run(ctx, wire.NewStdio(inR, outW, nil))
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

// call writes line (nothing if "") and returns the next answer, or nil
// for a notification.
func (p *stdioPeer) call(t *testing.T, line string, notification bool) []byte {
	t.Helper()
	if line == "" {
		// nothing to write: the next answer
	} else if _, err := io.WriteString(p.in, line+"\n"); err != nil {
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
	for _, rev := range []string{wire.Revision20251125, wire.Revision20260728} {
		t.Run(rev, func(t *testing.T) {
			var log bytes.Buffer
			ref := newServer(t, Options{PageSize: 2, AnswerBytes: -1}, b)
			s := newServer(t, Options{PageSize: 2, Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}, b)
			peers := []*stdioPeer{newStdioPeer(t, ref, false), newStdioPeer(t, s, true)}
			meta := ""
			if rev == wire.Revision20260728 {
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

// TestAnswersStdioSameID: a request read while another with the same id
// is still owed an answer (a client's mistake JSON-RPC forbids) keeps no
// answer: either answer under that id could be the first written, and the
// one kept for a resources/read must be the SDK's answer to it, not a
// ping's. Both orders are tried: the other request read first, and read
// after the recognised one.
func TestAnswersStdioSameID(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	uri := "skill://acme/pdf-processing/SKILL.md"
	read := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, id, uri)
	}
	ping := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id) }
	for name, pair := range map[string][2]string{"ping first": {ping(7), read(7)}, "read first": {read(7), ping(7)}} {
		t.Run(name, func(t *testing.T) {
			ref := newServer(t, Options{AnswerBytes: -1}, b)
			s := newServer(t, Options{}, b)
			peers := []*stdioPeer{newStdioPeer(t, ref, false), newStdioPeer(t, s, true)}
			for _, p := range peers {
				p.call(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, false)
				p.call(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true)
			}
			p := peers[1]
			if _, err := io.WriteString(p.in, pair[0]+"\n"+pair[1]+"\n"); err != nil {
				t.Fatal(err)
			}
			// The SDK answers one of the two (it drops the other); an
			// answer under 7 that comes late is skipped below.
			of7 := []byte(`{"jsonrpc":"2.0","id":7,`)
			if a := p.call(t, "", false); !bytes.HasPrefix(a, of7) {
				t.Fatalf("answer %s, want one under id 7", a)
			}
			for id := 8; id < 11; id++ {
				want := peers[0].call(t, read(id), false)
				got := p.call(t, read(id), false)
				for bytes.HasPrefix(got, of7) {
					got = p.call(t, "", false)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s:\n%.400s\nwant\n%.400s", read(id), got, want)
				}
			}
		})
	}
}
