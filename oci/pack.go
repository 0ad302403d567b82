package oci

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/opencontainers/go-digest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// A pack layer (PackType) is a tar archive, gzip-compressed, of
// neighbouring blobs of a bundle, laid out as oras's file store unpacks a
// folder: titled "packs/<hex of its first blob>", annotated with
// AnnotationUnpack "true" and AnnotationDigest (the sha256 of the
// uncompressed tar), holding one regular file "packs/<first hex>/<hex>" per
// blob, in the bundle's order. So `oras pull` leaves every blob of the pack
// as a file named by its sha256, and no two packs of an artifact share a
// folder (a blob is in one pack only).
//
// The bytes are a function of the blobs alone: USTAR headers with mode
// 0644, owner 0, no names of owners, modification time 0; a gzip header
// with no name and time 0; one compression level. The same blobs always
// make the same pack, and so the same digest, which a registry holding it
// does not take again.

// Annotations of oras's file store (oras.land/oras-go/v2/content/file).
const (
	AnnotationUnpack = "io.deis.oras.content.unpack"
	AnnotationDigest = "io.deis.oras.content.digest"
)

// packDir is the folder of the packs' folders.
const packDir = "packs/"

// packLevel is the gzip level of every pack: changing it changes every
// pack's digest, so that a push after the change sends every pack again.
const packLevel = gzip.BestSpeed

// tarBlock is the size of a tar block: a header, and the unit file data
// is padded to.
const tarBlock = 512

// packEntryBytes is what a blob of size n takes in a pack's tar: a header
// block and its data padded to whole blocks.
func packEntryBytes(n int64) int64 { return tarBlock + (n+tarBlock-1)/tarBlock*tarBlock }

// maxPackBytes ends a pack once its tar holds this many bytes.
const maxPackBytes = 4 << 20

// maxPackTar is the largest uncompressed pack accepted: a pack is cut once
// it reaches maxPackBytes, so it holds at most that, one more entry of up
// to a skill's size, and the two zero blocks that end a tar.
const maxPackTar = maxPackBytes + tarBlock + manifest.MaxSkillBytes + tarBlock + 2*tarBlock

// maxPackLayer is the largest pack layer accepted: gzip adds at most some
// five bytes per 32 KiB to what it cannot compress, and a header and
// trailer.
const maxPackLayer = maxPackTar + maxPackTar/4096 + 1024

// packTitle is the title of the pack whose first blob is d.
func packTitle(first manifest.Digest) string { return packDir + first.Hex() }

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, packLevel)
	return w
}}

// packInfo describes a written pack: the digest and size of the layer, and
// the digest of its tar.
type packInfo struct {
	digest digest.Digest
	size   int64
	tar    digest.Digest
}

// writePack writes the pack of blobs (each with its digest) to w, and
// returns what describes it. next returns the blobs one by one, and false
// after the last.
func writePack(w io.Writer, first manifest.Digest, next func() (manifest.Digest, int64, io.Reader, bool, error)) (packInfo, error) {
	lh := sha256.New()
	cw := &countWriter{w: io.MultiWriter(w, lh)}
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(cw)
	th := sha256.New()
	tw := tar.NewWriter(io.MultiWriter(zw, th))
	dir := packTitle(first) + "/"
	for {
		d, size, r, ok, err := next()
		if err != nil {
			return packInfo{}, err
		}
		if !ok {
			break
		}
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     dir + d.Hex(),
			Size:     size,
			Mode:     0o644,
			ModTime:  time.Unix(0, 0),
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return packInfo{}, fmt.Errorf("pack %s: %w", d, err)
		}
		if n, err := io.Copy(tw, r); err != nil || n != size {
			return packInfo{}, fmt.Errorf("pack: blob %s: %d of %d bytes: %v", d, n, size, err)
		}
	}
	if err := tw.Close(); err != nil {
		return packInfo{}, fmt.Errorf("pack: %w", err)
	}
	if err := zw.Close(); err != nil {
		return packInfo{}, fmt.Errorf("pack: %w", err)
	}
	return packInfo{
		digest: digest.NewDigestFromBytes(digest.SHA256, lh.Sum(nil)),
		size:   cw.n,
		tar:    digest.NewDigestFromBytes(digest.SHA256, th.Sum(nil)),
	}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// packBlob is one blob read from a pack, checked against its digest.
type packBlob struct {
	d    manifest.Digest
	data []byte
}

// errPack is wrapped by every refusal of a pack's contents.
var errPack = errors.New("not a pack")

func packErr(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errPack)
}

