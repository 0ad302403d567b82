package frontmatter

// SKILL.md frontmatter: YAML between two --- lines, rendered verbatim as a
// JSON object with YAML 1.2 core-schema meaning.
//
// The goal is that a host which re-parses SKILL.md with a YAML 1.2 parser
// (the npm yaml package, PyYAML in 1.2 mode) and serializes the result gets
// the same JSON object. Where parsers disagree, or where a value has no JSON
// form, the frontmatter is refused with a named rule instead of guessed at.
//
// Decisions (each enforced below and tested in frontmatter_test.go):
//
//   - The opening line is exactly "---"; the closing line is the first later
//     line that is exactly "---". Trailing spaces and tabs are allowed on both,
//     as is a CR before the LF. "..." does not close the frontmatter: hosts
//     that split SKILL.md on --- would not see it. Inside the YAML, "..." is a
//     document end marker and anything but comments after it is refused.
//   - An empty frontmatter (no content, or only comments) is a mapping with
//     no fields; the missing name and description are reported by the
//     validator, not here.
//   - .inf, -.inf, .nan and numbers beyond the float64 range (1e400) are
//     refused with rule frontmatter-value: JSON has no such number, and JS
//     hosts would turn them into null.
//   - A plain "<<" key is refused with rule frontmatter-key: YAML 1.2 parsers
//     disagree (npm yaml keeps it as a key, PyYAML and yaml.v3 merge). A
//     quoted "<<" is an ordinary key.
//   - Aliases are expanded; an alias into its own anchor is refused.
//   - Explicit tags: !!str, !!map and !!seq on the matching node kind, and the
//     non-specific "!" (a string), are accepted. !!null, !!bool, !!int and
//     !!float are accepted only where the untagged value already has that
//     type. Every other tag is refused: parsers resolve them differently.
//   - Raw U+0085, U+2028 and U+2029 are refused: they are line breaks in
//     YAML 1.1, which yaml.v3 speaks, and ordinary characters in 1.2. So is a
//     byte order mark inside the frontmatter (one before the opening --- is
//     fine): yaml.v3 skips it at the start of the YAML, other parsers do not.
//   - Integers are written as JSON integers with all their digits (sign "+"
//     and leading zeros dropped, 0x and 0o converted to decimal). Floats are
//     written as JavaScript's Number::toString writes them.
//   - Strings are JSON-encoded without HTML escaping.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits on a frontmatter block.
const (
	// MaxSize is the largest YAML text between the --- lines, in bytes.
	MaxSize = 64 << 10
	// MaxJSONSize is the largest rendered JSON object, in bytes.
	// It stops alias expansion bombs.
	MaxJSONSize = 1 << 20
	// MaxDepth is the deepest nesting of mappings and sequences,
	// counted after alias expansion.
	MaxDepth = 64
)

// Header is a parsed SKILL.md header: its frontmatter and body.
type Header struct {
	// JSON is the compact JSON object, keys in author order.
	JSON json.RawMessage
	// Fields holds the same values decoded by encoding/json (numbers are
	// float64), for validation and provenance.
	Fields map[string]any
	// Body is the text after the closing --- line. It shares memory with
	// the data given to Parse.
	Body []byte
}

// Error is a refused frontmatter. Rule is one of
// no-frontmatter, unterminated-frontmatter, frontmatter-too-large,
// invalid-yaml, frontmatter-not-mapping, frontmatter-key and
// frontmatter-value. Line is the 1-based line in SKILL.md, or 0 when the
// YAML parser did not say.
type Error struct {
	Rule string
	Line int
	Err  error
}

