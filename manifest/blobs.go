package manifest

// The blob area of an open bundle: blobs found by digest, each read checked
// against its digest once (Verify, in verify.go, checks them all).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
)

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

// NumBlobs returns the number of distinct blobs.
func (b *Bundle) NumBlobs() int { return len(b.blobIdx) / blobIndexEntry }

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

func (b *Bundle) isChecked(i int) bool { return b.checked[i/64].Load()&(1<<(i%64)) != 0 }

func (b *Bundle) setChecked(i int) { b.checked[i/64].Or(1 << (i % 64)) }

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
