//go:build !unix

package manifest

import (
	"fmt"
	"os"
)

// OpenFile opens the bundle file at path, reading it through the file.
func OpenFile(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	b, err := openOwned(f, fi.Size(), path, nil)
	if err != nil {
		return nil, err
	}
	b.file, b.opened = f, fi
	return b, nil
}
