package pull

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// stage is a skill folder being built beside the one it replaces (see the
// comment on writing in write.go).
type stage struct {
	root   *os.Root
	dir    string   // the skill folder, relative to the root
	path   string   // the staged folder, beside dir
	made   []string // parent folders of dir created for it, outermost first
	folder map[string]bool
}

// newStage creates the parents of dir that are missing and an empty
// staged folder beside dir.
func newStage(root *os.Root, dir string) (*stage, error) {
	st := &stage{root: root, dir: dir, folder: map[string]bool{}}
	if parent := path.Dir(dir); parent != "." {
		if err := st.mkdirParents(parent); err != nil {
			st.abort()
			return nil, err
		}
	}
	st.path = path.Join(path.Dir(dir), litterName(litterStage, newToken()))
	if err := root.Mkdir(st.path, 0o755); err != nil {
		st.abort()
		return nil, err
	}
	return st, nil
}

// mkdirParents creates dir and its missing parents below the root,
// refusing symlinks and recording what it made.
func (st *stage) mkdirParents(dir string) error {
	cur := ""
	for seg := range strings.SplitSeq(dir, "/") {
		cur = path.Join(cur, seg)
		fi, err := st.root.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := st.root.Mkdir(cur, 0o755); err != nil {
				return err
			}
			st.made = append(st.made, cur)
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("refusing symlink in the destination: %s", cur)
		case !fi.IsDir():
			return fmt.Errorf("%s in the destination is not a folder", cur)
		}
	}
	return nil
}

// mkdir creates the folders of rel (a file's path inside the skill) in
// the staged folder.
func (st *stage) mkdir(rel string) error {
	d := path.Dir(rel)
	if d == "." || st.folder[d] {
		return nil
	}
	if err := st.mkdir(d); err != nil {
		return err
	}
	if err := st.root.Mkdir(st.path+"/"+d, 0o755); err != nil {
		return err
	}
	st.folder[d] = true
	return nil
}

// keep puts the current file rel of the skill folder into the staged one:
// a hard link, so that its inode and bytes stay as they are, or a copy on
// a file system without hard links.
func (st *stage) keep(rel string) error {
	if err := st.mkdir(rel); err != nil {
		return err
	}
	from, to := st.dir+"/"+rel, st.path+"/"+rel
	if err := st.root.Link(from, to); err == nil {
		return nil
	}
	in, err := st.root.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	return st.create(rel, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// fetch streams f from the source into the staged folder, checking its
// size and digest.
func (st *stage) fetch(ctx context.Context, back backend, f *File) error {
	if err := st.mkdir(f.Path); err != nil {
		return err
	}
	return st.create(f.Path, func(w io.Writer) error {
		in, err := back.open(ctx, f)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		defer in.Close()
		return copyVerified(w, in, f)
	})
}

// create writes the new file rel of the staged folder with fill, then
// fsyncs it.
func (st *stage) create(rel string, fill func(io.Writer) error) error {
	out, err := st.root.OpenFile(st.path+"/"+rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	err = fill(out)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// commit makes the staged folder the skill folder: it flushes the staged
// folders, then renames it into place (exists false) or exchanges it with
// the current folder and removes the old one.
func (st *stage) commit(exists bool) error {
	dirs := []string{st.path}
	for d := range st.folder {
		dirs = append(dirs, st.path+"/"+d)
	}
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range dirs {
		syncDir(st.root, d)
	}
	if !exists {
		if err := st.root.Rename(st.path, st.dir); err != nil {
			return err
		}
		st.made, st.path = nil, ""
		syncDir(st.root, path.Dir(st.dir))
		return nil
	}
	cleanup, err := swap(st.root, st.path, st.dir)
	if err != nil {
		return err
	}
	st.made, st.path = nil, ""
	// The skill is in place; what follows only removes the old copy, which
	// the next run removes if this one is killed first.
	cleanup()
	syncDir(st.root, path.Dir(st.dir))
	return nil
}

// abort removes the staged folder and the parents made for it.
func (st *stage) abort() {
	if st.path != "" {
		st.root.RemoveAll(st.path)
	}
	for i := len(st.made) - 1; i >= 0; i-- {
		st.root.Remove(st.made[i])
	}
	st.made = nil
}
