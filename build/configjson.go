package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeConfigJSON decodes data, the contents of the configuration file
// name, into v: exactly one JSON value, no field v does not know, and nothing
// after it but white space. A merge leftover, a second object or a stray
// brace after the first value is refused (rule config-trailing) rather than
// ignored, since the part ignored may be the policy the operator meant.
// Every error names the file, line and column. It is the one decoder every
// configuration reader goes through (LoadConfig, which the CLI, the live
// server's reload and the tests call).
func decodeConfigJSON(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("%s: %w", at(name, data, se.Offset), err)
		case errors.As(err, &te):
			return fmt.Errorf("%s: %w", at(name, data, te.Offset), err)
		case errors.Is(err, io.EOF):
			return fmt.Errorf("%s: empty file, expected {\"libraries\": [...]}", name)
		case errors.Is(err, io.ErrUnexpectedEOF):
			// A file cut short: named at the place after its last byte.
			return fmt.Errorf("%s: unexpected end of the file, the JSON value is cut short: %w", at(name, data, int64(len(data))+1), err)
		}
		if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if k, uerr := strconv.Unquote(key); uerr == nil {
				if off := keyStart(data, k); off >= 0 {
					return fmt.Errorf("%s: %w", at(name, data, off+1), err)
				}
			}
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	rest := dec.InputOffset()
	for rest < int64(len(data)) && isJSONSpace(data[rest]) {
		rest++
	}
	if rest < int64(len(data)) {
		return fmt.Errorf("%s: data after the configuration's JSON value (rule config-trailing): %q", at(name, data, rest+1), excerpt(data[rest:]))
	}
	return nil
}

// at names the byte at data[n-1], the last one the decoder read: the file,
// then its 1-based line and column (in code points).
func at(name string, data []byte, n int64) string {
	n = min(max(n-1, 0), int64(len(data)))
	before := data[:n]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// excerpt is the start of the trailing data, up to its first line break and
// 40 bytes, for the error.
func excerpt(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 40 {
		b = append(b[:40:40], "…"...)
	}
	return string(b)
}

// keyStart returns the offset of the opening quote of the first object key
// in data that is name, or -1: where an unknown field is, which the
// decoder's error does not say.
func keyStart(data []byte, name string) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct{ obj, key bool } // an object; its next token is a key
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].key {
			stack[n-1].key = false
			if s, _ := tok.(string); s == name {
				end := dec.InputOffset() - 1 // the closing quote
				return int64(bytes.LastIndexByte(data[:end], '"'))
			}
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{obj: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: in an object, a key comes next.
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].key = true
		}
	}
}
