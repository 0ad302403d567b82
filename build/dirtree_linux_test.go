package build

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dirFixture opens a dirTree on a fresh folder holding sub/a.md.
func dirFixture(t *testing.T) (root string, tr tree, sub folder, ents []fs.DirEntry) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "a.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := openDirTree(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.close() })
	sub, err = tr.open("sub")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.close)
	ents, err = sub.list()
	if err != nil || len(ents) != 1 || ents[0].Name() != "a.md" || !ents[0].Type().IsRegular() {
		t.Fatalf("list = %v, %v", ents, err)
	}
	return root, tr, sub, ents
}

func TestDirTreeRead(t *testing.T) {
	root, _, sub, ents := dirFixture(t)
	data, err := sub.read("a.md", ents[0], 100)
	if err != nil || string(data) != "hello\n" {
		t.Fatalf("read = %q, %v", data, err)
	}
	if _, err := sub.read("a.md", ents[0], 5); !errors.Is(err, errTooLarge) {
		t.Fatalf("read over the limit = %v, want errTooLarge", err)
	}
	fi, err := ents[0].Info()
	if err != nil || fi.Size() != 6 {
		t.Fatalf("Info = %v, %v", fi, err)
	}
	// A file that grew since the listing is read whole, up to the limit.
	big := strings.Repeat("x", 100<<10)
	os.WriteFile(filepath.Join(root, "sub", "a.md"), []byte(big), 0o644)
	if data, err := sub.read("a.md", ents[0], 1<<20); err != nil || string(data) != big {
		t.Fatalf("read of a grown file = %d bytes, %v", len(data), err)
	}
	if _, err := sub.read("a.md", ents[0], 50<<10); !errors.Is(err, errTooLarge) {
		t.Fatalf("read of a grown file over the limit = %v, want errTooLarge", err)
	}
	empty := filepath.Join(root, "sub", "empty")
	os.WriteFile(empty, nil, 0o644)
	if data, err := sub.read("empty", ents[0], 10); err != nil || len(data) != 0 {
		t.Fatalf("read of an empty file = %q, %v", data, err)
	}
}

// TestDirTreeRefusesSwaps swaps the listed file for a symlink, a FIFO and a
// folder before it is read, and a listed folder for a symlink before it is
// opened: each is refused, and nothing blocks.
func TestDirTreeRefusesSwaps(t *testing.T) {
	root, tr, sub, ents := dirFixture(t)
	file := filepath.Join(root, "sub", "a.md")
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret"), 0o644)

	swap := func(make func() error) {
		t.Helper()
		if err := os.RemoveAll(file); err != nil {
			t.Fatal(err)
		}
		if err := make(); err != nil {
			t.Fatal(err)
		}
	}
	read := func() ([]byte, error) {
		t.Helper()
		type result struct {
			data []byte
			err  error
		}
		done := make(chan result, 1)
		go func() {
			data, err := sub.read("a.md", ents[0], 1<<20)
			done <- result{data, err}
		}()
		select {
		case r := <-done:
			return r.data, r.err
		case <-time.After(10 * time.Second):
			t.Fatal("read blocked")
			return nil, nil
		}
	}

	swap(func() error { return os.Symlink(secret, file) })
	if data, err := read(); err == nil || !strings.Contains(err.Error(), "(rule symlink)") {
		t.Fatalf("read of a swapped-in symlink = %q, %v", data, err)
	}
	swap(func() error { return syscall.Mkfifo(file, 0o644) })
	if data, err := read(); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("read of a swapped-in FIFO = %q, %v", data, err)
	}
	swap(func() error { return os.Mkdir(file, 0o755) })
	if data, err := read(); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("read of a swapped-in folder = %q, %v", data, err)
	}

	// A folder swapped for a symlink to a folder outside the root.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "a.md"), []byte("outside"), 0o644)
	if err := os.RemoveAll(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if f, err := tr.open("sub"); err == nil {
		f.close()
		t.Fatal("opened a folder swapped for a symlink")
	}
	rootF, err := tr.open(".")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := rootF.sub("sub"); err == nil {
		f.close()
		t.Fatal("sub followed a symlink")
	}
	for _, bad := range []string{"..", "../x", "/etc", "sub/../..", ""} {
		if f, err := tr.open(bad); err == nil {
			f.close()
			t.Errorf("open(%q) succeeded", bad)
		}
	}
}

func TestDirTreeList(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"b", "a", ".hidden", "c/d"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "z.md"), nil, 0o644)
	os.Symlink("a", filepath.Join(root, "link"))
	syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644)
	tr, err := openDirTree(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	f, _ := tr.open(".")
	ents, err := f.list()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name()+":"+e.Type().String())
	}
	want := ".hidden:d--------- a:d--------- b:d--------- c:d--------- link:L--------- pipe:p--------- z.md:----------"
	if strings.Join(got, " ") != want {
		t.Fatalf("list = %s\nwant   %s", strings.Join(got, " "), want)
	}
	c, err := tr.open("c/d")
	if err != nil {
		t.Fatal(err)
	}
	if ents, err := c.list(); err != nil || len(ents) != 0 {
		t.Fatalf("c/d lists %v, %v", ents, err)
	}
	c.close()
	if _, err := openDirTree(filepath.Join(root, "z.md")); err == nil {
		t.Fatal("opened a file as a tree")
	}
}

// TestBuildReusesBuffers builds a library twice in a row without a cache,
// the second time from buffers the first gave back, and wants the same
// bytes.
func TestBuildReusesBuffers(t *testing.T) {
	root, _, _ := genLibrary(t, 60)
	opt := Options{Libraries: []Library{{Namespace: "gen", Root: root}}}
	a, _ := buildBytes(t, opt)
	b, _ := buildBytes(t, opt)
	if !bytes.Equal(a, b) {
		t.Fatal("a second build from reused buffers differs")
	}
}
