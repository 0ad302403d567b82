package manifest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Writer streams a bundle: blobs first, then the manifest, the indexes, the
// signatures and the trailer. It needs no seeking, so it writes as well to a
// pipe or a memory buffer as to a file.
type Writer struct {
	w     flusher
	off   int64
	blobs map[Digest]blobLoc
	order []Digest
	err   error
}

type blobLoc struct{ off, len int64 }

// flusher is what a Writer writes through: a buffer in front of a file or
// stream, or a bytes.Buffer, which needs none.
type flusher interface {
	io.Writer
	Flush() error
}

// inMemory is a bytes.Buffer as a flusher.
type inMemory struct{ *bytes.Buffer }

func (inMemory) Flush() error { return nil }

// NewWriter starts a bundle on w, writing its header. Writes to w are
// buffered unless w is a *bytes.Buffer.
func NewWriter(w io.Writer) *Writer {
	var out flusher
	if b, ok := w.(*bytes.Buffer); ok {
		out = inMemory{b}
	} else {
		out = bufio.NewWriterSize(w, 256<<10)
	}
	bw := &Writer{w: out, blobs: make(map[Digest]blobLoc)}
	var h [blobsStart]byte
	copy(h[:], headerMagic[:])
	binary.LittleEndian.PutUint32(h[8:], formatVersion)
	bw.write(h[:])
	return bw
}

func (bw *Writer) write(p []byte) {
	if bw.err != nil {
		return
	}
	n, err := bw.w.Write(p)
	bw.off += int64(n)
	bw.err = err
}

func (bw *Writer) pad(align int64) {
	var zero [blobAlign]byte
	if r := bw.off % align; r != 0 {
		bw.write(zero[:align-r])
	}
}

// HasBlob reports whether a blob with digest d was already added.
func (bw *Writer) HasBlob(d Digest) bool { _, ok := bw.blobs[d]; return ok }

// AddBlob appends data under its digest d, once: a digest seen before is
// skipped. The caller vouches that d is the digest of data; Finish and every
// reader's Verify check it.
func (bw *Writer) AddBlob(d Digest, data []byte) error {
	if bw.err != nil {
		return bw.err
	}
	if _, ok := bw.blobs[d]; ok {
		return nil
	}
	bw.pad(blobAlign)
	bw.blobs[d] = blobLoc{bw.off, int64(len(data))}
	bw.order = append(bw.order, d)
	bw.write(data)
	return bw.err
}

// Finish writes the manifest, the indexes, sigs and the trailer, and flushes.
// Every resource of m must have had its blob added. It returns the bundle id:
// the digest of the manifest bytes.
func (bw *Writer) Finish(m *Manifest, sigs ...Signature) (Digest, error) {
	if bw.err != nil {
		return Digest{}, bw.err
	}
	if err := Check(m); err != nil {
		return Digest{}, err
	}
	for i := range m.Skills {
		for _, r := range m.Skills[i].Entry.Resources {
			loc, ok := bw.blobs[r.Digest]
			if !ok {
				return Digest{}, fmt.Errorf("bundle: resource %s: no blob %s", r.URI, r.Digest)
			}
			if loc.len != r.Size {
				return Digest{}, fmt.Errorf("bundle: resource %s: size %d, blob has %d", r.URI, r.Size, loc.len)
			}
		}
	}
	mb, err := Marshal(m)
	if err != nil {
		return Digest{}, err
	}
	skidx, err := skillIndex(mb, m)
	if err != nil {
		return Digest{}, err
	}
	var t trailer
	t.blobsOff = blobsStart
	t.blobsLen = bw.off - blobsStart
	bw.pad(blobAlign)
	t.manifestOff, t.manifestLen = bw.off, int64(len(mb))
	bw.write(mb)
	bw.pad(blobAlign)

	t.blobIndexOff, t.blobCount = bw.off, int64(len(bw.order))
	sorted := slices.Clone(bw.order)
	slices.SortFunc(sorted, func(a, b Digest) int { return bytes.Compare(a[:], b[:]) })
	var e [blobIndexEntry]byte
	for _, d := range sorted {
		loc := bw.blobs[d]
		copy(e[:32], d[:])
		binary.LittleEndian.PutUint64(e[32:], uint64(loc.off))
		binary.LittleEndian.PutUint64(e[40:], uint64(loc.len))
		bw.write(e[:])
	}
	t.skillIndexOff, t.skillCount = bw.off, int64(len(m.Skills))
	bw.write(skidx)
	t.sigOff = bw.off
	sa := encodeSignatures(sigs)
	t.sigLen = int64(len(sa))
	bw.write(sa)
	t.fileSize = bw.off + trailerSize
	t.manifestDigest = Sum(mb)
	bw.write(t.encode())
	if bw.err == nil {
		bw.err = bw.w.Flush()
	}
	if bw.err != nil {
		return Digest{}, fmt.Errorf("bundle: write: %w", bw.err)
	}
	bw.err = errors.New("bundle: writer already finished")
	return t.manifestDigest, nil
}

