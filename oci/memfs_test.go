package oci

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMemFS: the tree a ToolHive layer is read into behaves as an fs.FS
// must (fstest.TestFS: every file, folder, ReadDir sorted, Stat, Open of
// invalid names refused), with the folders its files imply.
func TestMemFS(t *testing.T) {
	m := newMemFS()
	files := map[string]string{
		"skill/SKILL.md":          "---\nname: skill\n---\n",
		"skill/scripts/run.sh":    "echo hi\n",
		"skill/refs/b.txt":        "b",
		"skill/refs/a.txt":        "a",
		"skill/refs/deep/c/d.txt": "",
	}
	for p, data := range files {
		if err := m.add(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fstest.TestFS(m, "skill/SKILL.md", "skill/scripts/run.sh", "skill/refs/a.txt", "skill/refs/b.txt",
		"skill/refs/deep/c/d.txt", "skill/refs/deep/c", "skill"); err != nil {
		t.Fatal(err)
	}
	ents, err := m.ReadDir("skill/refs")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "a.txt b.txt deep" {
		t.Errorf("ReadDir(skill/refs) = %s, want a.txt b.txt deep, sorted", got)
	}
	for _, name := range []string{"/skill", "skill/", "skill/../skill", "./skill", ""} {
		if _, err := m.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q): %v, want fs.ErrInvalid", name, err)
		}
		if _, err := m.Stat(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Stat(%q): %v, want fs.ErrInvalid", name, err)
		}
	}
	if _, err := m.Stat("skill/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing file: %v", err)
	}
	if _, err := m.ReadDir("skill/SKILL.md"); err == nil {
		t.Error("ReadDir of a file: no error")
	}
}

// TestMemFSRefusals: a file added twice, over a folder, under a file or
// at an invalid path is refused, and the tree is left as it was.
func TestMemFSRefusals(t *testing.T) {
	m := newMemFS()
	if err := m.add("s/a/b.txt", []byte("b")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"s/a/b.txt", "s/a", "s/a/b.txt/c", "/s/x", "s/../x", ".", ""} {
		if err := m.add(p, []byte("x")); err == nil {
			t.Errorf("add(%q): no error", p)
		}
	}
	var all []string
	if err := fs.WalkDir(m, ".", func(p string, _ fs.DirEntry, err error) error {
		all = append(all, p)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(all, " "); got != ". s s/a s/a/b.txt" {
		t.Errorf("after the refusals the tree holds %s, want . s s/a s/a/b.txt", got)
	}
	if err := fstest.TestFS(m, "s/a/b.txt"); err != nil {
		t.Fatal(err)
	}
}