// readPack reads the pack layer data titled title whose tar hashes to
// tarDigest, strictly: a gzip stream of one tar, of regular files only,
// each named "<title>/<64 lowercase hex>" by the sha256 of its bytes, the
// first named as the title says, none twice, none empty; nothing after the
// tar's end; at most maxPackTar bytes inflated (counted as they are, so a
// small layer that inflates without end is cut short). Every blob is
// checked against its name as it streams.
func readPack(data []byte, title, tarDigest string) ([]packBlob, error) {
	hexFirst, ok := strings.CutPrefix(title, packDir)
	first, err := manifest.ParseDigest("sha256:" + hexFirst)
	if !ok || err != nil {
		return nil, packErr("title %q: want %s<64 hex>", title, packDir)
	}
	wantTar, err := digest.Parse(tarDigest)
	if err != nil || wantTar.Algorithm() != digest.SHA256 {
		return nil, packErr("annotation %s %q: want sha256:<64 hex>", AnnotationDigest, tarDigest)
	}
	br := bytes.NewReader(data)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, packErr("gzip: %v", err)
	}
	zr.Multistream(false)
	lr := &limitReader{r: zr, left: maxPackTar}
	th := sha256.New()
	tr := tar.NewReader(io.TeeReader(lr, th))
	prefix := title + "/"
	var out []packBlob
	seen := map[manifest.Digest]bool{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, packErr("tar: %v", lr.why(err))
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, packErr("%q: type %q: only regular files", hdr.Name, hdr.Typeflag)
		}
		// Only the plain USTAR headers writePack makes: a PAX or GNU header
		// could make a sparse file, whose holes inflate to its full size
		// from no bytes of the stream, past every bound counted on it.
		if hdr.Format != tar.FormatUSTAR || len(hdr.PAXRecords) != 0 {
			return nil, packErr("%q: a %v header: only plain USTAR", hdr.Name, hdr.Format)
		}
		rest, ok := strings.CutPrefix(hdr.Name, prefix)
		d, err := manifest.ParseDigest("sha256:" + rest)
		if !ok || err != nil {
			return nil, packErr("%q: want %s<64 hex>", hdr.Name, prefix)
		}
		if len(out) == 0 && d != first {
			return nil, packErr("%q: the first blob must be %s, as the title says", hdr.Name, first)
		}
		if seen[d] {
			return nil, packErr("%q: twice", hdr.Name)
		}
		seen[d] = true
		if hdr.Size <= 0 || hdr.Size > manifest.MaxSkillBytes {
			return nil, packErr("%q: size %d out of range", hdr.Name, hdr.Size)
		}
		if hdr.Size > lr.left {
			return nil, packErr("%q: %d bytes: the pack inflates past %d bytes", hdr.Name, hdr.Size, int64(maxPackTar))
		}
		b := make([]byte, hdr.Size)
		if _, err := io.ReadFull(tr, b); err != nil {
			return nil, packErr("%q: %v", hdr.Name, lr.why(err))
		}
		if manifest.Sum(b) != d {
			return nil, packErr("%q: bytes do not match the name", hdr.Name)
		}
		out = append(out, packBlob{d, b})
	}
	if len(out) == 0 {
		return nil, packErr("no blobs")
	}
	if n, _ := io.Copy(io.Discard, io.LimitReader(lr, 1)); n != 0 {
		return nil, packErr("data after the end of the tar")
	}
	if lr.over {
		return nil, packErr("inflates past %d bytes", int64(maxPackTar))
	}
	// The whole gzip member, to its trailer (size and CRC checked).
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, packErr("gzip: %v", err)
	}
	if br.Len() != 0 {
		return nil, packErr("data after the gzip stream")
	}
	if got := digest.NewDigest(digest.SHA256, th); got != wantTar {
		return nil, packErr("tar is %s, annotation %s says %s", got, AnnotationDigest, wantTar)
	}
	return out, nil
}

// limitReader reads at most left bytes, and remembers being cut short.
type limitReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a stream that ends here from one that goes on.
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			l.over = true
			return 0, errInflate
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// errInflate is a pack whose tar goes on past maxPackTar.
var errInflate error = inflateError{}

// inflateError is errInflate's type: a value, not an error made at
// package initialisation.
type inflateError struct{}

func (inflateError) Error() string { return fmt.Sprintf("inflates past %d bytes", int64(maxPackTar)) }

// why says why reading stopped: an inflation past the limit, or err.
func (l *limitReader) why(err error) error {
	if l.over {
		return errInflate
	}
	return err
}