// skillIndex finds each skill's record in the canonical manifest bytes and
// encodes the fixed-width index that lets a reader serve entries unparsed.
func skillIndex(mb []byte, m *Manifest) ([]byte, error) {
	out := make([]byte, 0, skillIndexSize*len(m.Skills))
	pos := bytes.Index(mb, []byte(`"skills":[`))
	if pos < 0 {
		return nil, errors.New("bundle: manifest has no skills array")
	}
	pos += len(`"skills":[`)
	var e [skillIndexSize]byte
	for i := range m.Skills {
		s := &m.Skills[i]
		// Each record sits on its own line: "\n" + record + ("," or "").
		start := pos + 1
		end := bytes.IndexByte(mb[start:], '\n')
		if end < 0 {
			return nil, fmt.Errorf("bundle: skill %s: record not found", s.Entry.URI)
		}
		rec := bytes.TrimSuffix(mb[start:start+end], []byte(","))
		if !bytes.HasPrefix(rec, []byte(recordPrefix+entryPrefix+s.Entry.URI+`"`)) {
			return nil, fmt.Errorf("bundle: skill %s: record does not start with its entry", s.Entry.URI)
		}
		entryLen := objectLen(rec[len(recordPrefix):])
		if entryLen < 0 {
			return nil, fmt.Errorf("bundle: skill %s: entry is not a JSON object", s.Entry.URI)
		}
		var flags uint32
		if s.Hidden {
			flags |= flagHidden
		}
		binary.LittleEndian.PutUint32(e[0:], uint32(start))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(rec)))
		binary.LittleEndian.PutUint32(e[8:], uint32(entryLen))
		binary.LittleEndian.PutUint32(e[12:], uint32(len(s.Entry.URI)))
		binary.LittleEndian.PutUint32(e[16:], flags)
		out = append(out, e[:]...)
		pos = start + end
	}
	return out, nil
}

// objectLen returns the length of the JSON object at the start of b (whose
// strings the encoder has escaped), or -1 if it does not close.
func objectLen(b []byte) int {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// WriteFileAtomic writes a file through write: into a temporary file in the
// target's folder, synced, then renamed over path. On any error the temporary
// file is removed and whatever was at path stays as it was.
//
// A process killed while writing leaves its temporary file behind, so each
// call first removes the temporary files of path that no live writer holds:
// on unix every writer keeps an exclusive flock on its temporary file until
// it is renamed or removed, and a file whose lock can be taken is stale.
// Only names of the form ".<base>.tmp-<digits>" are ever touched.
func WriteFileAtomic(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStaleTemps(dir, base)
	f, err := createLockedTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp) // before Close lets a cleaner take the lock
			f.Close()
		}
	}()
	if err = write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	// Rename while the lock is held, so no cleaner removes a finished file.
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// tempPrefix is the start of the name of every temporary file of base.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// isTempOf reports whether name is a temporary file WriteFileAtomic made for
// base: the prefix, then the digits os.CreateTemp puts in place of "*".
func isTempOf(name, base string) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix(base))
	if !ok || rest == "" {
		return false
	}
	for _, c := range []byte(rest) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveStaleTemps removes from dir the temporary files that killed
// WriteFileAtomic calls left for any file in it, and that no live writer
// holds: for a folder of files named by their content (a cache), where the
// file a killed writer was making may never be written again. Errors are
// ignored, as removeStaleTemps ignores them.
func RemoveStaleTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		i := strings.LastIndex(name, ".tmp-")
		if !e.Type().IsRegular() || i < 2 || name[0] != '.' || !isTempOf(name, name[1:i]) {
			continue
		}
		removeIfUnlocked(filepath.Join(dir, name))
	}
}

// removeStaleTemps removes the temporary files of base in dir that no
// writer holds. Errors are ignored: cleaning up is best effort, and never
// stops a write.
func removeStaleTemps(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !isTempOf(e.Name(), base) {
			continue
		}
		removeIfUnlocked(filepath.Join(dir, e.Name()))
	}
}
