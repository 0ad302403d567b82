package build

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirTree reads a library folder on disk through directory descriptors.
// Every folder and file is opened relative to a folder's descriptor
// without following a symlink: by one name with O_NOFOLLOW, or, where
// Linux has openat2 (5.6 on), by a path below the folder resolved with
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS. So no symlink is ever followed
// below the root and nothing outside it can be reached, whatever is swapped
// in during the build. That is the guarantee os.Root gives (which also
// follows symlinks that stay inside the root), at a fraction of the system
// calls: os.Root opens every component of a path for each file, and each
// *os.File tries to register with the poller. A file costs openat, fstat,
// one read (two when it grew or the file system reads short) and close; a
// folder openat, two getdents64 and close when it is listed, and nothing
// more, with openat2, when it is not.
type dirTree struct {
	fd      int    // the root folder
	abs     string // its absolute path, for Info and messages
	beneath bool   // openat2 resolves paths below a folder
}

// openDirTree opens the folder root, following a symlink there as os.Root
// does.
func openDirTree(root string) (tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fd, err := openat(unix.AT_FDCWD, abs, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	return &dirTree{fd: fd, abs: abs, beneath: hasOpenat2(fd)}, nil
}

// open opens the folder dir below the root: with openat2 it opens nothing
// until the folder is listed, the folder's files being opened by their
// path from the root.
func (t *dirTree) open(dir string) (folder, error) {
	if !fs.ValidPath(dir) {
		return nil, &fs.PathError{Op: "openat", Path: dir, Err: fs.ErrInvalid}
	}
	if dir == "." {
		return &dirFolder{t: t, fd: t.fd, dir: "."}, nil
	}
	if t.beneath {
		return &dirFolder{t: t, fd: t.fd, rel: dir, dir: dir}, nil
	}
	fd := t.fd
	for _, name := range strings.Split(dir, "/") {
		sub, err := openat(fd, name, dirFlags)
		if fd != t.fd {
			syscall.Close(fd)
		}
		if err != nil {
			return nil, &fs.PathError{Op: "openat", Path: dir, Err: err}
		}
		fd = sub
	}
	return &dirFolder{t: t, fd: fd, owned: true, dir: dir}, nil
}

func (t *dirTree) close() error { return syscall.Close(t.fd) }

// dirFolder is a folder of a dirTree, at dir below the root. It holds its
// own descriptor, or, with openat2, that of a folder above it and the path
// from there.
type dirFolder struct {
	t     *dirTree
	fd    int    // this folder when rel is "", else a folder above it
	rel   string // the path from fd to this folder, or ""
	owned bool   // fd is closed with the folder
	dir   string
}

// openat opens name relative to the folder dirfd, retrying on EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// openIn opens the entry name of the folder with flags, never following
// a symlink.
func (f *dirFolder) openIn(name string, flags int) (int, error) {
	if f.rel == "" {
		return openat(f.fd, name, flags)
	}
	return openBeneath(f.fd, f.rel+"/"+name, flags)
}

func (f *dirFolder) sub(name string) (folder, error) {
	if f.t.beneath {
		rel := name
		if f.rel != "" {
			rel = f.rel + "/" + name
		}
		return &dirFolder{t: f.t, fd: f.fd, rel: rel, dir: joinName(f.dir, name)}, nil
	}
	fd, err := f.openIn(name, dirFlags)
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: path.Join(f.dir, name), Err: err}
	}
	return &dirFolder{t: f.t, fd: fd, owned: true, dir: joinName(f.dir, name)}, nil
}

func (f *dirFolder) close() {
	if f.owned {
		syscall.Close(f.fd)
		f.owned = false
	}
}

// list reads the folder's entries with getdents64. An entry's type comes
// from the listing; a file system that leaves it out (DT_UNKNOWN) gets an
// lstat.
func (f *dirFolder) list() ([]fs.DirEntry, error) {
	if f.rel != "" {
		// The folder gets a descriptor of its own, kept for its files.
		fd, err := openBeneath(f.fd, f.rel, dirFlags)
		if err != nil {
			return nil, &fs.PathError{Op: "openat", Path: f.dir, Err: err}
		}
		f.fd, f.rel, f.owned = fd, "", true
	}
	var buf [8 << 10]byte
	var ents []dirEntry
	for {
		n, err := syscall.Getdents(f.fd, buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: f.dir, Err: err}
		}
		if n <= 0 {
			break
		}
		// struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, &fs.PathError{Op: "readdirent", Path: f.dir, Err: errors.New("malformed directory entry")}
			}
			name := b[19:reclen]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			typ := b[18]
			b = b[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			ents = append(ents, dirEntry{name: string(name), typ: direntMode(typ), dir: f})
		}
	}
	slices.SortFunc(ents, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	out := make([]fs.DirEntry, len(ents))
	for i := range ents {
		e := &ents[i]
		if e.typ == unknownMode {
			fi, err := os.Lstat(e.path())
			if err != nil {
				return nil, err
			}
			e.typ = fi.Mode().Type()
		}
		out[i] = e
	}
	return out, nil
}

// unknownMode marks an entry whose type the listing did not give.
const unknownMode = fs.ModeIrregular | fs.ModeTemporary

func direntMode(t uint8) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	return unknownMode
}

// dirEntry is an entry of a dirFolder's listing.
type dirEntry struct {
	name string
	typ  fs.FileMode
	dir  *dirFolder
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) path() string {
	return filepath.Join(e.dir.t.abs, filepath.FromSlash(e.dir.dir), e.name)
}

// Info stats the entry afresh, by path.
func (e *dirEntry) Info() (fs.FileInfo, error) { return os.Lstat(e.path()) }

// read opens the file name in the folder without following a symlink and
// without blocking on a FIFO, and reads it whole, into a buffer of getBuf,
// if it is a regular file of at most max bytes. The open by one name under O_NOFOLLOW is what keeps a
// swapped-in symlink out: an entry swapped for another regular file of the
// same folder is read as it is.
func (f *dirFolder) read(name string, _ fs.DirEntry, max int64) ([]byte, error) {
	fd, err := f.openIn(name, fileFlags)
	if err == syscall.ELOOP {
		return nil, errSwapped
	}
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: path.Join(f.dir, name), Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		if err = syscall.Fstat(fd, &st); err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path.Join(f.dir, name), Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, errNotRegular
	}
	size := int64(st.Size)
	if size > max {
		return nil, errTooLarge
	}
	// Room for one byte more than fstat said, to see a file that grew.
	data := getBuf(int(size) + 1)
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			putBuf(data)
			return nil, &fs.PathError{Op: "read", Path: path.Join(f.dir, name), Err: err}
		}
		if n == 0 {
			break
		}
		data = data[:len(data)+n]
		if int64(len(data)) > max {
			putBuf(data)
			return nil, errTooLarge
		}
		if int64(len(data)) == size {
			break // all fstat announced: no read for the end of the file
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, len(data))
		}
	}
	return data, nil
}
