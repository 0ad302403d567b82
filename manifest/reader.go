package manifest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrCorrupt is wrapped by every error that reports a bundle whose structure
// or content does not match its own manifest.
var ErrCorrupt = errors.New("bundle is corrupt")

// ErrNotFound is wrapped by lookups of a skill, resource or blob the bundle
// does not hold.
var ErrNotFound = errors.New("not found")

// Bundle is an opened bundle. Open has checked its structure and the digest
// of its manifest, so the accessors below cannot fail on the bundle's layout;
// reading a blob can still fail if the underlying file changes under it.
//
// A bundle opened by OpenFile on unix reads its manifest and indexes straight
// from the memory map, not from a copy: no byte of the metadata leaves the
// map except through an accessor that copies it under a guard (see access).
// If the file is truncated or overwritten in place while mapped, which must
// never be done, an accessor fails cleanly or reports nothing found; it
// never crashes the process.
//
// A Bundle is safe for concurrent use.
type Bundle struct {
	r        io.ReaderAt
	closer   io.Closer
	name     string
	size     int64
	mapped   bool // meta is part of a shared file mapping, not private memory
	fault    atomic.Pointer[error]
	file     *os.File    // the file OpenFile opened, kept open for Changed; nil otherwise
	opened   os.FileInfo // file as it was when opened
	t        trailer
	meta     []byte // manifest, padding, both indexes and signatures
	man      []byte // manifest bytes, a prefix of meta
	blobIdx  []byte
	skillIdx []byte
	sigs     []Signature
	checked  []atomic.Uint64 // bit i set: blob i (index order) was hashed and matched its digest

	treeOnce sync.Once
	tree     *dirTree
	treeErr  error
}

// access runs f, which reads b.meta, and returns its error. For a mapped
// bundle a fault (the file was truncated under the map) or a failed bounds
// check (it was overwritten in place, so its bytes no longer say what Open
// checked) becomes an error instead of a crash. f must only read the bundle,
// and must not let a slice of a mapped b.meta escape (see own).
func (b *Bundle) access(f func() error) (err error) {
	if !b.mapped {
		return f()
	}
	if r := catchFault(func() { err = f() }); r != nil {
		fault := fmt.Errorf("bundle %s: %s: %v: %w", b.name, mappedChanged, r, ErrCorrupt)
		b.fault.CompareAndSwap(nil, &fault)
		return fault
	}
	return err
}

// mappedChanged is what a fault in a mapped bundle means.
const mappedChanged = "the mapped file changed while in use (truncated or overwritten in place: replace a bundle by renaming a new file over it)"

// catchFault runs f with memory faults turned into panics, and returns what
// it recovered, or nil when f returned.
func catchFault(f func()) (r any) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { r = recover() }()
	f()
	return nil
}

