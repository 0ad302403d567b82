package manifest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// TestHeaderPaddingRefused: the 16 KiB after the header's 16 bytes, which
// no digest or signature covers, must be zero, or Open refuses the bundle.
func TestHeaderPaddingRefused(t *testing.T) {
	data, _ := testBundle(t)
	for _, i := range []int{headerSize, 100, blobsStart - 1} {
		mut := bytes.Clone(data)
		mut[i] = 'x'
		_, err := Open(bytes.NewReader(mut), int64(len(mut)))
		var ce *CorruptError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "header padding") {
			t.Errorf("byte %d of the header padding set: Open = %v, want a CorruptError about the header padding", i, err)
		}
		if _, err := OpenFile(writeTemp(t, mut)); err == nil {
			t.Errorf("byte %d of the header padding set: OpenFile accepted", i)
		}
	}
}

// TestBlobPaddingRefused: the alignment padding between blobs must be zero,
// or Verify refuses the bundle.
func TestBlobPaddingRefused(t *testing.T) {
	data, _ := testBundle(t)
	b0, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i := int(b0.t.blobsOff); i < int(b0.t.manifestOff); i++ {
		if !inPadding(b0, i) {
			continue
		}
		found++
		mut := bytes.Clone(data)
		mut[i] = 1
		b, err := Open(bytes.NewReader(mut), int64(len(mut)))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Verify(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "padding") {
			t.Errorf("padding byte %d set: Verify = %v, want an error about the padding", i, err)
		}
	}
	if found == 0 {
		t.Fatal("the test bundle has no padding between blobs")
	}
}

// TestChangedBlobRefused changes one byte of every blob of a bundle file on
// disk, opened memory-mapped and through the file: no read of any blob
// returns bytes (ReadBlob, BlobReader, ReadFile); each is refused with an
// error naming the bundle file and the blob. A blob changed back reads
// again, and a blob read intact once is not hashed again.
func TestChangedBlobRefused(t *testing.T) {
	data, m := testBundle(t)
	for _, how := range []string{"mapped", "file"} {
		t.Run(how, func(t *testing.T) {
			path := writeTemp(t, data)
			var b *Bundle
			if how == "mapped" {
				b, _ = openMapped(t, data)
				path = b.name
			} else {
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if b, err = Open(f, int64(len(data))); err != nil {
					t.Fatal(err)
				}
				b.name = path
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			flip := func(off int64, mask byte) {
				t.Helper()
				var c [1]byte
				c[0] = data[off] ^ mask
				if _, err := f.WriteAt(c[:], off); err != nil {
					t.Fatal(err)
				}
			}
			digests := map[Digest]string{}
			for _, s := range m.Skills {
				for _, r := range s.Entry.Resources {
					digests[r.Digest] = strings.TrimPrefix(r.URI, URIScheme)
				}
			}
			flipped := 0
			for i := range b.NumBlobs() {
				off, n := b.blobAt(i)
				if n > 0 {
					flip(off+n/2, 0x20)
					flipped++
				}
			}
			if flipped != b.NumBlobs() {
				t.Fatalf("flipped %d of %d blobs", flipped, b.NumBlobs())
			}
			refused := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
					t.Errorf("%s of a changed blob: %v, want ErrCorrupt naming %s", what, err, path)
				}
			}
			for d, name := range digests {
				for range 2 { // refused every time, not only the first
					p, err := b.ReadBlob(d)
					refused("ReadBlob", err)
					if p != nil {
						t.Errorf("ReadBlob returned %q", p)
					}
					_, err = b.BlobReader(d)
					refused("BlobReader", err)
					_, err = b.ReadFile(name)
					refused("ReadFile "+name, err)
					if !strings.Contains(err.Error(), d.String()) {
						t.Errorf("error %v does not name the blob %s", err, d)
					}
				}
			}
			// Changed back, every blob reads, and is not hashed again:
			// a later change goes unnoticed (bundles must never be
			// modified in place; see the package documentation).
			for i := range b.NumBlobs() {
				off, n := b.blobAt(i)
				flip(off+n/2, 0)
			}
			for d := range digests {
				if p, err := b.ReadBlob(d); err != nil || Sum(p) != d {
					t.Fatalf("ReadBlob of a restored blob: %v", err)
				}
				r, err := b.BlobReader(d)
				if err != nil {
					t.Fatal(err)
				}
				if p, _ := io.ReadAll(r); Sum(p) != d {
					t.Fatal("BlobReader of a restored blob: wrong bytes")
				}
			}
		})
	}
}

// TestOpenFileUnverified: OpenFileUnverified then Verified refuses what
// OpenFile refuses, with the same error, for every single-byte change after
// the header; only a change to the manifest or its digest is left to
// Verified. A bundle closed before its check fails it, and one closed while
// it runs waits for it.
func TestOpenFileUnverified(t *testing.T) {
	data, _ := testBundle(t)
	path := writeTemp(t, data)
	b, err := OpenFileUnverified(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Verified(); err != nil {
		t.Fatalf("intact bundle: Verified = %v", err)
	}
	if b.ID() != Sum(data[b.t.manifestOff:b.t.manifestOff+b.t.manifestLen]) {
		t.Fatal("intact bundle: id is not the manifest's digest")
	}
	b.Close()
	b0, _ := Open(bytes.NewReader(data), int64(len(data)))
	deferred := 0
	for i := int(b0.t.blobsOff); i < len(data); i++ {
		mut := bytes.Clone(data)
		mut[i] ^= 0x40
		if err := os.WriteFile(path, mut, 0o644); err != nil {
			t.Fatal(err)
		}
		want := "<nil>"
		if b, err := OpenFile(path); err != nil {
			want = err.Error()
		} else {
			b.Close()
		}
		got := "<nil>"
		b, err := OpenFileUnverified(path)
		if err == nil {
			err = b.Verified()
			if err != nil {
				deferred++
				inManifest := i >= int(b0.t.manifestOff) && i < int(b0.t.manifestOff+b0.t.manifestLen)
				inDigest := i >= len(data)-trailerSize+88 && i < len(data)-8 // the trailer's sha256(manifest)
				if !inManifest && !inDigest {
					t.Errorf("flipped byte %d, outside the manifest and its digest: refused only by Verified: %v", i, err)
				}
			}
			b.Close()
		}
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Fatalf("flipped byte %d: OpenFileUnverified and Verified: %s; OpenFile: %s", i, got, want)
		}
	}
	if deferred == 0 {
		t.Fatal("no change was left to Verified: the manifest digest is checked in OpenFileUnverified")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err = OpenFileUnverified(path)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := b.Verified(); !errors.Is(err, errClosedUnverified) {
		t.Fatalf("Verified after Close = %v, want it failed", err)
	}
	for range 20 {
		b, err := OpenFileUnverified(path)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error)
		go func() { done <- b.Verified() }()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil && !errors.Is(err, errClosedUnverified) {
			t.Fatalf("Verified while closing = %v", err)
		}
	}
}
