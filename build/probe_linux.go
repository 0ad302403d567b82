package build

import "syscall"

// unchanged reports whether the probed path is as the last build saw it. It
// compares the fields of the stat itself (inode, device, size and
// modification time, as sameFile does) and allocates nothing: a rescan of
// an unchanged library is one such stat per folder and file.
func (p *probe) unchanged() bool {
	var st syscall.Stat_t
	var err error
	if p.follow {
		err = syscall.Stat(p.path, &st)
	} else {
		err = syscall.Lstat(p.path, &st)
	}
	if p.old == nil {
		return err == syscall.ENOENT
	}
	if err != nil {
		return false
	}
	old, ok := p.old.Sys().(*syscall.Stat_t) // the listing came from os.Lstat or os.Stat
	if !ok {
		return false
	}
	return st.Ino == old.Ino && st.Dev == old.Dev && st.Size == old.Size && st.Mtim == old.Mtim
}
