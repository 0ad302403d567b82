package build

import (
	"sync"
	"syscall"
	"unsafe"
)

// openHow is struct open_how of openat2(2).
type openHow struct {
	flags, mode, resolve uint64
}

// Resolve flags of openat2(2).
const (
	resolveNoMagiclinks = 0x02
	resolveNoSymlinks   = 0x04
	resolveBeneath      = 0x08
)

// openBeneath opens the path p below the folder dirfd with openat2: no
// component may be a symlink, and the path may not leave the folder.
func openBeneath(dirfd int, p string, flags int) (int, error) {
	if sysOpenat2 == 0 {
		return -1, syscall.ENOSYS
	}
	b, err := syscall.BytePtrFromString(p)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags), resolve: resolveBeneath | resolveNoSymlinks | resolveNoMagiclinks}
	for {
		fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(b)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch errno {
		case 0:
			return int(fd), nil
		case syscall.EINTR, syscall.EAGAIN:
			continue
		}
		return -1, errno
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
