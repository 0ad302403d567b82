package oci

// A tree in memory: a ToolHive skill's layer is read into one and built
// through build.Library.FS, nothing written to disk.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

// memFS is a read-only fs.FS of regular files held in memory and the
// folders their paths imply (no empty folder, no other kind of file). It
// implements fs.ReadDirFS, with entries sorted by name, and fs.StatFS;
// every name is checked with fs.ValidPath. Files are added before it is
// read, never after.
type memFS struct {
	files map[string][]byte
	dirs  map[string][]string // folder → the names in it, in the order added
}

func newMemFS() *memFS {
	return &memFS{files: map[string][]byte{}, dirs: map[string][]string{".": nil}}
}

// add adds the file name with data, and the folders its path implies. A
// name that is no valid path, or that is already a file or a folder, or
// under a file, is refused.
func (m *memFS) add(name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("%s: not a valid file path", name)
	}
	if _, ok := m.files[name]; ok {
		return fmt.Errorf("%s: added twice", name)
	}
	if _, ok := m.dirs[name]; ok {
		return fmt.Errorf("%s: already a folder", name)
	}
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		if _, ok := m.files[d]; ok {
			return fmt.Errorf("%s: under the file %s", name, d)
		}
	}
	m.files[name] = data
	for p := name; p != "."; p = path.Dir(p) {
		parent := path.Dir(p)
		_, known := m.dirs[parent]
		m.dirs[parent] = append(m.dirs[parent], path.Base(p))
		if known {
			break // parent's own parents list it already
		}
	}
	return nil
}

// Open implements fs.FS.
func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(data))}, r: bytes.NewReader(data)}, nil
	}
	if _, ok := m.dirs[name]; ok {
		ents, _ := m.ReadDir(name)
		return &memDir{info: memInfo{name: path.Base(name), dir: true}, path: name, ents: ents}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// Stat implements fs.StatFS.
func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	info, err := m.stat(name)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return info, nil
}

func (m *memFS) stat(name string) (memInfo, error) {
	if !fs.ValidPath(name) {
		return memInfo{}, fs.ErrInvalid
	}
	if data, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(data))}, nil
	}
	if _, ok := m.dirs[name]; ok {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return memInfo{}, fs.ErrNotExist
}

// ReadDir implements fs.ReadDirFS: the entries of the folder name, sorted
// by name.
func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	names, ok := m.dirs[name]
	if !ok {
		err := fs.ErrNotExist
		if _, file := m.files[name]; file {
			err = errors.New("not a folder")
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	names = slices.Sorted(slices.Values(names))
	ents := make([]fs.DirEntry, len(names))
	for i, n := range names {
		info, _ := m.stat(path.Join(name, n))
		ents[i] = fs.FileInfoToDirEntry(info)
	}
	return ents, nil
}

// memInfo describes a file or folder of a memFS.
type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}

// memFile is an open file of a memFS.
type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

// ReadAt and Seek implement io.ReaderAt and io.Seeker.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) { return f.r.ReadAt(p, off) }
func (f *memFile) Seek(off int64, whence int) (int64, error) {
	return f.r.Seek(off, whence)
}

// memDir is an open folder of a memFS.
type memDir struct {
	info memInfo
	path string
	ents []fs.DirEntry // those ReadDir has not yet returned
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Close() error               { return nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a folder")}
}

// ReadDir implements fs.ReadDirFile.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		ents := d.ents
		d.ents = nil
		return ents, nil
	}
	if len(d.ents) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.ents))
	ents := d.ents[:n:n]
	d.ents = d.ents[n:]
	return ents, nil
}
