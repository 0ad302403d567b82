package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

var recogniseSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md"}}`,
	`{"jsonrpc":"2.0","id":"a-1","method":"skills/get","params":{"uri":"skill://acme/pdf-processing/SKILL.md"}}`,
	`{"jsonrpc":"2.0","id":-3,"method":"skills/list"}`,
	` { "id" : 0 , "method" : "skills/list" , "params" : { "cursor" : "x" } , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":4,"method":"resources/directory/read","params":{"uri":"skill://acme","cursor":""}}`,
	`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"x\"y","version":"1"}}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md","_meta":{"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":7.5,"method":"skills/list"}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"a\u0041"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{},"extra":1}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}{}`,
}

// FuzzRecognise: whatever the recogniser takes is one JSON-RPC request
// that encoding/json reads the same way: the same method, id, uri, cursor
// and _meta, and no other member.
func FuzzRecognise(f *testing.F) {
	for _, s := range recogniseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, ok := recognise(body)
		if !ok {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("took invalid JSON %q", body)
		}
		// checkMessage's shortcut says what its rules say.
		if owed, _, _, err := checkMessageFull(body); err != nil || owed != string(r.id) {
			t.Fatalf("%q: the message rules answer %q %v, recognised id %s", body, owed, err, r.id)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		var msg struct {
			JSONRPC string
			Method  string
			Params  *struct {
				URI    *string         `json:"uri"`
				Cursor *string         `json:"cursor"`
				Meta   json.RawMessage `json:"_meta"`
			}
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			t.Fatal(err)
		}
		var id any
		if err := json.Unmarshal(m["id"], &id); err != nil || id == nil {
			t.Fatalf("id %s", m["id"])
		}
		var buf bytes.Buffer
		json.Compact(&buf, m["id"])
		switch {
		case len(m) != 3+btoi(m["params"] != nil):
			t.Fatalf("took %d members: %q", len(m), body)
		case msg.JSONRPC != "2.0" || msg.Method != r.method:
			t.Fatalf("jsonrpc %q method %q, recognised %q", msg.JSONRPC, msg.Method, r.method)
		case buf.String() != string(r.id):
			t.Fatalf("id %s, recognised %s", buf.Bytes(), r.id)
		case msg.Params == nil && (r.hasURI || r.hasCursor || r.meta != nil):
			t.Fatalf("params without params: %q", body)
		}
		if p := msg.Params; p != nil {
			if (p.URI != nil) != r.hasURI || p.URI != nil && *p.URI != string(r.uri) ||
				(p.Cursor != nil) != r.hasCursor || p.Cursor != nil && *p.Cursor != string(r.cursor) {
				t.Fatalf("params %q, recognised %+v", body, r)
			}
			var pm map[string]json.RawMessage
			json.Unmarshal(m["params"], &pm)
			if len(pm) != btoi(r.hasURI)+btoi(r.hasCursor)+btoi(r.meta != nil) {
				t.Fatalf("params with other members: %q", body)
			}
			if r.meta != nil {
				var meta map[string]json.RawMessage
				if err := json.Unmarshal(p.Meta, &meta); err != nil {
					t.Fatalf("_meta %q: %v", p.Meta, err)
				}
				for k := range meta {
					if k != metaVersion && k != metaCapabilities && k != metaClientInfo {
						t.Fatalf("_meta key %q taken", k)
					}
				}
				var v string
				if (meta[metaVersion] != nil) != (r.version != nil) || r.version != nil && (json.Unmarshal(meta[metaVersion], &v) != nil || v != string(r.version)) {
					t.Fatalf("_meta version %s, recognised %q", meta[metaVersion], r.version)
				}
			}
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzAnswersHTTP posts a fuzzed body, at both revisions, to a server
// with pre-encoded answers (twice: the second may come from them) and to
// the SDK alone: the answers must be the same but for the id.
func FuzzAnswersHTTP(f *testing.F) {
	for _, s := range recogniseSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	b, _ := memBundle(f, exampleFixture())
	p := newDiffPair(f, Options{PageSize: 2}, b)
	f.Fuzz(func(t *testing.T, body []byte, newRev bool) {
		rev, method, name := revision20251125, "", ""
		if newRev {
			rev = revision20260728
		}
		r, ok := recognise(body)
		if ok {
			method, name = r.method, string(r.uri)
		}
		send := func(fast bool) rpcPost {
			req := httptest.NewRequestWithContext(context.Background(), "POST", "http://127.0.0.1/mcp", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", rev)
			if newRev {
				req.Header.Set("Mcp-Method", method)
				req.Header.Set("Mcp-Name", name)
			}
			w := httptest.NewRecorder()
			if fast {
				p.fast.ServeHTTP(w, req)
			} else {
				p.sdk.ServeHTTP(w, req)
			}
			return rpcPost{w.Code, w.Header(), w.Body.Bytes()}
		}
		want := send(false)
		for range 2 {
			if d := sameAnswer(want, string(r.id), send(true), string(r.id)); d != "" {
				t.Fatalf("%q at %s: %s", body, rev, d)
			}
		}
	})
}
