package build

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// A zip library is only a transport container: OpenZip validates the whole
// archive and then serves it as an fs.FS, so the scanner treats it exactly like
// a directory. Nothing is extracted to disk.
//
// Invariants of the fs.FS returned by OpenZip:
//   - every entry passed every rule below before OpenZip returned; one bad
//     entry refuses the whole archive;
//   - every name is an fs.ValidPath; directories are implied by the paths;
//   - files report mode 0644 and directories 0755, whatever the archive says;
//   - reading a file yields exactly the bytes that were validated: never more
//     than the validated size, and a SHA-256 mismatch at the end of the file is
//     an error (rule ArchiveRuleChanged).

// Rule names of an ArchiveError. Each names one reason to refuse an archive.
const (
	ArchiveRuleFormat         = "format"           // not a readable zip: bad records, truncated or corrupt data
	ArchiveRuleTooManyEntries = "too-many-entries" // more than ArchiveLimits.MaxEntries entries
	ArchiveRuleZipSlip        = "zip-slip"         // a ".." or empty segment (an absolute path), a drive letter or a backslash
	ArchiveRuleBadName        = "bad-name"         // an empty name, a "." segment, invalid UTF-8, a control character, a segment over 255 bytes
	ArchiveRuleDuplicate      = "duplicate"        // the same name twice, also ignoring case, or a name both file and directory
	ArchiveRuleSymlink        = "symlink"          // a symbolic link entry
	ArchiveRuleNotRegular     = "not-regular"      // a device, pipe, socket, or a directory without a trailing slash
	ArchiveRuleEncrypted      = "encrypted"        // general-purpose flag bit 0 (or bit 6) set
	ArchiveRuleMethod         = "method"           // a compression method other than store (0) or deflate (8)
	ArchiveRuleNestedArchive  = "nested-archive"   // an archive inside the archive, by extension or by content
	ArchiveRuleOverlap        = "overlap"          // two entries share compressed bytes (an overlapping-file bomb)
	ArchiveRuleEntrySize      = "entry-size"       // one entry inflates past ArchiveLimits.MaxEntryBytes
	ArchiveRuleTotalSize      = "total-size"       // all entries together inflate past ArchiveLimits.MaxTotalBytes
	ArchiveRuleDeclaredSize   = "declared-size"    // an entry inflates past the size its central directory declares
	ArchiveRuleRatio          = "ratio"            // an entry above ArchiveLimits.RatioFloor inflates more than MaxRatio:1
	ArchiveRuleChecksum       = "checksum"         // the inflated bytes do not match the entry's CRC-32
	ArchiveRuleChanged        = "changed"          // a file read later differs from what was validated
)

// ArchiveError refuses an archive, or a read from one, and names the rule.
type ArchiveError struct {
	Entry string // the entry name as stored in the archive; empty for the archive as a whole
	Rule  string // one of the ArchiveRule constants
	Err   error  // what was found
}

// Error returns, for example, `archive entry "../x": segment .. is a parent-folder reference (rule zip-slip)`.
func (e *ArchiveError) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("archive: %v (rule %s)", e.Err, e.Rule)
	}
	return fmt.Sprintf("archive entry %q: %v (rule %s)", e.Entry, e.Err, e.Rule)
}

// Unwrap returns e.Err.
func (e *ArchiveError) Unwrap() error { return e.Err }

// ArchiveLimits bounds what OpenZip accepts. A zero or negative field takes
// its DefaultArchiveLimits value.
type ArchiveLimits struct {
	MaxEntries    int   // entries in the central directory, directories included
	MaxEntryBytes int64 // inflated bytes of one entry, counted while inflating
	MaxTotalBytes int64 // inflated bytes of all entries, counted while inflating
	MaxRatio      int   // inflated:compressed ratio allowed for entries above RatioFloor
	RatioFloor    int64 // entries inflating to at most this many bytes skip the ratio rule
}

// DefaultArchiveLimits returns 8192 entries, 64 MiB per entry (the 4 MiB file
// limit × 16), 256 MiB in total, and at most 100:1 for entries above 1 MiB.
func DefaultArchiveLimits() ArchiveLimits {
	return ArchiveLimits{
		MaxEntries:    8192,
		MaxEntryBytes: 64 << 20,
		MaxTotalBytes: 256 << 20,
		MaxRatio:      100,
		RatioFloor:    1 << 20,
	}
}

