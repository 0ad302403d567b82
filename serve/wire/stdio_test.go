package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkStdioFraming measures what the stdio transport adds to a request
// over stdio: checking one request line on its way in (a resources/read)
// and finding the id of its answer (a 2 KiB result) on its way out.
func BenchmarkStdioFraming(b *testing.B) {
	req := `{"jsonrpc":"2.0","id":12345,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/references/FORMS.md"}}` + "\n"
	resp := []byte(`{"jsonrpc":"2.0","id":12345,"result":{"ttlMs":3600000,"cacheScope":"public","contents":[{"uri":"skill://acme/pdf-processing/references/FORMS.md","mimeType":"text/markdown","text":"` + strings.Repeat("x", 2048) + `"}]}}` + "\n")
	tr := NewStdio(&repeater{line: []byte(req)}, io.Discard, nil).(*mcp.IOTransport)
	r, w := tr.Reader.(*stdioReader), tr.Writer.(*Writer)
	buf := make([]byte, 64<<10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Read(buf); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(resp); err != nil {
			b.Fatal(err)
		}
	}
	if w.nowed != 0 {
		b.Fatalf("%d answers still owed", w.nowed)
	}
}

// repeater reads as the same line over and over.
type repeater struct {
	line []byte
	off  int
}

func (r *repeater) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// FuzzCheckMessage: checkMessage takes only lines the SDK's own decoder
// takes (a line it passes that the SDK refuses would end the session), and
// owes an answer to exactly the requests with an id, under the key the SDK
// answers with. It refuses a line the SDK takes only under one of its own
// rules, checked here another way: a numeric id that is not an integer
// literal within ±(2^53-1), or a message with neither a method nor a
// result or an error.
func FuzzCheckMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a,b","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7e0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"result":null}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"error":"x"}`,
		`{"jsonrpc":"2.0","method":null}`,
		`{"jsonrpc":"2.0","method":7}`,
		`{"JSONRPC":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.\u0030","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"ping"} {}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"café"}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"café"}}`,
		`[]`, `42`, `"x"`, `null`, `}{`, ``,
	} {
		f.Add([]byte(s))
	}
	intLiteral := regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	maxID := big.NewInt(1<<53 - 1)
	// stricter reports whether one of checkMessage's own rules refuses line.
	stricter := func(line []byte) bool {
		var m map[string]json.RawMessage
		if json.Unmarshal(line, &m) != nil {
			return false
		}
		if raw, ok := m["id"]; ok {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var v any
			_ = dec.Decode(&v)
			if n, ok := v.(json.Number); ok {
				b, isInt := new(big.Int).SetString(n.String(), 10)
				if !intLiteral.MatchString(n.String()) || !isInt || b.CmpAbs(maxID) > 0 {
					return true
				}
			}
		}
		_, method := m["method"]
		_, result := m["result"]
		_, rpcErr := m["error"]
		return !method && !result && !rpcErr
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		owed, _, code, err := checkMessage(line)
		// The SDK reads one JSON value a line and refuses anything after
		// it, then decodes the message.
		msg, derr := jsonrpc.DecodeMessage(line)
		if derr == nil && !json.Valid(line) {
			derr = errors.New("trailing data")
		}
		if err == nil && derr != nil {
			t.Fatalf("checkMessage passes %q, which the SDK refuses: %v", line, derr)
		}
		if err != nil && derr == nil && !stricter(line) {
			t.Fatalf("checkMessage refuses %q (%v), which the SDK takes", line, err)
		}
		if err != nil {
			if code != jsonrpc.CodeParseError && code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("code %d", code)
			}
			return
		}
		if stricter(line) {
			t.Fatalf("checkMessage passes %q", line)
		}
		want := ""
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			want = idKey(req.ID.Raw())
		}
		if owed != want {
			t.Fatalf("%q: owes %q, want %q", line, owed, want)
		}
	})
}
