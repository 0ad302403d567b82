package wellknown

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Artifact returns skill s's artifact: its type, and its bytes (SKILL.md's
// for a skill with no other file, else the archive WriteArchive makes of
// its files). It is the one function that makes artifact bytes.
func Artifact(b *manifest.Bundle, s *manifest.Skill) (typ string, data []byte, err error) {
	res := s.Entry.Resources
	if len(res) == 1 && s.Files[0].Path == manifest.SkillFile {
		data, err := b.ReadBlob(res[0].Digest)
		if err != nil {
			return "", nil, fmt.Errorf("skill %s: %w", s.Entry.URI, err)
		}
		return TypeSkillMD, data, nil
	}
	var buf bytes.Buffer
	if err := WriteArchive(&buf, b, s); err != nil {
		return "", nil, err
	}
	return TypeArchive, buf.Bytes(), nil
}

// gzipPool keeps gzip writers for reuse: each holds about a megabyte of
// compressor state. The level is part of the artifact bytes: changing it
// changes every archive's digest.
var gzipPool = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	return zw
}}

// copyPool keeps the buffers files are copied into the archive through.
var copyPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// WriteArchive writes skill s's files as a gzip'd tar: regular files only,
// at the archive root, in the manifest's order (SKILL.md first), mode 0644,
// owner and group 0 without names, time 0, no gzip name or time. The bytes
// depend only on the files' paths and contents.
func WriteArchive(w io.Writer, b *manifest.Bundle, s *manifest.Skill) error {
	zw := gzipPool.Get().(*gzip.Writer)
	defer gzipPool.Put(zw)
	zw.Reset(w)
	buf := copyPool.Get().(*[]byte)
	defer copyPool.Put(buf)
	tw := tar.NewWriter(zw)
	for j, r := range s.Entry.Resources {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     s.Files[j].Path,
			Mode:     0o644,
			Size:     r.Size,
			ModTime:  time.Unix(0, 0), // every entry's, for archives that depend on the files alone
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("skill %s: archive %s: %w", s.Entry.URI, s.Files[j].Path, err)
		}
		br, err := b.BlobReader(r.Digest)
		if err != nil {
			return fmt.Errorf("skill %s: %s: %w", s.Entry.URI, s.Files[j].Path, err)
		}
		if _, err := io.CopyBuffer(tw, struct{ io.Reader }{br}, *buf); err != nil {
			return fmt.Errorf("skill %s: %s: %w", s.Entry.URI, s.Files[j].Path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("skill %s: archive: %w", s.Entry.URI, err)
	}
	return zw.Close()
}

// Limits bound what Unpack accepts from one archive. A zero field takes
// its default.
type Limits struct {
	Files int   // most regular files; default 4096
	Bytes int64 // most bytes, all files together, counted while inflating; default 256 MiB
}

func (l Limits) withDefaults() Limits {
	if l.Files <= 0 {
		l.Files = 8 * manifest.MaxSkillFiles
	}
	if l.Bytes <= 0 {
		l.Bytes = 16 * manifest.MaxSkillBytes
	}
	return l
}

// Rules an archive or an index breaks, named in a *RuleError.
const (
	RuleSchema      = "index-schema"        // not a v0.2.0 index
	RuleLegacy      = "index-unverified"    // a v0.1.0 index: no digests
	RuleEntry       = "entry-invalid"       // a field of an entry is missing or malformed
	RuleName        = "entry-name"          // a name that breaks the skill-name rule
	RuleDuplicate   = "entry-duplicate"     // two entries with one name
	RuleType        = "entry-type"          // a type this reader does not know
	RuleURL         = "entry-url"           // a URL that is not https (or http on loopback)
	RuleDigest      = "digest-mismatch"     // the artifact's bytes do not hash to the digest
	RuleTooLarge    = "too-large"           // an artifact or archive over a limit
	RuleTraversal   = "zip-slip"            // "..", absolute paths, backslashes, drive letters
	RulePath        = "path-invalid"        // a name that is not valid UTF-8 or holds a control character
	RuleLink        = "archive-link"        // a symbolic or hard link
	RuleIrregular   = "irregular-file"      // a device, FIFO or other non-regular entry
	RuleArchive     = "archive-invalid"     // unreadable, encrypted, or an unknown format
	RuleDuplicatePt = "archive-duplicate"   // one path twice
	RuleNoSkillFile = "archive-no-skill"    // no SKILL.md at the archive root
	RuleMismatch    = "name-mismatch"       // SKILL.md names another skill than the entry
	RuleRedirect    = "redirect-insecure"   // a redirect to plain http
	RuleFetch       = "fetch-failed"        // the artifact could not be downloaded
	RuleFrontmatter = "frontmatter-invalid" // SKILL.md has no readable name and description
)

// RuleError refuses an index, an entry or an archive, and names the rule.
type RuleError struct {
	Rule string
	Msg  string
}

// Error returns the message and the rule, as in "entry 2: … (rule entry-name)".
func (e *RuleError) Error() string { return e.Msg + " (rule " + e.Rule + ")" }

func refuse(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// RuleOf returns the rule an error names, or "".
func RuleOf(err error) string {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return ""
}

// File is one file of a skill read from a site: its path, digest and size,
// and its bytes where they are held in memory (every file Unpack returns;
// only SKILL.md of a Client's Fetched, whose other files Client.Open reads
// from disk).
type File struct {
	Path   string // slash-separated, relative to the skill folder
	Digest manifest.Digest
	Size   int64
	Data   []byte
}

// put receives an archive's regular files one at a time, in archive order:
// name is checked, declared its size as the archive states it, and r yields
// at most that many bytes (fewer, or an error, when the archive lies). put
// must read r to its end.
type put func(name string, declared int64, r io.Reader) error

// Unpack reads a .tar.gz or .zip archive (told apart by their magic bytes)
// into its regular files, in memory (see unpack for the rules).
func Unpack(data []byte, lim Limits) ([]File, error) {
	var files []File
	err := unpack(bytes.NewReader(data), int64(len(data)), lim, func(name string, declared int64, r io.Reader) error {
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		files = append(files, File{Path: name, Digest: manifest.Sum(b), Size: int64(len(b)), Data: b})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// unpack reads the .tar.gz or .zip archive in ra (size bytes) and hands each
// regular file to put, refusing the whole archive, with the rule named, for
// a path that could leave the skill folder, a link, a device or other
// non-regular entry, a path listed twice, more files or bytes than lim
// allows, and an archive without SKILL.md at its root. Sizes are checked
// twice: as declared, before a byte is inflated (a zip's central directory
// as a whole, a tar header as it comes), and as inflated, since declared
// sizes lie. A zip's entry count is read from its end record before its
// directory is, so a directory of millions of entries is never loaded.
// Folder entries are skipped.
func unpack(ra io.ReaderAt, size int64, lim Limits, p put) error {
	lim = lim.withDefaults()
	var magic [4]byte
	n, _ := ra.ReadAt(magic[:], 0)
	seen := map[string]bool{}
	hasSkill := false
	bud := &budget{lim: lim}
	check := func(name string, declared int64, r io.Reader) error {
		k := strings.ToLower(name)
		if seen[k] {
			return refuse(RuleDuplicatePt, "archive entry %q: listed twice (or twice under case folding)", name)
		}
		seen[k] = true
		hasSkill = hasSkill || name == manifest.SkillFile
		return bud.read(name, declared, r, p)
	}
	var err error
	switch {
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		err = unpackTarGz(io.NewSectionReader(ra, 0, size), lim, check)
	case n >= 4 && string(magic[:4]) == "PK\x03\x04":
		err = unpackZip(ra, size, lim, check)
	default:
		return refuse(RuleArchive, "neither a gzip'd tar nor a zip archive")
	}
	if err != nil {
		return err
	}
	if !hasSkill {
		return refuse(RuleNoSkillFile, "archive has no %s at its root", manifest.SkillFile)
	}
	return nil
}

// checkEntryName cleans an archive entry name ("./" prefixes and a folder's
// trailing slash go) and refuses one that could leave the skill folder or is
// no portable name: the path rule of manifest.CheckPath, which build and
// pull apply too.
func checkEntryName(raw string) (string, error) {
	name := raw
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	name = strings.TrimSuffix(name, "/")
	if name == "" || name == "." {
		return "", nil
	}
	if err := manifest.CheckPath(name); err != nil {
		if errors.Is(err, manifest.ErrPathEscape) || strings.HasPrefix(name, "/") {
			return "", refuse(RuleTraversal, "archive entry %s: %v", manifest.QuoteName(raw), err)
		}
		return "", refuse(RulePath, "archive entry %s: %v", manifest.QuoteName(raw), err)
	}
	return name, nil
}

// budget counts files and inflated bytes against the limits.
type budget struct {
	lim   Limits
	files int
	bytes int64
}

// read hands one file to p, after checking its declared size against what
// is left, and counts what p read of it.
func (b *budget) read(name string, declared int64, r io.Reader, p put) error {
	b.files++
	if b.files > b.lim.Files {
		return refuse(RuleTooLarge, "archive holds more than %d files", b.lim.Files)
	}
	left := b.lim.Bytes - b.bytes
	if declared > left {
		return refuse(RuleTooLarge, "archive entry %q: declares %d bytes, more than the %d left of %d", name, declared, left, b.lim.Bytes)
	}
	cr := &countReader{r: io.LimitReader(r, left+1)}
	if err := p(name, declared, cr); err != nil {
		if RuleOf(err) != "" {
			return err
		}
		if cr.n > left {
			return refuse(RuleTooLarge, "archive inflates to more than %d bytes", b.lim.Bytes)
		}
		return refuse(RuleArchive, "archive entry %q: %v", name, err)
	}
	b.bytes += cr.n
	if b.bytes > b.lim.Bytes {
		return refuse(RuleTooLarge, "archive inflates to more than %d bytes", b.lim.Bytes)
	}
	return nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func unpackTarGz(r io.Reader, lim Limits, p put) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return refuse(RuleArchive, "gzip: %v", err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return refuse(RuleArchive, "tar: %v", err)
		}
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeDir:
		case tar.TypeSymlink, tar.TypeLink:
			return refuse(RuleLink, "archive entry %q: a link (to %q)", hdr.Name, hdr.Linkname)
		default:
			return refuse(RuleIrregular, "archive entry %q: not a regular file (type %q)", hdr.Name, hdr.Typeflag)
		}
		name, err := checkEntryName(hdr.Name)
		if err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeDir || name == "" {
			continue
		}
		if hdr.Size > lim.Bytes {
			return refuse(RuleTooLarge, "archive entry %q: %d bytes, more than %d", name, hdr.Size, lim.Bytes)
		}
		if err := p(name, hdr.Size, tr); err != nil {
			return err
		}
	}
	// Trailing garbage after the tar's end is ignored by tar; the gzip
	// stream must still end cleanly, so that its checksum is checked.
	if _, err := io.Copy(io.Discard, io.LimitReader(zr, 1<<20)); err != nil {
		return refuse(RuleArchive, "gzip: %v", err)
	}
	return nil
}

// zipEntries reads the entry count of a zip's end of central directory
// record (or of its zip64 record), without reading the directory.
func zipEntries(ra io.ReaderAt, size int64) (uint64, error) {
	const eocdLen, maxComment = 22, 65535
	tail := min(size, eocdLen+maxComment)
	buf := make([]byte, tail)
	if _, err := ra.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, err
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < eocdLen {
		return 0, errors.New("no end of central directory record")
	}
	n := uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n != 0xffff || i < 20 || string(buf[i-20:i-16]) != "PK\x06\x07" {
		return n, nil
	}
	// zip64: the locator before the record gives the zip64 record's offset.
	off := int64(binary.LittleEndian.Uint64(buf[i-20+8:]))
	var rec [56]byte
	if off < 0 || off > size-56 {
		return 0, errors.New("zip64 record out of range")
	}
	if _, err := ra.ReadAt(rec[:], off); err != nil {
		return 0, err
	}
	if string(rec[:4]) != "PK\x06\x06" {
		return 0, errors.New("no zip64 end of central directory record")
	}
	return binary.LittleEndian.Uint64(rec[32:]), nil
}

func unpackZip(ra io.ReaderAt, size int64, lim Limits, p put) error {
	entries, err := zipEntries(ra, size)
	if err != nil {
		return refuse(RuleArchive, "zip: %v", err)
	}
	if entries > uint64(2*lim.Files) {
		return refuse(RuleTooLarge, "archive holds %d entries, more than %d", entries, 2*lim.Files)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return refuse(RuleArchive, "zip: %v", err)
	}
	if len(zr.File) > 2*lim.Files {
		return refuse(RuleTooLarge, "archive holds %d entries, more than %d", len(zr.File), 2*lim.Files)
	}
	// The declared sizes, all together, before anything is inflated.
	var declared uint64
	for _, f := range zr.File {
		declared += f.UncompressedSize64
		if f.UncompressedSize64 > uint64(lim.Bytes) || declared > uint64(lim.Bytes) {
			return refuse(RuleTooLarge, "archive declares more than %d bytes inflated (entry %q: %d)", lim.Bytes, f.Name, f.UncompressedSize64)
		}
	}
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return refuse(RuleLink, "archive entry %q: a link", f.Name)
		case !mode.IsRegular() && !mode.IsDir():
			return refuse(RuleIrregular, "archive entry %q: not a regular file", f.Name)
		case f.Flags&1 != 0:
			return refuse(RuleArchive, "archive entry %q: encrypted", f.Name)
		case f.Method != zip.Store && f.Method != zip.Deflate:
			return refuse(RuleArchive, "archive entry %q: compression method %d", f.Name, f.Method)
		}
		name, err := checkEntryName(f.Name)
		if err != nil {
			return err
		}
		if mode.IsDir() || name == "" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return refuse(RuleArchive, "archive entry %q: %v", f.Name, err)
		}
		err = p(name, int64(f.UncompressedSize64), rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