// WithDefaults returns l with each zero or negative field set to its
// DefaultArchiveLimits value.
func (l ArchiveLimits) WithDefaults() ArchiveLimits {
	d := DefaultArchiveLimits()
	if l.MaxEntries <= 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxEntryBytes <= 0 {
		l.MaxEntryBytes = d.MaxEntryBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = d.MaxRatio
	}
	if l.RatioFloor <= 0 {
		l.RatioFloor = d.RatioFloor
	}
	return l
}

// OpenZip validates the zip archive in r (size bytes) and returns its contents
// as an fs.FS rooted at the archive root. Validation is all or nothing: the
// first entry that breaks a rule refuses the whole archive with an
// *ArchiveError naming the entry and the rule (the ArchiveRule constants).
//
// Every entry is inflated once, through a counter, before OpenZip returns, so
// the size limits hold whatever the central directory declares; the CRC-32 of
// every entry is checked on the way. The returned FS reads from r again on
// each Open, and refuses (rule ArchiveRuleChanged) bytes that differ from the
// ones validated. r must stay open while the FS is in use.
//
// Zip64 archives are read (archive/zip parses them); the limits bound them
// like any other archive.
func OpenZip(r io.ReaderAt, size int64, lim ArchiveLimits) (fs.FS, error) {
	lim = lim.WithDefaults()
	// archive/zip reads every central directory record it finds into memory
	// before a count can be checked, and finds as many as the file holds,
	// whatever the directory's end record says: a file of minimal records
	// costs some 5 times its size in memory. So NewReader reads through a
	// budget of 128 KiB for finding the end records plus 1 KiB per allowed
	// entry, far more than a real archive's directory needs.
	budget := &readBudget{r: r, left: 128<<10 + int64(lim.MaxEntries)<<10}
	zr, err := zip.NewReader(budget, size)
	budget.left = -1 // later reads of entries are not counted
	if errors.Is(err, errDirectoryBudget) {
		return nil, &ArchiveError{Rule: ArchiveRuleTooManyEntries,
			Err: fmt.Errorf("central directory over %d KiB, more than %d entries can need", 128+lim.MaxEntries, lim.MaxEntries)}
	}
	// ErrInsecurePath (GODEBUG zipinsecurepath=0) comes with a usable reader;
	// the name rules below refuse the same names with a precise message.
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return nil, &ArchiveError{Rule: ArchiveRuleFormat, Err: fmt.Errorf("not a readable zip archive: %w", err)}
	}
	zr.RegisterDecompressor(zip.Deflate, newZipFlateReader)
	if len(zr.File) > lim.MaxEntries {
		return nil, &ArchiveError{Rule: ArchiveRuleTooManyEntries,
			Err: fmt.Errorf("%d entries, over the %d limit", len(zr.File), lim.MaxEntries)}
	}
	z := &zipFS{nodes: map[string]*zipNode{".": {name: ".", dir: true, explicit: true}}}
	folds := map[string]string{}
	for _, f := range zr.File {
		if err := z.add(f, folds); err != nil {
			return nil, err
		}
	}
	if err := checkZipRanges(zr.File, size); err != nil {
		return nil, err
	}
	if err := z.inflateAll(lim); err != nil {
		return nil, err
	}
	z.link()
	return z, nil
}

// errDirectoryBudget is the read error of a readBudget that ran out.
var errDirectoryBudget = errors.New("central directory read budget exhausted")

// readBudget passes reads on to r until they total left bytes, then fails
// them with errDirectoryBudget. A negative left counts nothing.
type readBudget struct {
	r    io.ReaderAt
	left int64
}

func (b *readBudget) ReadAt(p []byte, off int64) (int, error) {
	if b.left >= 0 {
		if int64(len(p)) > b.left {
			return 0, errDirectoryBudget
		}
		b.left -= int64(len(p))
	}
	return b.r.ReadAt(p, off)
}