// Fault returns the error of the first access that found the mapped file
// changed under the bundle (see access), or nil. An accessor without an
// error result reports such a change as "nothing found" or nil: a caller
// that gets one can ask Fault whether that was the reason.
func (b *Bundle) Fault() error {
	if p := b.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// own returns p, a slice of b.meta, as bytes the caller may keep: p itself
// for a bundle held in memory, a copy for a mapped one. Call it inside access.
func (b *Bundle) own(p []byte) []byte {
	if b.mapped {
		return bytes.Clone(p)
	}
	return p
}

// CorruptError reports a bundle file whose bytes do not say what the format
// requires: truncated, damaged or changed. It wraps ErrCorrupt.
type CorruptError struct {
	Bundle string // the bundle's file name, as given to OpenFile
	Reason string // what is wrong, without the file name
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("bundle %s: %s: %v", e.Bundle, e.Reason, ErrCorrupt)
}

// Unwrap returns ErrCorrupt.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

func corrupt(name, format string, args ...any) error {
	return &CorruptError{Bundle: name, Reason: fmt.Sprintf(format, args...)}
}

// Open reads a bundle of the given size from r. It checks the header, the
// trailer, the offsets of every section and index entry, the order of both
// indexes and the manifest's digest; it reads the manifest and the indexes
// into memory (one allocation) and leaves the blobs in r, to be read on demand.
// Open parses no JSON: its cost does not grow with the number of skills beyond
// hashing the manifest once.
func Open(r io.ReaderAt, size int64) (*Bundle, error) {
	return open(r, size, readerName, nil)
}

// open reads the bundle of the given size from r. When mapped is not nil it
// is the whole file, mapped: the metadata is checked and then read in place.
func open(r io.ReaderAt, size int64, name string, mapped []byte) (*Bundle, error) {
	b := &Bundle{r: r, size: size, name: name, mapped: mapped != nil}
	if err := b.access(func() error { return b.load(mapped) }); err != nil {
		return nil, err
	}
	return b, nil
}

// openOwned is open for a reader the bundle owns: r is closed with the
// bundle, or at once if the bundle does not open.
func openOwned(r interface {
	io.ReaderAt
	io.Closer
}, size int64, name string, mapped []byte) (*Bundle, error) {
	b, err := open(r, size, name, mapped)
	if err != nil {
		r.Close()
		return nil, err
	}
	b.closer = r
	return b, nil
}

// load reads and checks the header, the trailer and the metadata; see Open.
func (b *Bundle) load(mapped []byte) error {
	r, size, name := b.r, b.size, b.name
	if size < blobsStart+trailerSize {
		return corrupt(name, "%d bytes is too short", size)
	}
	var head [blobsStart]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("bundle %s: read header: %w", name, err)
	}
	if !bytes.Equal(head[:8], headerMagic[:]) {
		return corrupt(name, "not a skills bundle (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != formatVersion {
		return fmt.Errorf("bundle %s: format version %d is not supported (want %d)", name, v, formatVersion)
	}
	if f := binary.LittleEndian.Uint32(head[12:]); f != 0 {
		return fmt.Errorf("bundle %s: unknown header flags %#x", name, f)
	}
	// No digest or signature covers the header's padding: it must be zero,
	// so that a verified, signed bundle carries nothing it does not vouch for.
	if !zeros(head[headerSize:]) {
		return corrupt(name, "non-zero header padding")
	}
	var tb [trailerSize]byte
	if _, err := r.ReadAt(tb[:], size-trailerSize); err != nil {
		return fmt.Errorf("bundle %s: read trailer: %w", name, err)
	}
	if !bytes.Equal(tb[trailerSize-8:], trailerMagic[:]) {
		return corrupt(name, "bad trailer (truncated or not a bundle)")
	}
	t := decodeTrailer(tb[:])
	if err := t.check(size); err != nil {
		return corrupt(name, "%v", err)
	}
	b.t = t
	if mapped != nil {
		b.meta = mapped[t.manifestOff : t.sigOff+t.sigLen : t.sigOff+t.sigLen]
		prefault(mapped, t.manifestOff)
	} else {
		b.meta = make([]byte, t.sigOff+t.sigLen-t.manifestOff)
		if _, err := r.ReadAt(b.meta, t.manifestOff); err != nil {
			return fmt.Errorf("bundle %s: read manifest: %w", name, err)
		}
	}
	b.man = b.meta[:t.manifestLen]
	if Sum(b.man) != t.manifestDigest {
		return corrupt(name, "manifest digest mismatch")
	}
	if !zeros(b.meta[t.manifestLen : t.blobIndexOff-t.manifestOff]) {
		return corrupt(name, "non-zero padding after manifest")
	}
	b.blobIdx = b.meta[t.blobIndexOff-t.manifestOff : t.skillIndexOff-t.manifestOff]
	b.checked = make([]atomic.Uint64, (b.NumBlobs()+63)/64)
	b.skillIdx = b.meta[t.skillIndexOff-t.manifestOff : t.sigOff-t.manifestOff]
	if err := b.checkBlobIndex(); err != nil {
		return err
	}
	if err := b.checkSkillIndex(); err != nil {
		return err
	}
	sigs, err := decodeSignatures(b.meta[t.sigOff-t.manifestOff:])
	if err != nil {
		return corrupt(name, "%v", err)
	}
	b.sigs = sigs
	return nil
}

func align8(n int64) int64 { return (n + 7) &^ 7 }

// zeros reports whether p is all zero bytes: the one rule for every padding
// of the format, which no digest covers.
func zeros(p []byte) bool {
	for _, c := range p {
		if c != 0 {
			return false
		}
	}
	return true
}

// check verifies that the sections follow one another exactly as a Writer
// lays them out, without overflow.
func (t *trailer) check(size int64) error {
	switch {
	case t.fileSize != size:
		return fmt.Errorf("trailer says %d bytes, file has %d", t.fileSize, size)
	case t.blobsOff != blobsStart:
		return fmt.Errorf("blob area at %d, want %d", t.blobsOff, blobsStart)
	case t.blobsLen < 0 || t.blobsLen > size:
		return errors.New("blob area length out of range")
	case t.manifestOff != align8(t.blobsOff+t.blobsLen):
		return errors.New("manifest offset out of place")
	case t.manifestLen <= 0 || t.manifestLen > size || t.manifestLen > math.MaxUint32:
		return errors.New("manifest length out of range")
	case t.blobIndexOff != align8(t.manifestOff+t.manifestLen):
		return errors.New("blob index offset out of place")
	case t.blobCount < 0 || t.blobCount > size/blobIndexEntry:
		return errors.New("blob count out of range")
	case t.skillIndexOff != t.blobIndexOff+t.blobCount*blobIndexEntry:
		return errors.New("skill index offset out of place")
	case t.skillCount < 0 || t.skillCount > size/skillIndexSize:
		return errors.New("skill count out of range")
	case t.sigOff != t.skillIndexOff+t.skillCount*skillIndexSize:
		return errors.New("signature area offset out of place")
	case t.sigLen < 0 || t.sigOff+t.sigLen != size-trailerSize:
		return errors.New("signature area length out of place")
	}
	return nil
}

func (b *Bundle) checkBlobIndex() error {
	end := b.t.blobsOff + b.t.blobsLen
	for i := 0; i < len(b.blobIdx); i += blobIndexEntry {
		e := b.blobIdx[i : i+blobIndexEntry]
		if i > 0 && bytes.Compare(b.blobIdx[i-blobIndexEntry:i-blobIndexEntry+32], e[:32]) >= 0 {
			return corrupt(b.name, "blob index not sorted")
		}
		off := int64(binary.LittleEndian.Uint64(e[32:]))
		n := int64(binary.LittleEndian.Uint64(e[40:]))
		if off < b.t.blobsOff || off%blobAlign != 0 || n < 0 || n > end-off {
			return corrupt(b.name, "blob %x out of range", e[:8])
		}
	}
	return nil
}

type skillRec struct {
	off, len, entryLen, uriLen int
	flags                      uint32
}

func (b *Bundle) rec(i int) skillRec {
	e := b.skillIdx[i*skillIndexSize:]
	u := func(k int) uint32 { return binary.LittleEndian.Uint32(e[4*k:]) }
	return skillRec{int(u(0)), int(u(1)), int(u(2)), int(u(3)), u(4)}
}

func (b *Bundle) checkSkillIndex() error {
	var prev []byte
	for i := 0; i < b.NumSkills(); i++ {
		r := b.rec(i)
		if binary.LittleEndian.Uint32(b.skillIdx[i*skillIndexSize+20:]) != 0 || r.flags&^flagHidden != 0 {
			return corrupt(b.name, "skill %d: unknown index flags", i)
		}
		if r.off < 0 || r.len < 0 || r.off > len(b.man) || r.len > len(b.man)-r.off ||
			r.entryLen < len(entryPrefix)+len(SkillFile)+2 || r.entryLen > r.len-len(recordPrefix)-1 ||
			r.uriLen <= 0 || r.uriLen > r.entryLen-len(entryPrefix)-2 {
			return corrupt(b.name, "skill %d: index entry out of range", i)
		}
		rec := b.man[r.off : r.off+r.len]
		if !bytes.HasPrefix(rec, []byte(recordPrefix+entryPrefix)) || rec[len(recordPrefix)+len(entryPrefix)+r.uriLen] != '"' ||
			rec[len(recordPrefix)+r.entryLen-1] != '}' || rec[r.len-1] != '}' {
			return corrupt(b.name, "skill %d: index does not match the manifest", i)
		}
		uri := b.uri(i)
		if bytes.IndexByte(uri, '\\') >= 0 || !bytes.HasSuffix(uri, []byte("/"+SkillFile)) {
			return corrupt(b.name, "skill %d: bad uri", i)
		}
		if i > 0 && bytes.Compare(prev, uri) >= 0 {
			return corrupt(b.name, "skill index not sorted")
		}
		prev = uri
	}
	return nil
}

func (b *Bundle) uri(i int) []byte {
	r := b.rec(i)
	s := r.off + len(recordPrefix) + len(entryPrefix)
	return b.man[s : s+r.uriLen]
}

// ID returns the bundle's identity: the digest of its manifest bytes.
func (b *Bundle) ID() Digest { return b.t.manifestDigest }

// Size returns the size of the bundle in bytes.
func (b *Bundle) Size() int64 { return b.size }

// readerName stands in errors for the file name of a bundle opened with Open.
const readerName = "<reader>"

// Name returns the path the bundle was opened from with OpenFile, or "" for
// one opened with Open.
func (b *Bundle) Name() string {
	if b.name == readerName {
		return ""
	}
	return b.name
}

// ManifestBytes returns the exact manifest bytes: what signatures cover. The
// caller must not modify them. For a mapped bundle they are a copy, hashed
// again, so they always match the bundle id.
func (b *Bundle) ManifestBytes() (p []byte, err error) {
	err = b.access(func() error {
		if p = b.own(b.man); b.mapped && Sum(p) != b.t.manifestDigest {
			return corrupt(b.name, "the mapped file changed while in use: manifest digest mismatch")
		}
		return nil
	})
	return p, err
}

// ManifestReader returns a reader over the manifest bytes, for a caller that
// needs only part of a large manifest. For a mapped bundle it copies them as
// it goes and hashes them again: reading to the end fails if they no longer
// match the bundle id.
func (b *Bundle) ManifestReader() io.Reader {
	if b.mapped {
		return &checkedReader{r: io.NewSectionReader(b.r, b.t.manifestOff, b.t.manifestLen), h: NewHash(), b: b}
	}
	return bytes.NewReader(b.man)
}

// checkedReader reads a mapped manifest and checks its digest at the end.
type checkedReader struct {
	r io.Reader
	h hash.Hash
	b *Bundle
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.h.Write(p[:n])
	if err == io.EOF && DigestOf(c.h) != c.b.t.manifestDigest {
		err = corrupt(c.b.name, "the mapped file changed while in use: manifest digest mismatch")
	}
	return n, err
}

// Manifest parses the whole manifest, checking that it is canonical.
func (b *Bundle) Manifest() (m *Manifest, err error) {
	err = b.access(func() (err error) { m, err = Parse(b.man); return err })
	if err != nil && !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("bundle %s: %w: %w", b.name, err, ErrCorrupt)
	}
	return m, err
}

