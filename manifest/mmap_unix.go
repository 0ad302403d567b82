//go:build unix

package manifest

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// mapping is a read-only shared memory map of a whole bundle file, with the
// file kept open for Bundle.Changed. Its ReadAt turns a fault (the file was
// truncated under the map) into an error.
type mapping struct {
	data []byte
	f    *os.File
}

func (m *mapping) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 || off > int64(len(m.data)) {
		return 0, fmt.Errorf("read at %d: offset out of range", off)
	}
	if r := catchFault(func() { n = copy(p, m.data[off:]) }); r != nil {
		return 0, fmt.Errorf("read at %d: %s: %v: %w", off, mappedChanged, r, ErrCorrupt)
	}
	if n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (m *mapping) Close() error {
	err := syscall.Munmap(m.data)
	if cerr := m.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenFile opens the bundle file at path. On unix the file is memory-mapped
// read-only, so blobs are read without system calls and share the page cache
// across processes. Never modify a served bundle in place: write a new file
// and rename it over the old one (see the package documentation).
func OpenFile(path string) (*Bundle, error) { return openBundleFile(path, true) }

// OpenFileUnverified is OpenFile for a caller with other work to do while
// the manifest is hashed: it checks the rest of the bundle's structure and
// leaves the check of the manifest's digest to Verified, which the caller
// runs on another goroutine. Until Verified returns nil, nothing read from
// the bundle may be served, copied or trusted: read it only to prepare. An
// error in the structure is returned as OpenFile returns it.
func OpenFileUnverified(path string) (*Bundle, error) { return openBundleFile(path, false) }

// openBundleFile is OpenFile; unless wait is set, it returns before the manifest
// digest is checked.
func openBundleFile(path string, wait bool) (*Bundle, error) {
	// O_NONBLOCK: a FIFO in place of the bundle is refused below, not
	// waited on for a writer. It changes nothing for a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open bundle %s: not a regular file", path)
	}
	size := fi.Size()
	if size < blobsStart+trailerSize || size != int64(int(size)) {
		f.Close()
		return nil, corrupt(path, "%d bytes is too short", size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	var b *Bundle
	if err != nil { // a filesystem that cannot map: read through the file
		b, err = openOwned(f, size, path, nil, wait)
	} else {
		// The metadata is checked and read in place: the kernel maps
		// page-cache pages, where a copy would fault in as many fresh pages
		// of heap.
		b, err = openOwned(&mapping{data, f}, size, path, data, wait)
	}
	if err != nil {
		return nil, err
	}
	b.file, b.opened = f, fi
	return b, nil
}
