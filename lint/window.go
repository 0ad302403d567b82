package lint

import (
	"bytes"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file splits a big text into the windows the analyser scans one at a
// time, and merges their findings.

// A window is a part of the text: bytes [start, end), which begin on line
// line (counted from 0) after col code points of it (0 when the window
// starts a line).
type window struct {
	start, end, line, col int
}

// next returns the window after w (the first for the zero window): up to
// WindowBytes, ending after a newline where one is in its second half, and
// starting WindowOverlap before w's end, at a line start where one is in
// the overlap. Each byte is looked at a bounded number of times, so the
// windows of a text cost time linear in its size.
func (w window) next(data []byte) window {
	n := window{}
	if w.end > 0 {
		from := max(w.start+1, w.end-WindowOverlap)
		if i := bytes.IndexByte(data[from:w.end], '\n'); i >= 0 && from+i+1 < w.end {
			from += i + 1
		}
		for from > w.start+1 && from < len(data) && !utf8.RuneStart(data[from]) {
			from--
		}
		n = window{start: from, line: w.line, col: w.col}
		skipped := data[w.start:from]
		if nl := bytes.LastIndexByte(skipped, '\n'); nl >= 0 {
			n.line += bytes.Count(skipped, []byte("\n"))
			n.col = utf8.RuneCount(skipped[nl+1:])
		} else {
			n.col += utf8.RuneCount(skipped)
		}
	}
	n.end = min(len(data), n.start+WindowBytes)
	if n.end < len(data) {
		half := n.start + WindowBytes/2
		if i := bytes.LastIndexByte(data[half:n.end], '\n'); i >= 0 {
			n.end = half + i + 1
		}
		for n.end > n.start+1 && !utf8.RuneStart(data[n.end]) {
			n.end--
		}
	}
	return n
}

// mergeFindings merges the findings of one more window into those of the
// windows before, both in rule order: per rule the stronger finding, or the
// earlier of two as strong.
func mergeFindings(a, b []manifest.Finding) []manifest.Finding {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]manifest.Finding, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0:
			out, b = append(out, b[0]), b[1:]
		case a[0].Rule == b[0].Rule:
			f := a[0]
			if Rank(b[0].Severity) > Rank(f.Severity) {
				f = b[0]
			}
			out, a, b = append(out, f), a[1:], b[1:]
		case ruleIndex.Get()[a[0].Rule] < ruleIndex.Get()[b[0].Rule]:
			out, a = append(out, a[0]), a[1:]
		default:
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// WindowBytes is the most of a file the analyser holds in one scan: a
// bigger file is read whole, in windows of at most this many bytes that
// overlap by WindowOverlap, so time grows linearly with the file and the
// memory a scan takes is bounded whatever the file's size.
const WindowBytes = 1 << 20

// WindowOverlap is how far each window reaches back into the one before,
// so that a match across a window's edge (a comment, a multi-line rule) is
// seen whole in one of them.
const WindowOverlap = 64 << 10
