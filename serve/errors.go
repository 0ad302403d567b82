package serve

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// invalidParams is the JSON-RPC error -32602. Every refusal of a client's
// input uses it: unknown skills, resources and directories, traversal
// attempts and bad cursors.
func invalidParams(format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// notFound is -32602 with the URI in the error data, as SEP-2164 asks for
// resources/read. Unlike mcp.ResourceNotFoundError it encodes the URI as
// JSON, so a URI holding control characters still gives valid JSON.
func notFound(uri, format string, args ...any) *jsonrpc.Error {
	e := invalidParams(format, args...)
	e.Data, _ = json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	return e
}

// internalError is the JSON-RPC error -32603, for a bundle that cannot be
// read (for instance a file truncated while mapped).
func internalError(format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(format, args...)}
}

// Cursor kinds: a cursor is only valid for the method that issued it.
const (
	cursorSkills    = 's'
	cursorResources = 'r'
	cursorDirectory = 'd'
)

const cursorLen = 1 + 8 + 4 + 4 // kind | snapshot id prefix | index | key

// A cursor is opaque to clients: base64url of the method kind, the first 8
// bytes of the snapshot id, the index to resume at, and a key (the hash of
// the directory for resources/directory/read, else 0). It stays valid as long
// as the same bundles are served, across restarts and replicas.
func encodeCursor(kind byte, snap *Snapshot, index int, key uint32) string {
	var b [cursorLen]byte
	b[0] = kind
	copy(b[1:9], snap.id[:8])
	binary.BigEndian.PutUint32(b[9:], uint32(index))
	binary.BigEndian.PutUint32(b[13:], key)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

var cursorMethod = lazy.Value[map[byte]string]{New: func() map[byte]string {
	return map[byte]string{
		cursorSkills:    "skills/list",
		cursorResources: "resources/list",
		cursorDirectory: "resources/directory/read",
	}
}}

// decodeCursor returns the index a cursor resumes at; "" resumes at 0.
func decodeCursor(c string, kind byte, snap *Snapshot, key uint32, limit int) (int, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) != cursorLen || cursorMethod.Get()[b[0]] == "" {
		return 0, invalidParams("%s: invalid cursor %q", cursorMethod.Get()[kind], c)
	}
	if b[0] != kind {
		return 0, invalidParams("%s: cursor %q was issued by %s", cursorMethod.Get()[kind], c, cursorMethod.Get()[b[0]])
	}
	if string(b[1:9]) != string(snap.id[:8]) {
		return 0, invalidParams("%s: cursor %q belongs to another catalog (the served bundles changed); list again without a cursor", cursorMethod.Get()[kind], c)
	}
	if binary.BigEndian.Uint32(b[13:]) != key {
		return 0, invalidParams("%s: cursor %q was issued for another directory", cursorMethod.Get()[kind], c)
	}
	i := int(binary.BigEndian.Uint32(b[9:]))
	if i > limit {
		return 0, invalidParams("%s: invalid cursor %q", cursorMethod.Get()[kind], c)
	}
	return i, nil
}

func dirKey(uri string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(uri))
	return h.Sum32()
}