// Error returns "line N: rule: message".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s: %v", e.Line, e.Rule, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Rule, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Parse splits SKILL.md data into its frontmatter and body and
// renders the frontmatter as JSON. A UTF-8 byte order mark and CRLF line
// ends are accepted. Every refusal of the input is a *Error.
func Parse(data []byte) (*Header, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	first, rest, ok := cutFrontmatterLine(data)
	if !isFrontmatterMarker(first, "---") {
		return nil, &Error{Rule: "no-frontmatter", Line: 1, Err: errors.New("SKILL.md must start with a --- line")}
	}
	if !ok {
		return nil, &Error{Rule: "unterminated-frontmatter", Line: 1, Err: errors.New("no closing --- line")}
	}
	text, body, found := rest, []byte(nil), false
	for off := 0; off < len(rest); {
		line, after, _ := cutFrontmatterLine(rest[off:])
		if isFrontmatterMarker(line, "---") {
			text, body, found = rest[:off], after, true
			break
		}
		off = len(rest) - len(after)
	}
	if !found {
		return nil, &Error{Rule: "unterminated-frontmatter", Line: 1, Err: errors.New("no closing --- line")}
	}
	if len(text) > MaxSize {
		return nil, &Error{Rule: "frontmatter-too-large", Line: 1,
			Err: fmt.Errorf("frontmatter is %d bytes, more than %d", len(text), MaxSize)}
	}
	if i := bytes.IndexAny(text, "\u0085\u2028\u2029\uFEFF"); i >= 0 {
		r, _ := utf8.DecodeRune(text[i:])
		return nil, &Error{Rule: "invalid-yaml", Line: 2 + bytes.Count(text[:i], []byte("\n")),
			Err: fmt.Errorf("raw %U is read differently by YAML parsers; write it as an escape in a double-quoted string", r)}
	}
	r := frontmatterRenderer{src: text}
	if !r.renderPlainPairs() {
		r.buf.Reset()
		if err := r.renderYAML(); err != nil {
			return nil, err
		}
	}
	fm := &Header{JSON: json.RawMessage(r.buf.Bytes()), Body: body}
	if err := json.Unmarshal(fm.JSON, &fm.Fields); err != nil {
		// The renderer writes only valid JSON with numbers in float64
		// range, nested less deeply than encoding/json allows.
		return nil, fmt.Errorf("frontmatter: rendered JSON does not decode (a bug): %w", err)
	}
	return fm, nil
}

// renderYAML parses r.src with yaml.v3 and renders it.
func (r *frontmatterRenderer) renderYAML() error {
	root, err := decodeFrontmatterYAML(r.src)
	if err != nil {
		return err
	}
	r.active, r.resolved = map[*yaml.Node]bool{}, map[*yaml.Node]coreScalar{}
	if root == nil {
		r.buf.WriteString("{}")
	} else {
		if root.Kind != yaml.MappingNode {
			return r.errorf("frontmatter-not-mapping", root, "frontmatter must be a mapping of field names to values, not %s", yamlNodeKindName(root))
		}
		if err := r.render(root, 0); err != nil {
			return err
		}
		if r.buf.Len() > MaxJSONSize {
			return r.errorf("frontmatter-too-large", root, "frontmatter expands to more than %d bytes of JSON", MaxJSONSize)
		}
		if last := lastYAMLNode(root); r.keepChomped(last) {
			return r.errorf("frontmatter-value", last, "a block scalar with keep chomping (|+ or >+) at the end of the frontmatter reads differently depending on where a host cuts the frontmatter; use | or >, or add a field after it")
		}
	}
	return nil
}

// renderPlainPairs renders r.src without the YAML parser when every line
// is "key: value" with both in a plain style that yaml.v3 and YAML 1.2
// parsers read alike, the common frontmatter: a key is an ASCII letter then
// letters, digits, "_" and "-"; a value is printable text on one line that
// does not start with an indicator or a space, does not end with a space,
// and holds no ": ", " #" or ":" at its end. Keys and values are resolved
// as the YAML path resolves plain scalars. It reports false, having
// written part of r.buf, for anything else and for what the YAML path
// would refuse (a duplicate key, a key that is not a string, a value JSON
// cannot hold), so that the YAML path decides.
func (r *frontmatterRenderer) renderPlainPairs() bool {
	text := r.src
	if len(text) == 0 || text[len(text)-1] != '\n' {
		return false
	}
	var keys []string
	r.buf.WriteByte('{')
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		i := bytes.Index(line, []byte(": "))
		if i < 0 || !isPlainKey(line[:i]) || !isPlainValue(line[i+2:]) {
			return false
		}
		k, err := resolveCoreScalar(string(line[:i]))
		if err != nil || k.kind != "string" || slices.Contains(keys, k.text) {
			return false
		}
		v, err := resolveCoreScalar(string(line[i+2:]))
		if err != nil {
			return false
		}
		if len(keys) > 0 {
			r.buf.WriteByte(',')
		}
		keys = append(keys, k.text)
		r.writeString(k.text)
		r.buf.WriteByte(':')
		r.writeScalar(v)
	}
	r.buf.WriteByte('}')
	return r.buf.Len() <= MaxJSONSize
}

