package build

import (
	"bytes"
	"errors"
	"fmt"
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
	// Opening it may fail, or succeed and open nothing yet (with
	// openat2); listing it or reading from it fails.
	refused := func(how string, f folder, err error) {
		t.Helper()
		if err != nil {
			return
		}
		defer f.close()
		if data, err := f.read("a.md", ents[0], 1<<20); err == nil {
			t.Fatalf("%s: read %q through a folder swapped for a symlink", how, data)
		}
		if ents, err := f.list(); err == nil {
			t.Fatalf("%s: listed %v through a folder swapped for a symlink", how, ents)
		}
	}
	f, err := tr.open("sub")
	refused("open", f, err)
	rootF, err := tr.open(".")
	if err != nil {
		t.Fatal(err)
	}
	f, err = rootF.sub("sub")
	refused("sub", f, err)
	for _, bad := range []string{"..", "../x", "/etc", "sub/../..", ""} {
		if f, err := tr.open(bad); err == nil {
			f.close()
			t.Errorf("open(%q) succeeded", bad)
		}
	}
	// Both ways of opening: by openat2 paths and one name at a time.
	if dt := tr.(*dirTree); dt.beneath {
		dt.beneath = false
		defer func() { dt.beneath = true }()
		f, err := tr.open("sub")
		refused("open without openat2", f, err)
		f, err = rootF.sub("sub")
		refused("sub without openat2", f, err)
	} else {
		t.Log("openat2 is not available here")
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
	// A build with a cache never gives its buffers back: the reference.
	opt.Cache = NewCache()
	defer opt.Cache.Close()
	if ref, _ := buildBytes(t, opt); !bytes.Equal(b, ref) {
		t.Fatal("a build from reused buffers differs from one that reuses none")
	}
}

// TestDirTreeWithoutOpenat2 builds the example and a library of refusals
// with and without openat2 and wants the same bytes.
func TestDirTreeWithoutOpenat2(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "ok-skill", map[string]string{"references/a.md": "a", "x/y/z.txt": "z"})
	bad := writeSkill(t, root, "cat/bad-skill", map[string]string{"notes/Notes.md": "A", "notes/notes.md": "B"})
	os.Symlink("/etc/passwd", filepath.Join(bad, "passwd.md"))
	os.Symlink("/etc", filepath.Join(bad, "notes", "etc"))
	syscall.Mkfifo(filepath.Join(bad, "pipe"), 0o644)
	os.Symlink(root, filepath.Join(root, "cat", "loop"))
	libs := []Options{exampleOptions(t), {Libraries: []Library{{Namespace: "x", Root: root}}}}

	tr, err := openDirTree(root) // probes for openat2
	if err != nil {
		t.Fatal(err)
	}
	tr.close()
	if !openat2Probe.ok {
		t.Skip("openat2 is not available here")
	}
	for _, opt := range libs {
		with, _ := buildBytes(t, opt)
		openat2Probe.ok = false
		without, _ := buildBytes(t, opt)
		openat2Probe.ok = true
		if !bytes.Equal(with, without) {
			t.Fatal("builds with and without openat2 differ")
		}
	}
}

// TestDiscoverClosesFolders builds libraries whose .claude/ folder holds no
// skills/, or holds it as a file, and wants every descriptor of the build
// closed after it.
func TestDiscoverClosesFolders(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "a-skill", map[string]string{})
	if err := os.MkdirAll(filepath.Join(root, ".claude", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	writeSkill(t, other, "b-skill", map[string]string{})
	if err := os.MkdirAll(filepath.Join(other, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".claude", "skills"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{Libraries: []Library{{Namespace: "a", Root: root}, {Namespace: "b", Root: other}}}
	openFDs := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd:", err)
		}
		return len(ents)
	}
	buildBytes(t, opt) // anything opened once per process is open now
	before := openFDs()
	for range 10 {
		buildBytes(t, opt)
	}
	if after := openFDs(); after > before {
		t.Fatalf("%d descriptors open after 10 builds, %d before", after, before)
	}
}

// TestDiscoveryUnreadableFolder: a folder discovery cannot list (here gone
// after its parent was listed) gives a warning naming it and the rule.
func TestDiscoveryUnreadableFolder(t *testing.T) {
	_, tr, _, _ := dirFixture(t)
	root, err := tr.open(".")
	if err != nil {
		t.Fatal(err)
	}
	defer root.close()
	var out found
	if l := (&discovery{depth: 4}).walkSub(root, "gone", "gone", "lib/gone", 1, &out); l != nil {
		t.Fatalf("walkSub of a missing folder = %+v", l)
	}
	if len(out.warns) != 1 || !strings.HasPrefix(out.warns[0], "lib/gone: cannot read folder: ") || !strings.HasSuffix(out.warns[0], "(rule unreadable)") {
		t.Errorf("warnings %q, want one naming lib/gone and rule unreadable", out.warns)
	}
}

// TestReadProblemRules: a file that cannot be read is filed under the rule
// it breaks, which its message does not repeat.
func TestReadProblemRules(t *testing.T) {
	for _, c := range []struct {
		err  error
		rule string
	}{
		{errTooLarge, RuleFileTooLarge},
		{fmt.Errorf("read x: %w", errSwapped), RuleSymlink},
		{errNotRegular, RuleIrregularFile},
		{os.ErrPermission, RuleUnreadable},
	} {
		rule, msg := readProblem(c.err, 10)
		if rule != c.rule || strings.Contains(msg, "(rule") {
			t.Errorf("readProblem(%v) = %s, %q; want rule %s and a message without one", c.err, rule, msg, c.rule)
		}
	}
}
