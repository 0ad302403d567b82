package lint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"strings"
)

// This file is what the analyser makes of a binary file: which format its
// bytes say it is, whether that format is one a reader can check (an
// image, a font) or one that hides what it holds (bytecode, an archive, an
// unknown blob), and where an image ends, so that data appended after it is
// seen. Every walk over a format's structure moves forward by at least one
// byte per step, so it is linear in the file's size.

// A kind is a family of file formats.
type kind uint8

const (
	kindNone       kind = iota // not known
	kindText                   // text: prose, code, data
	kindImage                  // PNG, JPEG, GIF, WebP, BMP, ICO, TIFF
	kindFont                   // TrueType, OpenType, WOFF
	kindMedia                  // audio and video
	kindArchive                // zip, gzip, bzip2, xz, 7z, tar
	kindDocument               // PDF
	kindOffice                 // an Office or OpenDocument file: a zip, or an OLE2 compound file
	kindBytecode               // Python, Java, WebAssembly, Lua bytecode
	kindExecutable             // ELF, Mach-O, PE
	kindDatabase               // SQLite
)

var kindNames = [...]string{"unknown", "text", "image", "font", "audio or video", "archive", "document",
	"office document", "bytecode", "executable", "database"}

func (k kind) String() string { return kindNames[k] }

