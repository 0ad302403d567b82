package pull

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Writing a skill. Every write goes through an os.Root opened on the
// destination folder, so no path can leave it; on top of that, symlinks
// anywhere below it, at or above a skill folder, are refused.
//
// A skill folder is replaced in one step. The new folder is built beside
// it under a name of our own (see litter.go): files that already match are
// hard-linked into it (so they keep their inode and are never read from the
// source), files to fetch stream into it, hashed and counted on the way and
// fsync'd. A size or digest mismatch, a read error or a full disk stops the
// skill there and the staged folder is removed. Only when every file has
// been verified does the staged folder take the skill folder's place: one
// rename for a new skill; for an existing one an exchange of the two names
// (renameat2 RENAME_EXCHANGE on Linux, renameatx_np RENAME_SWAP on macOS),
// after which the old folder, now under the staged name, is removed. Where
// the system or the file system cannot exchange, two renames are journaled
// (see swap in litter.go), and the next run finishes or undoes them. A run
// killed at any point leaves every skill folder either as it was or wholly
// new; the next run removes what it left (recoverLitter). Files that already
// match in a folder that is up to date are never touched, which keeps a
// --sync re-run free of writes.

// plan is what writing one skill takes.
type plan struct {
	exists bool     // the skill folder exists
	todo   []*File  // files to fetch: missing or different
	kept   []string // files already matching (relative to the skill folder)
	stale  []string // local files the skill no longer lists (relative to the skill folder)
	nested []string // local files below other selected skills' folders that the skill does not list
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
				p.kept = append(p.kept, f.Path)
				continue
			}
		}
		p.todo = append(p.todo, f)
	}
	for rel := range local {
		switch {
		case want[rel]:
		case slices.ContainsFunc(nested, func(n string) bool { return strings.HasPrefix(dir+"/"+rel, n+"/") }):
			p.nested = append(p.nested, rel)
		default:
			p.stale = append(p.stale, rel)
		}
	}
	slices.Sort(p.stale)
	slices.Sort(p.nested)
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
		if _, _, ok := parseLitter(e.Name()); ok {
			continue // left by a killed run: never part of a skill, gone with the folder it is in
		}
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
	buf := hashBuffers.Get().(*[]byte)
	defer hashBuffers.Put(buf)
	// Hide the file's WriteTo, which would allocate a buffer of its own.
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, *buf); err != nil {
		return manifest.Digest{}, fmt.Errorf("hash %s: %w", name, err)
	}
	return manifest.DigestOf(h), nil
}

// hashBuffers are the read buffers of hashFile: a --sync run hashes every
// local file whose size matches.
var hashBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

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