// Signatures returns the signatures stored in the bundle, outside the manifest.
func (b *Bundle) Signatures() []Signature { return b.sigs }

// NumSkills returns the number of skills, hidden ones included.
func (b *Bundle) NumSkills() int { return len(b.skillIdx) / skillIndexSize }

// NumBlobs returns the number of distinct blobs.
func (b *Bundle) NumBlobs() int { return len(b.blobIdx) / blobIndexEntry }

// SkillURI returns the URI of skill i's SKILL.md, or "" if a mapped file
// changed under the bundle. Skills are numbered in bytewise URI order, from 0
// to NumSkills()-1.
func (b *Bundle) SkillURI(i int) (uri string) {
	b.access(func() error { uri = string(b.uri(i)); return nil })
	return uri
}

// Hidden reports whether skill i is hidden (disable-model-invocation).
func (b *Bundle) Hidden(i int) (hidden bool) {
	b.access(func() error { hidden = b.rec(i).flags&flagHidden != 0; return nil })
	return hidden
}

// EntryJSON returns skill i's SEP-2640 entry exactly as it goes on the wire,
// without parsing it. It fails only if a mapped file changed under the
// bundle. The caller must not modify the bytes.
func (b *Bundle) EntryJSON(i int) (p []byte, err error) {
	err = b.access(func() error {
		r := b.rec(i)
		s := r.off + len(recordPrefix)
		p = b.own(b.man[s : s+r.entryLen])
		return nil
	})
	return p, err
}

