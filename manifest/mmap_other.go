//go:build !unix

package manifest

import (
	"fmt"
	"os"
)

// OpenFile opens the bundle file at path, reading it through the file.
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
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	b, err := openOwned(f, fi.Size(), path, nil, wait)
	if err != nil {
		return nil, err
	}
	b.file, b.opened = f, fi
	return b, nil
}
