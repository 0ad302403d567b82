package encoded

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// minEncoded is the shortest run of base64, base32 or hex characters worth
// decoding: shorter ones are words and digests' worth of noise.
const minEncoded = 20

// textual reports whether b reads as text: valid UTF-8 with at most one
// control character in 32 other than tab and line breaks, and some letters.
func textual(b []byte) bool {
	if len(b) < 6 || !utf8.Valid(b) {
		return false
	}
	bad, letters := 0, 0
	for _, c := range b {
		switch {
		case c == '\t' || c == '\n' || c == '\r':
		case c < 0x20 || c == 0x7f:
			bad++
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			letters++
		}
	}
	return bad*32 <= len(b) && letters*4 >= len(b)
}

// DecodeBase64 decodes standard or URL base64, padded or not.
func DecodeBase64(s string) ([]byte, bool) {
	s = strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	// A run cut at a length that is no whole number of groups: decode the
	// whole groups.
	if n := len(s) &^ 3; n >= 8 && n < len(s) {
		if b, err := base64.RawStdEncoding.DecodeString(s[:n]); err == nil {
			return b, true
		}
	}
	return nil, false
}

// DecodeBase32 decodes standard base32, padded or not.
func DecodeBase32(s string) ([]byte, bool) {
	b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.TrimRight(strings.ToUpper(s), "="))
	return b, err == nil
}

// DecodeHex decodes a run of hex digits, optionally with \x, 0x or %
// before each pair or spaces, commas or colons between them.
func DecodeHex(s string) ([]byte, bool) {
	t := hexSeparators.Get().Replace(s)
	if len(t)%2 == 1 {
		t = t[:len(t)-1]
	}
	b, err := hex.DecodeString(t)
	return b, err == nil
}

// hexSeparators are what may stand between or before hex pairs.
var hexSeparators = lazy.Value[*strings.Replacer]{New: func() *strings.Replacer {
	return strings.NewReplacer(`\x`, "", "0x", "", "%", "", " ", "", ",", "", ":", "", `\X`, "", "0X", "")
}}

// Unescape decodes \xHH, \uHHHH, \u{H…}, \UHHHHHHHH, octal \NNN and the
// common one-letter escapes of a string literal; what is not an escape is
// kept as it is.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0', '1', '2', '3':
			j := i
			for j < len(s) && j < i+3 && '0' <= s[j] && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case 'x', 'X':
			if i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]) {
				n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
				b.WriteByte(byte(n))
				i += 2
			} else {
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case 'u', 'U':
			width := 4
			if e == 'U' {
				width = 8
			}
			if i+1 < len(s) && s[i+1] == '{' {
				if end := strings.IndexByte(s[i:], '}'); end > 2 && end < 10 {
					if n, err := strconv.ParseUint(s[i+2:i+end], 16, 32); err == nil {
						b.WriteRune(rune(n))
						i += end
						continue
					}
				}
			}
			if i+width < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32); err == nil {
					b.WriteRune(rune(n))
					i += width
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

// Rot13 rotates ASCII letters by 13.
func Rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case 'A' <= r && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// Reverse reverses a string by runes.
func Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// CharCodes decodes a list of character codes, decimal or 0x hex, separated
// by commas, spaces or "+": 99,117,114,108. It gives up on anything else.
func CharCodes(s string) (string, bool) {
	var b strings.Builder
	n := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '+' || r == '\t' || r == '\n' }) {
		base := 10
		if strings.HasPrefix(f, "0x") || strings.HasPrefix(f, "0X") {
			f, base = f[2:], 16
		}
		c, err := strconv.ParseUint(f, base, 21)
		if err != nil || c == 0 || c > utf8.MaxRune {
			return "", false
		}
		b.WriteRune(rune(c))
		n++
	}
	return b.String(), n > 0
}

// A Run is a run of text a decoder can read: where it is (bytes Off to
// End of the text), and what it decodes to.
type Run struct {
	Off, End int
	How      string // base64, base32, hex, escapes, char codes
	Text     string
}

