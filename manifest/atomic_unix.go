//go:build unix

package manifest

import (
	"errors"
	"os"
	"syscall"
)

// createLockedTemp creates a temporary file in dir, as os.CreateTemp does,
// and holds an exclusive flock on it until it is closed. A cleaner may
// remove the file between its creation and the lock; then it tries again.
func createLockedTemp(dir, pattern string) (*os.File, error) {
	for range 8 {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		if err := flock(f, syscall.LOCK_EX); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		if samePath(f) {
			return f, nil
		}
		f.Close() // removed by a cleaner before the lock: not ours to remove
	}
	return nil, errors.New("temporary file removed before it could be locked")
}

// removeIfUnlocked removes the file at p when its flock can be taken: no
// writer holds it, so it is left over by one that was killed.
func removeIfUnlocked(p string) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // in use
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && samePath(f) {
		os.Remove(p)
	}
}

// samePath reports whether f's name still names f.
func samePath(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	li, err := os.Lstat(f.Name())
	return err == nil && os.SameFile(fi, li)
}

func flock(f *os.File, how int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	err = rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), how)
			if ferr != syscall.EINTR {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	return ferr
}
