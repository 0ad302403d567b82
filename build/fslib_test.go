package build

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// memTree reads the files of the folder root into a tree in memory.
func memTree(t *testing.T, root string) fstest.MapFS {
	t.Helper()
	tree := fstest.MapFS{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		tree[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestFSLibrary: a library given as a tree in memory (Library.FS, as oci
// reads a ToolHive layer) builds into the bytes its folder builds into,
// withheld skills and their reasons too; a build with a Cache refuses it,
// and a library with FS and a Root is refused.
func TestFSLibrary(t *testing.T) {
	c, err := LoadConfig("../testdata/example/skills.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range c.Libraries {
		t.Run(lib.Namespace, func(t *testing.T) {
			want, res := buildBytes(t, Options{Libraries: []Library{lib}})
			if len(res.Manifest.Skills) == 0 {
				t.Fatal("the library has no skill: the case tests nothing")
			}
			mem := lib
			mem.Root, mem.FS = "", memTree(t, lib.Root)
			got, _ := buildBytes(t, Options{Libraries: []Library{mem}})
			if !bytes.Equal(got, want) {
				t.Errorf("the tree in memory built %d bytes unlike its folder's %d", len(got), len(want))
			}
			var buf bytes.Buffer
			if _, err := Build(Options{Libraries: []Library{mem}, Cache: NewCache()}, &buf); err == nil || !strings.Contains(err.Error(), "build cache") {
				t.Errorf("with a cache: %v, want refused", err)
			}
			both := mem
			both.Root = lib.Root
			if _, err := Build(Options{Libraries: []Library{both}}, &buf); err == nil || !strings.Contains(err.Error(), "exactly one of") {
				t.Errorf("with FS and a root: %v, want refused", err)
			}
		})
	}
}
