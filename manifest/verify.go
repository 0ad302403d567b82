package manifest

// Verify: the check of everything Open does not check, the manifest read
// whole and every blob hashed, above the reader and the blob area it uses.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
)

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