// extKinds are the kinds file extensions claim.
var extKinds = func() map[string]kind {
	m := map[string]kind{}
	set := func(k kind, exts ...string) {
		for _, e := range exts {
			m[e] = k
		}
	}
	set(kindImage, ".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".tif", ".tiff", ".avif", ".heic")
	set(kindFont, ".ttf", ".otf", ".woff", ".woff2")
	set(kindMedia, ".mp3", ".wav", ".ogg", ".flac", ".mp4", ".m4a", ".mov", ".webm", ".avi")
	set(kindArchive, ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".jar", ".whl", ".egg", ".skill")
	set(kindDocument, ".pdf")
	set(kindOffice, ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm", ".odt", ".ods", ".odp", ".doc", ".xls", ".ppt", ".dotm", ".xltm")
	set(kindBytecode, ".pyc", ".pyo", ".class", ".wasm", ".luac")
	set(kindExecutable, ".exe", ".dll", ".so", ".dylib", ".elf", ".node")
	set(kindDatabase, ".db", ".sqlite", ".sqlite3")
	set(kindText, ".md", ".markdown", ".mdx", ".txt", ".text", ".rst", ".adoc", ".json", ".jsonl", ".yaml", ".yml",
		".toml", ".ini", ".cfg", ".conf", ".csv", ".tsv", ".xml", ".html", ".htm", ".css", ".svg", ".log", ".env",
		".template", ".tmpl", ".j2", ".sql", ".graphql", ".proto", ".lock")
	for e := range scriptExts {
		m[e] = kindText
	}
	for e := range moreScriptExts {
		m[e] = kindText
	}
	return m
}()

// extKind returns the kind file's extension claims, kindNone for none or
// an extension that claims nothing (.bin, .dat).
func extKind(file string) kind { return extKinds[strings.ToLower(path.Ext(file))] }

// sniff returns the kind of data by its leading bytes and a name of its
// format, or kindNone.
func sniff(data []byte) (kind, string) {
	has := func(p string) bool { return bytes.HasPrefix(data, []byte(p)) }
	at := func(off int, p string) bool { return len(data) >= off+len(p) && string(data[off:off+len(p)]) == p }
	switch {
	case exeKind(data) != "":
		return kindExecutable, exeKind(data)
	case has("\x89PNG\r\n\x1a\n"):
		return kindImage, "PNG"
	case has("\xff\xd8\xff"):
		return kindImage, "JPEG"
	case has("GIF87a"), has("GIF89a"):
		return kindImage, "GIF"
	case has("RIFF") && at(8, "WEBP"):
		return kindImage, "WebP"
	case has("RIFF") && (at(8, "WAVE") || at(8, "AVI ")):
		return kindMedia, "RIFF " + string(data[8:12])
	case has("BM") && len(data) >= 26 && binary.LittleEndian.Uint32(data[14:]) >= 12 && binary.LittleEndian.Uint32(data[14:]) <= 124:
		return kindImage, "BMP"
	case has("\x00\x00\x01\x00"), has("\x00\x00\x02\x00"):
		return kindImage, "ICO"
	case has("II*\x00"), has("MM\x00*"):
		return kindImage, "TIFF"
	case at(4, "ftyp"):
		if at(8, "avif") || at(8, "heic") || at(8, "mif1") {
			return kindImage, "HEIF"
		}
		return kindMedia, "MP4"
	case has("\x00\x01\x00\x00"), has("OTTO"), has("wOFF"), has("wOF2"):
		return kindFont, "font"
	case has("OggS"), has("fLaC"), has("ID3"), has("\x1aE\xdf\xa3"), len(data) >= 2 && data[0] == 0xff && data[1]&0xe0 == 0xe0:
		return kindMedia, "audio or video"
	case has("%PDF"):
		return kindDocument, "PDF"
	case has("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
		return kindOffice, "OLE2 compound file"
	case has("PK\x03\x04"), has("PK\x05\x06"):
		return zipKind(data)
	case has("\x1f\x8b"):
		return kindArchive, "gzip"
	case has("BZh"):
		return kindArchive, "bzip2"
	case has("\xfd7zXZ\x00"):
		return kindArchive, "xz"
	case has("7z\xbc\xaf\x27\x1c"):
		return kindArchive, "7z"
	case has("\x28\xb5\x2f\xfd"):
		return kindArchive, "zstd"
	case at(257, "ustar"):
		return kindArchive, "tar"
	case has("\x00asm"):
		return kindBytecode, "WebAssembly"
	case has("\xca\xfe\xba\xbe"):
		return kindBytecode, "Java class"
	case has("\x1bLua"):
		return kindBytecode, "Lua bytecode"
	case len(data) >= 16 && data[2] == '\r' && data[3] == '\n' && data[0] != 0 && bytes.IndexByte(data[4:16], 0) >= 0:
		return kindBytecode, "Python bytecode"
	case has("SQLite format 3\x00"):
		return kindDatabase, "SQLite"
	}
	return kindNone, ""
}

// opaqueBinary finds a binary file the analyser cannot read: bytecode, an
// archive, a database, a PDF with scripts or attachments, data of no known
// format. An image, a font or media is not opaque (imageTrailer reads what
// follows an image's end); an executable is executable-binary's; an office
// document is officeDoc's.
func opaqueBinary(file string, data []byte) (string, string) {
	k, name := sniff(data)
	switch k {
	case kindBytecode:
		return SeverityWarning, "compiled " + name + ": the analyser reads no bytecode, only source"
	case kindArchive:
		return SeverityWarning, "a " + name + " archive: the analyser does not read inside archives"
	case kindDatabase:
		return SeverityWarning, "an " + name + " database: the analyser does not read databases"
	case kindDocument:
		if what := pdfActive(data); what != "" {
			return SeverityWarning, "a PDF with " + what
		}
	case kindNone:
		return SeverityWarning, fmt.Sprintf("%d bytes of binary data in no format the analyser reads", len(data))
	}
	return "", ""
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
				if v, ok := unhex(data[j+1], data[j+2]); ok {
					name = append(name, v)
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

// imageTrailer finds data after an image's end: past a PNG's IEND chunk, a
// JPEG's end-of-image marker, a GIF's trailer, a RIFF file's length. An
// appended zip, script or executable rides along with a picture no one
// suspects; padding of NUL bytes is not a finding.
func imageTrailer(file string, data []byte) (string, string) {
	_, name := sniff(data)
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
		return "", ""
	}
	if end <= 0 || end >= len(data) {
		return "", ""
	}
	rest := data[end:]
	if len(bytes.Trim(rest, "\x00")) == 0 {
		return "", ""
	}
	what := "data"
	switch k, n := sniff(rest); {
	case k != kindNone:
		what = "a " + n + " " + k.String()
	case bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte("#!")):
		what = "a script"
	case bytes.IndexByte(rest[:min(len(rest), 512)], 0) < 0:
		what = "text"
	}
	if i := bytes.Index(rest, []byte("PK\x05\x06")); what == "data" && i >= 0 {
		what = "a zip archive"
	}
	return SeverityWarning, fmt.Sprintf("%d bytes of %s after the %s image's end (byte %d)", len(rest), what, name, end)
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

// disguisedBinary finds a binary file under a name that says something
// else: an archive named .png, a zip named .md, bytecode named .txt. An
// image under another image format's name is a common slip, not a finding;
// an executable is executable-binary's.
func disguisedBinary(file string, data []byte) (string, string) {
	k, name := sniff(data)
	want := extKind(file)
	if k == kindExecutable || want == kindNone || k == want || k == kindNone && want != kindText {
		return "", ""
	}
	if k == kindArchive && want == kindOffice || k == kindOffice && want == kindArchive {
		return "", ""
	}
	what := "binary data"
	if k != kindNone {
		what = "a " + name + " " + k.String()
	}
	return SeverityWarning, what + " named " + strings.ToLower(path.Ext(file))
}