// add checks everything about f that needs no inflating and records it.
func (z *zipFS) add(f *zip.File, folds map[string]string) error {
	name, isDir, rule, err := checkZipName(f.Name)
	if err != nil {
		return &ArchiveError{Entry: f.Name, Rule: rule, Err: err}
	}
	fail := func(rule string, format string, args ...any) error {
		return &ArchiveError{Entry: f.Name, Rule: rule, Err: fmt.Errorf(format, args...)}
	}

	// The Unix file type sits in the top 4 bits of the high 16 external
	// attribute bits; it is checked whatever the creator system claims.
	unixType := (f.ExternalAttrs >> 16) & 0xF000
	mode := f.Mode()
	switch {
	case unixType == 0xA000 || mode&fs.ModeSymlink != 0:
		return fail(ArchiveRuleSymlink, "symbolic link entry")
	case unixType != 0 && unixType != 0x8000 && unixType != 0x4000,
		mode.Type()&^fs.ModeDir != 0:
		return fail(ArchiveRuleNotRegular, "not a regular file or directory (mode %v)", mode)
	case !isDir && (mode.IsDir() || unixType == 0x4000):
		return fail(ArchiveRuleNotRegular, "directory entry without a trailing slash")
	}
	if f.Flags&0x41 != 0 {
		return fail(ArchiveRuleEncrypted, "encrypted entry")
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return fail(ArchiveRuleMethod, "unsupported compression method %d", f.Method)
	}
	if isDir && f.UncompressedSize64 != 0 {
		return fail(ArchiveRuleFormat, "directory entry with %d bytes of data", f.UncompressedSize64)
	}
	if !isDir && IsArchiveName(name) {
		return fail(ArchiveRuleNestedArchive, "is itself an archive; nested archives are not allowed")
	}

	// Every path and each of its parents must be new, ignoring case, and a
	// name is either a file or a directory, never both.
	claim := func(p string) error {
		k := manifest.FoldPath(p)
		if prev, ok := folds[k]; ok && prev != p {
			return fail(ArchiveRuleDuplicate, "collides with %q when case is ignored", prev)
		}
		folds[k] = p
		return nil
	}
	if n, ok := z.nodes[name]; ok {
		switch {
		case n.dir != isDir:
			return fail(ArchiveRuleDuplicate, "%q is both a file and a directory", name)
		case !isDir || n.explicit:
			return fail(ArchiveRuleDuplicate, "duplicate entry")
		}
	}
	if err := claim(name); err != nil {
		return err
	}
	for p := path.Dir(name); p != "."; p = path.Dir(p) {
		if n, ok := z.nodes[p]; ok {
			if !n.dir {
				return fail(ArchiveRuleDuplicate, "%q is both a file and a directory", p)
			}
			break // p's own parents were claimed when p was
		}
		if err := claim(p); err != nil {
			return err
		}
		z.nodes[p] = &zipNode{name: p, dir: true}
	}
	n := z.nodes[name]
	if n == nil {
		n = &zipNode{name: name, dir: isDir}
		z.nodes[name] = n
	}
	n.explicit = true
	n.modTime = f.Modified
	if !isDir {
		n.file = f
		z.files = append(z.files, n)
	}
	return nil
}

// checkZipName validates a raw entry name and returns the fs path it names
// (without the trailing slash of a directory), or the rule it breaks. The
// path rule is manifest.CheckPath, the one pull applies: a path that could
// escape (a ".." segment, a backslash, a drive letter) breaks zip-slip, an
// empty or "." segment or invalid UTF-8 bad-name; a name that breaks the
// rule otherwise (too long, a control character) is kept, for the skill
// reader to withhold its skill as it does from a folder.
func checkZipName(raw string) (name string, isDir bool, rule string, err error) {
	isDir = strings.HasSuffix(raw, "/")
	name = strings.TrimSuffix(raw, "/")
	switch {
	case name == "":
		return "", false, ArchiveRuleBadName, errors.New("empty name")
	case strings.HasPrefix(raw, "/"):
		return "", false, ArchiveRuleZipSlip, errors.New("absolute path")
	}
	// Every segment is checked for an escape, not only the first bad one.
	var bad error
	for seg := range strings.SplitSeq(name, "/") {
		err := manifest.CheckSegment(seg)
		switch {
		case err == nil:
		case errors.Is(err, manifest.ErrPathEscape):
			return "", false, ArchiveRuleZipSlip, fmt.Errorf("segment %s %w", manifest.QuoteName(seg), err)
		case bad == nil:
			bad = fmt.Errorf("segment %s %w", manifest.QuoteName(seg), err)
		}
	}
	// A segment that is too long or holds a control character is no reason
	// to refuse the archive: the skill that holds it is withheld (rule
	// path-invalid), as it is from a folder. An empty or "." segment, or a
	// name that is not UTF-8, is no path of a tree (fs.ValidPath) and
	// refuses the archive.
	if bad != nil && !fs.ValidPath(name) {
		return "", false, ArchiveRuleBadName, bad
	}
	return name, isDir, "", nil
}

