package build

import (
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// openBeneath opens the path p below the folder dirfd with openat2: no
// component may be a symlink, and the path may not leave the folder.
func openBeneath(dirfd int, p string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(dirfd, p, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}

var openat2Probe struct {
	once sync.Once
	ok   bool
}

// hasOpenat2 reports whether openat2 works here: Linux 5.6 or later, and
// no seccomp filter that refuses it. It asks once per process, opening
// "." below the folder dirfd.
func hasOpenat2(dirfd int) bool {
	openat2Probe.once.Do(func() {
		fd, err := openBeneath(dirfd, ".", dirFlags)
		if err == nil {
			syscall.Close(fd)
		}
		openat2Probe.ok = err == nil
	})
	return openat2Probe.ok
}

const (
	dirFlags  = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	fileFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
)
