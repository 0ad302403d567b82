package wire

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// FuzzRecognise: whatever the recogniser takes is one JSON-RPC request
// that encoding/json reads the same way: the same method, id, uri, cursor
// and _meta, and no other member.
func FuzzRecognise(f *testing.F) {
	for _, s := range servetest.RequestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, ok := Recognise(body)
		if !ok {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("took invalid JSON %q", body)
		}
		// checkMessage's shortcut says what its rules say.
		if owed, _, _, err := checkMessageFull(body); err != nil || owed != string(r.ID) {
			t.Fatalf("%q: the message rules answer %q %v, recognised id %s", body, owed, err, r.ID)
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
		case msg.JSONRPC != "2.0" || msg.Method != r.Method:
			t.Fatalf("jsonrpc %q method %q, recognised %q", msg.JSONRPC, msg.Method, r.Method)
		case buf.String() != string(r.ID):
			t.Fatalf("id %s, recognised %s", buf.Bytes(), r.ID)
		case msg.Params == nil && (r.HasURI || r.HasCursor || r.Meta != nil):
			t.Fatalf("params without params: %q", body)
		}
		if p := msg.Params; p != nil {
			if (p.URI != nil) != r.HasURI || p.URI != nil && *p.URI != string(r.URI) ||
				(p.Cursor != nil) != r.HasCursor || p.Cursor != nil && *p.Cursor != string(r.Cursor) {
				t.Fatalf("params %q, recognised %+v", body, r)
			}
			var pm map[string]json.RawMessage
			json.Unmarshal(m["params"], &pm)
			if len(pm) != btoi(r.HasURI)+btoi(r.HasCursor)+btoi(r.Meta != nil) {
				t.Fatalf("params with other members: %q", body)
			}
			if r.Meta != nil {
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
				if (meta[metaVersion] != nil) != (r.Version != nil) || r.Version != nil && (json.Unmarshal(meta[metaVersion], &v) != nil || v != string(r.Version)) {
					t.Fatalf("_meta version %s, recognised %q", meta[metaVersion], r.Version)
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
