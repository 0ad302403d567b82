package build

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// A tree is a library's files as discovery and skill loading see them. Two
// kinds exist: any fs.FS (archives, and folders seen through a Cache), and,
// on Linux, a folder on disk read through directory descriptors (dirTree),
// which costs a few system calls per file instead of a few per path
// component.
type tree interface {
	// open opens the folder dir, a slash-separated path below the root
	// ("." for the root itself) that discovery reached without crossing a
	// symlink.
	open(dir string) (folder, error)
	// close releases the tree; folders opened from it must be closed first.
	close() error
}

// A folder is an open folder of a tree. Its methods take names of entries
// of the folder, never paths.
type folder interface {
	// list returns the folder's entries, sorted by name.
	list() ([]fs.DirEntry, error)
	// sub opens the entry name, which its listing says is a folder. On
	// disk it never follows a symlink swapped in since. The sub-folder may
	// use this folder's descriptor: keep this one open while the other is
	// in use, until it is listed.
	sub(name string) (folder, error)
	// read returns the bytes of the entry name, listed as d, a regular
	// file of at most max bytes: errTooLarge for a bigger one, and an
	// error naming rule symlink when the entry is no longer the file the
	// listing showed.
	read(name string, d fs.DirEntry, max int64) ([]byte, error)
	close()
}

// fsTree is a tree over an fs.FS. realDir says fsys is a folder on disk,
// whose files readFile checks against their listing.
type fsTree struct {
	fsys    fs.FS
	realDir bool
}

func (t *fsTree) open(dir string) (folder, error) { return &fsFolder{t, dir}, nil }

func (t *fsTree) close() error { return nil }

// fsFolder is the folder dir of an fsTree.
type fsFolder struct {
	t   *fsTree
	dir string
}

func (f *fsFolder) list() ([]fs.DirEntry, error) { return fs.ReadDir(f.t.fsys, f.dir) }

func (f *fsFolder) sub(name string) (folder, error) {
	return &fsFolder{f.t, joinName(f.dir, name)}, nil
}

func (f *fsFolder) read(name string, d fs.DirEntry, max int64) ([]byte, error) {
	return readFile(f.t.fsys, f.t.realDir, joinName(f.dir, name), d, max)
}

func (f *fsFolder) close() {}

// joinName is path.Join(dir, name) for a name listed in the folder dir: one
// path element, never "." or "..", so nothing needs cleaning.
func joinName(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

var (
	errTooLarge   = errors.New("file too large")
	errNotRegular = errors.New("not a regular file")
	// errSwapped: the entry is no longer the file its folder listed.
	errSwapped = errors.New("file changed while reading (rule " + RuleSymlink + ")")
)

// readFile reads one regular file, at most max bytes. In a real folder it
// checks, after opening, that the file is still the one the folder listed,
// so a file swapped for a symlink between listing and reading is refused.
func readFile(fsys fs.FS, realDir bool, name string, d fs.DirEntry, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if realDir {
		li, err := d.Info()
		if err != nil || !os.SameFile(li, fi) {
			return nil, errSwapped
		}
	}
	if fi.Size() > max {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errTooLarge
	}
	return data, nil
}
