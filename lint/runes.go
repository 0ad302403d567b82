package lint

import (
	"encoding/binary"
	"unsafe"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
)

// This file holds the runes the text rules look for and show: zero-width
// characters, tag characters, variation selectors, and how an excerpt
// shows them. It points at no other file.

// isZeroWidth reports the zero-width characters that carry hidden data:
// ZWSP, ZWNJ, ZWJ, word joiner, the invisible operators, BOM (not as the
// first character), Mongolian vowel separator, Hangul fillers.
func isZeroWidth(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u180e',
		'\u115f', '\u1160', '\u3164', '\uffa0':
		return true
	}
	return false
}

func isTag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

func isSelector(r rune) bool { return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef }

// nextNonASCII returns the offset of the next byte ≥ 0x80 from off, or -1.
// It tests eight bytes at a time.
func nextNonASCII(t string, off int) int {
	b := unsafe.Slice(unsafe.StringData(t), len(t)) // read only
	for ; off+8 <= len(b); off += 8 {
		if binary.LittleEndian.Uint64(b[off:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; off < len(b); off++ {
		if b[off] >= 0x80 {
			return off
		}
	}
	return -1
}

// visible maps a rune for an excerpt that shows where invisible ones are.
func visible(r rune) rune {
	if excerpt.Unsafe(r) {
		return '⍰'
	}
	return r
}
