package pull_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
	"github.com/skills-mcp/skills-mcp/serve"
)

// The tests use build to make bundles from testdata/example and serve to
// run a real server; the pull package itself imports neither.

const exampleConfig = "../testdata/example/skills.json"

// TestMain doubles as a stdio server: with PULL_TEST_SERVE set to a bundle
// path, the test binary serves that bundle over stdin and stdout.
func TestMain(m *testing.M) {
	if p := os.Getenv("PULL_TEST_SERVE"); p != "" {
		os.Exit(serveStdio(p))
	}
	if mode := os.Getenv("PULL_TEST_HOSTILE"); mode != "" {
		os.Exit(serveLimitStdio(mode))
	}
	os.Exit(m.Run())
}

func serveStdio(path string) int {
	b, err := manifest.OpenFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer b.Close()
	srv, err := serve.New([]*manifest.Bundle{b}, serve.Options{ShowDisabled: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := srv.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// exampleBundle builds testdata/example into a bundle held in memory.
func exampleBundle(t testing.TB) []byte {
	t.Helper()
	return bundletest.Config(t, exampleConfig)
}

// writeBundle writes bundle bytes to a file in a fresh folder.
func writeBundle(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "example.skb")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// openBundle opens bundle bytes held in memory.
func openBundle(t testing.TB, data []byte) *manifest.Bundle {
	t.Helper()
	return bundletest.Open(t, data)
}

// signBundle returns data with SSH and minisign signatures by key.
func signBundle(t testing.TB, data []byte, key ed25519.PrivateKey) []byte {
	t.Helper()
	b := openBundle(t, data)
	msg, err := b.ManifestBytes()
	must(t, err)
	mini, err := manifest.SignMinisign(key, msg, "test")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := b.WriteSigned(&out, []manifest.Signature{
		{Kind: manifest.SignatureSSH, Data: manifest.SignSSH(key, msg)},
		{Kind: manifest.SignatureMinisign, Data: mini},
	}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func newKey(t testing.TB) (ed25519.PrivateKey, []manifest.TrustedKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return priv, []manifest.TrustedKey{{Principal: "test", Key: pub}}
}

// writeExport lays a bundle out as export does: manifest.json, signature
// files and blobs/sha256/<hex>.
func writeExport(t testing.TB, data []byte) string {
	t.Helper()
	b := openBundle(t, data)
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755))
	msg, err := b.ManifestBytes()
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, pull.ExportManifest), msg, 0o644))
	names := pull.ExportSignatureFiles(b.Signatures())
	for i, s := range b.Signatures() {
		must(t, os.WriteFile(filepath.Join(dir, names[i]), s.Data, 0o644))
	}
	m, err := b.Manifest()
	must(t, err)
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			blob, err := b.ReadBlob(r.Digest)
			must(t, err)
			must(t, os.WriteFile(filepath.Join(dir, "blobs", "sha256", r.Digest.Hex()), blob, 0o644))
		}
	}
	return dir
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// pullAll pulls every skill of src into dir, keeping paths.
func pullAll(t testing.TB, src *pull.Source, dir string, sync bool) *pull.Result {
	t.Helper()
	skills, err := src.Select(context.Background(), nil, true)
	must(t, err)
	res, err := pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: sync})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// expectedTree is an oracle independent of build: every file of
// testdata/example that lies in a folder holding a SKILL.md (or below one),
// minus what discovery skips (dot-folders other than .claude/skills,
// _archive, node_modules, dotfiles), keyed by the path pull --keep-path
// writes it to.
func expectedTree(t testing.TB) map[string][]byte {
	t.Helper()
	want := map[string][]byte{}
	for _, ns := range []string{"acme", "community"} {
		root := filepath.Join("../testdata/example", ns)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			name := d.Name()
			if d.IsDir() {
				if p != root && (name == "_archive" || name == "node_modules" || strings.HasPrefix(name, ".") && rel != ".claude") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(name, ".") {
				return nil
			}
			inSkill := false
			for dir := filepath.Dir(p); strings.HasPrefix(dir, root+string(filepath.Separator)); dir = filepath.Dir(dir) {
				if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err == nil {
					inSkill = true
				}
			}
			if !inSkill {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			want[ns+"/"+strings.TrimPrefix(rel, ".claude/skills/")] = data
			return nil
		})
		must(t, err)
	}
	return want
}

// readTree returns every file below dir by slash path, failing on anything
// but files and folders.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	got := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = data
		return err
	})
	must(t, err)
	return got
}

// sameTree fails unless got and want hold the same paths with the same bytes.
func sameTree(t testing.TB, got, want map[string][]byte) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("missing %s", p)
		case !bytes.Equal(g, w):
			t.Errorf("%s differs: %d bytes, want %d", p, len(g), len(w))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected %s", p)
		}
	}
}

// fileStamp is what a write would change: the inode and the modification
// time, of files and of folders (a temporary file created and removed
// changes its folder's mtime).
type fileStamp struct {
	ino   uint64
	mtime time.Time
	size  int64
}

func stamps(t testing.TB, dir string) map[string]fileStamp {
	t.Helper()
	out := map[string]fileStamp{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		ino, ok := inode(fi)
		if !ok {
			t.Skip("no inode numbers on this system")
		}
		out[p] = fileStamp{ino, fi.ModTime(), fi.Size()}
		return nil
	})
	must(t, err)
	return out
}

// noTempFiles fails if a temporary or backup file of pull is left below dir.
func noTempFiles(t testing.TB, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (strings.Contains(d.Name(), ".pull-") || strings.Contains(d.Name(), ".old-") || strings.HasPrefix(d.Name(), ".skills-mcp-")) {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}

func skillPaths(skills []*pull.Skill) []string {
	var out []string
	for _, s := range skills {
		out = append(out, s.Path)
	}
	slices.Sort(out)
	return out
}
