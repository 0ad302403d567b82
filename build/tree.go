package build

import "io/fs"

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
