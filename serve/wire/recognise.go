package wire

// The request recogniser of the pre-encoded answers (serve's answers.go): a
// strict reader of the few JSON-RPC requests whose answer is a fixed byte
// string.
// It reads no more than it must and refuses everything it does not know
// exactly; a refused request goes to the SDK, which answers it as always.

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// Request is a request the recogniser knows exactly. Its strings are parts
// of the request's bytes.
type Request struct {
	ID        []byte // the id as sent: decimal digits (with a sign) or a plain string
	Method    string // one of the methods of fastMethods
	URI       []byte
	Cursor    []byte
	HasURI    bool
	HasCursor bool
	Meta      []byte // the raw _meta object, nil if none
	Version   []byte // _meta's protocolVersion, nil if none
}

// SEP-2640 method names (serve declares them as its own).
const (
	MethodListSkills    = "skills/list"
	MethodGetSkill      = "skills/get"
	MethodReadDirectory = "resources/directory/read"
)

// fastMethods are the methods answered from pre-encoded answers, with the
// params each takes: the answer depends on the params below and on the
// snapshot, the caller's view and the protocol revision, nothing else.
var fastMethods = lazy.Value[map[string]struct{ uri, cursor, noParams bool }]{New: func() map[string]struct{ uri, cursor, noParams bool } {
	return map[string]struct{ uri, cursor, noParams bool }{
		"resources/read":    {uri: true},
		MethodGetSkill:      {uri: true},
		MethodListSkills:    {cursor: true, noParams: true},
		MethodReadDirectory: {uri: true, cursor: true},
	}
}}

// Meta keys a recognised request may carry, besides the protocol version:
// the rest (a progress token above all) go to the SDK.
const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
)

// maxFastID bounds a recognised string id, and maxFastDigits a numeric one
// (15 digits stay below 2^53, which every peer holds exactly).
const (
	maxFastID     = 128
	maxFastDigits = 15
)

// Recognise reads body as one JSON-RPC request of fastMethods, in exactly
// the forms it knows: one object with the members jsonrpc "2.0", an id (an
// integer of at most 15 digits, or a string of letters, digits and ._:-),
// a method of fastMethods and params (absent only for skills/list) holding
// only the params of the method, as strings without escapes, and _meta with
// only the version, client capabilities and client info; no member twice,
// JSON whitespace anywhere between tokens and nothing after the object.
// Anything else is not recognised (ok false), never guessed at.
func Recognise(body []byte) (r Request, ok bool) {
	sc := scanner{b: body}
	var seen uint8 // jsonrpc, id, method, params
	if !sc.objectStart() {
		return r, false
	}
	for first := true; ; first = false {
		key, more, ok := sc.member(first)
		if !ok {
			return r, false
		}
		if !more {
			break
		}
		switch string(key) {
		case "jsonrpc":
			v, ok := sc.str()
			if !ok || seen&1 != 0 || string(v) != "2.0" {
				return r, false
			}
			seen |= 1
		case "id":
			if seen&2 != 0 {
				return r, false
			}
			if r.ID, ok = sc.id(); !ok {
				return r, false
			}
			seen |= 2
		case "method":
			v, ok := sc.str()
			if !ok || seen&4 != 0 {
				return r, false
			}
			switch string(v) { // a constant, not a copy of the bytes
			case "resources/read":
				r.Method = "resources/read"
			case MethodGetSkill:
				r.Method = MethodGetSkill
			case MethodListSkills:
				r.Method = MethodListSkills
			case MethodReadDirectory:
				r.Method = MethodReadDirectory
			default:
				return r, false
			}
			seen |= 4
		case "params":
			if seen&8 != 0 || !sc.params(&r) {
				return r, false
			}
			seen |= 8
		default:
			return r, false
		}
	}
	sc.ws()
	if sc.i != len(sc.b) || seen&7 != 7 {
		return r, false
	}
	m := fastMethods.Get()[r.Method]
	switch {
	case seen&8 == 0 && !m.noParams,
		r.HasURI != m.uri, r.HasCursor && !m.cursor:
		return r, false
	}
	return r, true
}

// scanner reads JSON tokens from b at i.
type scanner struct {
	b []byte
	i int
}