// isPlainKey reports whether k is a key renderPlainPairs takes.
func isPlainKey(k []byte) bool {
	if len(k) == 0 || len(k) > 128 || !('a' <= k[0]|0x20 && k[0]|0x20 <= 'z') {
		return false
	}
	for _, c := range k {
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isPlainValue reports whether v is a value renderPlainPairs takes.
func isPlainValue(v []byte) bool {
	if len(v) == 0 || strings.IndexByte("-?:,[]{}#&*!|>'\"%@` ", v[0]) >= 0 || v[len(v)-1] == ' ' || v[len(v)-1] == ':' ||
		bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return false
	}
	for len(v) > 0 {
		c, size := utf8.DecodeRune(v)
		if c == utf8.RuneError && size == 1 {
			return false // not UTF-8
		}
		v = v[size:]
		// Printable as YAML counts it, without the characters that
		// Parse refuses before parsing.
		if !(0x20 <= c && c <= 0x7e || 0xa0 <= c && c <= 0xd7ff && c != 0x2028 && c != 0x2029 ||
			0xe000 <= c && c <= 0xfffd && c != 0xfeff || 0x10000 <= c && c <= 0x10ffff) {
			return false
		}
	}
	return true
}

// cutFrontmatterLine returns the first line of data without its line end, the data
// after that line end, and whether a line end was found.
func cutFrontmatterLine(data []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(data, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, ok
}

// isFrontmatterMarker reports whether line is marker followed only by spaces and tabs.
func isFrontmatterMarker(line []byte, marker string) bool {
	return string(bytes.TrimRight(line, " \t")) == marker
}

// yamlErrorLine matches the line number yaml.v3 puts in its messages.
var yamlErrorLine = &lazyre.RE{Expr: `^yaml: line ([0-9]+): `}

// yamlParserProblems are the yaml.v3 v3.0.1 parser (not scanner) error
// messages. For these yaml.v3 reports a 0-based line, for scanner errors a
// 1-based one; for either it leaves out line 0.
var yamlParserProblems = []string{
	"did not find expected",
	"found duplicate %",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// decodeFrontmatterYAML parses text as one YAML document and returns its
// root node, or nil when the text holds no document.
func decodeFrontmatterYAML(text []byte) (root *yaml.Node, err error) {
	defer func() {
		// yaml.v3 has internal panics ("please report") that malformed
		// input can reach; a hostile SKILL.md must not crash a build.
		if p := recover(); p != nil {
			root, err = nil, &Error{Rule: "invalid-yaml", Err: fmt.Errorf("yaml parser failed: %v", p)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc, extra yaml.Node
	err = dec.Decode(&doc)
	if err == nil {
		if err = dec.Decode(&extra); err == io.EOF {
			return doc.Content[0], nil
		} else if err == nil {
			return nil, &Error{Rule: "invalid-yaml", Line: extra.Line + 1, Err: errors.New("frontmatter holds more than one YAML document")}
		}
	}
	if err == io.EOF {
		return nil, nil
	}
	msg, line := err.Error(), 0
	if m := yamlErrorLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line, msg = n+1, msg[len(m[0]):] // the YAML starts on line 2 of SKILL.md
		for _, p := range yamlParserProblems {
			if strings.HasPrefix(msg, p) {
				line++
				break
			}
		}
	}
	return nil, &Error{Rule: "invalid-yaml", Line: line, Err: errors.New(strings.TrimPrefix(msg, "yaml: "))}
}

// frontmatterRenderer writes a yaml.v3 node tree as compact JSON.
type frontmatterRenderer struct {
	src       []byte                    // the YAML text, to look at node properties
	buf       bytes.Buffer              // the JSON written so far
	active    map[*yaml.Node]bool       // anchored nodes being rendered, to catch alias cycles
	lineStart []int                     // byte offset of each line of src, built on first use
	resolved  map[*yaml.Node]coreScalar // scalars already resolved, for aliases to reuse
}

// errorf returns a Error for node n.
func (r *frontmatterRenderer) errorf(rule string, n *yaml.Node, format string, args ...any) error {
	return &Error{Rule: rule, Line: n.Line + 1, Err: fmt.Errorf(format, args...)}
}

// render writes n as JSON; depth is the number of enclosing collections.
func (r *frontmatterRenderer) render(n *yaml.Node, depth int) error {
	if r.buf.Len() > MaxJSONSize {
		return r.errorf("frontmatter-too-large", n, "frontmatter expands to more than %d bytes of JSON", MaxJSONSize)
	}
	if n.Kind == yaml.AliasNode {
		if r.active[n.Alias] {
			return r.errorf("frontmatter-value", n, "alias *%s refers to a value that contains it", n.Value)
		}
		return r.render(n.Alias, depth)
	}
	if n.Kind == yaml.ScalarNode {
		v, err := r.scalar(n)
		if err != nil {
			return err
		}
		r.writeScalar(v)
		return nil
	}
	if depth >= MaxDepth {
		return r.errorf("frontmatter-too-large", n, "frontmatter nests deeper than %d levels", MaxDepth)
	}
	if err := r.checkCollectionTag(n); err != nil {
		return err
	}
	if n.Anchor != "" {
		r.active[n] = true
		defer delete(r.active, n)
	}
	if n.Kind == yaml.SequenceNode {
		r.buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				r.buf.WriteByte(',')
			}
			if err := r.render(item, depth+1); err != nil {
				return err
			}
		}
		r.buf.WriteByte(']')
		return nil
	}
	// yaml.v3 yields only document, sequence, mapping, scalar and alias
	// nodes; a document node cannot appear below the root.
	r.buf.WriteByte('{')
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, err := r.key(n.Content[i])
		if err != nil {
			return err
		}
		if line, dup := seen[key]; dup {
			return r.errorf("frontmatter-key", n.Content[i], "duplicate key %q (first at line %d)", key, line)
		}
		seen[key] = n.Content[i].Line + 1
		if i > 0 {
			r.buf.WriteByte(',')
		}
		r.writeString(key)
		r.buf.WriteByte(':')
		if err := r.render(n.Content[i+1], depth+1); err != nil {
			return err
		}
	}
	r.buf.WriteByte('}')
	return nil
}

// lastYAMLNode returns the node that ends last in the text under n.
func lastYAMLNode(n *yaml.Node) *yaml.Node {
	for (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	return n
}

// keepChomped reports whether n is a block scalar with the keep chomping
// indicator "+" in its header. Such a scalar at the end of the frontmatter
// ends with the line break before the closing ---, which hosts that cut
// the frontmatter with a regular expression drop and others keep.
func (r *frontmatterRenderer) keepChomped(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return false
	}
	_, p := r.properties(n, true)
	header, _, _ := bytes.Cut(r.src[p:], []byte("\n")) // | or >, then up to two indicators
	return len(header) > 1 && (header[1] == '+' || len(header) > 2 && header[2] == '+')
}

// checkCollectionTag refuses an explicit tag on a mapping or sequence other
// than the one naming its own kind.
func (r *frontmatterRenderer) checkCollectionTag(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle == 0 {
		return nil
	}
	if (n.Kind == yaml.MappingNode && n.Tag == "!!map") || (n.Kind == yaml.SequenceNode && n.Tag == "!!seq") {
		return nil
	}
	return r.errorf("frontmatter-value", n, "tag %s is not supported on %s", n.Tag, yamlNodeKindName(n))
}

// key returns the string a mapping key node stands for. Alias keys are
// refused: YAML 1.2 lets an alias name contain ":", so "*a: x" does not
// mean in 1.2 what it means to yaml.v3.
func (r *frontmatterRenderer) key(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", r.errorf("frontmatter-key", n, "key must be a string, not %s", yamlNodeKindName(n))
	}
	v, err := r.scalar(n)
	if err != nil {
		return "", err
	}
	if v.kind != "string" {
		return "", r.errorf("frontmatter-key", n, "key %s reads as %s, not a string; quote it", n.Value, v.kind)
	}
	if v.plain && v.text == "<<" {
		return "", r.errorf("frontmatter-key", n, `merge key << is read differently by YAML parsers; expand it, or quote it for a literal "<<" key`)
	}
	return v.text, nil
}

// coreScalar is a scalar resolved by the YAML 1.2 core schema.
type coreScalar struct {
	kind  string // "null", "bool", "int", "float" or "string"
	text  string // for strings, the value; otherwise its JSON form
	plain bool   // an untagged plain scalar (so "<<" would be a merge key)
}

// scalar resolves scalar node n, once.
func (r *frontmatterRenderer) scalar(n *yaml.Node) (coreScalar, error) {
	v, ok := r.resolved[n]
	if !ok {
		var err error
		if v, err = r.resolveScalar(n); err != nil {
			return v, err
		}
		r.resolved[n] = v
	}
	return v, nil
}

// resolveScalar resolves scalar node n by its tag, style and text.
func (r *frontmatterRenderer) resolveScalar(n *yaml.Node) (coreScalar, error) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if n.Style&yaml.TaggedStyle == 0 {
		if quoted {
			return coreScalar{kind: "string", text: n.Value}, nil
		}
		tagged, err := r.nonSpecificTag(n)
		if err != nil || tagged {
			return coreScalar{kind: "string", text: n.Value}, err
		}
		v, err := resolveCoreScalar(n.Value)
		if err != nil {
			return v, r.errorf("frontmatter-value", n, "%v", err)
		}
		v.plain = true
		return v, nil
	}
	switch n.Tag {
	case "!!str":
		return coreScalar{kind: "string", text: n.Value}, nil
	case "!!null", "!!bool", "!!int", "!!float":
		v := coreScalar{kind: "string", text: n.Value}
		if !quoted {
			var err error
			if v, err = resolveCoreScalar(n.Value); err != nil {
				return v, r.errorf("frontmatter-value", n, "%v", err)
			}
		}
		if "!!"+v.kind != n.Tag {
			return v, r.errorf("frontmatter-value", n, "tag %s on a value that reads as %s without it; remove the tag", n.Tag, v.kind)
		}
		return v, nil
	}
	return coreScalar{}, r.errorf("frontmatter-value", n, "tag %s is not supported", n.Tag)
}

