package filekind

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// This file tells a file's kind: by the extension of its name (ByName) and
// by its leading bytes (Sniff, IsBinary, Native).

// A Kind is a family of file formats.
type Kind uint8

// The kinds of file.
const (
	None       Kind = iota // not known
	Text                   // text: prose, code, data
	Image                  // PNG, JPEG, GIF, WebP, BMP, ICO, TIFF
	Font                   // TrueType, OpenType, WOFF
	Media                  // audio and video
	Archive                // zip, gzip, bzip2, xz, 7z, tar
	Document               // PDF
	Office                 // an Office or OpenDocument file: a zip, or an OLE2 compound file
	Bytecode               // Python, Java, WebAssembly, Lua bytecode
	Executable             // ELF, Mach-O, PE
	Database               // SQLite
)

var kindNames = [...]string{"unknown", "text", "image", "font", "audio or video", "archive", "document",
	"office document", "bytecode", "executable", "database"}

// String names the kind as an excerpt says it: "image", "audio or video".
func (k Kind) String() string { return kindNames[k] }

// scriptExts are the extensions of programs: --no-scripts withholds these
// files (see IsScriptExt, and lint.IsScript).
var scriptExts = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		".sh": true, ".bash": true, ".zsh": true, ".ps1": true, ".psm1": true, ".bat": true, ".cmd": true,
		".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".rb": true, ".pl": true, ".php": true,
	}
}}

// moreScriptExts are further program extensions the analyser reads as code
// (IsScriptExt keeps its historical list, which --no-scripts applies).
var moreScriptExts = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		".ksh": true, ".fish": true, ".psd1": true, ".vbs": true, ".jsx": true, ".tsx": true, ".mts": true,
		".cts": true, ".lua": true, ".tcl": true, ".r": true, ".go": true, ".rs": true, ".swift": true,
		".java": true, ".kt": true, ".cs": true, ".c": true, ".cc": true, ".cpp": true, ".h": true,
		".groovy": true, ".gradle": true, ".applescript": true, ".scpt": true, ".ipynb": true, ".reg": true,
	}
}}

// IsScriptExt reports whether ext, lower case with its dot, is the
// extension of a script in the list --no-scripts withholds: .sh .bash .zsh
// .ps1 .psm1 .bat .cmd .py .js .mjs .cjs .ts .rb .pl .php.
func IsScriptExt(ext string) bool { return scriptExts.Get()[ext] }

// IsProgramExt reports whether ext, lower case with its dot, is the
// extension of a program the analyser reads as code: IsScriptExt's and
// more (.go, .rs, .lua, .ipynb, …).
func IsProgramExt(ext string) bool { return scriptExts.Get()[ext] || moreScriptExts.Get()[ext] }

