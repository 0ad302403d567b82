package oci

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"
)

// craft is a bundle artifact as push stored it in a real registry, read
// back (image manifest and config) for a test to change and push again
// under another tag: a registry holding an artifact crafted to break one
// rule.
type craft struct {
	t     *testing.T
	reg   *testRegistry
	name  string // the repository
	repo  *remote.Repository
	image ocispec.Manifest
	cfg   Config
	// digest is the pushed artifact's, host the registry's as written in
	// references.
	digest string
}

// newCraft pushes b to repository name of reg and reads its artifact back.
func newCraft(t *testing.T, reg *testRegistry, name string, b *manifest.Bundle) *craft {
	t.Helper()
	ctx := context.Background()
	ref, err := ParseRef(reg.ref(name + ":pushed"))
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions(t)
	res, err := Push(ctx, b, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	c := &craft{t: t, reg: reg, name: name, digest: res.Digest}
	if c.repo, err = o.repository(ref); err != nil {
		t.Fatal(err)
	}
	_, rc, err := c.repo.FetchReference(ctx, res.Digest)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body, &c.image); err != nil {
		t.Fatal(err)
	}
	cb, err := content.FetchAll(ctx, c.repo.Blobs(), c.image.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(cb, &c.cfg); err != nil {
		t.Fatal(err)
	}
	return c
}

// clone returns a copy of c to change.
func (c *craft) clone() *craft {
	n := *c
	b, _ := json.Marshal(c.image)
	n.image = ocispec.Manifest{}
	if err := json.Unmarshal(b, &n.image); err != nil {
		c.t.Fatal(err)
	}
	cb, _ := json.Marshal(c.cfg)
	n.cfg = Config{}
	if err := json.Unmarshal(cb, &n.cfg); err != nil {
		c.t.Fatal(err)
	}
	return &n
}

// blob stores data in the repository and describes it.
func (c *craft) blob(mediaType string, data []byte) ocispec.Descriptor {
	c.t.Helper()
	d := descriptorOf(mediaType, data)
	ctx := context.Background()
	ok, err := c.repo.Exists(ctx, d)
	if err == nil && !ok {
		err = c.repo.Push(ctx, d, bytes.NewReader(data))
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return d
}

// layer returns the bytes of the image manifest's layer i.
func (c *craft) layer(i int) []byte {
	c.t.Helper()
	b, err := content.FetchAll(context.Background(), c.repo.Blobs(), c.image.Layers[i])
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

// pack stores the blob layers idx of the image manifest, in that order, as
// one pack layer as push makes them (see pack.go), titled by the first, and
// describes it.
func (c *craft) pack(idx ...int) ocispec.Descriptor {
	c.t.Helper()
	title := packTitle(manifest.Sum(c.layer(idx[0])))
	var entries []packEntry
	for _, i := range idx {
		entries = append(entries, entryOf(title, c.layer(i)))
	}
	data, tarD := makePack(c.t, entries, nil, nil)
	d := c.blob(PackType, data)
	d.Annotations = map[string]string{ocispec.AnnotationTitle: title, AnnotationDigest: tarD, AnnotationUnpack: "true"}
	return d
}

// push stores the config and the image manifest as they are now under tag,
// and returns the artifact's reference by digest.
func (c *craft) push(tag string) string {
	c.t.Helper()
	cb, err := marshal(c.cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	mt := c.image.Config.MediaType
	c.image.Config = c.blob(mt, cb)
	body, err := marshal(c.image)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.pushRaw(tag, body)
}

// pushRaw stores body as an OCI image manifest under tag, and returns the
// artifact's reference by digest.
func (c *craft) pushRaw(tag string, body []byte) string {
	c.t.Helper()
	d := descriptorOf(ocispec.MediaTypeImageManifest, body)
	if err := c.repo.PushReference(context.Background(), d, bytes.NewReader(body), tag); err != nil {
		c.t.Fatal(err)
	}
	return c.reg.ref(c.name + "@" + d.Digest.String())
}

// sameSize returns the first two blob layers (after the manifest's) of
// one size and different digests.
func sameSize(layers []ocispec.Descriptor) (int, int) {
	for i := 1; i < len(layers); i++ {
		for j := i + 1; j < len(layers); j++ {
			if layers[i].Size == layers[j].Size && layers[i].Digest != layers[j].Digest {
				return i, j
			}
		}
	}
	panic("no two layers of one size")
}

// cacheState lists every file under dir with its mode, size and sha256: two
// equal states are the same files with the same bytes.
func cacheState(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", rel, fi.Mode())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += fmt.Sprintf(" %d %s", len(b), hex.EncodeToString(sum[:]))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// warmCache returns options whose cache holds the bundle of ref (fetched
// from the registry), and the cache's state.
func warmCache(t *testing.T, ref string) (Options, string) {
	t.Helper()
	o := testOptions(t)
	if _, err := Fetch(context.Background(), ref, o); err != nil {
		t.Fatal(err)
	}
	state := cacheState(t, o.CacheDir)
	if !strings.Contains(state, ".skb") {
		t.Fatalf("the cache holds no bundle:\n%s", state)
	}
	return o, state
}

// assertRefused checks that err is a refusal naming ref and matching the
// rule want (a regular expression), and that the cache is in state before.
func assertRefused(t *testing.T, err error, ref, want string, o Options, before string) {
	t.Helper()
	if err == nil {
		t.Fatalf("fetch %s succeeded; want a refusal matching %q", ref, want)
	}
	if !strings.Contains(err.Error(), ref) || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("fetch: %v; want an error naming %s and matching %q", err, ref, want)
	}
	if !errors.Is(err, ErrRefused) {
		t.Errorf("fetch: %v does not wrap ErrRefused", err)
	}
	if after := cacheState(t, o.CacheDir); after != before {
		t.Errorf("the cache changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestConfigBlob reads the config of a pushed bundle back from the
// registry with the real oras CLI (and its media type from the image
// manifest): it holds the bundle's id, creation time, skill and blob counts
// and libraries.
func TestConfigBlob(t *testing.T) {
	need(t, "oras")
	reg := startRegistry(t, false)
	_, b := buildBundle(t, genLibrary(t, 3, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/config:v1"))
	if _, err := Push(context.Background(), b, ref, nil, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	target := reg.Host + "/skills/config:v1"
	run := func(args ...string) []byte { return oras(t, args...) }
	var im ocispec.Manifest
	if err := json.Unmarshal(run("manifest", "fetch", "--plain-http", target), &im); err != nil {
		t.Fatal(err)
	}
	if im.Config.MediaType != ConfigType || im.ArtifactType != ArtifactType {
		t.Errorf("config media type %q, artifact type %q; want %q, %q", im.Config.MediaType, im.ArtifactType, ConfigType, ArtifactType)
	}
	var got Config
	dec := json.NewDecoder(bytes.NewReader(run("manifest", "fetch-config", "--plain-http", target)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	m, _ := b.Manifest()
	distinct := map[manifest.Digest]bool{}
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			distinct[r.Digest] = true
		}
	}
	if got.ID != b.ID().String() || got.Skills != 3 || got.Skills != b.NumSkills() || got.Blobs != len(distinct) || got.Created != m.Created {
		t.Errorf("config %+v; want id %s, 3 skills, %d blobs, created %q", got, b.ID(), len(distinct), m.Created)
	}
	if len(got.Libraries) != 1 || got.Libraries[0].Namespace != "gen" || got.Libraries[0].Skills != 3 {
		t.Errorf("config libraries %+v; want the one library gen of 3 skills", got.Libraries)
	}
	wantLibs, _ := json.Marshal(m.Libraries)
	gotLibs, _ := json.Marshal(got.Libraries)
	if !bytes.Equal(wantLibs, gotLibs) {
		t.Errorf("config libraries %s; want the manifest's %s", gotLibs, wantLibs)
	}
}

// TestCraftedArtifacts fetches artifacts crafted to break one rule each,
// from a real registry (pushed there with oras-go): each is refused with an
// error naming the reference and the rule, and a cache that holds another
// bundle is left exactly as it was.
func TestCraftedArtifacts(t *testing.T) {
	reg := startRegistry(t, false)
	_, b := buildBundle(t, genLibrary(t, 3, ""), nil)
	base := newCraft(t, reg, "skills/crafted", b)
	_, good := buildBundle(t, genLibrary(t, 2, "good"), nil)
	goodRef, _ := ParseRef(reg.ref("skills/good:v1"))
	if _, err := Push(context.Background(), good, goodRef, nil, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func(c *craft) string // returns the reference to fetch
		want   string
	}{
		{"config-id", func(c *craft) string {
			c.cfg.ID = manifest.Digest{}.String()
			return c.push("config-id")
		}, `config names bundle sha256:0{64}, its manifest is ` + b.ID().String()},
		{"config-skills", func(c *craft) string {
			c.cfg.Skills = 0
			return c.push("config-skills")
		}, `config says 0 skills, the manifest holds 3`},
		{"config-blobs", func(c *craft) string {
			c.cfg.Blobs++
			return c.push("config-blobs")
		}, `config says 13 blobs, the manifest holds 12`},
		{"config-libraries", func(c *craft) string {
			c.cfg.Libraries = nil
			return c.push("config-libraries")
		}, `config's libraries are not the manifest's`},
		{"config-library-changed", func(c *craft) string {
			c.cfg.Libraries[0].Skills = 2
			return c.push("config-library-changed")
		}, `config's libraries are not the manifest's`},
		{"config-created", func(c *craft) string {
			c.cfg.Created = "1999-12-31T23:59:59Z"
			return c.push("config-created")
		}, `config says created "1999-12-31T23:59:59Z"`},
		{"config-media-type", func(c *craft) string {
			c.image.Config.MediaType = "application/json"
			return c.push("config-media-type")
		}, `config media type "application/json", want "` + regexp.QuoteMeta(ConfigType) + `"`},
		{"config-not-json", func(c *craft) string {
			c.image.Config = c.blob(ConfigType, []byte("not json"))
			body, _ := marshal(c.image)
			return c.pushRaw("config-not-json", body)
		}, `config: invalid character`},
		{"first-layer", func(c *craft) string {
			c.image.Layers[0], c.image.Layers[1] = c.image.Layers[1], c.image.Layers[0]
			return c.push("first-layer")
		}, `the first layer must be the bundle manifest \(` + regexp.QuoteMeta(manifest.MediaType) + `\)`},
		{"no-layers", func(c *craft) string {
			c.image.Layers = nil
			return c.push("no-layers")
		}, `the first layer must be the bundle manifest`},
		{"layer-media-type", func(c *craft) string {
			c.image.Layers[2].MediaType = "application/octet-stream"
			return c.push("layer-media-type")
		}, `layer 2: media type "application/octet-stream", want ` + regexp.QuoteMeta(BlobType)},
		{"layer-missing", func(c *craft) string {
			c.image.Layers = c.image.Layers[:len(c.image.Layers)-1]
			return c.push("layer-missing")
		}, `the layers end before the manifest's blob sha256:[0-9a-f]{64}`},
		{"layer-extra", func(c *craft) string {
			c.image.Layers = append(c.image.Layers, c.blob(BlobType, []byte("a file the manifest does not list")))
			return c.push("layer-extra")
		}, `13 layers for the manifest's 12 non-empty blobs`},
		{"layer-split", func(c *craft) string {
			// Layers 1 and 2 cut elsewhere: the first ends inside the
			// second blob, though the bytes add up.
			one, two := c.layer(1), c.layer(2)
			k := len(two) / 2
			c.image.Layers[1] = c.blob(BlobType, append(bytes.Clone(one), two[:k]...))
			c.image.Layers[2] = c.blob(BlobType, two[k:])
			return c.push("layer-split")
		}, `layer 1: \d+ bytes where the manifest's next blob, sha256:[0-9a-f]{64}, has \d+`},
		{"layer-swapped", func(c *craft) string {
			c.image.Layers[1], c.image.Layers[2] = c.image.Layers[2], c.image.Layers[1]
			return c.push("layer-swapped")
		}, `layer 1: (blob sha256:[0-9a-f]{64} does not match its digest|\d+ bytes where the manifest's next blob)`},
		{"layer-size", func(c *craft) string {
			c.image.Layers[1].Size = 0
			return c.push("layer-size")
		}, `layer 1: size 0 out of range`},
		{"pack-past-last", func(c *craft) string {
			// One pack of every blob, then the blob layers after the first:
			// no more layers than blobs, but blobs past the last.
			var all []int
			for i := 1; i < len(c.image.Layers); i++ {
				all = append(all, i)
			}
			c.image.Layers[1] = c.pack(all...)
			return c.push("pack-past-last")
		}, `layer 2: a blob past the manifest's last`},
		{"pack-out-of-order", func(c *craft) string {
			// Two blobs of one size, the ends of a pack of the layers
			// between them, the wrong way round.
			i, j := sameSize(c.image.Layers)
			idx := []int{j}
			for k := i + 1; k < j; k++ {
				idx = append(idx, k)
			}
			idx = append(idx, i)
			p := c.pack(idx...)
			c.image.Layers = append(append(slices.Clone(c.image.Layers[:i]), p), c.image.Layers[j+1:]...)
			return c.push("pack-out-of-order")
		}, `layer \d+: blob sha256:[0-9a-f]{64} where the manifest's next is sha256:[0-9a-f]{64}`},
		{"manifest-no-media-type", func(c *craft) string {
			body, _ := marshal(c.image)
			body = bytes.Replace(body, []byte(`"mediaType":"`+ocispec.MediaTypeImageManifest+`",`), nil, 1)
			return c.pushRaw("manifest-no-media-type", body)
		}, `manifest says media type "", schema 2: want "` + regexp.QuoteMeta(ocispec.MediaTypeImageManifest) + `", schema 2`},
		{"manifest-layer-not-canonical", func(c *craft) string {
			// The manifest layer with a space added: its id is a new one,
			// which the config names, but no bundle has that manifest.
			mb := append(c.layer(0), ' ')
			d := c.blob(manifest.MediaType, mb)
			d.Annotations = c.image.Layers[0].Annotations
			c.image.Layers[0] = d
			c.cfg.ID = manifest.Sum(mb).String()
			return c.push("manifest-layer-not-canonical")
		}, `manifest layer: parse manifest`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := base.clone()
			c.t = t
			ref := tc.change(c)
			o, before := warmCache(t, goodRef.String())
			_, err := Fetch(context.Background(), ref, o)
			assertRefused(t, err, ref, tc.want, o, before)
		})
	}
}

// TestManifestSizeLie: a registry whose tag says one size for the image
// manifest and whose manifest has another is refused before its bytes are
// read, and the cache is as it was.
func TestManifestSizeLie(t *testing.T) {
	reg := startRegistry(t, false)
	_, b := buildBundle(t, genLibrary(t, 2, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/size:v1"))
	res, err := Push(context.Background(), b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	_, other := buildBundle(t, genLibrary(t, 1, ""), nil)
	oref, _ := ParseRef(reg.ref("skills/other:v1"))
	if _, err := Push(context.Background(), other, oref, nil, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	l := startLiar(t, reg, "head-size", "", "")
	o, before := warmCache(t, oref.String())
	lref := Scheme + l.host + "/skills/size:v1"
	_, err = Fetch(context.Background(), lref, o)
	pinned := Scheme + l.host + "/skills/size@" + res.Digest
	assertRefused(t, err, pinned, `manifest size \d+, the tag said \d+`, o, before)
}

// pushIndex stores an OCI image index of the given artifact type listing
// manifests under repoTag, and returns its reference by digest.
func pushIndex(t *testing.T, reg *testRegistry, repoTag, artifactType string, manifests []ocispec.Descriptor) string {
	t.Helper()
	ref, _ := ParseRef(reg.ref(repoTag))
	o := testOptions(t)
	repo, err := o.repository(ref)
	if err != nil {
		t.Fatal(err)
	}
	body, err := marshal(ocispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageIndex, ArtifactType: artifactType, Manifests: manifests})
	if err != nil {
		t.Fatal(err)
	}
	d := descriptorOf(ocispec.MediaTypeImageIndex, body)
	if err := repo.PushReference(context.Background(), d, bytes.NewReader(body), ref.Tag); err != nil {
		t.Fatal(err)
	}
	return reg.ref(ref.Repository + "@" + d.Digest.String())
}

// TestToolHiveCraftedArtifacts fetches ToolHive-shaped artifacts crafted
// to break one rule each: an image index of another artifact type, a
// ToolHive index that lists no image manifest or one of a size out of
// range, a skill manifest with two layers, a layer holding two skills.
// Each is refused naming the reference and the rule, and a warm cache is
// left as it was.
func TestToolHiveCraftedArtifacts(t *testing.T) {
	reg := startRegistry(t, false)
	_, good := buildBundle(t, genLibrary(t, 1, ""), nil)
	goodRef, _ := ParseRef(reg.ref("skills/good:v1"))
	if _, err := Push(context.Background(), good, goodRef, nil, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: th\ndescription: A ToolHive skill.\n---\nbody\n"
	ann := map[string]string{toolHiveName: "th"}
	one := toolHiveLayer(t, []tar.Header{{Name: "SKILL.md"}}, []string{skill})
	single := pushRaw(t, reg, "toolhive/single:v1", ToolHiveArtifactType, ocispec.MediaTypeImageLayerGzip, one, ann)
	sref, _ := ParseRef(single)
	o := testOptions(t)
	repo, err := o.repository(sref)
	if err != nil {
		t.Fatal(err)
	}
	sdesc, err := repo.Resolve(context.Background(), "v1")
	if err != nil {
		t.Fatal(err)
	}
	entry := ocispec.Descriptor{MediaType: sdesc.MediaType, Digest: sdesc.Digest, Size: sdesc.Size}
	zero := entry
	zero.Size = 0
	twoLayers := func() string {
		// The skill manifest of "single" with its layer twice.
		_, rc, err := repo.FetchReference(context.Background(), "v1")
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		var im ocispec.Manifest
		if err := json.NewDecoder(rc).Decode(&im); err != nil {
			t.Fatal(err)
		}
		im.Layers = append(im.Layers, im.Layers[0])
		body, _ := marshal(im)
		d := descriptorOf(ocispec.MediaTypeImageManifest, body)
		if err := repo.PushReference(context.Background(), d, bytes.NewReader(body), "two-layers"); err != nil {
			t.Fatal(err)
		}
		return reg.ref("toolhive/single@" + d.Digest.String())
	}
	for _, tc := range []struct {
		name string
		ref  func() string
		want string
	}{
		{"index-of-another-type", func() string {
			return pushIndex(t, reg, "toolhive/single:other", "application/x-other", []ocispec.Descriptor{entry})
		}, `an image index of artifact type "application/x-other": only a ToolHive skill \(dev\.toolhive\.skills\.v1\) may be an index`},
		{"index-empty", func() string {
			return pushIndex(t, reg, "toolhive/single:empty", ToolHiveArtifactType, []ocispec.Descriptor{})
		}, `ToolHive index lists no image manifest`},
		{"index-entry-size", func() string {
			return pushIndex(t, reg, "toolhive/single:zero", ToolHiveArtifactType, []ocispec.Descriptor{zero})
		}, `index entry sha256:[0-9a-f]{64}: size 0 out of range`},
		{"two-layers", twoLayers, `ToolHive skill: want one ` + regexp.QuoteMeta(ocispec.MediaTypeImageLayerGzip) + ` layer`},
		{"two-skills", func() string {
			layer := toolHiveLayer(t, []tar.Header{{Name: "SKILL.md"}, {Name: "inner/SKILL.md"}},
				[]string{skill, "---\nname: inner\ndescription: Another skill.\n---\nbody\n"})
			return pushRaw(t, reg, "toolhive/two-skills:v1", ToolHiveArtifactType, ocispec.MediaTypeImageLayerGzip, layer, ann)
		}, `ToolHive skill th: the layer holds 2 skills, want 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := tc.ref()
			o, before := warmCache(t, goodRef.String())
			_, err := Fetch(context.Background(), ref, o)
			assertRefused(t, err, strings.SplitN(ref, ":v1", 2)[0], tc.want, o, before)
		})
	}
}
