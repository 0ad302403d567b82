//go:build unix

package teamserver

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting: a FIFO opens at once
// (with no writer) instead of blocking until one comes, so that the caller
// can refuse it by its mode.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
