//go:build !unix

package teamserver

import "os"

// openNoBlock opens path for reading (see openfile_unix.go).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
