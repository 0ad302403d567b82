package release

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// library is a copy of the example library (testdata/example) that a test
// changes between two builds: two real releases of a real library.
type library struct {
	t   testing.TB
	dir string
}

func exampleLibrary(t testing.TB) *library {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/example")); err != nil {
		t.Fatal(err)
	}
	return &library{t, dir}
}

// write writes a file below the library, making its folders.
func (l *library) write(rel, text string) {
	l.t.Helper()
	p := filepath.Join(l.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		l.t.Fatal(err)
	}
}

// edit replaces the first old in a file with new.
func (l *library) edit(rel, old, new string) {
	l.t.Helper()
	data, err := os.ReadFile(filepath.Join(l.dir, filepath.FromSlash(rel)))
	if err != nil {
		l.t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		l.t.Fatalf("%s does not contain %q", rel, old)
	}
	l.write(rel, strings.Replace(string(data), old, new, 1))
}

// move renames a folder below the library.
func (l *library) move(from, to string) {
	l.t.Helper()
	dst := filepath.Join(l.dir, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(l.dir, filepath.FromSlash(from)), dst); err != nil {
		l.t.Fatal(err)
	}
}

// remove deletes a file or folder below the library.
func (l *library) remove(rel string) {
	l.t.Helper()
	if err := os.RemoveAll(filepath.Join(l.dir, filepath.FromSlash(rel))); err != nil {
		l.t.Fatal(err)
	}
}

// build builds the library's skills.json into a bundle file and opens it.
func (l *library) build() *manifest.Bundle {
	l.t.Helper()
	return buildConfig(l.t, filepath.Join(l.dir, "skills.json"))
}

// buildConfig builds a config file's libraries, with its waivers, into a
// bundle file and opens it.
func buildConfig(t testing.TB, config string) *manifest.Bundle {
	t.Helper()
	cfg, err := build.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: cfg.Libraries, Waivers: cfg.Waivers}, &buf); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "b.skb")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// compare diffs two bundles, both in place (the fast path) and as
// manifests held in memory, and fails unless the two agree.
func compare(t testing.TB, old, new *manifest.Bundle) *Diff {
	t.Helper()
	ro, err := FromBundle(old, "old.skb")
	if err != nil {
		t.Fatal(err)
	}
	rn, err := FromBundle(new, "new.skb")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Compare(context.Background(), ro, rn)
	if err != nil {
		t.Fatal(err)
	}
	mo, err := old.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	mn, err := new.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Compare(context.Background(), FromManifest(mo, "old.skb", old.ID().String(), nil), FromManifest(mn, "new.skb", new.ID().String(), nil))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := encode(d)
	b, _ := encode(slow)
	if !bytes.Equal(a, b) {
		t.Fatalf("the bundle comparison and the manifest comparison differ:\n%s\n%s", a, b)
	}
	return d
}
