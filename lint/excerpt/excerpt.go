// Package excerpt makes a line of a scanned file safe to show in a
// finding: trimmed, without the runes a terminal or a viewer would not
// print plainly (Unsafe), and cut to Max bytes at a rune boundary (Of).
// lint and its SARIF import both cut their excerpts here, so a finding
// reads the same whichever tool made it.
//
// Invariants: it reads only the string it is given; Of never returns more
// than Max bytes, nor a rune Unsafe refuses, nor invalid UTF-8.
package excerpt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is the longest excerpt a finding carries, in bytes.
const Max = 120

// Of returns the line trimmed, made safe to print, and cut to
// Max bytes at a rune boundary; when the match at byte start would
// not show, the excerpt starts shortly before it, after "…".
func Of(line string, start int) string {
	trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
	start -= len(line) - len(trimmed)
	t := strings.TrimRightFunc(trimmed, unicode.IsSpace)
	const ellipsis = "…"
	if start > Max-40 && start < len(t) {
		from := start - 20
		for from > 0 && !utf8.RuneStart(t[from]) {
			from--
		}
		t = ellipsis + t[from:]
	}
	var b strings.Builder
	for _, r := range t { // invalid bytes come as utf8.RuneError
		if r == '\t' {
			r = ' '
		} else if Unsafe(r) {
			r = utf8.RuneError
		}
		if b.Len()+utf8.RuneLen(r) > Max {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Unsafe reports the runes an excerpt does not print: control and
// format characters (zero-width, bidirectional, tag characters), line and
// paragraph separators, and variation selectors.
func Unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' ||
		unicode.Is(unicode.Variation_Selector, r) || r == '\u115f' || r == '\u1160' || r == '\u3164' || r == '\uffa0'
}
