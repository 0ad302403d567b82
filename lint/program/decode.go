package program

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file decodes what a file may hide in plain sight: base64, base32 and
// hex runs, \x and \u escapes, lists of character codes, rot13 and
// reversed strings. A decoded text that reads as text is analysed again as
// the same file would be (layers.go), so a payload hidden under encodings
// meets the same rules as one written out.

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

// decodeBase64 decodes standard or URL base64, padded or not.
func decodeBase64(s string) ([]byte, bool) {
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

// decodeBase32 decodes standard base32, padded or not.
func decodeBase32(s string) ([]byte, bool) {
	b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.TrimRight(strings.ToUpper(s), "="))
	return b, err == nil
}

// decodeHex decodes a run of hex digits, optionally with \x, 0x or %
// before each pair or spaces, commas or colons between them.
func decodeHex(s string) ([]byte, bool) {
	t := hexSeparators.Replace(s)
	if len(t)%2 == 1 {
		t = t[:len(t)-1]
	}
	b, err := hex.DecodeString(t)
	return b, err == nil
}

// hexSeparators are what may stand between or before hex pairs.
var hexSeparators = strings.NewReplacer(`\x`, "", "0x", "", "%", "", " ", "", ",", "", ":", "", `\X`, "", "0X", "")

// unescape decodes \xHH, \uHHHH, \u{H…}, \UHHHHHHHH, octal \NNN and the
// common one-letter escapes of a string literal; what is not an escape is
// kept as it is.
func unescape(s string) string {
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

// rot13 rotates ASCII letters by 13.
func rot13(s string) string {
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

// reverse reverses a string by runes.
func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// charCodes decodes a list of character codes, decimal or 0x hex, separated
// by commas, spaces or "+": 99,117,114,108. It gives up on anything else.
func charCodes(s string) (string, bool) {
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

// An encoded is a run of text a decoder can read: where it is, and what it
// decodes to.
type encoded struct {
	off, end int
	how      string // base64, base32, hex, escapes, char codes
	text     string
}

// findEncoded returns the runs of text that decode to text, at most limit
// of them, in order. It reads the text once.
func findEncoded(t string, limit int) []encoded {
	var out []encoded
	add := func(off, end int, how string, b []byte) {
		if len(out) < limit && textual(b) {
			out = append(out, encoded{off, end, how, string(b)})
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
				add(i, j, "escapes", []byte(unescape(t[i:j])))
				i = j
				continue
			}
			i++
		case isCodeDigit(c) && (i == 0 || !isIdentByte(t[i-1])):
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
				if s, ok := charCodes(t[i:j]); ok {
					add(i, j, "char codes", []byte(s))
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
			if j-i < minEncoded || i > 0 && isIdentByte(t[i-1]) && t[i-1] != '_' || HasRun(t[i:j], 12) {
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
					if b, ok := decodeHex(run); ok {
						add(i, j, "hex", b)
					}
				case b32:
					if b, ok := decodeBase32(run); ok {
						add(i, j, "base32", b)
					}
				default:
					if b, ok := decodeBase64(run); ok {
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

// Classes of the bytes of an encoded run (runByte).
const (
	cBase64 = 1 << iota // IsBase64Byte, or '=' (padding, not at a run's start)
	cHex                // a hex digit
	cBase32             // A-Z, 2-7, '='
	cUpper              // A-Z
	cLower              // a-z
)

// runByte gives each byte its classes, so that the search for encoded runs
// reads a byte with one load.
var runByte = func() (t [256]uint8) {
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
}()

func isCodeDigit(c byte) bool { return '1' <= c && c <= '9' }

func isIdentByte(c byte) bool {
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