// Find returns the runs of text that decode to text, at most limit
// of them, in order. It reads the text once.
func Find(t string, limit int) []Run {
	runByte := runBytes.Get()
	var out []Run
	var keys [][]byte
	keysFound := false
	add := func(off, end int, how string, b []byte) {
		if len(out) >= limit {
			return
		}
		if !strings.Contains(t, "^") {
			if textual(b) {
				out = append(out, Run{off, end, how, string(b)})
			}
			return
		}
		// The bytes may be text XORed with a key the file holds: decoded
		// with each, the one that reads most like words is read too (XOR
		// of text with a letter's code is often printable, so which of
		// the two is the text is not known).
		if textual(b) {
			out = append(out, Run{off, end, how, string(b)})
		}
		if !keysFound {
			keys, keysFound = xorKeys(t), true
		}
		var best []byte
		bestHow, score := "", -1
		for _, k := range keys {
			if x := xorWith(b, k); textual(x) && wordy(x) > score {
				best, bestHow, score = x, how+", XOR "+strconv.Quote(string(k)), wordy(x)
			}
		}
		if best != nil && len(out) < limit {
			out = append(out, Run{off, end, bestHow, string(best)})
		}
	}
	for i := 0; i < len(t) && len(out) < limit; {
		c := t[i]
		switch {
		case c == '\\' && i+3 < len(t) && (t[i+1] == 'x' || t[i+1] == 'u' || '0' <= t[i+1] && t[i+1] <= '3'):
			// A run of escapes: \x63\x75… or \143\165…
			j, n := i, 0
			for j+1 < len(t) && t[j] == '\\' {
				k := escapeLen(t[j:])
				if k == 0 {
					break
				}
				j += k
				n++
			}
			if n >= 4 {
				add(i, j, "escapes", []byte(Unescape(t[i:j])))
				i = j
				continue
			}
			i++
		case isCodeDigit(c) && (i == 0 || !IsIdentByte(t[i-1])):
			// A list of character codes: 99, 117, 114, 108
			j, n := i, 0
			for j < len(t) {
				k := j
				for k < len(t) && '0' <= t[k] && t[k] <= '9' {
					k++
				}
				if k == j || k-j > 6 {
					break
				}
				n++
				j = k
				k2 := j
				for k2 < len(t) && (t[k2] == ',' || t[k2] == ' ') {
					k2++
				}
				if k2 == j || k2 >= len(t) || t[k2] < '0' || t[k2] > '9' {
					break
				}
				j = k2
			}
			if n >= 6 {
				if s, ok := CharCodes(t[i:j]); ok {
					b := []byte(s)
					if bs, ok := codeBytes(s); ok && !textual(b) {
						b = bs // codes of bytes, maybe XORed: as bytes
					}
					add(i, j, "char codes", b)
				} else if bs, ok := byteCodes(t[i:j]); ok && strings.Contains(t, "^") {
					add(i, j, "char codes", bs) // bytes with a 0 among them: XORed, maybe
				}
				i = j
				continue
			}
			i = max(j, i+1)
		case runByte[c]&cBase64 != 0:
			j := i
			if c != '=' {
				for j < len(t) && runByte[t[j]]&cBase64 != 0 {
					j++
				}
			}
			// A run shorter than minEncoded (most words) is not read again.
			if j-i < minEncoded || i > 0 && IsIdentByte(t[i-1]) && t[i-1] != '_' || HasRun(t[i:j], 12) {
				i = max(j, i+1)
				continue
			}
			// Base64 of text mixes cases; a run of one case that is no hex
			// or base32 is a word or filler, not worth decoding.
			all, any := uint8(0xff), uint8(0)
			for k := i; k < j; k++ {
				all &= runByte[t[k]]
				any |= runByte[t[k]]
			}
			hexOnly, b32 := all&cHex != 0, all&cBase32 != 0
			if hexOnly || b32 || any&cUpper != 0 && any&cLower != 0 {
				run := t[i:j]
				switch {
				case hexOnly:
					if b, ok := DecodeHex(run); ok {
						add(i, j, "hex", b)
					}
				case b32:
					if b, ok := DecodeBase32(run); ok {
						add(i, j, "base32", b)
					}
				default:
					if b, ok := DecodeBase64(run); ok {
						add(i, j, "base64", b)
					}
				}
			}
			i = max(j, i+1)
		default:
			i++
		}
	}
	return out
}

