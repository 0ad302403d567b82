//go:build unix

package pull_test

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}