// nonSpecificTag reports whether untagged plain scalar n carries the
// non-specific tag "!", which makes it a string. yaml.v3 drops that tag, so
// it is read from the source.
func (r *frontmatterRenderer) nonSpecificTag(n *yaml.Node) (bool, error) {
	// The properties of an empty scalar are not followed by its text, so
	// they are read up to the end of the line only: a "!" on a later line
	// may start the next node. (An anchor and a "!" on separate lines
	// before an empty value are missed; YAML 1.2 reads that as "".)
	tag, _ := r.properties(n, n.Value != "")
	switch tag {
	case "":
		return false, nil
	case "!":
		return true, nil
	}
	return false, r.errorf("frontmatter-value", n, "tag %s is not supported", tag)
}

// properties reads the anchor and tag written before node n and returns
// the tag as written ("" if none) and the offset after the properties. A
// node with properties starts at the first of them, and no node text
// starts with "&" or "!". With crossLines, line breaks and comments between
// the properties and the node text are skipped.
func (r *frontmatterRenderer) properties(n *yaml.Node, crossLines bool) (tag string, p int) {
	p = r.offset(n.Line, n.Column)
	for p < len(r.src) && (r.src[p] == '&' || r.src[p] == '!') {
		start := p
		for p++; p < len(r.src) && !isYAMLSeparator(r.src[p]); p++ {
			if r.src[start] == '&' && !isYAMLAnchorChar(r.src[p]) {
				break
			}
		}
		if r.src[start] == '!' {
			tag = string(r.src[start:p])
		}
		for p < len(r.src) && (r.src[p] == ' ' || r.src[p] == '\t') {
			p++
		}
		if crossLines {
			p = skipYAMLSeparation(r.src, p)
		}
	}
	return tag, p
}

