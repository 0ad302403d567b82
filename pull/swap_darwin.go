package pull

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the names a and b in the folder dir in one step
// (renameatx_np RENAME_SWAP). File systems that cannot do it give
// errNoExchange.
func exchange(dir *os.File, a, b string) error {
	fd := int(dir.Fd())
	err := unix.RenameatxNp(fd, a, fd, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}

// lockDir takes an exclusive lock on the open folder dir for as long as it
// stays open, and fails at once if another process holds it.
func lockDir(dir *os.File) error {
	err := unix.Flock(int(dir.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
