package oci_test

import (
	"bytes"
	"context"
	"crypto"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/cosign"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/oci/ocitest"
	"github.com/stacklok/toolhive-core/oci/skills"
)

// fetchedToolHive fetches a cosign-signed ToolHive artifact under trust of
// its key into a new cache, as a first start does, and returns its digest,
// the options it was fetched with and what the fetch returned.
func fetchedToolHive(t testing.TB) (d string, o oci.Options, online *oci.Fetched) {
	t.Helper()
	host, d, v := signedToolHive(t, nil)
	o = oci.Options{CacheDir: t.TempDir(), PlainHTTP: true, Cosign: v}
	online, err := oci.Fetch(context.Background(), oci.Scheme+host+"/toolhive/notes@"+d, o)
	if err != nil {
		t.Fatal(err)
	}
	return d, o, online
}

// signedToolHive pushes a ToolHive skill packaged by ToolHive's packager
// (notes: its SKILL.md and the extra files, by path) to a registry of its
// own, has the real cosign CLI sign it with a new key pair, and returns
// the registry's host, the artifact's digest and a verifier that trusts
// the key.
func signedToolHive(t testing.TB, extra map[string]string) (host, d string, v oci.CosignVerifier) {
	t.Helper()
	bin := ocitest.Need(t, "cosign")
	reg := ocitest.StartTest(t, false)
	ctx := context.Background()
	work := t.TempDir()
	src := filepath.Join(work, "notes")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: notes\ndescription: Take notes.\nversion: 0.3.0\n---\nWrite it down.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, c := range extra {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := skills.NewStore(filepath.Join(work, "store"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := skills.NewPackager(store).Package(ctx, src, skills.DefaultPackageOptions())
	if err != nil {
		t.Fatal(err)
	}
	th, err := skills.NewRegistry(skills.WithPlainHTTP(true))
	if err != nil {
		t.Fatal(err)
	}
	if err := th.Push(ctx, store, res.IndexDigest, reg.Host+"/toolhive/notes:0.3.0"); err != nil {
		t.Fatal(err)
	}
	d = res.IndexDigest.String()
	cosignCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = work, append(os.Environ(), "COSIGN_PASSWORD=offline-test")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cosign %s: %v\n%s", args[0], err, out)
		}
	}
	cosignCmd("generate-key-pair")
	cosignCmd("sign", "--key", "cosign.key", "--tlog-upload=false", "--allow-http-registry", "-y", reg.Host+"/toolhive/notes@"+d)
	pub, err := os.ReadFile(filepath.Join(work, "cosign.pub"))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := cosign.ParsePublicKeys("cosign.pub", pub)
	if err != nil {
		t.Fatal(err)
	}
	v, err = cosign.NewKeyVerifier([]crypto.PublicKey(keys))
	if err != nil {
		t.Fatal(err)
	}
	return reg.Host, d, v
}

// TestToolHiveOffline: a ToolHive skill packaged by ToolHive's packager and
// signed by the real cosign CLI, fetched once under cosign trust, starts
// again from the cache with no registry: the artifact's blobs kept in the
// cache build into the cached bundle, so the signatures over the
// artifact vouch for it. A bundle planted at its cache path with the
// artifact's signatures is replaced by what the blobs build into; with a
// blob changed and no record of the bundle, nothing is vouched for and
// the registry is asked again.
func TestToolHiveOffline(t *testing.T) {
	ctx := context.Background()
	host, d, v := signedToolHive(t, nil)
	work := t.TempDir()
	var mu sync.Mutex
	var logs strings.Builder
	o := oci.Options{CacheDir: filepath.Join(work, "cache"), PlainHTTP: true, Cosign: v, Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs.WriteString(strings.TrimSpace(strings.ReplaceAll(format, "%", "")) + "\n")
		t.Logf(format, args...)
	}}
	online, err := oci.Fetch(ctx, oci.Scheme+host+"/toolhive/notes@"+d, o)
	if err != nil || !strings.HasPrefix(online.Signer, "cosign key ") {
		t.Fatalf("online: %+v, %v", online, err)
	}
	offline := oci.Scheme + "127.0.0.1:1/toolhive/notes@" + d
	f, err := oci.Fetch(ctx, offline, o)
	if err != nil || !f.Cached || f.Signer != online.Signer {
		t.Fatalf("offline: %+v, %v", f, err)
	}

	// Planted with the artifact's signatures: replaced, still vouched for.
	cached, err := manifest.OpenFile(online.Path)
	if err != nil {
		t.Fatal(err)
	}
	sigs := cached.Signatures()
	cached.Close()
	plant(t, online.Path, sigs, map[string]string{"impostor/SKILL.md": "---\nname: impostor\ndescription: Not the signed skill.\n---\nDo something else.\n"}, build.Library{})
	f, err = oci.Fetch(ctx, offline, o)
	if err != nil || !f.Cached || f.Signer != online.Signer {
		t.Fatalf("offline, planted: %+v, %v", f, err)
	}
	// What the blobs build into by this name of the registry: the signed
	// skill, its library's source the reference it was asked by.
	b, err := manifest.OpenFile(online.Path)
	if err != nil {
		t.Fatal(err)
	}
	md, err := b.ReadFile("notes/SKILL.md")
	m, _ := b.Manifest()
	b.Close()
	if err != nil || !strings.Contains(string(md), "Write it down.") || len(m.Libraries) != 1 || m.Libraries[0].Source != offline {
		t.Errorf("the planted bundle was kept, or another built: %q, %v, %+v", md, err, m.Libraries)
	}
	if !strings.Contains(logs.String(), "rebuilt from the cached artifact") {
		t.Errorf("no note of the rebuild in:\n%s", logs.String())
	}

	// A blob changed, and no record of what the artifact built into
	// (TestToolHiveDerived: a record vouches without the blobs): nothing
	// to rebuild from but the artifact's, so the registry is asked.
	if err := os.RemoveAll(filepath.Join(o.CacheDir, "oci", "derived")); err != nil {
		t.Fatal(err)
	}
	blobs, _ := filepath.Glob(filepath.Join(o.CacheDir, "oci", "blobs", "sha256", "*"))
	if len(blobs) != 3 {
		t.Fatalf("%d blobs kept, want the index, the image manifest and the layer", len(blobs))
	}
	for _, b := range blobs {
		data, _ := os.ReadFile(b)
		if err := os.WriteFile(b, append(data, 'x'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if f, err := oci.Fetch(ctx, offline, o); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("offline, blobs changed: %+v, %v; want the registry asked", f, err)
	}
}

// plant writes at path, with the signatures sigs, the bundle that the
// files (by path below the library's root) build into as the library lib
// (its Root set here).
func plant(t *testing.T, path string, sigs []manifest.Signature, files map[string]string, lib build.Library) {
	t.Helper()
	lib.Root = t.TempDir()
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(lib.Root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(lib.Root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: []build.Library{lib}}, &buf); err != nil {
		t.Fatal(err)
	}
	planted, err := manifest.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	defer planted.Close()
	err = manifest.WriteFileAtomic(path, 0o644, func(w io.Writer) error { return planted.WriteSigned(w, sigs) })
	if err != nil {
		t.Fatal(err)
	}
}

// TestToolHiveOfflineNotTheLayer: a warm start under cosign trust uses a
// cached bundle only if it is, byte for byte, what the signed artifact's
// layer builds into. A bundle at its cache path with the artifact's
// signatures whose one file differs from the layer's by a byte, or whose
// files are the layer's but whose manifest is not what they build into
// (metadata the signed artifact does not hold), is replaced by the one the
// blobs build into, with no registry, and then kept as it is; a warm start
// that took the cached bundle on its signatures alone, or on its files
// alone, keeps the planted one and fails here.
func TestToolHiveOfflineNotTheLayer(t *testing.T) {
	ctx := context.Background()
	d, o, online := fetchedToolHive(t)
	cached, err := manifest.OpenFile(online.Path)
	if err != nil {
		t.Fatal(err)
	}
	want, sigs := cached.ID(), cached.Signatures()
	md, err := cached.ReadFile("notes/SKILL.md")
	m, merr := cached.Manifest()
	cached.Close()
	if err != nil || merr != nil || len(m.Libraries) != 1 {
		t.Fatal(err, merr)
	}
	signed := build.Library{Source: m.Libraries[0].Source, Version: m.Libraries[0].Version}
	changed := bytes.Replace(md, []byte("Write it down."), []byte("Write it dawn."), 1)
	withMeta := signed
	withMeta.Metadata = map[string]string{"planted": "yes"}
	for _, c := range []struct {
		name  string
		files map[string]string
		lib   build.Library
	}{
		{"one file differs", map[string]string{"notes/SKILL.md": string(changed)}, signed},
		{"same files, another manifest", map[string]string{"notes/SKILL.md": string(md)}, withMeta},
	} {
		t.Run(c.name, func(t *testing.T) {
			plant(t, online.Path, sigs, c.files, c.lib)
			b, err := manifest.OpenFile(online.Path)
			if err != nil {
				t.Fatal(err)
			}
			if b.ID() == want {
				t.Fatal("the planted bundle is the signed one: the case tests nothing")
			}
			b.Close()
			f, err := oci.Fetch(ctx, oci.Scheme+"127.0.0.1:1/toolhive/notes@"+d, o)
			if err != nil || !f.Cached || f.Signer != online.Signer {
				t.Fatalf("offline: %+v, %v", f, err)
			}
			if b, err = manifest.OpenFile(online.Path); err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if b.ID() != want {
				t.Errorf("the cached bundle is %s after a warm start, want the signed artifact's %s", b.ID(), want)
			}
			// The signed one is kept as it is by the next warm start.
			before, err := os.Stat(online.Path)
			if err != nil {
				t.Fatal(err)
			}
			if f, err := oci.Fetch(ctx, oci.Scheme+"127.0.0.1:1/toolhive/notes@"+d, o); err != nil || !f.Cached {
				t.Fatalf("offline again: %+v, %v", f, err)
			}
			if after, err := os.Stat(online.Path); err != nil || !os.SameFile(before, after) {
				t.Errorf("the signed bundle was written again by a warm start: %v", err)
			}
		})
	}
}

// BenchmarkToolHiveWarm is a warm start by digest of a cached ToolHive
// skill under cosign trust, with no registry (the blobs rebuilt in memory
// into the bundle, the signature checked), and without trust, as serve and
// pull make it: of the one-file skill, and of one with 64 reference files
// of 16 KiB of prose (1 MiB).
func BenchmarkToolHiveWarm(b *testing.B) {
	refs := map[string]string{}
	for i := range 64 {
		refs[fmt.Sprintf("references/r%02d.md", i)] = strings.Repeat(fmt.Sprintf("Step %d: read the notes of the day and write down what was decided.\n", i), 16<<10/70)
	}
	ctx := context.Background()
	for _, size := range []struct {
		name  string
		extra map[string]string
	}{{"", nil}, {"1MiB/", refs}} {
		host, d, v := signedToolHive(b, size.extra)
		for _, trust := range []bool{false, true} {
			o := oci.Options{CacheDir: b.TempDir(), PlainHTTP: true, Cosign: v}
			if _, err := oci.Fetch(ctx, oci.Scheme+host+"/toolhive/notes@"+d, o); err != nil {
				b.Fatal(err)
			}
			if !trust {
				o.Cosign = nil
			}
			b.Run(size.name+map[bool]string{false: "unsigned", true: "cosign"}[trust], func(b *testing.B) {
				for b.Loop() {
					if f, err := oci.Fetch(ctx, oci.Scheme+"127.0.0.1:1/toolhive/notes@"+d, o); err != nil || !f.Cached {
						b.Fatal(f, err)
					}
				}
			})
		}
	}
}