// checkZipRanges refuses compressed data that lies outside the archive or
// that two entries share: overlapping entries let a small archive inflate the
// same compressed bytes many times.
func checkZipRanges(files []*zip.File, size int64) error {
	type span struct {
		start, end int64
		name       string
	}
	var spans []span
	for _, f := range files {
		off, err := f.DataOffset()
		if err != nil {
			return &ArchiveError{Entry: f.Name, Rule: ArchiveRuleFormat, Err: fmt.Errorf("bad local header: %w", err)}
		}
		if off < 0 || off > size || f.CompressedSize64 > uint64(size-off) {
			return &ArchiveError{Entry: f.Name, Rule: ArchiveRuleFormat, Err: errors.New("data extends past the end of the archive")}
		}
		if f.CompressedSize64 > 0 {
			spans = append(spans, span{off, off + int64(f.CompressedSize64), f.Name})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return &ArchiveError{Entry: spans[i].name, Rule: ArchiveRuleOverlap,
				Err: fmt.Errorf("data overlaps entry %q", spans[i-1].name)}
		}
	}
	return nil
}

// inflateAll reads every file once, counting, hashing and sniffing it.
func (z *zipFS) inflateAll(lim ArchiveLimits) error {
	var (
		total int64
		buf   = make([]byte, 32<<10)
		head  = &headWriter{max: archiveSniffLen}
		h     = sha256.New()
	)
	for _, n := range z.files {
		f := n.file
		fail := func(rule string, err error) error { return &ArchiveError{Entry: f.Name, Rule: rule, Err: err} }
		rc, err := f.Open()
		if err != nil {
			return fail(ArchiveRuleFormat, err)
		}
		limit := min(lim.MaxEntryBytes, lim.MaxTotalBytes-total)
		h.Reset()
		head.b = head.b[:0]
		got, err := io.CopyBuffer(io.MultiWriter(h, head), io.LimitReader(rc, limit+1), buf)
		rc.Close()
		switch {
		case errors.Is(err, zip.ErrChecksum):
			return fail(ArchiveRuleChecksum, err)
		case errors.Is(err, zip.ErrFormat):
			// While reading, archive/zip reports ErrFormat for data that
			// inflates past the declared uncompressed size.
			return fail(ArchiveRuleDeclaredSize, fmt.Errorf("inflates past its declared %d bytes: %w", f.UncompressedSize64, err))
		case err != nil:
			return fail(ArchiveRuleFormat, fmt.Errorf("inflating: %w", err))
		case got > lim.MaxEntryBytes:
			return fail(ArchiveRuleEntrySize, fmt.Errorf("inflates past the %d byte entry limit", lim.MaxEntryBytes))
		case got > limit:
			return fail(ArchiveRuleTotalSize, fmt.Errorf("archive inflates past the %d byte total limit", lim.MaxTotalBytes))
		case got > lim.RatioFloor && uint64(got) > uint64(lim.MaxRatio)*f.CompressedSize64:
			return fail(ArchiveRuleRatio, fmt.Errorf("%d:1 compression ratio (%d bytes from %d), over the %d:1 limit",
				uint64(got)/max(f.CompressedSize64, 1), got, f.CompressedSize64, lim.MaxRatio))
		}
		if kind := SniffArchive(head.b); kind != "" {
			return fail(ArchiveRuleNestedArchive, fmt.Errorf("content is a %s archive; nested archives are not allowed", kind))
		}
		total += got
		n.size = got
		h.Sum(n.sum[:0])
	}
	return nil
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	b   []byte
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// archiveExts are the file name endings of archives, lowercase.
var archiveExts = []string{
	".zip", ".tar", ".tgz", ".tar.gz", ".gz", ".bz2", ".xz", ".7z", ".rar",
	".jar", ".war", ".ear", ".apk", ".iso", ".dmg", ".cab",
}

// IsArchiveName reports whether the base of name ends, ignoring case, in one
// of the archive extensions .zip .tar .tgz .tar.gz .gz .bz2 .xz .7z .rar .jar
// .war .ear .apk .iso .dmg .cab.
func IsArchiveName(name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	for _, ext := range archiveExts {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return false
}

// archiveSniffLen is how many leading bytes SniffArchive needs to see every
// signature it knows (the ISO 9660 one sits at offset 0x8001).
const archiveSniffLen = 0x8001 + 5

// SniffArchive returns the kind of archive or compressed stream that head,
// the first bytes of a file, starts with ("zip", "gzip", "bzip2", "xz", "7z",
// "rar", "zstd", "cab", "tar", "iso"), or "" when it is none of them. Pass at
// least the first 32774 bytes (or the whole file) to recognise every kind.
func SniffArchive(head []byte) string {
	has := func(off int, sig string) bool {
		return len(head) >= off+len(sig) && string(head[off:off+len(sig)]) == sig
	}
	switch {
	case has(0, "PK\x03\x04"), has(0, "PK\x05\x06"), has(0, "PK\x07\x08"):
		return "zip"
	case has(0, "\x1f\x8b"):
		return "gzip"
	case has(0, "BZh") && len(head) > 3 && '1' <= head[3] && head[3] <= '9' &&
		(has(4, "\x31\x41\x59\x26\x53\x59") || has(4, "\x17\x72\x45\x38\x50\x90")):
		return "bzip2"
	case has(0, "\xfd7zXZ\x00"):
		return "xz"
	case has(0, "7z\xbc\xaf\x27\x1c"):
		return "7z"
	case has(0, "Rar!\x1a\x07"):
		return "rar"
	case has(0, "\x28\xb5\x2f\xfd"):
		return "zstd"
	case has(0, "MSCF\x00\x00\x00\x00"):
		return "cab"
	case has(257, "ustar"):
		return "tar"
	case has(0x8001, "CD001"):
		return "iso"
	}
	return ""
}

// zipFlatePool recycles klauspost flate readers, with their input buffers,
// across entries and archives.
var zipFlatePool sync.Pool

// zipInflater is a flate reader and the buffered input it reads from; the
// buffer is an io.ByteReader, so flate does not allocate its own.
type zipInflater struct {
	br *bufio.Reader
	fr io.ReadCloser
}

// newZipFlateReader is the deflate decompressor registered on every zip.Reader
// that OpenZip opens.
func newZipFlateReader(r io.Reader) io.ReadCloser {
	st, ok := zipFlatePool.Get().(*zipInflater)
	if !ok {
		br := bufio.NewReaderSize(r, 32<<10)
		return &pooledFlateReader{st: &zipInflater{br: br, fr: flate.NewReader(br)}}
	}
	st.br.Reset(r)
	if err := st.fr.(flate.Resetter).Reset(st.br, nil); err != nil {
		st.fr = flate.NewReader(st.br)
	}
	return &pooledFlateReader{st: st}
}

type pooledFlateReader struct{ st *zipInflater }

func (p *pooledFlateReader) Read(b []byte) (int, error) {
	if p.st == nil {
		return 0, errors.New("read of a closed deflate stream")
	}
	return p.st.fr.Read(b)
}

func (p *pooledFlateReader) Close() error {
	if p.st == nil {
		return nil
	}
	err := p.st.fr.Close()
	p.st.br.Reset(nil)
	zipFlatePool.Put(p.st)
	p.st = nil
	return err
}

// zipFS is the validated archive. It implements fs.ReadDirFS, fs.ReadFileFS
// and fs.StatFS.
type zipFS struct {
	nodes map[string]*zipNode // by fs path; "." is the root
	files []*zipNode          // the files, in archive order
}

// zipNode is one file or directory of a zipFS. It is also its own
// fs.FileInfo and fs.DirEntry.
type zipNode struct {
	name     string // fs path, "." for the root
	dir      bool
	explicit bool      // named by an entry, not only implied by a path
	file     *zip.File // nil for a directory
	size     int64     // inflated size, as counted by OpenZip
	sum      [sha256.Size]byte
	modTime  time.Time
	kids     []*zipNode // sorted by name; directories only
}

// link fills in every directory's sorted children.
func (z *zipFS) link() {
	for name, n := range z.nodes {
		if name != "." {
			p := z.nodes[path.Dir(name)]
			p.kids = append(p.kids, n)
		}
	}
	for _, n := range z.nodes {
		slices.SortFunc(n.kids, func(a, b *zipNode) int { return strings.Compare(a.name, b.name) })
	}
}

func (n *zipNode) Name() string       { return path.Base(n.name) }
func (n *zipNode) Size() int64        { return n.size }
func (n *zipNode) ModTime() time.Time { return n.modTime }
func (n *zipNode) IsDir() bool        { return n.dir }
func (n *zipNode) Sys() any           { return nil }
func (n *zipNode) Type() fs.FileMode  { return n.Mode().Type() }
func (n *zipNode) Info() (fs.FileInfo, error) {
	return n, nil
}
func (n *zipNode) Mode() fs.FileMode {
	if n.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}

func (z *zipFS) lookup(op, name string) (*zipNode, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n := z.nodes[name]
	if n == nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return n, nil
}

// Open implements fs.FS.
func (z *zipFS) Open(name string) (fs.File, error) {
	n, err := z.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return &zipDir{node: n}, nil
	}
	rc, err := n.file.Open()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name,
			Err: &ArchiveError{Entry: n.file.Name, Rule: ArchiveRuleChanged, Err: err}}
	}
	return &zipFile{node: n, rc: rc, h: sha256.New()}, nil
}

