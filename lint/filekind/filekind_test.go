package filekind

import (
	"archive/zip"
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre/lazyretest"
)

// Real files made by the standard library's encoders.
func encode(t testing.TB, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := w.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[i+1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSniff names the format of real files by their bytes, and the kind
// their names claim.
func TestSniff(t *testing.T) {
	pngFile := encode(t, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
	cases := []struct {
		data []byte
		kind Kind
		name string
	}{
		{pngFile, Image, "PNG"},
		{encode(t, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }), Image, "JPEG"},
		{encode(t, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) }), Image, "GIF"},
		{zipOf(t, "run.sh", "id\n"), Archive, "zip"},
		{zipOf(t, "[Content_Types].xml", "<Types/>"), Office, "Office Open XML"},
		{[]byte("\x7fELF\x02\x01\x01\x00"), Executable, "ELF"},
		{[]byte("\xca\xfe\xba\xbe\x00\x00\x00\x41"), Bytecode, "Java class"},
		{[]byte("\xca\xfe\xba\xbe\x00\x00\x00\x02"), Executable, "Mach-O"},
		{[]byte("#!/bin/sh\necho hi\n"), None, ""},
	}
	for _, c := range cases {
		if k, name := Sniff(c.data); k != c.kind || name != c.name {
			t.Errorf("Sniff(%q) = %v %q, want %v %q", c.data[:min(len(c.data), 8)], k, name, c.kind, c.name)
		}
	}
	if !IsBinary(pngFile) || IsBinary([]byte("MZ is a text that starts so\n")) || !IsBinary([]byte("a\x00b")) {
		t.Error("IsBinary: a PNG, or a NUL byte, is binary; text starting MZ is not")
	}
	for file, want := range map[string]Kind{"a/logo.PNG": Image, "x.py": Text, "lib.go": Text, "blob.bin": None, "Makefile": None} {
		if got := ByName(file); got != want {
			t.Errorf("ByName(%q) = %v, want %v", file, got, want)
		}
	}
	if !IsScriptExt(".sh") || IsScriptExt(".go") || !IsProgramExt(".go") || IsProgramExt(".md") {
		t.Error("IsScriptExt is the --no-scripts list, IsProgramExt every program")
	}
}

// TestChecks: each check reports what a real file hides, and nothing for
// the same file without it.
func TestChecks(t *testing.T) {
	pngFile := encode(t, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
	rels := `<?xml version="1.0"?><Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="https://x.example/t.dotm" TargetMode="External"/></Relationships>`
	link := strings.Replace(rels, "attachedTemplate", "hyperlink", 1)
	for _, c := range []struct {
		what  string
		got   string
		found bool
	}{
		{"a zip after a PNG", Trailer(append(pngFile, zipOf(t, "x.sh", "id\n")...)), true},
		{"a PNG", Trailer(pngFile), false},
		{"a PNG padded with NUL bytes", Trailer(append(pngFile, 0, 0, 0)), false},
		{"a remote template", OfficeActive("r.docx", zipOf(t, "[Content_Types].xml", "<Types/>", "word/_rels/settings.xml.rels", rels)), true},
		{"a hyperlink", OfficeActive("r.docx", zipOf(t, "[Content_Types].xml", "<Types/>", "word/_rels/document.xml.rels", link)), false},
		{"VBA macros", OfficeActive("r.docm", zipOf(t, "[Content_Types].xml", "<Types/>", "word/vbaProject.bin", "x")), true},
		{"Python bytecode", Opaque([]byte("\xcb\r\r\n\x00\x00\x00\x00\x12\x34\x56\x67\x10\x00\x00\x00\xe3")), true},
		{"a PDF with escaped JavaScript", Opaque([]byte("%PDF-1.7\n<< /S /J#61vaScript /JS (x) >>\n")), true},
		{"a plain PDF", Opaque([]byte("%PDF-1.7\n<< /Type /Catalog >>\n")), false},
		{"a PNG", Opaque(pngFile), false},
		{"a zip named .md", Disguised("README.md", zipOf(t, "a.sh", "id\n")), true},
		{"a PNG named .jpg", Disguised("photo.jpg", pngFile), false},
	} {
		if (c.got != "") != c.found {
			t.Errorf("%s: %q, want found %v", c.what, c.got, c.found)
		}
	}
	if got := OfficeActive("r.docx", zipOf(t, "[Content_Types].xml", "<Types/>", "word/_rels/settings.xml.rels", rels)); got != "an external attachedTemplate relationship to https://x.example/t.dotm" {
		t.Errorf("remote template: %q", got)
	}
}

// TestUTF16Text reads UTF-16 with either byte order mark, and refuses a NUL.
func TestUTF16Text(t *testing.T) {
	for _, data := range [][]byte{{0xff, 0xfe, 'h', 0, 'i', 0}, {0xfe, 0xff, 0, 'h', 0, 'i'}} {
		if got, ok := UTF16Text(data); !ok || string(got) != "hi" {
			t.Errorf("UTF16Text(% x) = %q %v", data, got, ok)
		}
	}
	if _, ok := UTF16Text([]byte{0xff, 0xfe, 0, 0, 'i', 0}); ok {
		t.Error("UTF-16 with a NUL read as text")
	}
}

// FuzzKind: no bytes make a check fail, panic or loop.
func FuzzKind(f *testing.F) {
	f.Add("logo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))
	f.Add("r.docx", zipOf(f, "[Content_Types].xml", "<Types/>", "_rels/.rels", "<Relationship TargetMode=\"External\"/>"))
	f.Add("a.gif", []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00"))
	f.Add("a.jpg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\xff\xda\x00\x02\xff"))
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		Sniff(data)
		IsBinary(data)
		ByName(file)
		Opaque(data)
		Trailer(data)
		OfficeActive(file, data)
		Disguised(file, data)
		UTF16Text(data)
	})
}

// TestPatternsCompile compiles every pattern of the package, read from its
// source: they compile on first use.
func TestPatternsCompile(t *testing.T) {
	lazyretest.CheckPackage(t, ".", 4)
}
