//go:build unix

package manifest

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestWriteFileAtomicRemovesStale: temporary files of the same output that
// no writer holds (left by a killed writer) are removed by the next write;
// one a live writer holds, and every other name, are left alone.
func TestWriteFileAtomicRemovesStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.skb")
	target := staleTemps(t, dir, ".b.skb.tmp-55", ".b.skb.tmp-123", ".b.skb.tmp-9", ".b.skb.tmp-77", ".b.skb.tmp-x1", ".b.skb.tmp-", ".c.skb.tmp-5", "b.skb.tmp-5", ".b.skb.tmp-1.tmp-2")
	if err := WriteFileAtomic(path, 0o644, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	leftOnly(t, dir, ".b.skb.tmp-", ".b.skb.tmp-1.tmp-2", ".b.skb.tmp-55", ".b.skb.tmp-77", ".b.skb.tmp-x1", ".c.skb.tmp-5", "b.skb", "b.skb.tmp-5")
	if _, err := os.Stat(target); err != nil {
		t.Fatal(err)
	}
}

// staleTemps fills dir with a file "stale" under each name, holds
// .b.skb.tmp-77 (one of names) as a live writer does, under an exclusive
// flock until the test ends, and makes link a symlink to a file outside
// dir, whose path it returns: a symlink that looks like a temporary file is
// neither followed nor removed.
func staleTemps(t *testing.T, dir, link string, names ...string) (target string) {
	t.Helper()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("stale"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	held, err := os.Open(filepath.Join(dir, ".b.skb.tmp-77"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() })
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	target = filepath.Join(t.TempDir(), "keep")
	os.WriteFile(target, nil, 0o600)
	os.Symlink(target, filepath.Join(dir, link))
	return target
}

// leftOnly fails the test unless dir holds exactly the names want, sorted.
func leftOnly(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, want) {
		t.Fatalf("left %q, want %q", names, want)
	}
}

// TestWriteFileAtomicHoldsLock: while write runs, the temporary file is
// locked, so a concurrent cleaner leaves it.
func TestWriteFileAtomicHoldsLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.skb")
	err := WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		removeStaleTemps(dir, "b.skb")
		f := w.(*os.File)
		if _, err := os.Lstat(f.Name()); err != nil {
			t.Errorf("a cleaner removed the file being written: %v", err)
		}
		_, err := w.Write([]byte("new"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Fatalf("got %q", got)
	}
}

// TestRemoveStaleTemps: in a folder of content-named files, the temporary
// files of any of them that no writer holds are removed; one a live writer
// holds, a symlink, and every other name, are left alone.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	staleTemps(t, dir, ".c.skb.tmp-55", ".a.skb.tmp-123", ".b.skb.tmp-9", ".b.skb.tmp-77", ".b.skb.tmp-x1", ".b.skb.tmp-", "b.skb.tmp-5", "..tmp-3", "a.skb")
	RemoveStaleTemps(dir)
	leftOnly(t, dir, "..tmp-3", ".b.skb.tmp-", ".b.skb.tmp-77", ".b.skb.tmp-x1", ".c.skb.tmp-55", "a.skb", "b.skb.tmp-5")
}
