package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync/atomic"
)

// Open reads a bundle of the given size from r. It checks the header, the
// trailer, the offsets of every section and index entry, the order of both
// indexes and the manifest's digest; it reads the manifest and the indexes
// into memory (one allocation) and leaves the blobs in r, to be read on demand.
// Open parses no JSON: its cost does not grow with the number of skills beyond
// hashing the manifest once.
func Open(r io.ReaderAt, size int64) (*Bundle, error) {
	return open(r, size, readerName, nil, true)
}

// open reads the bundle of the given size from r. When mapped is not nil it
// is the whole file, mapped: the metadata is checked and then read in place.
// Unless wait is set, open returns before the manifest digest is checked
// (see OpenFileUnverified).
func open(r io.ReaderAt, size int64, name string, mapped []byte, wait bool) (*Bundle, error) {
	b := &Bundle{r: r, size: size, name: name, mapped: mapped != nil}
	if err := b.access(func() error { return b.load(mapped, wait) }); err != nil {
		return nil, err
	}
	return b, nil
}

// openOwned is open for a reader the bundle owns: r is closed with the
// bundle, or at once if the bundle does not open.
func openOwned(r interface {
	io.ReaderAt
	io.Closer
}, size int64, name string, mapped []byte, wait bool) (*Bundle, error) {
	b, err := open(r, size, name, mapped, wait)
	if err != nil {
		r.Close()
		return nil, err
	}
	b.closer = r
	return b, nil
}

// load reads and checks the header, the trailer and the metadata; see Open.
// Unless wait is set, it leaves the manifest's digest to Verified, if
// nothing else is wrong: a digest mismatch is the error reported before any
// other found after the trailer.
func (b *Bundle) load(mapped []byte, wait bool) error {
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
	if wait {
		if err := b.Verified(); err != nil {
			return err
		}
	}
	if err := b.loadIndexes(); err != nil {
		if err := b.Verified(); err != nil {
			return err
		}
		return err
	}
	return nil
}

// loadIndexes checks the padding after the manifest, both indexes and the
// signatures, and reads the signatures.
func (b *Bundle) loadIndexes() error {
	t, name := b.t, b.name
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

// Verified checks the manifest's digest, once, and returns its error; a
// second caller waits for the first's check. Open and OpenFile return only
// once it passed, so for their bundles it returns nil at once; for one from
// OpenFileUnverified it is the check that must pass before anything read
// from the bundle is served, made by whichever goroutine first has the time
// to, or needs it. After Close it fails, if it had not been made.
func (b *Bundle) Verified() error {
	b.verify.Do(func() {
		b.digestErr = b.access(func() error {
			if Sum(b.man) != b.t.manifestDigest {
				return corrupt(b.name, "manifest digest mismatch")
			}
			return nil
		})
	})
	return b.digestErr
}

// errClosedUnverified is Verified's error for a bundle closed before it.
var errClosedUnverified = errors.New("bundle closed before its manifest was verified")

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

// Blob checking: Open reads no blob, and the bytes of a bundle file can
// change on disk after it was opened (a file overwritten in place, a bad
// disk). So every read of a blob's bytes (ReadBlob, BlobReader, and the
// fs.FS methods through them) hashes the blob the first time, and refuses it
// if it does not match its digest; the bundle keeps a bit per blob that
// matched, so later reads of it cost nothing. A blob that did not match is
// hashed, and refused, on every read.

// Close releases the file or mapping behind the bundle, if Open did not get
// it from the caller.
func (b *Bundle) Close() error {
	// A check under way reads the mapping: wait for it; one not begun never
	// will.
	b.verify.Do(func() { b.digestErr = fmt.Errorf("bundle %s: %w", b.name, errClosedUnverified) })
	if b.closer != nil {
		return b.closer.Close()
	}
	return nil
}
