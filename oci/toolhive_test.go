package oci

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/stacklok/toolhive-core/oci/skills"
)

// TestFetchToolHiveSkill packages a skill with ToolHive's own packager,
// pushes it with ToolHive's registry client, and fetches it: one skill,
// every file byte for byte, in a bundle like any other.
func TestFetchToolHiveSkill(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "pdf-tools")
	files := map[string]string{
		"SKILL.md":            "---\nname: pdf-tools\ndescription: Split and merge PDF files.\nversion: 1.2.0\n---\n# PDF tools\n",
		"scripts/split.py":    "print('split')\n",
		"references/guide.md": "How to split.\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := skills.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := skills.NewPackager(store).Package(ctx, dir, skills.DefaultPackageOptions())
	if err != nil {
		t.Fatal(err)
	}
	th, err := skills.NewRegistry(skills.WithPlainHTTP(true))
	if err != nil {
		t.Fatal(err)
	}
	if err := th.Push(ctx, store, res.IndexDigest, reg.Host+"/toolhive/pdf-tools:1.2.0"); err != nil {
		t.Fatal(err)
	}
	// A killed fetch left an unpack folder an hour and more ago, and a
	// running one has a fresh one: the first goes, the second stays.
	o := testOptions(t)
	shaDir := filepath.Dir(CachePath(o.CacheDir, res.IndexDigest.String()))
	stale, fresh := filepath.Join(shaDir, toolHiveTemp+"1"), filepath.Join(shaDir, toolHiveTemp+"2")
	for _, d := range []string{stale, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleAfter)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	f, err := Fetch(ctx, reg.ref("toolhive/pdf-tools:1.2.0"), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale unpack folder was kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh unpack folder was removed")
	}
	if f.Ref.Digest != res.IndexDigest.String() {
		t.Errorf("fetched %s, want the index %s", f.Ref, res.IndexDigest)
	}
	b, err := manifest.OpenFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	if b.NumSkills() != 1 || b.SkillURI(0) != "skill://pdf-tools/SKILL.md" {
		t.Fatalf("bundle holds %d skills (%s), want skill://pdf-tools/SKILL.md", b.NumSkills(), b.SkillURI(0))
	}
	for p, c := range files {
		got, err := b.ReadFile("pdf-tools/" + p)
		if err != nil || string(got) != c {
			t.Errorf("%s: %q, %v; want %q", p, got, err, c)
		}
	}
	m, _ := b.Manifest()
	if l := m.Libraries[0]; l.Version != "1.2.0" || !strings.HasPrefix(l.Source, reg.ref("toolhive/pdf-tools@sha256:")) {
		t.Errorf("library %+v: want version 1.2.0 and the pinned reference as source", l)
	}
}

// toolHiveLayer writes a tar+gzip layer of the given entries.
func toolHiveLayer(t testing.TB, entries []tar.Header, bodies []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for i, h := range entries {
		h.Size = int64(len(bodies[i]))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(bodies[i])); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// pushRaw pushes an image manifest with one layer of the given media type
// and the given annotations, through oras-go, and returns its reference.
func pushRaw(t *testing.T, reg *testRegistry, repoTag, artifactType, layerType string, layer []byte, ann map[string]string) string {
	t.Helper()
	ctx := context.Background()
	ref, _ := ParseRef(reg.ref(repoTag))
	o := testOptions(t)
	repo, err := o.repository(ref)
	if err != nil {
		t.Fatal(err)
	}
	cfg := []byte(`{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}`)
	cd := descriptorOf(ocispec.MediaTypeImageConfig, cfg)
	ld := descriptorOf(layerType, layer)
	for _, b := range []struct {
		d ocispec.Descriptor
		c []byte
	}{{cd, cfg}, {ld, layer}} {
		if err := repo.Push(ctx, b.d, bytes.NewReader(b.c)); err != nil {
			t.Fatal(err)
		}
	}
	body, err := marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
		ArtifactType: artifactType, Config: cd, Layers: []ocispec.Descriptor{ld}, Annotations: ann})
	if err != nil {
		t.Fatal(err)
	}
	md := descriptorOf(ocispec.MediaTypeImageManifest, body)
	if err := repo.PushReference(ctx, md, bytes.NewReader(body), ref.Tag); err != nil {
		t.Fatal(err)
	}
	return ref.String()
}

// TestToolHiveHostileLayers refuses ToolHive artifacts whose layer would
// write outside the skill, holds a link or a device, clashes under case
// folding, or whose skill breaks a rule; nothing is left in the cache.
func TestToolHiveHostileLayers(t *testing.T) {
	reg := startRegistry(t, false)
	skill := "---\nname: evil\ndescription: An evil skill.\n---\nbody\n"
	ann := map[string]string{toolHiveName: "evil"}
	cases := []struct {
		name    string
		entries []tar.Header
		bodies  []string
		ann     map[string]string
		want    string
	}{
		{"traversal", []tar.Header{{Name: "SKILL.md"}, {Name: "../../escape.txt"}}, []string{skill, "x"}, ann, "path-invalid"},
		{"absolute", []tar.Header{{Name: "SKILL.md"}, {Name: "/etc/passwd"}}, []string{skill, "x"}, ann, "path-invalid"},
		{"symlink", []tar.Header{{Name: "SKILL.md"}, {Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}, []string{skill, ""}, ann, "not a regular file"},
		{"hardlink", []tar.Header{{Name: "SKILL.md"}, {Name: "link", Typeflag: tar.TypeLink, Linkname: "SKILL.md"}}, []string{skill, ""}, ann, "not a regular file"},
		{"case-fold", []tar.Header{{Name: "SKILL.md"}, {Name: "a.txt"}, {Name: "A.TXT"}}, []string{skill, "a", "b"}, ann, "A.TXT"},
		{"bad-name-annotation", []tar.Header{{Name: "SKILL.md"}}, []string{skill}, map[string]string{toolHiveName: "../x"}, "not a skill name"},
		{"name-mismatch", []tar.Header{{Name: "SKILL.md"}}, []string{strings.Replace(skill, "name: evil", "name: other", 1)}, ann, "name"},
		{"archive-inside", []tar.Header{{Name: "SKILL.md"}, {Name: "payload.zip"}}, []string{skill, "PK\x03\x04junk"}, ann, "archive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			layer := toolHiveLayer(t, c.entries, c.bodies)
			ref := pushRaw(t, reg, "toolhive/"+c.name+":v1", ToolHiveArtifactType, ocispec.MediaTypeImageLayerGzip, layer, c.ann)
			o := testOptions(t)
			_, err := Fetch(context.Background(), ref, o)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/toolhive/"+c.name+"@sha256:") {
				t.Errorf("fetch: %v; want a refusal naming the reference and %q", err, c.want)
			}
			assertEmptyCache(t, o.CacheDir)
			if _, err := os.Stat(filepath.Join(o.CacheDir, "..", "escape.txt")); err == nil {
				t.Error("a file escaped the unpack folder")
			}
		})
	}
}