// escapeLen returns the length of the escape at the start of t: \xHH,
// \uHHHH, \NNN, or 0.
func escapeLen(t string) int {
	if len(t) < 4 || t[0] != '\\' {
		return 0
	}
	switch {
	case t[1] == 'x' && isHexDigit(t[2]) && isHexDigit(t[3]):
		return 4
	case t[1] == 'u' && len(t) >= 6 && isHexDigit(t[2]) && isHexDigit(t[3]) && isHexDigit(t[4]) && isHexDigit(t[5]):
		return 6
	case '0' <= t[1] && t[1] <= '3' && '0' <= t[2] && t[2] <= '7' && '0' <= t[3] && t[3] <= '7':
		return 4
	}
	return 0
}

// Classes of the bytes of an encoded run (runBytes).
const (
	cBase64 = 1 << iota // IsBase64Byte, or '=' (padding, not at a run's start)
	cHex                // a hex digit
	cBase32             // A-Z, 2-7, '='
	cUpper              // A-Z
	cLower              // a-z
)

// runBytes gives each byte its classes, so that the search for encoded
// runs reads a byte with one load.
var runBytes = lazy.Value[*[256]uint8]{New: func() *[256]uint8 {
	t := new([256]uint8)
	for i := range t {
		c := byte(i)
		if IsBase64Byte(c) || c == '=' {
			t[i] |= cBase64
		}
		if isHexDigit(c) {
			t[i] |= cHex
		}
		if 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' || c == '=' {
			t[i] |= cBase32
		}
		if 'A' <= c && c <= 'Z' {
			t[i] |= cUpper
		}
		if 'a' <= c && c <= 'z' {
			t[i] |= cLower
		}
	}
	return t
}}

