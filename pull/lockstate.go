package pull

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Keeping the lock file consistent with the skill folders. Skill folders
// are replaced one by one (write.go); the lock is one file. So that a run
// killed at any point leaves a lock that describes the folders, a pull
// writes the lock it is heading for as lockNext (temp file, fsync, rename)
// before it replaces the first folder, and once every skill is done writes
// the lock of what it did as LockFile the same way, then removes lockNext.
// Each folder is then either as LockFile says or as lockNext says; the next
// run (or a --check, in memory) takes for each folder the entry its files
// match (reconcile), writes that as LockFile and removes lockNext before it
// does anything else. A folder whose files match neither was changed by
// someone else: it is modified locally.

// ReadLock reads the lock of the destination folder to: LockFile, and a
// lockNext a killed run left, reconciled with the folders (see above). A
// folder without a lock gives an empty lock. Nothing is written.
func ReadLock(to string) (*Lock, error) {
	root, err := os.OpenRoot(to)
	if errors.Is(err, fs.ErrNotExist) {
		return &Lock{Version: LockVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	defer root.Close()
	return readLock(root, to)
}

// readLock is ReadLock of an opened destination.
func readLock(root *os.Root, to string) (*Lock, error) {
	cur, next, err := readLocks(root, to)
	if err != nil {
		return nil, err
	}
	if next != nil {
		return reconcile(root, cur, next)
	}
	return cur, nil
}

// readLockFile reads and parses one lock file below root; a missing file
// gives nil.
func readLockFile(root *os.Root, to, name string) (*Lock, []byte, error) {
	fi, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	shown := filepath.Join(to, name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", shown, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &LockError{File: shown, Rule: "lock-file", Msg: "not a regular file (a symlink or a folder)"}
	}
	data, err := readLimited(root, name, maxLockBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", shown, err)
	}
	l, err := ParseLock(shown, data)
	return l, data, err
}

// readLocks reads LockFile (an empty lock if missing) and lockNext (nil if
// missing).
func readLocks(root *os.Root, to string) (cur, next *Lock, err error) {
	cur, _, err = readLockFile(root, to, LockFile)
	if err != nil {
		return nil, nil, err
	}
	if cur == nil {
		cur = &Lock{Version: LockVersion}
	}
	next, _, err = readLockFile(root, to, lockNext)
	if err != nil {
		return nil, nil, err
	}
	return cur, next, nil
}

// reconcile returns cur with, for every skill of next whose folder matches
// next's entry, next's entry in place of cur's.
func reconcile(root *os.Root, cur, next *Lock) (*Lock, error) {
	out := cloneLock(cur)
	for _, ns := range next.Sources {
		for _, e := range ns.Skills {
			t, ok, err := localTree(root, e.Dest)
			if err != nil {
				return nil, err
			}
			if !ok || t != e.Tree {
				continue
			}
			out.dropDest(e.Dest)
			s := out.Source(ns.Ref)
			if s == nil {
				out.Sources = append(out.Sources, LockSource{Ref: ns.Ref, Kind: ns.Kind})
				s = &out.Sources[len(out.Sources)-1]
			}
			s.Kind, s.Resolved, s.Signer = ns.Kind, ns.Resolved, ns.Signer
			s.Skills = append(s.Skills, e)
		}
	}
	out.prune()
	out.Sort()
	return out, nil
}

func cloneLock(l *Lock) *Lock {
	out := &Lock{Version: LockVersion}
	for _, s := range l.Sources {
		s.Skills = slices.Clone(s.Skills)
		out.Sources = append(out.Sources, s)
	}
	return out
}

// dropDest removes the entry of destination dest, of whichever source.
func (l *Lock) dropDest(dest string) {
	for i := range l.Sources {
		l.Sources[i].Skills = slices.DeleteFunc(l.Sources[i].Skills, func(s LockSkill) bool { return s.Dest == dest })
	}
}

// prune removes sources without skills.
func (l *Lock) prune() {
	l.Sources = slices.DeleteFunc(l.Sources, func(s LockSource) bool { return len(s.Skills) == 0 })
}

// Entry returns the entry of destination dest and its source, or nil.
func (l *Lock) Entry(dest string) (*LockSource, *LockSkill) {
	for i := range l.Sources {
		for j := range l.Sources[i].Skills {
			if l.Sources[i].Skills[j].Dest == dest {
				return &l.Sources[i], &l.Sources[i].Skills[j]
			}
		}
	}
	return nil, nil
}

// localTree hashes the folder dir below root: its tree digest, and whether
// it exists. A symlink or special file in it is an error, as it is to scan.
func localTree(root *os.Root, dir string) (manifest.Digest, bool, error) {
	files, ok, err := localFiles(root, dir)
	if err != nil || !ok {
		return manifest.Digest{}, ok, err
	}
	return TreeDigest(files), true, nil
}

// localFiles lists and hashes the regular files of dir below root.
func localFiles(root *os.Root, dir string) ([]LockedFile, bool, error) {
	exists, err := checkChain(root, dir)
	if err != nil || !exists {
		return nil, false, err
	}
	sizes := map[string]int64{}
	if err := walk(root, dir, "", sizes, map[string]bool{}); err != nil {
		return nil, false, err
	}
	files := make([]LockedFile, 0, len(sizes))
	for rel, size := range sizes {
		d, err := hashFile(root, dir+"/"+rel)
		if err != nil {
			return nil, false, err
		}
		files = append(files, LockedFile{Path: rel, Digest: d, Size: size})
	}
	slices.SortFunc(files, func(a, b LockedFile) int { return strings.Compare(a.Path, b.Path) })
	return files, true, nil
}

// LocalState is what a locked skill's folder holds compared with its entry.
type LocalState struct {
	Missing  bool     // the folder is gone
	Changed  []string // files whose bytes differ, or that are missing
	Extra    []string // files the entry does not list
	Modified bool     // Missing, or any Changed or Extra
}

// CompareLocal compares the folder of e below to with the entry.
func CompareLocal(to string, e *LockSkill) (*LocalState, error) {
	root, err := os.OpenRoot(to)
	if errors.Is(err, fs.ErrNotExist) {
		return &LocalState{Missing: true, Modified: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	defer root.Close()
	return compareLocal(root, e)
}

func compareLocal(root *os.Root, e *LockSkill) (*LocalState, error) {
	files, ok, err := localFiles(root, e.Dest)
	if err != nil {
		return nil, err
	}
	if !ok {
		return &LocalState{Missing: true, Modified: true}, nil
	}
	st := &LocalState{}
	if TreeDigest(files) == e.Tree {
		return st, nil
	}
	have := map[string]LockedFile{}
	for _, f := range files {
		have[f.Path] = f
	}
	for _, f := range e.Files {
		if h, ok := have[f.Path]; !ok || h != f {
			st.Changed = append(st.Changed, f.Path)
		}
		delete(have, f.Path)
	}
	for p := range have {
		st.Extra = append(st.Extra, p)
	}
	slices.Sort(st.Extra)
	st.Modified = true
	return st, nil
}

func (st *LocalState) String() string {
	if st.Missing {
		return "the folder is gone"
	}
	var parts []string
	if n := len(st.Changed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d file(s) changed or missing (first: %s)", n, st.Changed[0]))
	}
	if n := len(st.Extra); n > 0 {
		parts = append(parts, fmt.Sprintf("%d extra file(s) (first: %s)", n, st.Extra[0]))
	}
	return strings.Join(parts, ", ")
}

// lockWriter keeps the lock of one Pull (see the top of this file).
type lockWriter struct {
	root    *os.Root
	to      string
	src     LockSource // the source as locked: Ref, Kind, Resolved, Signer
	base    *Lock      // the lock before this run, reconciled
	old     []byte     // LockFile's bytes before this run; nil if missing
	next    *Lock      // the lock if every skill succeeds
	written bool       // lockNext is on disk
}

// openLockWriter reads the lock of the destination, finishing what a killed
// run left (reconcile), so that base describes the folders.
func openLockWriter(root *os.Root, to string, src LockSource) (*lockWriter, error) {
	manifest.RemoveStaleTemps(to)
	cur, old, err := readLockFile(root, to, LockFile)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		cur = &Lock{Version: LockVersion}
	}
	next, _, err := readLockFile(root, to, lockNext)
	if err != nil {
		return nil, err
	}
	lw := &lockWriter{root: root, to: to, src: src, base: cur, old: old}
	if next != nil {
		if lw.base, err = reconcile(root, cur, next); err != nil {
			return nil, err
		}
		if err := lw.put(LockFile, lw.base); err != nil {
			return nil, err
		}
		if err := lw.removeNext(); err != nil {
			return nil, err
		}
		lw.old, _ = lw.base.Marshal()
	}
	return lw, nil
}

// heading sets the lock the run heads for: every skill in skills pulled to
// its folder in dirs.
func (lw *lockWriter) heading(src *Source, skills []*Skill, dirs []string) {
	lw.next = lw.with(src, skills, dirs, nil)
}

// with returns base with the source's entries for skills (those ok says
// succeeded, all when ok is nil); entries of the source for other folders
// stay while the source still offers their skill.
func (lw *lockWriter) with(src *Source, skills []*Skill, dirs []string, ok []bool) *Lock {
	l := cloneLock(lw.base)
	s := lw.src
	s.Skills = nil
	if prev := l.Source(s.Ref); prev != nil {
		offered := map[string]bool{}
		for _, sk := range src.Skills {
			offered[sk.Path] = true
		}
		for _, e := range prev.Skills {
			if offered[e.Path] && !slices.Contains(dirs, e.Dest) {
				s.Skills = append(s.Skills, e)
			}
		}
	}
	keepOld := map[string]bool{}
	for i, sk := range skills {
		if ok != nil && !ok[i] {
			keepOld[dirs[i]] = true // failed: the folder is as it was
			continue
		}
		l.dropDest(dirs[i])
		s.Skills = append(s.Skills, lockSkillOf(sk, dirs[i]))
	}
	for i := range l.Sources {
		if l.Sources[i].Ref != s.Ref {
			continue
		}
		for _, e := range l.Sources[i].Skills {
			if keepOld[e.Dest] && !slices.ContainsFunc(s.Skills, func(x LockSkill) bool { return x.Dest == e.Dest }) {
				s.Skills = append(s.Skills, e)
			}
		}
	}
	if s.Kind == KindServer || s.Kind == KindCommand {
		s.Resolved = listingDigest(s.Skills)
	}
	l.Sources = slices.DeleteFunc(l.Sources, func(x LockSource) bool { return x.Ref == s.Ref })
	l.Sources = append(l.Sources, s)
	l.prune()
	l.Sort()
	return l
}

// beforeReplace writes lockNext, once, before the first folder is replaced.
func (lw *lockWriter) beforeReplace() error {
	if lw.written || lw.next == nil {
		return nil
	}
	if err := lw.put(lockNext, lw.next); err != nil {
		return err
	}
	lw.written = true
	return nil
}

// finish writes the lock of what the run did and removes lockNext. An
// unchanged lock is not rewritten.
func (lw *lockWriter) finish(src *Source, skills []*Skill, dirs []string, ok []bool) error {
	l := lw.with(src, skills, dirs, ok)
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	if !bytes.Equal(data, lw.old) && (len(l.Sources) > 0 || lw.old != nil) {
		if err := lw.put(LockFile, l); err != nil {
			return err
		}
	}
	if lw.written {
		return lw.removeNext()
	}
	return nil
}

// put writes l as name below the destination: temp file, fsync, rename.
func (lw *lockWriter) put(name string, l *Lock) error {
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	if fi, err := lw.root.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return &LockError{File: filepath.Join(lw.to, name), Rule: "lock-file", Msg: "not a regular file (a symlink or a folder)"}
	}
	err = manifest.WriteFileAtomic(filepath.Join(lw.to, name), 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	syncDir(lw.root, ".")
	return nil
}

func (lw *lockWriter) removeNext() error {
	if err := lw.root.Remove(lockNext); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", filepath.Join(lw.to, lockNext), err)
	}
	syncDir(lw.root, ".")
	return nil
}

// ErrModified is wrapped by the error of a skill whose folder was changed
// since it was pulled: the lock's entry no longer matches its files.
var ErrModified = errors.New("modified locally")

// refuseModified refuses to replace the folder dir (shown as shown) when the
// lock names it and its files no longer match the entry: a local edit. A
// folder that is gone is no edit: the pull puts it back.
func refuseModified(root *os.Root, lock *Lock, dir, shown string) error {
	_, e := lock.Entry(dir)
	if e == nil {
		return nil
	}
	st, err := compareLocal(root, e)
	if err != nil || !st.Modified || st.Missing {
		return err
	}
	return fmt.Errorf("%s: %w since it was pulled (%s names tree %s): %s; use --force to overwrite the local changes",
		shown, ErrModified, LockFile, e.Tree, st)
}