// extKinds are the kinds file extensions claim.
var extKinds = lazy.Value[map[string]Kind]{New: func() map[string]Kind {
	m := map[string]Kind{}
	set := func(k Kind, exts ...string) {
		for _, e := range exts {
			m[e] = k
		}
	}
	set(Image, ".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".tif", ".tiff", ".avif", ".heic")
	set(Font, ".ttf", ".otf", ".woff", ".woff2")
	set(Media, ".mp3", ".wav", ".ogg", ".flac", ".mp4", ".m4a", ".mov", ".webm", ".avi")
	set(Archive, ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".jar", ".whl", ".egg", ".skill")
	set(Document, ".pdf")
	set(Office, ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm", ".odt", ".ods", ".odp", ".doc", ".xls", ".ppt", ".dotm", ".xltm")
	set(Bytecode, ".pyc", ".pyo", ".class", ".wasm", ".luac")
	set(Executable, ".exe", ".dll", ".so", ".dylib", ".elf", ".node")
	set(Database, ".db", ".sqlite", ".sqlite3")
	set(Text, ".md", ".markdown", ".mdx", ".txt", ".text", ".rst", ".adoc", ".json", ".jsonl", ".yaml", ".yml",
		".toml", ".ini", ".cfg", ".conf", ".csv", ".tsv", ".xml", ".html", ".htm", ".css", ".svg", ".log", ".env",
		".template", ".tmpl", ".j2", ".sql", ".graphql", ".proto", ".lock")
	for e := range scriptExts.Get() {
		m[e] = Text
	}
	for e := range moreScriptExts.Get() {
		m[e] = Text
	}
	return m
}}

// ByName returns the kind file's extension claims, None for none or an
// extension that claims nothing (.bin, .dat).
func ByName(file string) Kind { return extKinds.Get()[strings.ToLower(path.Ext(file))] }

// Sniff returns the kind of data by its leading bytes and a name of its
// format, or None.
func Sniff(data []byte) (Kind, string) {
	has := func(p string) bool { return bytes.HasPrefix(data, []byte(p)) }
	at := func(off int, p string) bool { return len(data) >= off+len(p) && string(data[off:off+len(p)]) == p }
	switch {
	case Native(data) != "":
		return Executable, Native(data)
	case has("\x89PNG\r\n\x1a\n"):
		return Image, "PNG"
	case has("\xff\xd8\xff"):
		return Image, "JPEG"
	case has("GIF87a"), has("GIF89a"):
		return Image, "GIF"
	case has("RIFF") && at(8, "WEBP"):
		return Image, "WebP"
	case has("RIFF") && (at(8, "WAVE") || at(8, "AVI ")):
		return Media, "RIFF " + string(data[8:12])
	case has("BM") && len(data) >= 26 && binary.LittleEndian.Uint32(data[14:]) >= 12 && binary.LittleEndian.Uint32(data[14:]) <= 124:
		return Image, "BMP"
	case has("\x00\x00\x01\x00"), has("\x00\x00\x02\x00"):
		return Image, "ICO"
	case has("II*\x00"), has("MM\x00*"):
		return Image, "TIFF"
	case at(4, "ftyp"):
		if at(8, "avif") || at(8, "heic") || at(8, "mif1") {
			return Image, "HEIF"
		}
		return Media, "MP4"
	case has("\x00\x01\x00\x00"), has("OTTO"), has("wOFF"), has("wOF2"):
		return Font, "font"
	case has("OggS"), has("fLaC"), has("ID3"), has("\x1aE\xdf\xa3"), len(data) >= 2 && data[0] == 0xff && data[1]&0xe0 == 0xe0:
		return Media, "audio or video"
	case has("%PDF"):
		return Document, "PDF"
	case has("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
		return Office, "OLE2 compound file"
	case has("PK\x03\x04"), has("PK\x05\x06"):
		return zipKind(data)
	case has("\x1f\x8b"):
		return Archive, "gzip"
	case has("BZh"):
		return Archive, "bzip2"
	case has("\xfd7zXZ\x00"):
		return Archive, "xz"
	case has("7z\xbc\xaf\x27\x1c"):
		return Archive, "7z"
	case has("\x28\xb5\x2f\xfd"):
		return Archive, "zstd"
	case at(257, "ustar"):
		return Archive, "tar"
	case has("\x00asm"):
		return Bytecode, "WebAssembly"
	case has("\xca\xfe\xba\xbe"):
		return Bytecode, "Java class"
	case has("\x1bLua"):
		return Bytecode, "Lua bytecode"
	case len(data) >= 16 && data[2] == '\r' && data[3] == '\n' && data[0] != 0 && bytes.IndexByte(data[4:16], 0) >= 0:
		return Bytecode, "Python bytecode"
	case has("SQLite format 3\x00"):
		return Database, "SQLite"
	}
	return None, ""
}

// zipKind tells an office document from a plain zip archive: OOXML has a
// [Content_Types].xml part, OpenDocument a mimetype one.
func zipKind(data []byte) (Kind, string) {
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err != zip.ErrInsecurePath {
		return Archive, "zip"
	}
	for _, f := range r.File {
		switch f.Name {
		case "[Content_Types].xml":
			return Office, "Office Open XML"
		case "mimetype":
			return Office, "OpenDocument"
		}
	}
	return Archive, "zip"
}

// binaryMagic are the leading bytes of common binary formats.
var binaryMagic = [][]byte{
	[]byte("\x7fELF"), []byte("MZ"), []byte("\xfe\xed\xfa\xce"), []byte("\xfe\xed\xfa\xcf"), []byte("\xce\xfa\xed\xfe"),
	[]byte("\xcf\xfa\xed\xfe"), []byte("\xca\xfe\xba\xbe"), []byte("\x89PNG"), []byte("GIF8"), []byte("\xff\xd8\xff"),
	[]byte("%PDF"), []byte("PK\x03\x04"), []byte("\x00asm"), []byte("RIFF"), []byte("\x1f\x8b"), []byte("BZh"),
	[]byte("\xfd7zXZ"), []byte("7z\xbc\xaf"), []byte("OggS"), []byte("fLaC"), []byte("ID3"), []byte("wOFF"), []byte("wOF2"),
}

// IsBinary reports whether data is a binary file: a known magic number, or
// a NUL byte in its first 8000 bytes (as git decides).
func IsBinary(data []byte) bool {
	for _, m := range binaryMagic {
		if bytes.HasPrefix(data, m) {
			if m[0] == 'M' && m[1] == 'Z' && Native(data) == "" {
				continue // text that starts with "MZ"
			}
			return true
		}
	}
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

// Native names the native executable format of data (ELF, Mach-O, PE),
// or "".
func Native(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(data, []byte("\xfe\xed\xfa\xce")), bytes.HasPrefix(data, []byte("\xfe\xed\xfa\xcf")),
		bytes.HasPrefix(data, []byte("\xce\xfa\xed\xfe")), bytes.HasPrefix(data, []byte("\xcf\xfa\xed\xfe")):
		return "Mach-O"
	case bytes.HasPrefix(data, []byte("\xca\xfe\xba\xbe")) && len(data) >= 8:
		// A universal Mach-O counts its architectures (a few); a Java class
		// file has its version there (45 and up).
		if n := uint32(data[4])<<24 | uint32(data[5])<<16 | uint32(data[6])<<8 | uint32(data[7]); n > 0 && n < 30 {
			return "Mach-O"
		}
	case bytes.HasPrefix(data, []byte("MZ")) && len(data) >= 0x40:
		off := int(data[0x3c]) | int(data[0x3d])<<8 | int(data[0x3e])<<16 | int(data[0x3f])<<24
		if off >= 0x40 && off+4 <= len(data) && string(data[off:off+4]) == "PE\x00\x00" {
			return "PE"
		}
	}
	return ""
}