// Stat implements fs.StatFS.
func (z *zipFS) Stat(name string) (fs.FileInfo, error) {
	n, err := z.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// ReadDir implements fs.ReadDirFS.
func (z *zipFS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := z.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	list := make([]fs.DirEntry, len(n.kids))
	for i, k := range n.kids {
		list[i] = k
	}
	return list, nil
}

// ReadFile implements fs.ReadFileFS; it verifies the file like Open and Read.
func (z *zipFS) ReadFile(name string) ([]byte, error) {
	n, err := z.lookup("readfile", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: errors.New("is a directory")}
	}
	f, err := z.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	b.Grow(int(n.size) + 1)
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// zipFile is an open file. Read serves at most the validated size and checks
// the size and SHA-256 at the end.
type zipFile struct {
	node *zipNode
	rc   io.ReadCloser
	h    hash.Hash
	read int64
	err  error // sticky
}

func (f *zipFile) Stat() (fs.FileInfo, error) { return f.node, nil }

func (f *zipFile) Read(p []byte) (int, error) {
	if f.rc == nil {
		return 0, &fs.PathError{Op: "read", Path: f.node.name, Err: fs.ErrClosed}
	}
	if f.err != nil {
		return 0, f.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	// Ask for at most one byte past the validated size: enough to notice growth.
	if room := f.node.size - f.read + 1; int64(len(p)) > room {
		p = p[:int(room)]
	}
	n, err := f.rc.Read(p)
	f.read += int64(n)
	if f.read > f.node.size {
		n -= int(f.read - f.node.size)
		return n, f.changed(fmt.Errorf("longer than the %d bytes validated", f.node.size))
	}
	f.h.Write(p[:n])
	switch {
	case err == io.EOF:
		if f.read != f.node.size {
			return n, f.changed(fmt.Errorf("%d bytes, not the %d validated", f.read, f.node.size))
		}
		if !bytes.Equal(f.h.Sum(nil), f.node.sum[:]) {
			return n, f.changed(errors.New("content differs from the validated bytes"))
		}
		f.err = io.EOF
		return n, io.EOF
	case err != nil:
		return n, f.changed(err)
	}
	return n, nil
}

func (f *zipFile) changed(err error) error {
	f.err = &fs.PathError{Op: "read", Path: f.node.name,
		Err: &ArchiveError{Entry: f.node.file.Name, Rule: ArchiveRuleChanged, Err: err}}
	return f.err
}

func (f *zipFile) Close() error {
	if f.rc == nil {
		return &fs.PathError{Op: "close", Path: f.node.name, Err: fs.ErrClosed}
	}
	err := f.rc.Close()
	f.rc = nil
	return err
}

// zipDir is an open directory.
type zipDir struct {
	node   *zipNode
	offset int
	closed bool
}

func (d *zipDir) Stat() (fs.FileInfo, error) { return d.node, nil }

func (d *zipDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.node.name, Err: errors.New("is a directory")}
}

func (d *zipDir) Close() error {
	if d.closed {
		return &fs.PathError{Op: "close", Path: d.node.name, Err: fs.ErrClosed}
	}
	d.closed = true
	return nil
}

// ReadDir implements fs.ReadDirFile.
func (d *zipDir) ReadDir(count int) ([]fs.DirEntry, error) {
	if d.closed {
		return nil, &fs.PathError{Op: "readdir", Path: d.node.name, Err: fs.ErrClosed}
	}
	rest := d.node.kids[d.offset:]
	if count > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(count, len(rest))]
	}
	d.offset += len(rest)
	list := make([]fs.DirEntry, len(rest))
	for i, k := range rest {
		list[i] = k
	}
	return list, nil
}