func (sc *scanner) ws() {
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

func (sc *scanner) byte(c byte) bool {
	sc.ws()
	if sc.i < len(sc.b) && sc.b[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

func (sc *scanner) objectStart() bool { return sc.byte('{') }

// member reads the separator before an object's next member and its key:
// more is false at the object's end.
func (sc *scanner) member(first bool) (key []byte, more, ok bool) {
	if sc.byte('}') {
		return nil, false, true
	}
	if !first && !sc.byte(',') {
		return nil, false, false
	}
	key, ok = sc.str()
	if !ok || !sc.byte(':') {
		return nil, false, false
	}
	return key, true, true
}

// str reads a string without escapes or control characters, valid UTF-8,
// and returns its content.
func (sc *scanner) str() ([]byte, bool) {
	if !sc.byte('"') {
		return nil, false
	}
	start := sc.i
	for sc.i < len(sc.b) {
		c := sc.b[sc.i]
		switch {
		case c == '"':
			s := sc.b[start:sc.i]
			sc.i++
			return s, utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		}
		sc.i++
	}
	return nil, false
}

// id reads an id in the forms recognised, and returns it as sent.
func (sc *scanner) id() ([]byte, bool) {
	sc.ws()
	start := sc.i
	if sc.i < len(sc.b) && sc.b[sc.i] == '"' {
		s, ok := sc.str()
		if !ok || len(s) == 0 || len(s) > maxFastID {
			return nil, false
		}
		for _, c := range s {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
				return nil, false
			}
		}
		return sc.b[start:sc.i], true
	}
	if sc.i < len(sc.b) && sc.b[sc.i] == '-' {
		sc.i++
	}
	digits := sc.i
	for sc.i < len(sc.b) && '0' <= sc.b[sc.i] && sc.b[sc.i] <= '9' {
		sc.i++
	}
	n := sc.i - digits
	switch {
	case n == 0 || n > maxFastDigits,
		n > 1 && sc.b[digits] == '0',
		sc.b[digits] == '0' && digits > start: // -0
		return nil, false
	}
	if sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case '.', 'e', 'E':
			return nil, false
		}
	}
	return sc.b[start:sc.i], true
}

// params reads the params object into r.
func (sc *scanner) params(r *Request) bool {
	if !sc.objectStart() {
		return false
	}
	for first := true; ; first = false {
		key, more, ok := sc.member(first)
		if !ok {
			return false
		}
		if !more {
			return true
		}
		switch string(key) {
		case "uri":
			if r.HasURI {
				return false
			}
			if r.URI, ok = sc.str(); !ok {
				return false
			}
			r.HasURI = true
		case "cursor":
			if r.HasCursor {
				return false
			}
			if r.Cursor, ok = sc.str(); !ok {
				return false
			}
			r.HasCursor = true
		case "_meta":
			if r.Meta != nil || !sc.meta(r) {
				return false
			}
		default:
			return false
		}
	}
}

// meta reads the _meta object: only the keys recognised, each once, the
// version a plain string, the others any JSON value (kept raw, as part of
// the answer's key).
func (sc *scanner) meta(r *Request) bool {
	sc.ws()
	start := sc.i
	if !sc.objectStart() {
		return false
	}
	var seen uint8
	for first := true; ; first = false {
		key, more, ok := sc.member(first)
		if !ok {
			return false
		}
		if !more {
			break
		}
		var bit uint8
		switch string(key) {
		case metaVersion:
			bit = 1
			if r.Version, ok = sc.str(); !ok {
				return false
			}
		case metaCapabilities:
			bit = 2
			ok = sc.value(0)
		case metaClientInfo:
			bit = 4
			ok = sc.value(0)
		}
		if bit == 0 || !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	r.Meta = sc.b[start:sc.i]
	return json.Valid(r.Meta)
}

// maxFastDepth bounds the nesting of a _meta value.
const maxFastDepth = 16

// value skips one JSON value; json.Valid over the whole _meta checks it.
func (sc *scanner) value(depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	sc.ws()
	if sc.i >= len(sc.b) {
		return false
	}
	switch c := sc.b[sc.i]; c {
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		sc.i++
		if sc.byte(end) {
			return true
		}
		for {
			if c == '{' {
				if _, ok := sc.anyStr(); !ok || !sc.byte(':') {
					return false
				}
			}
			if !sc.value(depth + 1) {
				return false
			}
			if sc.byte(end) {
				return true
			}
			if !sc.byte(',') {
				return false
			}
		}
	case '"':
		_, ok := sc.anyStr()
		return ok
	default:
		start := sc.i
		for sc.i < len(sc.b) && bytes.IndexByte([]byte("+-0123456789.eEtruefalsn"), sc.b[sc.i]) >= 0 {
			sc.i++
		}
		return sc.i > start
	}
}

// anyStr skips a string, escapes allowed.
func (sc *scanner) anyStr() ([]byte, bool) {
	if !sc.byte('"') {
		return nil, false
	}
	start := sc.i
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case '"':
			sc.i++
			return sc.b[start : sc.i-1], true
		case '\\':
			sc.i++
		}
		sc.i++
	}
	return nil, false
}
