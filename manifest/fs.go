package manifest

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

var (
	_ fs.FS         = (*Bundle)(nil)
	_ fs.ReadDirFS  = (*Bundle)(nil)
	_ fs.ReadFileFS = (*Bundle)(nil)
	_ fs.StatFS     = (*Bundle)(nil)
)

func (b *Bundle) buildTree() (*dirTree, error) {
	t := &dirTree{files: make(map[string]fileNode), dirs: make(map[string][]string)}
	children := map[string]map[string]bool{".": {}}
	var addDir func(dir string)
	addDir = func(dir string) {
		if _, ok := children[dir]; ok {
			return
		}
		children[dir] = map[string]bool{}
		parent := path.Dir(dir)
		addDir(parent)
		children[parent][path.Base(dir)] = true
	}
	for i := range b.NumSkills() {
		s, err := b.Skill(i)
		if err != nil {
			return nil, err
		}
		for j, f := range s.Files {
			name := s.Path + "/" + f.Path
			if !fs.ValidPath(name) {
				return nil, corrupt(b.name, "file %q: invalid path", name)
			}
			r := s.Entry.Resources[j]
			if old, ok := t.files[name]; ok && old.digest != r.Digest {
				return nil, corrupt(b.name, "file %q: two digests", name)
			}
			t.files[name] = fileNode{r.Digest, r.Size}
			addDir(path.Dir(name))
			children[path.Dir(name)][path.Base(name)] = true
		}
	}
	for dir, kids := range children {
		names := make([]string, 0, len(kids))
		for k := range kids {
			if _, isFile := t.files[dir+"/"+k]; isFile && dir != "." {
				if _, isDir := children[dir+"/"+k]; isDir {
					return nil, corrupt(b.name, "%s/%s is both a file and a folder", dir, k)
				}
			}
			names = append(names, k)
		}
		slices.Sort(names)
		t.dirs[dir] = names
	}
	return t, nil
}

func (b *Bundle) fsTree() (*dirTree, error) {
	b.treeOnce.Do(func() { b.tree, b.treeErr = b.buildTree() })
	return b.tree, b.treeErr
}

// Open implements fs.FS. Names are skill paths followed by file paths, such
// as "acme/pdf-processing/SKILL.md"; folders are implied by the files.
func (b *Bundle) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	t, err := b.fsTree()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if f, ok := t.files[name]; ok {
		data, err := b.ReadBlob(f.digest)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &openFile{info: fileInfo{name: path.Base(name), size: f.size}, r: bytes.NewReader(data)}, nil
	}
	if _, ok := t.dirs[name]; ok {
		return &openDir{b: b, t: t, name: name, info: fileInfo{name: path.Base(name), dir: true}}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile implements fs.ReadFileFS.
func (b *Bundle) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	t, err := b.fsTree()
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	f, ok := t.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrNotExist}
	}
	data, err := b.ReadBlob(f.digest)
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	return data, nil
}

// ReadDir implements fs.ReadDirFS.
func (b *Bundle) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := b.Open(name)
	if err != nil {
		return nil, err
	}
	d, ok := f.(*openDir)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return d.ReadDir(-1)
}

// Stat implements fs.StatFS.
func (b *Bundle) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	t, err := b.fsTree()
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if f, ok := t.files[name]; ok {
		return fileInfo{name: path.Base(name), size: f.size}, nil
	}
	if _, ok := t.dirs[name]; ok {
		return fileInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (fi fileInfo) Name() string { return fi.name }
func (fi fileInfo) Size() int64  { return fi.size }
func (fi fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (fi fileInfo) ModTime() time.Time         { return time.Time{} }
func (fi fileInfo) IsDir() bool                { return fi.dir }
func (fi fileInfo) Sys() any                   { return nil }
func (fi fileInfo) Type() fs.FileMode          { return fi.Mode().Type() }
func (fi fileInfo) Info() (fs.FileInfo, error) { return fi, nil }

type openFile struct {
	info fileInfo
	r    *bytes.Reader
}

func (f *openFile) Stat() (fs.FileInfo, error)                { return f.info, nil }
func (f *openFile) Read(p []byte) (int, error)                { return f.r.Read(p) }
func (f *openFile) ReadAt(p []byte, off int64) (int, error)   { return f.r.ReadAt(p, off) }
func (f *openFile) Seek(off int64, whence int) (int64, error) { return f.r.Seek(off, whence) }
func (f *openFile) Close() error                              { return nil }
func (f *openFile) WriteTo(w io.Writer) (int64, error)        { return f.r.WriteTo(w) }

type openDir struct {
	b    *Bundle
	t    *dirTree
	name string
	info fileInfo
	pos  int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *openDir) Close() error { return nil }

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	kids := d.t.dirs[d.name]
	rest := kids[d.pos:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	out := make([]fs.DirEntry, 0, len(rest))
	for _, k := range rest {
		full := k
		if d.name != "." {
			full = d.name + "/" + k
		}
		if f, ok := d.t.files[full]; ok {
			out = append(out, fileInfo{name: k, size: f.size})
		} else {
			out = append(out, fileInfo{name: k, dir: true})
		}
	}
	d.pos += len(rest)
	return out, nil
}
