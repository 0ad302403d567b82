package filekind

import (
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads text that its byte order mark says is UTF-16.

// UTF16Text returns data as UTF-8 when it is UTF-16 text with a byte
// order mark (Windows writes PowerShell and registry files so), which the
// NUL bytes would otherwise make a binary nobody reads.
func UTF16Text(data []byte) ([]byte, bool) {
	if len(data) < 4 || len(data)%2 != 0 {
		return nil, false
	}
	var be bool
	switch {
	case data[0] == 0xff && data[1] == 0xfe:
	case data[0] == 0xfe && data[1] == 0xff:
		be = true
	default:
		return nil, false
	}
	units := make([]uint16, 0, len(data)/2-1)
	for i := 2; i+1 < len(data); i += 2 {
		u := uint16(data[i]) | uint16(data[i+1])<<8
		if be {
			u = uint16(data[i])<<8 | uint16(data[i+1])
		}
		if u == 0 {
			return nil, false // NUL: not text after all
		}
		units = append(units, u)
	}
	out := make([]byte, 0, len(units)+len(units)/2)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}
