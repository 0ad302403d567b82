package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// stdioSession runs `skills-mcp serve bundle`, writes input to its stdin
// and closes it, as a script does, and returns every line it wrote before
// it exited, and how it exited.
func stdioSession(t *testing.T, bundle, input string) ([]string, error) {
	t.Helper()
	cmd := exec.Command(servetest.Binary(t), "serve", bundle)
	cmd.Stdin = strings.NewReader(input)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	t.Logf("stderr:\n%s", stderr.String())
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(out), "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, err
}

// rpcAnswer is a JSON-RPC response as the tests read it.
type rpcAnswer struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func answersOf(t *testing.T, lines []string) map[string]rpcAnswer {
	t.Helper()
	got := map[string]rpcAnswer{}
	nulls := 0
	for _, l := range lines {
		var a rpcAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %q", l)
		}
		key := fmt.Sprint(a.ID)
		if a.ID == nil {
			key = fmt.Sprintf("null#%d", nulls)
			nulls++
		}
		if _, dup := got[key]; dup {
			t.Errorf("two answers to id %s", key)
		}
		got[key] = a
	}
	return got
}

const initLine20251125 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`

// TestStdioBadLines: over stdio, a line that is not JSON gets a parse error
// (-32700, id null) and JSON that is not a JSON-RPC message an invalid
// request error (-32600, with its id), and the session goes on: the
// requests after them are answered, and the server exits 0.
func TestStdioBadLines(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	input := strings.Join([]string{
		initLine20251125,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"`,
		`{"id":3,"method":"ping"}`,
		`42`,
		strings.Repeat("x", mcp.DefaultMaxLineLength+10), // past the longest line read (the SDK's limit)
		``,
		`{"jsonrpc":"2.0","id":4,"method":"skills/list","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	}, "\n") + "\n"
	lines, err := stdioSession(t, path, input)
	if err != nil {
		t.Fatalf("serve exited with %v, want 0", err)
	}
	got := answersOf(t, lines)
	for _, id := range []string{"1", "4", "5"} {
		if a, ok := got[id]; !ok || a.Error != nil || a.Result == nil {
			t.Errorf("request %s: answer %+v, want a result", id, a)
		}
	}
	if a := got["3"]; a.Error == nil || a.Error.Code != -32600 {
		t.Errorf("a message without jsonrpc 2.0: %+v, want -32600 with its id", a)
	}
	for i := range 4 { // not json, unterminated object, a bare number, the over-long line
		a, ok := got[fmt.Sprintf("null#%d", i)]
		if !ok || a.Error == nil {
			t.Errorf("bad line %d: no error answered (%d lines: %q)", i, len(lines), lines)
			continue
		}
		if want := int64(-32700); i == 2 {
			if a.Error.Code != -32600 {
				t.Errorf("bad line %d: code %d, want -32600", i, a.Error.Code)
			}
		} else if a.Error.Code != want {
			t.Errorf("bad line %d: code %d, want %d", i, a.Error.Code, want)
		}
	}
	if len(got) != 8 {
		t.Errorf("%d answers, want 8:\n%s", len(got), strings.Join(lines, "\n"))
	}
}

// TestStdioFraming is every framing case of issue 24 as raw stdio lines,
// each sent alone after initialize and followed by a ping: the case gets
// exactly the answers listed (code and id, the id as written on the wire),
// the ping after it is answered, and the server exits 0.
func TestStdioFraming(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	for _, tc := range []struct {
		name, line string
		want       []string // each answer as `code id`, the id's raw JSON
	}{
		{"batch of two pings", `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]`, []string{"-32600 null"}},
		{"empty batch", `[]`, []string{"-32600 null"}},
		{"batch of numbers", `[1,2]`, []string{"-32600 null"}},
		{"batch of one notification", `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, []string{"-32600 null"}},
		{"fractional id", `{"jsonrpc":"2.0","id":7.5,"method":"ping"}`, []string{"-32600 null"}},
		{"fractional id below the initialize's", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, []string{"-32600 null"}},
		{"id past int64", `{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}`, []string{"-32600 null"}},
		{"id past the exact range", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, []string{"-32600 null"}},
		{"id with an exponent", `{"jsonrpc":"2.0","id":7e0,"method":"ping"}`, []string{"-32600 null"}},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, []string{"-32600 null"}},
		{"no method", `{"jsonrpc":"2.0","id":5}`, []string{"-32600 5"}},
		{"no method, string id", `{"jsonrpc":"2.0","id":"x"}`, []string{`-32600 "x"`}},
		{"no method and a bad id", `{"jsonrpc":"2.0","id":5.5}`, []string{"-32600 null"}},
		{"largest exact id", `{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`, []string{"0 9007199254740991"}},
		{"smallest exact id", `{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}`, []string{"0 -9007199254740991"}},
		{"a response to nothing", `{"jsonrpc":"2.0","id":5,"result":{}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := initLine20251125 + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
				tc.line + "\n" +
				`{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"
			lines, err := stdioSession(t, path, input)
			if err != nil {
				t.Errorf("serve exited with %v, want 0", err)
			}
			var got []string
			after := false
			for _, l := range lines {
				var a struct {
					ID    json.RawMessage `json:"id"`
					Error *struct {
						Code int64 `json:"code"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(l), &a); err != nil {
					t.Fatalf("not JSON: %q", l)
				}
				switch string(a.ID) {
				case "1":
					continue
				case `"after"`:
					after = a.Error == nil
					continue
				}
				code := int64(0)
				if a.Error != nil {
					code = a.Error.Code
				}
				got = append(got, fmt.Sprintf("%d %s", code, a.ID))
			}
			if !after {
				t.Errorf("the ping after the case was not answered (%d lines)", len(lines))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("answers %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStdioAnswersBeforeEOF: a client that writes its requests and closes
// its end gets an answer to every one of them, then the server exits 0.
func TestStdioAnswersBeforeEOF(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	t.Run("initialize alone", func(t *testing.T) {
		lines, err := stdioSession(t, path, initLine20251125+"\n")
		if err != nil {
			t.Fatalf("serve exited with %v, want 0", err)
		}
		if a := answersOf(t, lines)["1"]; len(lines) != 1 || a.Result == nil {
			t.Fatalf("got %q, want the initialize result", lines)
		}
	})
	t.Run("many, the last without a newline", func(t *testing.T) {
		reqs := []string{initLine20251125, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
		const n = 60
		for i := range n {
			uri := []string{"skill://acme/pdf-processing/SKILL.md", "skill://acme/billing/refunds/examples/email.md", "skill://acme/pdf-processing/assets/logo.png"}[i%3]
			reqs = append(reqs, fmt.Sprintf(`{"jsonrpc":"2.0","id":"r%d","method":"resources/read","params":{"uri":%q}}`, i, uri))
		}
		reqs = append(reqs, `{"jsonrpc":"2.0","id":99,"method":"tools/list"}`)
		lines, err := stdioSession(t, path, strings.Join(reqs, "\n"))
		if err != nil {
			t.Fatalf("serve exited with %v, want 0", err)
		}
		got := answersOf(t, lines)
		for i := range n {
			if a := got[fmt.Sprintf("r%d", i)]; a.Result == nil {
				t.Errorf("read r%d not answered", i)
			}
		}
		if got["99"].Result == nil || len(got) != n+2 {
			t.Errorf("%d answers, want %d", len(got), n+2)
		}
	})
}

// TestStdioKeepsServingAfterBadLine drives the server with the Go SDK
// client after a raw bad line, on one connection: the session survives.
func TestStdioKeepsServingAfterBadLine(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	cmd := exec.Command(servetest.Binary(t), "serve", path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	say := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after %q: %v", line, err)
		}
		return got
	}
	say(initLine20251125)
	for range 3 {
		if got := say("}{"); !strings.Contains(got, `"code":-32700`) || !strings.Contains(got, `"id":null`) {
			t.Fatalf("bad line answered %q", got)
		}
		if got := say(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); !strings.Contains(got, `"id":2,"result":{}`) {
			t.Fatalf("ping after a bad line: %q", got)
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v, want 0", err)
	}
}
