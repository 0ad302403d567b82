package oci

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// lowerMaxLayers packs bundles of more than n files for one test.
func lowerMaxLayers(t testing.TB, n int) {
	old := maxLayers
	maxLayers = n
	t.Cleanup(func() { maxLayers = old })
}

// orasCheck returns docs/oci.md's check of what oras pull gave, the line
// of its oras block that ends in sha256sum -c --quiet: every file under
// blobs/ and packs/ hashes to its name.
func orasCheck(t testing.TB) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/oci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "find ") && strings.HasSuffix(l, "| sha256sum -c --quiet") {
			return l
		}
	}
	t.Fatal("docs/oci.md: no find … | sha256sum -c --quiet line")
	return ""
}

// TestOrasPullsPackedArtifact pushes a bundle big enough to be packed and
// pulls it with the real oras CLI: every non-empty blob of the manifest is
// a file named by its sha256 (under packs/<first hex>/ or blobs/sha256/),
// nothing else is there but manifest.json, docs/oci.md's sha256sum check
// passes, and fails once a byte of one file is changed. Fetch gives back
// the very bundle pushed.
func TestOrasPullsPackedArtifact(t *testing.T) {
	reg := startRegistry(t, false)
	need(t, "oras")
	lowerMaxLayers(t, 8)
	ctx := context.Background()
	path, b := buildBundle(t, genLibrary(t, 12, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/packed:v1"))
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := b.Manifest()
	a, _ := planArtifact(b, m, mustManifestBytes(t, b))
	packs := 0
	for _, l := range a.layers {
		if l.pack {
			packs++
		}
	}
	if packs < 2 || res.Layers > 8*2 {
		t.Fatalf("%d layers, %d of them packs: want the bundle packed", res.Layers, packs)
	}
	dir := t.TempDir()
	oras(t, "pull", "--plain-http", "-o", dir, reg.Host+"/skills/packed:v1")
	want := map[string]bool{}
	for _, r := range blobOrder(m) {
		if r.size > 0 {
			want[r.d.Hex()] = true
		}
	}
	got := map[string]bool{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ManifestTitle {
			return nil
		}
		if !strings.HasPrefix(rel, "blobs/sha256/") && !strings.HasPrefix(rel, packDir) {
			t.Errorf("oras pull left %s", rel)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != filepath.Base(p) {
			t.Errorf("%s does not hash to its name", rel)
		}
		if got[filepath.Base(p)] {
			t.Errorf("%s twice", filepath.Base(p))
		}
		got[filepath.Base(p)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("oras pull gave %d blobs, want %d", len(got), len(want))
	}
	for h := range want {
		if !got[h] {
			t.Errorf("blob %s missing from oras pull", h)
		}
	}
	check := func() error {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", orasCheck(t))
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return errors.New(string(out))
		}
		return nil
	}
	if err := check(); err != nil {
		t.Errorf("docs/oci.md's check fails: %v", err)
	}
	packed, _ := filepath.Glob(filepath.Join(dir, packDir, "*", "*"))
	if len(packed) == 0 {
		t.Fatal("nothing under packs/")
	}
	data, _ := os.ReadFile(packed[0])
	data[0] ^= 1
	if err := os.WriteFile(packed[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if check() == nil {
		t.Error("docs/oci.md's check passes a changed file")
	}

	f, err := Fetch(ctx, res.Ref.String(), testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	fetched, _ := os.ReadFile(f.Path)
	pushed, _ := os.ReadFile(path)
	if !bytes.Equal(fetched, pushed) {
		t.Error("the packed artifact fetches as another bundle")
	}
}

func mustManifestBytes(t testing.TB, b *manifest.Bundle) []byte {
	t.Helper()
	mb, err := b.ManifestBytes()
	if err != nil {
		t.Fatal(err)
	}
	return mb
}

// TestPackedPushSendsOnlyWhatChanged: the same bundle always packs into the
// same bytes, and a new version that changes one SKILL.md sends the one or
// two packs around it, the manifest, the config and the image manifest.
func TestPackedPushSendsOnlyWhatChanged(t *testing.T) {
	reg := startRegistry(t, false)
	lowerMaxLayers(t, 16)
	ctx := context.Background()
	root := genLibrary(t, 100, "")
	_, b1 := buildBundle(t, root, nil)
	writeLibrary(t, root, 1, "A changed line.\n")
	_, b2 := buildBundle(t, root, nil)
	plan := func(b *manifest.Bundle) *artifact {
		m, _ := b.Manifest()
		a, err := planArtifact(b, m, mustManifestBytes(t, b))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a1, a2 := plan(b1), plan(b2)
	if !bytes.Equal(a1.image, plan(b1).image) {
		t.Fatal("the same bundle planned twice gives two image manifests")
	}
	old := map[digest.Digest]bool{}
	for _, l := range a1.layers {
		old[l.desc.Digest] = true
	}
	var fresh []ocispec.Descriptor
	for _, l := range a2.layers {
		if !old[l.desc.Digest] {
			fresh = append(fresh, l.desc)
		}
	}
	if len(fresh) == 0 || len(fresh) > 2 || len(a1.layers) > 16*2 {
		t.Fatalf("one SKILL.md changed: %d new layers of %d: want 1 or 2", len(fresh), len(a2.layers))
	}
	ref, _ := ParseRef(reg.ref("skills/packed:v1"))
	o := testOptions(t)
	if _, err := Push(ctx, b1, ref, nil, o); err != nil {
		t.Fatal(err)
	}
	again, err := Push(ctx, b1, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Sent != 1 {
		t.Errorf("pushing the same bundle again sent %d blobs and manifests, want 1 (the image manifest)", again.Sent)
	}
	c := newCounter()
	o.Client = c.client()
	ref.Tag = "v2"
	res, err := Push(ctx, b2, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != len(fresh)+3 {
		t.Errorf("second push sent %d; want %d (the new packs, manifest, config, image manifest)", res.Sent, len(fresh)+3)
	}
	limit := int64(len(mustManifestBytes(t, b2))) + int64(len(a2.image)) + 4096
	for _, d := range fresh {
		limit += d.Size
	}
	if got := c.sent.Load(); got > limit {
		t.Errorf("second push sent %d bytes on the wire; want at most %d", got, limit)
	}
	t.Logf("second push: %d bytes on the wire, %d sent (%d new layers of %d)", c.sent.Load(), res.Sent, len(fresh), len(a2.layers))
	f, err := Fetch(ctx, res.Ref.String(), testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := manifest.OpenFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Close()
	if fb.ID() != b2.ID() {
		t.Errorf("fetched bundle %s, pushed %s", fb.ID(), b2.ID())
	}
}

// packEntry is one entry of a hand-made pack.
type packEntry struct {
	hdr  tar.Header
	body []byte
}

// entryOf is a well-formed entry for body in the pack titled title.
func entryOf(title string, body []byte) packEntry {
	return packEntry{tar.Header{Typeflag: tar.TypeReg, Name: title + "/" + manifest.Sum(body).Hex(), Mode: 0o644, Size: int64(len(body))}, body}
}

// makePack writes entries as a tar (then inTar appended to it), gzips it
// (then after appended), and returns the layer and the tar's digest.
func makePack(t testing.TB, entries []packEntry, inTar, after []byte) ([]byte, string) {
	t.Helper()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for _, e := range entries {
		if err := tw.WriteHeader(&e.hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil && !errors.Is(err, tar.ErrWriteTooLong) {
			t.Fatal(err)
		}
	}
	tw.Close()
	raw := append(tb.Bytes(), inTar...)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(raw)
	zw.Close()
	return append(zb.Bytes(), after...), digest.FromBytes(raw).String()
}

// TestReadPackRefuses: a pack of our own making reads back; each hostile
// one is refused for what it is, before any of it is used.
func TestReadPackRefuses(t *testing.T) {
	one, two := []byte("first blob\n"), []byte("second blob\n")
	title := packTitle(manifest.Sum(one))
	good := []packEntry{entryOf(title, one), entryOf(title, two)}

	// Ours, as writePack makes it.
	var buf bytes.Buffer
	bodies := [][]byte{one, two}
	info, err := writePack(&buf, manifest.Sum(one), func() (manifest.Digest, int64, io.Reader, bool, error) {
		if len(bodies) == 0 {
			return manifest.Digest{}, 0, nil, false, nil
		}
		b := bodies[0]
		bodies = bodies[1:]
		return manifest.Sum(b), int64(len(b)), bytes.NewReader(b), true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if info.digest != digest.FromBytes(buf.Bytes()) || info.size != int64(buf.Len()) {
		t.Fatalf("writePack says %s, %d; wrote %s, %d", info.digest, info.size, digest.FromBytes(buf.Bytes()), buf.Len())
	}
	bs, err := readPack(buf.Bytes(), title, info.tar.String())
	if err != nil || len(bs) != 2 || !bytes.Equal(bs[0].data, one) || !bytes.Equal(bs[1].data, two) {
		t.Fatalf("our own pack: %v, %d blobs", err, len(bs))
	}
	if data, tarD := makePack(t, good, nil, nil); true {
		if _, err := readPack(data, title, tarD); err != nil {
			t.Fatalf("a well-formed pack: %v", err)
		}
	}

	with := func(i int, f func(*packEntry)) []packEntry {
		es := slices.Clone(good)
		f(&es[i])
		return es
	}
	// A tar bomb: three entries of zeros within a skill's size each, named
	// by their digests, that inflate past what a pack may hold from a
	// layer of some tens of kilobytes.
	var bomb []packEntry
	var bombTitle string
	for i := range 3 {
		z := make([]byte, manifest.MaxSkillBytes/2+i)
		if i == 0 {
			bombTitle = packTitle(manifest.Sum(z))
		}
		bomb = append(bomb, entryOf(bombTitle, z))
	}

	for _, c := range []struct {
		name    string
		entries []packEntry
		inTar   []byte
		after   []byte
		title   string
		tarD    string // "" for the right one
		want    string
	}{
		{name: "dot-dot", entries: with(1, func(e *packEntry) { e.hdr.Name = title + "/../../../etc/x" }), want: "want " + title},
		{name: "absolute", entries: with(1, func(e *packEntry) { e.hdr.Name = "/" + e.hdr.Name }), want: "want " + title},
		{name: "not a digest", entries: with(1, func(e *packEntry) { e.hdr.Name = title + "/notes.txt" }), want: "want " + title},
		{name: "another folder", entries: with(1, func(e *packEntry) { e.hdr.Name = "blobs/sha256/" + manifest.Sum(two).Hex() }), want: "want " + title},
		{name: "upper-case hex", entries: with(1, func(e *packEntry) { e.hdr.Name = title + "/" + strings.ToUpper(manifest.Sum(two).Hex()) }), want: "want " + title},
		{name: "first not as titled", entries: []packEntry{good[1], good[0]}, want: "the first blob must be"},
		{name: "duplicate", entries: []packEntry{good[0], good[1], good[1]}, want: "twice"},
		{name: "symlink", entries: with(1, func(e *packEntry) {
			e.hdr.Typeflag, e.hdr.Linkname, e.hdr.Size, e.body = tar.TypeSymlink, "/etc/passwd", 0, nil
		}), want: "only regular files"},
		{name: "hard link", entries: with(1, func(e *packEntry) {
			e.hdr.Typeflag, e.hdr.Linkname, e.hdr.Size, e.body = tar.TypeLink, good[0].hdr.Name, 0, nil
		}), want: "only regular files"},
		{name: "folder", entries: with(1, func(e *packEntry) { e.hdr.Typeflag, e.hdr.Size, e.body = tar.TypeDir, 0, nil }), want: "only regular files"},
		{name: "empty file", entries: with(1, func(e *packEntry) {
			e.hdr.Name, e.hdr.Size, e.body = title+"/"+manifest.Sum(nil).Hex(), 0, nil
		}), want: "size 0 out of range"},
		{name: "bytes not as named", entries: with(1, func(e *packEntry) { e.body = []byte("second blib\n") }), want: "do not match the name"},
		{name: "size says more", entries: with(1, func(e *packEntry) { e.hdr.Size += 1000 }), want: "unexpected EOF"},
		{name: "size past a skill", entries: with(1, func(e *packEntry) { e.hdr.Size = manifest.MaxSkillBytes + 1 }), want: "out of range"},
		{name: "tar bomb", entries: bomb, title: bombTitle, want: "inflates past"},
		// A GNU sparse file in PAX records: a hole of a skill's size from
		// a few bytes of the stream.
		{name: "sparse", entries: []packEntry{good[0], {tar.Header{Typeflag: tar.TypeReg, Name: title + "/" + manifest.Sum(make([]byte, manifest.MaxSkillBytes)).Hex(),
			Mode: 0o644, Size: 0, PAXRecords: map[string]string{"GNU.sparse.major": "0", "GNU.sparse.minor": "1", "GNU.sparse.numblocks": "0",
				"GNU.sparse.map": "", "GNU.sparse.size": strconv.Itoa(manifest.MaxSkillBytes)}}, nil}}, want: "only plain USTAR"},
		{name: "pax", entries: with(1, func(e *packEntry) { e.hdr.PAXRecords = map[string]string{"comment": "x"} }), want: "only plain USTAR"},
		{name: "gnu", entries: with(1, func(e *packEntry) { e.hdr.Format = tar.FormatGNU }), want: "only plain USTAR"},
		{name: "after the tar", entries: good, inTar: []byte("more"), want: "after the end of the tar"},
		{name: "after the gzip", entries: good, after: []byte{0x1f, 0x8b, 8, 0}, want: "after the gzip stream"},
		{name: "tar digest", entries: good, tarD: digest.FromString("other").String(), want: "annotation " + AnnotationDigest},
		{name: "bad title", entries: good, title: "blobs/sha256", want: "title"},
		{name: "no blobs", entries: nil, want: "no blobs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, tarD := makePack(t, c.entries, c.inTar, c.after)
			if c.tarD != "" {
				tarD = c.tarD
			}
			ti := title
			if c.title != "" {
				ti = c.title
			}
			bs, err := readPack(data, ti, tarD)
			if !errors.Is(err, errPack) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("readPack: %d blobs, %v; want a refusal saying %q", len(bs), err, c.want)
			}
		})
	}
	if _, err := readPack([]byte("not gzip at all"), title, info.tar.String()); !errors.Is(err, errPack) {
		t.Errorf("not gzip: %v", err)
	}
}

// TestFetchRefusesHostilePack pushes a packed artifact whose first pack
// has been swapped for one holding a symlink (its descriptor, title and
// tar digest all consistent): the fetch is refused naming the reference
// and the rule, and the cache stays empty.
func TestFetchRefusesHostilePack(t *testing.T) {
	reg := startRegistry(t, false)
	lowerMaxLayers(t, 8)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 12, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/hostile:v1"))
	o := testOptions(t)
	if _, err := Push(ctx, b, ref, nil, o); err != nil {
		t.Fatal(err)
	}
	m, _ := b.Manifest()
	mb := mustManifestBytes(t, b)
	a, _ := planArtifact(b, m, mb)
	i := slices.IndexFunc(a.layers, func(l layer) bool { return l.pack })
	l := &a.layers[i]
	first := a.order[l.from].d
	firstData, _ := b.ReadBlob(first)
	title := packTitle(first)
	data, tarD := makePack(t, []packEntry{entryOf(title, firstData),
		{tar.Header{Typeflag: tar.TypeSymlink, Name: title + "/" + a.order[l.from+1].d.Hex(), Linkname: "/etc/passwd"}, nil}}, nil, nil)
	l.desc.Digest, l.desc.Size = digest.FromBytes(data), int64(len(data))
	l.desc.Annotations[AnnotationDigest] = tarD
	image, err := imageManifest(a.configDesc, a.manDesc, a.layers, m)
	if err != nil {
		t.Fatal(err)
	}
	repo, _ := o.repository(ref)
	if err := repo.Push(ctx, l.desc, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	desc := descriptorOf(ocispec.MediaTypeImageManifest, image)
	if err := repo.PushReference(ctx, desc, bytes.NewReader(image), "hostile"); err != nil {
		t.Fatal(err)
	}
	o = testOptions(t)
	_, err = Fetch(ctx, reg.ref("skills/hostile:hostile"), o)
	pinned := reg.ref("skills/hostile@" + desc.Digest.String())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), pinned) || !strings.Contains(err.Error(), "only regular files") {
		t.Errorf("fetch: %v; want a refusal naming %s and the rule", err, pinned)
	}
	assertEmptyCache(t, o.CacheDir)
}

// TestPlaceholderDigest wants the placeholder of a pack's digest to be a
// valid SHA-256 digest of the length of a real one.
func TestPlaceholderDigest(t *testing.T) {
	want := digest.NewDigestFromEncoded(digest.SHA256, strings.Repeat("0", 64))
	if placeholder != want || placeholder.Validate() != nil {
		t.Errorf("placeholder = %q, want %q", placeholder, want)
	}
}