func isCodeDigit(c byte) bool { return '1' <= c && c <= '9' }

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// IsIdentByte reports whether c is a byte of an ASCII identifier.
func IsIdentByte(c byte) bool {
	return c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// HasRun reports whether s holds one byte n times in a row.
func HasRun(s string, n int) bool {
	run := 0
	for i := range len(s) {
		if i > 0 && s[i] == s[i-1] {
			run++
		} else {
			run = 1
		}
		if run >= n {
			return true
		}
	}
	return false
}

// IsBase64Byte reports whether c is a byte of base64 or base64url.
func IsBase64Byte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

// Bounds of the keys xorKeys looks for.
const (
	maxXORKeys   = 4
	maxXORKeyLen = 64
	maxXOROps    = 64 // the ^ looked at per text: a regular expression's anchors are ^ too
	maxXORNames  = 8  // the names looked up (each a pass over the text)
)

// xorKeys returns the keys text XORs with, at most maxXORKeys: an integer
// from 1 to 255 on one side of a ^ (b ^ 0x5A, 90 ^ c), or a name there
// (b ^ k, b ^ key[i % len(key)]) assigned such an integer or a string of
// at most maxXORKeyLen bytes (k = 0x5A, key = b"s3cr3t") anywhere in the
// text. A text with no ^ has none.
func xorKeys(t string) [][]byte {
	var out [][]byte
	addKey := func(k []byte) {
		for _, o := range out {
			if string(o) == string(k) {
				return
			}
		}
		if len(out) < maxXORKeys && len(k) > 0 && len(k) <= maxXORKeyLen {
			out = append(out, k)
		}
	}
	var names []string
	ops := 0
	for i := strings.IndexByte(t, '^'); i >= 0 && len(out) < maxXORKeys && ops < maxXOROps; ops++ {
		for _, side := range []string{strings.TrimLeft(t[i+1:min(len(t), i+80)], " \t("), lastOperand(t[max(0, i-80):i])} {
			if k, ok := byteKey(side); ok {
				addKey(k)
			} else if name := identAt(side); name != "" && len(names) < maxXORNames && !slices.Contains(names, name) {
				names = append(names, name)
				if k, ok := assignedKey(t, name); ok {
					addKey(k)
				}
			}
		}
		j := strings.IndexByte(t[i+1:], '^')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return out
}

// lastOperand returns the operand that ends s: what stands before a ^.
func lastOperand(s string) string {
	s = strings.TrimRight(s, " \t)")
	i := len(s)
	for i > 0 && (IsIdentByte(s[i-1]) || s[i-1] == '$') {
		i--
	}
	return s[i:]
}

// identAt returns the name s starts with (a $ allowed first), or "".
func identAt(s string) string {
	i := 0
	if i < len(s) && s[i] == '$' {
		i++
	}
	if i >= len(s) || !isLetter(s[i]) && s[i] != '_' {
		return ""
	}
	for i < len(s) && IsIdentByte(s[i]) {
		i++
	}
	return s[:i]
}

// byteKey reads an integer key from 1 to 255 that s starts with: 90, 0x5A.
func byteKey(s string) ([]byte, bool) {
	i, base := 0, 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		i, base = 2, 16
	}
	j := i
	for j < len(s) && j-i < 3 && (base == 10 && '0' <= s[j] && s[j] <= '9' || base == 16 && isHexDigit(s[j])) {
		j++
	}
	if j == i || j < len(s) && IsIdentByte(s[j]) {
		return nil, false
	}
	n, err := strconv.ParseUint(s[i:j], base, 16)
	if err != nil || n == 0 || n > 255 {
		return nil, false
	}
	return []byte{byte(n)}, true
}

// assignedKey finds name = KEY in t, KEY an integer (byteKey) or a quoted
// string (Python's b"…" too), and returns the key's bytes.
func assignedKey(t, name string) ([]byte, bool) {
	for from := 0; from < len(t); {
		i := strings.Index(t[from:], name)
		if i < 0 {
			return nil, false
		}
		i += from
		from = i + len(name)
		if i > 0 && (IsIdentByte(t[i-1]) || t[i-1] == '.') {
			continue
		}
		rest := strings.TrimLeft(t[from:], " \t")
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if k, ok := byteKey(rest); ok {
			return k, true
		}
		rest = strings.TrimPrefix(rest, "b")
		if len(rest) > 1 && (rest[0] == '"' || rest[0] == '\'') {
			if end := strings.IndexByte(rest[1:], rest[0]); end > 0 && end <= maxXORKeyLen && !strings.Contains(rest[1:1+end], "\\") {
				return []byte(rest[1 : 1+end]), true
			}
		}
	}
	return nil, false
}

// wordy returns how many bytes of b are letters, digits or spaces, per
// thousand.
func wordy(b []byte) int {
	n := 0
	for _, c := range b {
		if c == ' ' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' {
			n++
		}
	}
	return n * 1000 / max(1, len(b))
}

// xorWith returns b XORed with key, repeated.
func xorWith(b, key []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = c ^ key[i%len(key)]
	}
	return out
}

// byteCodes reads a list of decimal byte values (0 to 255).
func byteCodes(s string) ([]byte, bool) {
	var out []byte
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		c, err := strconv.ParseUint(f, 10, 8)
		if err != nil {
			return nil, false
		}
		out = append(out, byte(c))
	}
	return out, len(out) > 0
}

// codeBytes returns the character codes of s as bytes, when each is one.
func codeBytes(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, false
		}
		out = append(out, byte(r))
	}
	return out, true
}
