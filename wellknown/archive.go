package wellknown

import (
	"archive/tar"
	"archive/zip"
	"bytes"
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

// epoch is the time of every archive entry.
var epoch = time.Unix(0, 0)

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
			ModTime:  epoch,
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

// File is one file unpacked from an archive.
type File struct {
	Path string // slash-separated, relative to the skill folder
	Data []byte
}

// Unpack reads a .tar.gz or .zip archive (told apart by their magic bytes)
// into its regular files, refusing the whole archive, with the rule named,
// for a path that could leave the skill folder, a link, a device or other
// non-regular entry, a path listed twice, more files or bytes than lim
// allows (counted while inflating: declared sizes lie), and an archive
// without SKILL.md at its root. Folder entries are skipped.
func Unpack(data []byte, lim Limits) ([]File, error) {
	lim = lim.withDefaults()
	var files []File
	var err error
	switch {
	case len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b:
		files, err = unpackTarGz(data, lim)
	case len(data) >= 4 && string(data[:4]) == "PK\x03\x04":
		files, err = unpackZip(data, lim)
	default:
		return nil, refuse(RuleArchive, "neither a gzip'd tar nor a zip archive")
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	hasSkill := false
	for _, f := range files {
		k := strings.ToLower(f.Path)
		if seen[k] {
			return nil, refuse(RuleDuplicatePt, "archive entry %q: listed twice (or twice under case folding)", f.Path)
		}
		seen[k] = true
		hasSkill = hasSkill || f.Path == manifest.SkillFile
	}
	if !hasSkill {
		return nil, refuse(RuleNoSkillFile, "archive has no %s at its root", manifest.SkillFile)
	}
	return files, nil
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

func (b *budget) read(name string, r io.Reader) ([]byte, error) {
	b.files++
	if b.files > b.lim.Files {
		return nil, refuse(RuleTooLarge, "archive holds more than %d files", b.lim.Files)
	}
	left := b.lim.Bytes - b.bytes
	data, err := io.ReadAll(io.LimitReader(r, left+1))
	if err != nil {
		return nil, refuse(RuleArchive, "archive entry %q: %v", name, err)
	}
	b.bytes += int64(len(data))
	if b.bytes > b.lim.Bytes {
		return nil, refuse(RuleTooLarge, "archive inflates to more than %d bytes", b.lim.Bytes)
	}
	return data, nil
}

func unpackTarGz(data []byte, lim Limits) ([]File, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, refuse(RuleArchive, "gzip: %v", err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	bud := &budget{lim: lim}
	var files []File
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, refuse(RuleArchive, "tar: %v", err)
		}
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeDir:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, refuse(RuleLink, "archive entry %q: a link (to %q)", hdr.Name, hdr.Linkname)
		default:
			return nil, refuse(RuleIrregular, "archive entry %q: not a regular file (type %q)", hdr.Name, hdr.Typeflag)
		}
		name, err := checkEntryName(hdr.Name)
		if err != nil {
			return nil, err
		}
		if hdr.Typeflag == tar.TypeDir || name == "" {
			continue
		}
		if hdr.Size > lim.Bytes {
			return nil, refuse(RuleTooLarge, "archive entry %q: %d bytes, more than %d", name, hdr.Size, lim.Bytes)
		}
		b, err := bud.read(name, tr)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: name, Data: b})
	}
	// Trailing garbage after the tar's end is ignored by tar; the gzip
	// stream must still end cleanly, so that its checksum is checked.
	if _, err := io.Copy(io.Discard, io.LimitReader(zr, 1<<20)); err != nil {
		return nil, refuse(RuleArchive, "gzip: %v", err)
	}
	return files, nil
}

func unpackZip(data []byte, lim Limits) ([]File, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refuse(RuleArchive, "zip: %v", err)
	}
	if len(zr.File) > 2*lim.Files {
		return nil, refuse(RuleTooLarge, "archive holds %d entries, more than %d", len(zr.File), 2*lim.Files)
	}
	bud := &budget{lim: lim}
	var files []File
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, refuse(RuleLink, "archive entry %q: a link", f.Name)
		case !mode.IsRegular() && !mode.IsDir():
			return nil, refuse(RuleIrregular, "archive entry %q: not a regular file", f.Name)
		case f.Flags&1 != 0:
			return nil, refuse(RuleArchive, "archive entry %q: encrypted", f.Name)
		case f.Method != zip.Store && f.Method != zip.Deflate:
			return nil, refuse(RuleArchive, "archive entry %q: compression method %d", f.Name, f.Method)
		}
		name, err := checkEntryName(f.Name)
		if err != nil {
			return nil, err
		}
		if mode.IsDir() || name == "" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, refuse(RuleArchive, "archive entry %q: %v", f.Name, err)
		}
		b, err := bud.read(name, rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: name, Data: b})
	}
	return files, nil
}