// EntriesContaining returns, in order, the numbers of the skills whose
// entry (EntryJSON) holds sub, reading a mapped file in place: a cheap test
// before decoding entries. It returns nil if a mapped file changed under
// the bundle (see Fault).
func (b *Bundle) EntriesContaining(sub []byte) (idx []int) {
	err := b.access(func() error {
		for i := range b.NumSkills() {
			r := b.rec(i)
			s := r.off + len(recordPrefix)
			if bytes.Contains(b.man[s:s+r.entryLen], sub) {
				idx = append(idx, i)
			}
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return idx
}

// Skill parses and returns skill i's full record.
func (b *Bundle) Skill(i int) (s *Skill, err error) {
	err = b.access(func() error {
		r := b.rec(i)
		s = new(Skill)
		dec := json.NewDecoder(bytes.NewReader(b.man[r.off : r.off+r.len]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(s); err != nil {
			return corrupt(b.name, "skill %s: %v", b.uri(i), err)
		}
		if s.Entry.URI != string(b.uri(i)) || len(s.Files) != len(s.Entry.Resources) || len(s.Files) == 0 {
			return corrupt(b.name, "skill %s: record does not match its index", b.uri(i))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// FindSkill returns the number of the skill whose SKILL.md has the given URI.
// It finds nothing if a mapped file changed under the bundle.
func (b *Bundle) FindSkill(uri string) (i int, ok bool) {
	b.access(func() error { i, ok = b.findSkill(uri); return nil })
	return i, ok
}

func (b *Bundle) findSkill(uri string) (int, bool) {
	n := b.NumSkills()
	i := sort.Search(n, func(i int) bool { return string(b.uri(i)) >= uri })
	return i, i < n && string(b.uri(i)) == uri
}

// SkillFor returns the innermost skill whose folder holds the resource or
// folder uri: the skill with the longest root that is a prefix of uri.
func (b *Bundle) SkillFor(uri string) (i int, ok bool) {
	if !strings.HasPrefix(uri, URIScheme) {
		return 0, false
	}
	b.access(func() error {
		for p := uri; len(p) > len(URIScheme); {
			if i, ok = b.findSkill(p + "/" + SkillFile); ok {
				return nil
			}
			j := strings.LastIndexByte(p, '/')
			if j < len(URIScheme) {
				break
			}
			p = p[:j]
		}
		return nil
	})
	return i, ok
}

// findBlob looks d up in the blob index and returns its number in the
// index, offset and size. Call it inside access.
func (b *Bundle) findBlob(d Digest) (i int, off, n int64, ok bool) {
	cnt := b.NumBlobs()
	i = sort.Search(cnt, func(i int) bool {
		return bytes.Compare(b.blobIdx[i*blobIndexEntry:i*blobIndexEntry+32], d[:]) >= 0
	})
	if i == cnt || !bytes.Equal(b.blobIdx[i*blobIndexEntry:i*blobIndexEntry+32], d[:]) {
		return 0, 0, 0, false
	}
	off, n = b.blobAt(i)
	return i, off, n, true
}

// blobAt returns the offset and size of blob i of the index. Call it inside
// access.
func (b *Bundle) blobAt(i int) (off, n int64) {
	e := b.blobIdx[i*blobIndexEntry:]
	return int64(binary.LittleEndian.Uint64(e[32:])), int64(binary.LittleEndian.Uint64(e[40:]))
}

// HasBlob reports whether the bundle holds a blob with digest d.
func (b *Bundle) HasBlob(d Digest) (ok bool) {
	b.access(func() error { _, _, _, ok = b.findBlob(d); return nil })
	return ok
}

// blob returns the number in the index, offset and size of the blob with
// digest d.
func (b *Bundle) blob(d Digest) (i int, off, n int64, err error) {
	var ok bool
	if err := b.access(func() error { i, off, n, ok = b.findBlob(d); return nil }); err != nil {
		return 0, 0, 0, err
	}
	if !ok {
		return 0, 0, 0, fmt.Errorf("bundle %s: blob %s: %w", b.name, d, ErrNotFound)
	}
	return i, off, n, nil
}

// Blob checking: Open reads no blob, and the bytes of a bundle file can
// change on disk after it was opened (a file overwritten in place, a bad
// disk). So every read of a blob's bytes (ReadBlob, BlobReader, and the
// fs.FS methods through them) hashes the blob the first time, and refuses it
// if it does not match its digest; the bundle keeps a bit per blob that
// matched, so later reads of it cost nothing. A blob that did not match is
// hashed, and refused, on every read.

func (b *Bundle) isChecked(i int) bool { return b.checked[i/64].Load()&(1<<(i%64)) != 0 }
func (b *Bundle) setChecked(i int)     { b.checked[i/64].Or(1 << (i % 64)) }

// checkBlob checks that p, the bytes just read of blob i, hash to its digest
// d, unless blob i was checked before.
func (b *Bundle) checkBlob(i int, d Digest, p []byte) error {
	if b.isChecked(i) {
		return nil
	}
	if got := Sum(p); got != d {
		return b.blobChanged(d, got)
	}
	b.setChecked(i)
	return nil
}

func (b *Bundle) blobChanged(d, got Digest) error {
	return corrupt(b.name, "blob %s: digest mismatch: its bytes hash to %s (the file changed after it was written)", d, got)
}

// ReadBlob returns a copy of the blob with digest d. The first read of a
// blob hashes it (see checkBlob): bytes that do not match the digest are an
// error wrapping ErrCorrupt, never returned. It fails cleanly, never
// crashes, if the file under a mapped bundle was truncated or overwritten.
func (b *Bundle) ReadBlob(d Digest) ([]byte, error) {
	i, off, n, err := b.blob(d)
	if err != nil {
		return nil, err
	}
	p := make([]byte, n)
	if _, err := b.r.ReadAt(p, off); err != nil {
		return nil, fmt.Errorf("bundle %s: read blob %s: %w", b.name, d, err)
	}
	if err := b.checkBlob(i, d, p); err != nil {
		return nil, err
	}
	return p, nil
}

// BlobReader returns a reader over the blob with digest d, without copying it
// into memory. The first time a blob is asked for it is hashed first (see
// checkBlob), and refused if it does not match its digest.
func (b *Bundle) BlobReader(d Digest) (*io.SectionReader, error) {
	i, off, n, err := b.blob(d)
	if err != nil {
		return nil, err
	}
	sr := io.NewSectionReader(b.r, off, n)
	if !b.isChecked(i) {
		h := NewHash()
		if _, err := io.Copy(h, sr); err != nil {
			return nil, fmt.Errorf("bundle %s: read blob %s: %w", b.name, d, err)
		}
		if got := DigestOf(h); got != d {
			return nil, b.blobChanged(d, got)
		}
		b.setChecked(i)
		sr = io.NewSectionReader(b.r, off, n)
	}
	return sr, nil
}

// VerifyError reports a resource whose blob does not match the manifest.
type VerifyError struct {
	URI  string // the first resource that failed
	Want Digest
	Got  Digest // zero when the blob is missing or unreadable
	Err  error
}

func (e *VerifyError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.URI, e.Err)
	}
	return fmt.Sprintf("%s: digest mismatch: manifest says %s, blob hashes to %s", e.URI, e.Want, e.Got)
}

// Unwrap returns ErrCorrupt, or the underlying read error.
func (e *VerifyError) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return ErrCorrupt
}

// Verify checks everything Open does not: that the manifest is canonical and
// keeps the format's rules, that the skill index matches it, and that every
// blob it names is present, of the right size, and hashes to its digest. It
// returns a *VerifyError for the first resource that fails.
func (b *Bundle) Verify() error {
	m, err := b.Manifest()
	if err != nil {
		return err
	}
	if err := b.access(func() error {
		idx, err := skillIndex(b.man, m)
		if err != nil || !bytes.Equal(idx, b.skillIdx) {
			return corrupt(b.name, "skill index does not match the manifest")
		}
		return nil
	}); err != nil {
		return err
	}
	done := make(map[Digest]bool)
	buf := make([]byte, 256<<10)
	for i := range m.Skills {
		for _, r := range m.Skills[i].Entry.Resources {
			if done[r.Digest] {
				continue
			}
			k, off, n, err := b.blob(r.Digest)
			if errors.Is(err, ErrNotFound) {
				return &VerifyError{URI: r.URI, Want: r.Digest, Err: fmt.Errorf("blob %s missing: %w", r.Digest, ErrCorrupt)}
			}
			if err != nil {
				return &VerifyError{URI: r.URI, Want: r.Digest, Err: err}
			}
			if n != r.Size {
				return &VerifyError{URI: r.URI, Want: r.Digest, Err: fmt.Errorf("blob size %d, manifest says %d: %w", n, r.Size, ErrCorrupt)}
			}
			h := NewHash()
			if _, err := io.CopyBuffer(h, io.NewSectionReader(b.r, off, n), buf); err != nil {
				return &VerifyError{URI: r.URI, Want: r.Digest, Err: err}
			}
			if got := DigestOf(h); got != r.Digest {
				return &VerifyError{URI: r.URI, Want: r.Digest, Got: got}
			}
			b.setChecked(k)
			done[r.Digest] = true
		}
	}
	if len(done) != b.NumBlobs() {
		return corrupt(b.name, "%d blobs stored, %d referenced", b.NumBlobs(), len(done))
	}
	return b.checkBlobArea()
}

// checkBlobArea checks that the blobs follow one another in the file as a
// Writer lays them out, each at the next 8-byte boundary, and that the
// padding between them, which no digest covers, is zero (see zeros).
func (b *Bundle) checkBlobArea() error {
	type span struct{ off, n int64 }
	spans := make([]span, b.NumBlobs())
	if err := b.access(func() error {
		for i := range spans {
			spans[i].off, spans[i].n = b.blobAt(i)
		}
		return nil
	}); err != nil {
		return err
	}
	slices.SortFunc(spans, func(x, y span) int { return cmp.Or(cmp.Compare(x.off, y.off), cmp.Compare(x.n, y.n)) })
	var pad [blobAlign]byte
	gap := func(from, to int64) error {
		if to < from || to-from >= blobAlign {
			return corrupt(b.name, "blob area: %d bytes at %d belong to no blob", to-from, from)
		}
		if _, err := b.r.ReadAt(pad[:to-from], from); err != nil {
			return fmt.Errorf("bundle %s: read blob padding: %w", b.name, err)
		}
		if !zeros(pad[:to-from]) {
			return corrupt(b.name, "blob area: non-zero padding at %d", from)
		}
		return nil
	}
	pos := b.t.blobsOff
	for _, sp := range spans {
		if err := gap(pos, sp.off); err != nil {
			return err
		}
		pos = sp.off + sp.n
	}
	if pos != b.t.blobsOff+b.t.blobsLen {
		return corrupt(b.name, "blob area: ends at %d, the last blob at %d", b.t.blobsOff+b.t.blobsLen, pos)
	}
	return gap(pos, b.t.manifestOff)
}

// Close releases the file or mapping behind the bundle, if Open did not get
// it from the caller.
func (b *Bundle) Close() error {
	if b.closer != nil {
		return b.closer.Close()
	}
	return nil
}

func decodeSignatures(p []byte) ([]Signature, error) {
	if len(p) == 0 {
		return nil, nil
	}
	if len(p) < 8 || binary.LittleEndian.Uint32(p[4:]) != 0 {
		return nil, errors.New("signature area header")
	}
	n := int(binary.LittleEndian.Uint32(p))
	p = p[8:]
	if n == 0 || n > len(p)/8 {
		return nil, errors.New("signature count out of range")
	}
	sigs := make([]Signature, 0, n)
	for range n {
		if len(p) < 8 || binary.LittleEndian.Uint16(p[2:]) != 0 {
			return nil, errors.New("signature header")
		}
		kind := SignatureKind(binary.LittleEndian.Uint16(p))
		l := int(binary.LittleEndian.Uint32(p[4:]))
		padded := (8 + l + 7) &^ 7
		if l < 0 || padded > len(p) || padded < 8 {
			return nil, errors.New("signature length out of range")
		}
		sigs = append(sigs, Signature{Kind: kind, Data: bytes.Clone(p[8 : 8+l])})
		if !zeros(p[8+l : padded]) {
			return nil, errors.New("non-zero signature padding")
		}
		p = p[padded:]
	}
	if len(p) != 0 {
		return nil, errors.New("trailing bytes in signature area")
	}
	return sigs, nil
}

// WriteSigned copies the bundle to w with its signature area replaced by
// sigs. The manifest, and so the bundle id, does not change.
func (b *Bundle) WriteSigned(w io.Writer, sigs []Signature) error {
	if _, err := io.Copy(w, io.NewSectionReader(b.r, 0, b.t.sigOff)); err != nil {
		return fmt.Errorf("bundle %s: copy: %w", b.name, err)
	}
	t := b.t
	sa := encodeSignatures(sigs)
	t.sigLen = int64(len(sa))
	t.fileSize = t.sigOff + t.sigLen + trailerSize
	if _, err := w.Write(append(sa, t.encode()...)); err != nil {
		return fmt.Errorf("bundle %s: write signatures: %w", b.name, err)
	}
	return nil
}
