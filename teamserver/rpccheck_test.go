package teamserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// TestHTTPMessageRules: over HTTP too (the real binary), a request whose id
// is not a string or an exact integer gets 400 and -32600 with id null
// (7.5 was answered as 7), one with no method, result or error 400 and
// -32600 with its id (it was dropped, 202), and a batch 400; good requests
// are answered as before.
func TestHTTPMessageRules(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	base, _, _ := servetest.StartHTTP(t, Endpoint, bundle)
	for _, tc := range []struct {
		body   string
		status int
		want   string // the answer's code and id, "" for no check
	}{
		{`{"jsonrpc":"2.0","id":7.5,"method":"ping"}`, 400, "-32600 null"},
		{`{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}`, 400, "-32600 null"},
		{`{"jsonrpc":"2.0","id":5}`, 400, "-32600 5"},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, 400, ""},
		{`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`, 200, "0 9007199254740991"},
		{`{"jsonrpc":"2.0","id":"x","method":"ping"}`, 200, `0 "x"`},
	} {
		req, _ := http.NewRequest("POST", base+Endpoint, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %s, want %d: %s", tc.body, resp.Status, tc.status, data)
			continue
		}
		if tc.want == "" {
			continue
		}
		text := string(data)
		if i := strings.Index(text, "data: "); i >= 0 { // an event stream
			text = strings.TrimSpace(strings.SplitN(text[i+6:], "\n", 2)[0])
		}
		var a struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(text), &a); err != nil {
			t.Errorf("%s: answer %q: %v", tc.body, data, err)
			continue
		}
		code := int64(0)
		if a.Error != nil {
			code = a.Error.Code
		}
		if got := strings.TrimSpace(strings.Join([]string{itoa(code), string(a.ID)}, " ")); got != tc.want {
			t.Errorf("%s: answered %q, want %q", tc.body, got, tc.want)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
