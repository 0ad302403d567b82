package pull

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Writing a skill. Every write goes through an os.Root opened on the
// destination folder, so no path can leave it; on top of that, symlinks
// anywhere below it, at or above a skill folder, are refused.
//
// A skill is written in two phases. First every file to fetch streams into
// a temporary file next to its target, hashed and counted on the way,
// fsync'd and closed; a size or digest mismatch, a read error or a full disk
// stops the skill there, and the temporary files (and any folder made for
// them) are removed, leaving the destination as it was. Only when every file
// has been verified are they renamed into place, each replaced file first
// hard-linked (or renamed) to a backup, so that a failed rename rolls the
// whole skill back. Files that already match are never touched, which keeps
// a --sync re-run free of writes.
//
// Why not stage the whole skill in a sibling folder and rename that into
// place: a folder cannot be renamed over a non-empty one, so replacing an
// existing skill would take two renames with a moment when the skill is
// missing; files that already match would have to be copied into the stage,
// which changes them on disk and defeats --sync; and a nested skill shares
// its folder with the skill around it.

// plan is what writing one skill takes.
type plan struct {
	exists bool     // the skill folder exists
	todo   []*File  // files to fetch: missing or different
	kept   int      // files already matching
	stale  []string // local files the skill no longer lists (relative to the skill folder)
}

// scan compares the skill folder dir (relative to root) with the skill. It
// hashes local files whose size matches. nested lists other selected skills'
// folders inside dir, whose files are never stale here.
func scan(root *os.Root, dir string, sk *Skill, nested []string) (*plan, error) {
	p := &plan{}
	if root != nil {
		exists, err := checkChain(root, dir)
		if err != nil {
			return nil, err
		}
		p.exists = exists
	}
	if !p.exists {
		for i := range sk.Files {
			p.todo = append(p.todo, &sk.Files[i])
		}
		return p, nil
	}
	local := map[string]int64{}
	dirs := map[string]bool{}
	if err := walk(root, dir, "", local, dirs); err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(sk.Files))
	for i := range sk.Files {
		f := &sk.Files[i]
		want[f.Path] = true
		if dirs[f.Path] {
			return nil, fmt.Errorf("%s/%s is a folder, the skill has a file there", dir, f.Path)
		}
		size, ok := local[f.Path]
		if ok && size == f.Size {
			d, err := hashFile(root, dir+"/"+f.Path)
			if err != nil {
				return nil, err
			}
			if d == f.Digest {
				p.kept++
				continue
			}
		}
		p.todo = append(p.todo, f)
	}
	for rel := range local {
		if want[rel] || slices.ContainsFunc(nested, func(n string) bool { return strings.HasPrefix(dir+"/"+rel, n+"/") }) {
			continue
		}
		p.stale = append(p.stale, rel)
	}
	slices.Sort(p.stale)
	return p, nil
}

// checkChain checks every folder from root down to dir: each must be a
// real folder, not a symlink. It reports whether dir exists.
func checkChain(root *os.Root, dir string) (bool, error) {
	cur := ""
	for seg := range strings.SplitSeq(dir, "/") {
		cur = path.Join(cur, seg)
		fi, err := root.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return false, fmt.Errorf("refusing symlink in the destination: %s", cur)
		}
		if !fi.IsDir() {
			return false, fmt.Errorf("%s in the destination is not a folder", cur)
		}
	}
	return true, nil
}

// walk lists the regular files below dir/rel, refusing symlinks and
// anything else that is not a file or a folder.
func walk(root *os.Root, dir, rel string, files map[string]int64, dirs map[string]bool) error {
	name := dir
	if rel != "" {
		name += "/" + rel
	}
	f, err := root.Open(name)
	if err != nil {
		return err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	for _, e := range ents {
		r := e.Name()
		if rel != "" {
			r = rel + "/" + r
		}
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			return fmt.Errorf("refusing symlink in the destination: %s/%s", dir, r)
		case t.IsDir():
			dirs[r] = true
			if err := walk(root, dir, r, files, dirs); err != nil {
				return err
			}
		case t.IsRegular():
			fi, err := e.Info()
			if err != nil {
				return err
			}
			files[r] = fi.Size()
		default:
			return fmt.Errorf("%s/%s in the destination is not a regular file", dir, r)
		}
	}
	return nil
}

func hashFile(root *os.Root, name string) (manifest.Digest, error) {
	f, err := root.Open(name)
	if err != nil {
		return manifest.Digest{}, err
	}
	defer f.Close()
	h := manifest.NewHash()
	if _, err := io.Copy(h, f); err != nil {
		return manifest.Digest{}, fmt.Errorf("hash %s: %w", name, err)
	}
	return manifest.DigestOf(h), nil
}

