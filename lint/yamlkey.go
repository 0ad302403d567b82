package lint

import "strings"

// This file reads the top-level key of a frontmatter line as YAML does
// (frontmatterKey), for the line flags (scan.go) and the frontmatter rules
// (expand.go). It points at no other file.

// frontmatterKey returns the top-level key a frontmatter line holds, as
// YAML reads it: unquoted, single- or double-quoted (with \x, \u and \U
// escapes decoded), or the explicit "? key" form; "" for none.
func frontmatterKey(l string) string {
	l = strings.TrimPrefix(l, "\uFEFF")
	if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' {
		return ""
	}
	explicit := false
	if strings.HasPrefix(l, "? ") || l == "?" {
		l, explicit = strings.TrimSpace(l[1:]), true
	}
	var key string
	switch {
	case strings.HasPrefix(l, `"`):
		end := strings.IndexByte(l[1:], '"')
		for end >= 0 && end > 0 && l[end] == '\\' { // an escaped quote
			next := strings.IndexByte(l[end+2:], '"')
			if next < 0 {
				end = -1
				break
			}
			end += 1 + next
		}
		if end < 0 {
			return ""
		}
		key, l = unescapeYAML(l[1:1+end]), l[2+end:]
	case strings.HasPrefix(l, "'"):
		end := strings.IndexByte(l[1:], '\'')
		if end < 0 {
			return ""
		}
		key, l = l[1:1+end], l[2+end:]
	default:
		i := strings.IndexAny(l, ": \t")
		if i < 0 {
			i = len(l)
		}
		key, l = l[:i], l[i:]
	}
	if t := strings.TrimLeft(l, " \t"); !explicit && !strings.HasPrefix(t, ":") {
		return ""
	}
	return key
}

// unescapeYAML decodes the escapes of a YAML double-quoted scalar that
// spell letters: \xNN, \uNNNN, \UNNNNNNNN; others are kept as written.
func unescapeYAML(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
		if n == 0 || i+2+n > len(s) {
			b.WriteByte(s[i])
			continue
		}
		var r rune
		ok := true
		for _, c := range []byte(s[i+2 : i+2+n]) {
			v, good := unhex('0', c)
			ok = ok && good
			r = r<<4 | rune(v)
		}
		if !ok {
			b.WriteByte(s[i])
			continue
		}
		b.WriteRune(r)
		i += 1 + n
	}
	return b.String()
}

// unhex returns the byte two hex digits spell.
func unhex(a, b byte) (byte, bool) {
	v := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			return c | 0x20 - 'a' + 10, true
		}
		return 0, false
	}
	x, ok1 := v(a)
	y, ok2 := v(b)
	return x<<4 | y, ok1 && ok2
}
