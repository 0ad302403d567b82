//go:build !unix

package manifest

import (
	"fmt"
	"io"
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
	return openReader(f, fi.Size(), path)
}

func openReader(f interface {
	io.ReaderAt
	io.Closer
}, size int64, name string) (*Bundle, error) {
	b, err := open(f, size, name, nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	b.closer = f
	return b, nil
}
