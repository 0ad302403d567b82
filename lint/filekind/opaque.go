package filekind

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
)

// This file is what a binary file's format hides: whether that format is
// one a reader can check (an image, a font) or one that hides what it
// holds (bytecode, an archive, an unknown blob), and where an image ends,
// so that data appended after it is seen. Every walk over a format's
// structure moves forward by at least one byte per step, so it is linear
// in the file's size.

// Opaque says what makes a binary file one the analyser cannot read:
// bytecode, an archive, a database, a PDF with scripts or attachments, data
// of no known format; "" for none. An image, a font or media is not opaque
// (Trailer reads what follows an image's end); an executable is Native's;
// an office document is OfficeActive's.
func Opaque(data []byte) string {
	k, name := Sniff(data)
	switch k {
	case Bytecode:
		return "compiled " + name + ": the analyser reads no bytecode, only source"
	case Archive:
		return "a " + name + " archive: the analyser does not read inside archives"
	case Database:
		return "an " + name + " database: the analyser does not read databases"
	case Document:
		if what := pdfActive(data); what != "" {
			return "a PDF with " + what
		}
	case None:
		return fmt.Sprintf("%d bytes of binary data in no format the analyser reads", len(data))
	}
	return ""
}

// pdfActive names what makes a PDF run or carry something: JavaScript, a
// launch action, an embedded file. Names may be written with #xx escapes
// (/J#61vaScript), which it decodes first.
func pdfActive(data []byte) string {
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '/')
		if i < 0 {
			return ""
		}
		off += i + 1
		var name []byte
		for j := off; j < len(data) && len(name) < 32; j++ {
			c := data[j]
			if c == '#' && j+2 < len(data) {
				var v [1]byte
				if _, err := hex.Decode(v[:], data[j+1:j+3]); err == nil {
					name = append(name, v[0])
					j += 2
					continue
				}
			}
			if c <= ' ' || strings.IndexByte("/[]<>(){}%", c) >= 0 {
				break
			}
			name = append(name, c)
		}
		switch string(name) {
		case "JavaScript", "JS":
			return "JavaScript"
		case "Launch":
			return "a launch action"
		case "EmbeddedFile", "EmbeddedFiles":
			return "an embedded file"
		case "RichMedia":
			return "rich media"
		}
	}
}

// Trailer says what follows an image's end, "" for nothing: past a PNG's
// IEND chunk, a JPEG's end-of-image marker, a GIF's trailer, a RIFF file's
// length. An appended zip, script or executable rides along with a picture
// no one suspects; padding of NUL bytes is not a finding.
func Trailer(data []byte) string {
	_, name := Sniff(data)
	var end int
	switch name {
	case "PNG":
		end = pngEnd(data)
	case "JPEG":
		end = jpegEnd(data)
	case "GIF":
		end = gifEnd(data)
	case "WebP", "RIFF WAVE", "RIFF AVI ":
		if len(data) >= 8 {
			end = 8 + int(binary.LittleEndian.Uint32(data[4:]))
			end += end & 1
		}
	default:
		return ""
	}
	if end <= 0 || end >= len(data) {
		return ""
	}
	rest := data[end:]
	if len(bytes.Trim(rest, "\x00")) == 0 {
		return ""
	}
	what := "data"
	switch k, n := Sniff(rest); {
	case k != None:
		what = "a " + n + " " + k.String()
	case bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte("#!")):
		what = "a script"
	case bytes.IndexByte(rest[:min(len(rest), 512)], 0) < 0:
		what = "text"
	}
	if i := bytes.Index(rest, []byte("PK\x05\x06")); what == "data" && i >= 0 {
		what = "a zip archive"
	}
	return fmt.Sprintf("%d bytes of %s after the %s image's end (byte %d)", len(rest), what, name, end)
}

// pngEnd returns the offset after a PNG's IEND chunk, or -1.
func pngEnd(data []byte) int {
	off := 8
	for off+12 <= len(data) {
		n := int(binary.BigEndian.Uint32(data[off:]))
		if n < 0 || n > len(data)-off-12 {
			return -1
		}
		typ := string(data[off+4 : off+8])
		off += 12 + n
		if typ == "IEND" {
			return off
		}
	}
	return -1
}

// jpegEnd returns the offset after a JPEG's end-of-image marker, or -1:
// segments carry their length, and the entropy-coded data after a start of
// scan runs to the next marker (0xFF not followed by 0x00 or a restart).
func jpegEnd(data []byte) int {
	off := 2
	for off+1 < len(data) {
		if data[off] != 0xff {
			return -1
		}
		m := data[off+1]
		switch {
		case m == 0xff:
			off++ // fill byte
			continue
		case m == 0xd9:
			return off + 2
		case m == 0x01 || 0xd0 <= m && m <= 0xd7:
			off += 2
			continue
		}
		if off+4 > len(data) {
			return -1
		}
		n := int(binary.BigEndian.Uint16(data[off+2:]))
		if n < 2 {
			return -1
		}
		off += 2 + n
		if m != 0xda {
			continue
		}
		for off+1 < len(data) && !(data[off] == 0xff && data[off+1] != 0 && (data[off+1] < 0xd0 || data[off+1] > 0xd7)) {
			off++
		}
	}
	return -1
}

// gifEnd returns the offset after a GIF's trailer, or -1.
func gifEnd(data []byte) int {
	if len(data) < 13 {
		return -1
	}
	off := 13
	if p := data[10]; p&0x80 != 0 {
		off += 3 << (p&7 + 1)
	}
	subBlocks := func() bool {
		for off < len(data) {
			n := int(data[off])
			off += 1 + n
			if n == 0 {
				return true
			}
		}
		return false
	}
	for off < len(data) {
		switch data[off] {
		case 0x3b:
			return off + 1
		case 0x21:
			off += 2
			if !subBlocks() {
				return -1
			}
		case 0x2c:
			if off+10 > len(data) {
				return -1
			}
			if p := data[off+9]; p&0x80 != 0 {
				off += 3 << (p&7 + 1)
			}
			off += 11 // the descriptor and the LZW minimum code size
			if !subBlocks() {
				return -1
			}
		default:
			return -1
		}
	}
	return -1
}

// Disguised says what a binary file is when its name says something else,
// "" when it does not: an archive named .png, a zip named .md, bytecode
// named .txt. An image under another image format's name is a common slip,
// not a finding; an executable is left to Native.
func Disguised(file string, data []byte) string {
	k, name := Sniff(data)
	want := ByName(file)
	if k == Executable || want == None || k == want || k == None && want != Text {
		return ""
	}
	if k == Archive && want == Office || k == Office && want == Archive {
		return ""
	}
	what := "binary data"
	if k != None {
		what = "a " + name + " " + k.String()
	}
	return what + " named " + strings.ToLower(path.Ext(file))
}