// offset returns the byte offset in the source of a 1-based line and
// column as yaml.v3 counts them (columns in characters; LF, CRLF and CR
// end a line), or len(src) for a position past the end.
func (r *frontmatterRenderer) offset(line, column int) int {
	if r.lineStart == nil {
		// CR and LF are single bytes that never occur inside a UTF-8
		// sequence, valid or not.
		r.lineStart = []int{0}
		for p, c := range r.src {
			if c == '\n' || c == '\r' && (p+1 == len(r.src) || r.src[p+1] != '\n') {
				r.lineStart = append(r.lineStart, p+1)
			}
		}
	}
	if line < 1 || line > len(r.lineStart) || column < 1 {
		return len(r.src)
	}
	p := r.lineStart[line-1]
	for range column - 1 {
		if p >= len(r.src) {
			break
		}
		_, size := utf8.DecodeRune(r.src[p:])
		p += size
	}
	return min(p, len(r.src))
}

// isYAMLAnchorChar reports whether c may appear in an anchor name as
// yaml.v3 reads them.
func isYAMLAnchorChar(c byte) bool {
	return c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isYAMLSeparator reports whether c ends an anchor or tag: white space or
// a line break.
func isYAMLSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// skipYAMLSeparation skips white space, line breaks and comments from p.
func skipYAMLSeparation(src []byte, p int) int {
	for p < len(src) {
		switch {
		case isYAMLSeparator(src[p]):
			p++
		case src[p] == '#':
			for p < len(src) && src[p] != '\n' {
				p++
			}
		default:
			return p
		}
	}
	return p
}

// The YAML 1.2 core schema (YAML 1.2.2 §10.3.2) for plain scalars.
var (
	coreNull   = &lazyre.RE{Expr: `^(?:null|Null|NULL|~|)$`}
	coreTrue   = &lazyre.RE{Expr: `^(?:true|True|TRUE)$`}
	coreFalse  = &lazyre.RE{Expr: `^(?:false|False|FALSE)$`}
	coreInt10  = &lazyre.RE{Expr: `^[-+]?[0-9]+$`}
	coreInt8   = &lazyre.RE{Expr: `^0o[0-7]+$`}
	coreInt16  = &lazyre.RE{Expr: `^0x[0-9a-fA-F]+$`}
	coreFloat  = &lazyre.RE{Expr: `^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`}
	coreInfNaN = &lazyre.RE{Expr: `^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`}
)

// resolveCoreScalar resolves the text of a plain scalar by the YAML 1.2
// core schema. It refuses values JSON cannot hold.
func resolveCoreScalar(s string) (coreScalar, error) {
	switch {
	case coreNull.MatchString(s):
		return coreScalar{kind: "null", text: "null"}, nil
	case coreTrue.MatchString(s):
		return coreScalar{kind: "bool", text: "true"}, nil
	case coreFalse.MatchString(s):
		return coreScalar{kind: "bool", text: "false"}, nil
	case coreInt10.MatchString(s):
		neg := s[0] == '-'
		digits := strings.TrimLeft(strings.TrimLeft(s, "+-"), "0")
		if digits == "" {
			return coreScalar{kind: "int", text: "0"}, nil
		}
		if neg {
			digits = "-" + digits
		}
		return coreIntScalar(s, digits)
	case coreInt8.MatchString(s), coreInt16.MatchString(s):
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		v, _ := new(big.Int).SetString(s[2:], base)
		if v.BitLen() > 1024 {
			return coreScalar{}, fmt.Errorf("integer %s is too large for JSON", s)
		}
		return coreIntScalar(s, v.String())
	case coreFloat.MatchString(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return coreScalar{}, fmt.Errorf("number %s is too large for JSON", s)
		}
		return coreScalar{kind: "float", text: formatJSNumber(f)}, nil
	case coreInfNaN.MatchString(s):
		return coreScalar{}, fmt.Errorf("%s has no JSON form; quote it for a string", s)
	}
	return coreScalar{kind: "string", text: s}, nil
}

// coreIntScalar returns decimal integer digits as an int scalar, refusing one
// whose magnitude is beyond the float64 range JSON readers decode into.
func coreIntScalar(written, digits string) (coreScalar, error) {
	if f, err := strconv.ParseFloat(digits, 64); err != nil || math.IsInf(f, 0) {
		return coreScalar{}, fmt.Errorf("integer %s is too large for JSON", written)
	}
	return coreScalar{kind: "int", text: digits}, nil
}

// formatJSNumber formats f as ECMAScript Number::toString does (and so
// JSON.stringify): the shortest digits that round-trip, in plain notation
// for decimal exponents from -6 to 20 and "1.5e+21" style beyond.
// f must be finite.
func formatJSNumber(f float64) string {
	if f == 0 {
		return "0" // also -0, as JSON.stringify writes it
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	var b strings.Builder
	if s[0] == '-' {
		b.WriteByte('-')
		s = s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	k, n := len(digits), e+1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", n-k))
	case 0 < n && n <= 21:
		b.WriteString(digits[:n])
		b.WriteByte('.')
		b.WriteString(digits[n:])
	case -6 < n && n <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -n))
		b.WriteString(digits)
	default:
		b.WriteString(digits[:1])
		if k > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if n-1 >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(n - 1))
	}
	return b.String()
}

// writeScalar writes resolved scalar v.
func (r *frontmatterRenderer) writeScalar(v coreScalar) {
	if v.kind == "string" {
		r.writeString(v.text)
	} else {
		r.buf.WriteString(v.text)
	}
}

// writeString writes s as a JSON string without HTML escaping.
func (r *frontmatterRenderer) writeString(s string) {
	enc := json.NewEncoder(&r.buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)               // a string always encodes; writes to a bytes.Buffer do not fail
	r.buf.Truncate(r.buf.Len() - 1) // Encode appends a newline
}

// yamlNodeKindName names a node kind for messages, with an article.
func yamlNodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}