// copyVerified copies exactly f.Size bytes from r to w and checks their
// digest, reading at most one byte more than announced.
func copyVerified(w io.Writer, r io.Reader, f *File) error {
	h := manifest.NewHash()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(r, f.Size+1))
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if n > f.Size {
		return fmt.Errorf("%s: size mismatch: the listing says %d bytes, the source sent more than %d", f.Path, f.Size, f.Size)
	}
	if n < f.Size {
		return fmt.Errorf("%s: size mismatch: the listing says %d bytes, the source sent %d", f.Path, f.Size, n)
	}
	if got := manifest.DigestOf(h); got != f.Digest {
		return fmt.Errorf("%s: digest mismatch: the listing says %s, the bytes hash to %s", f.Path, f.Digest, got)
	}
	return nil
}

// staged is one verified file waiting in a temporary file.
type staged struct {
	tmp, target string
}

// txn is the writing of one skill: temporary files, folders made for them,
// and the renames done so far, so that any failure can be undone.
type txn struct {
	root    *os.Root
	made    []string // folders created, outermost first
	staged  []staged
	renamed []staged // committed: target replaced; tmp now names the backup ("" if the target was new)
}

// fetch streams f from src into a temporary file next to dir/f.Path.
func (t *txn) fetch(ctx context.Context, back backend, dir string, f *File) error {
	target := dir + "/" + f.Path
	if err := t.mkdirAll(path.Dir(target)); err != nil {
		return err
	}
	tmp := tempName(target, "pull")
	out, err := t.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	t.staged = append(t.staged, staged{tmp, target})
	in, err := back.open(ctx, f)
	if err != nil {
		out.Close()
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	err = copyVerified(out, in, f)
	in.Close()
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// mkdirAll creates dir and its missing parents below the root, refusing
// symlinks and recording what it made.
func (t *txn) mkdirAll(dir string) error {
	cur := ""
	for seg := range strings.SplitSeq(dir, "/") {
		cur = path.Join(cur, seg)
		fi, err := t.root.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := t.root.Mkdir(cur, 0o755); err != nil {
				return err
			}
			t.made = append(t.made, cur)
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

// commit renames every staged file into place. A replaced file is first
// linked to a backup name; if any rename fails, every file committed so far
// is put back.
func (t *txn) commit() error {
	for _, s := range t.staged {
		backup := ""
		if fi, err := t.root.Lstat(s.target); err == nil {
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("%s in the destination is not a regular file", s.target)
			}
			backup = tempName(s.target, "old")
			if err := t.root.Link(s.target, backup); err != nil {
				if err := t.root.Rename(s.target, backup); err != nil {
					return err
				}
			}
		}
		if err := t.root.Rename(s.tmp, s.target); err != nil {
			if backup != "" {
				t.root.Rename(backup, s.target)
			}
			return err
		}
		t.renamed = append(t.renamed, staged{backup, s.target})
	}
	t.staged = nil
	for _, r := range t.renamed {
		if r.tmp != "" {
			t.root.Remove(r.tmp)
		}
	}
	t.syncDirs()
	return nil
}

// rollback undoes a failed skill: it restores replaced files, removes new
// ones, temporary files and the folders it made.
func (t *txn) rollback() {
	for i := len(t.renamed) - 1; i >= 0; i-- {
		r := t.renamed[i]
		if r.tmp != "" {
			t.root.Rename(r.tmp, r.target)
		} else {
			t.root.Remove(r.target)
		}
	}
	for _, s := range t.staged {
		t.root.Remove(s.tmp)
	}
	for i := len(t.made) - 1; i >= 0; i-- {
		t.root.Remove(t.made[i])
	}
	t.renamed, t.staged, t.made = nil, nil, nil
}

// syncDirs flushes the folders whose entries changed, so that the renames
// survive a crash.
func (t *txn) syncDirs() {
	seen := map[string]bool{}
	for _, r := range t.renamed {
		d := path.Dir(r.target)
		if seen[d] {
			continue
		}
		seen[d] = true
		if f, err := t.root.Open(d); err == nil {
			f.Sync()
			f.Close()
		}
	}
}

// removeStale deletes files a skill no longer lists, then the folders that
// became empty, never the skill folder itself.
func removeStale(root *os.Root, dir string, stale []string) error {
	var dirs []string
	for _, rel := range stale {
		if err := root.Remove(dir + "/" + rel); err != nil {
			return err
		}
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	// Deepest first; Remove fails harmlessly on a folder that is not empty.
	slices.SortFunc(dirs, func(a, b string) int {
		if d := strings.Count(b, "/") - strings.Count(a, "/"); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, d := range slices.Compact(dirs) {
		root.Remove(dir + "/" + d)
	}
	return nil
}

// tempName returns a fresh hidden name next to target.
func tempName(target, tag string) string {
	var b [8]byte
	rand.Read(b[:])
	dir, base := path.Split(target)
	if len(base) > 100 {
		base = base[:100]
	}
	return dir + "." + base + "." + tag + "-" + hex.EncodeToString(b[:])
}
