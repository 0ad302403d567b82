package pull

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the names a and b in the folder dir in one step
// (renameat2 RENAME_EXCHANGE). File systems that cannot do it give
// errNoExchange.
func exchange(dir *os.File, a, b string) error {
	fd := int(dir.Fd())
	err := unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
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
