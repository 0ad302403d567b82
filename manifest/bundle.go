package manifest

// What an open bundle holds, and the guard every accessor reads its
// metadata under (access): the files that read its sections (blobs.go,
// skillindex.go, fs.go, signatures.go) use this one, and reader.go opens it.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
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
// reading a blob can still fail if the underlying file changes under it. (A
// bundle from OpenFileUnverified may not have checked its digest yet: see
// Verified.)
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
	uris     string          // every skill's URI, in skill order (checkSkillIndex)
	uriEnd   []int           // uriEnd[i]: where skill i's URI ends in uris
	hidden   []uint64        // bit i set: skill i is hidden
	checked  []atomic.Uint64 // bit i set: blob i (index order) was hashed and matched its digest

	verify    sync.Once // checks the manifest's digest (Verified)
	digestErr error     // its error

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

// dirTree is the folder view of a bundle: every skill's files at their skill
// path, folders implied. A file shared by a skill and a skill nested in it
// appears once.
type dirTree struct {
	files map[string]fileNode
	dirs  map[string][]string // folder → sorted child names
}

type fileNode struct {
	digest Digest
	size   int64
}
