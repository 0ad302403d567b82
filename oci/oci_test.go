package oci

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestPushFetchRoundTrip pushes a bundle to a real registry and fetches it
// back by tag and by digest: the cached bundle has the same id and the same
// bytes as the pushed one, and a second fetch by digest sends no request.
func TestPushFetchRoundTrip(t *testing.T) {
	reg := startRegistry(t, false)
	path, b := buildBundle(t, genLibrary(t, 20, ""), nil)
	ctx := context.Background()
	o := testOptions(t)
	ref, err := ParseRef(reg.ref("skills/gen:v1"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Push(ctx, b, ref, []string{"latest"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Layers != 80 || res.Sent != 83 || res.Skipped != 0 {
		t.Errorf("push: %d layers, %d sent, %d skipped; want 80, 83, 0", res.Layers, res.Sent, res.Skipped)
	}
	for _, r := range []string{reg.ref("skills/gen:v1"), reg.ref("skills/gen:latest")} {
		o := testOptions(t)
		f, err := Fetch(ctx, r, o)
		if err != nil {
			t.Fatal(err)
		}
		if f.Ref != res.Ref || f.Cached {
			t.Errorf("fetch %s: ref %s cached %v, want %s, false", r, f.Ref, f.Cached, res.Ref)
		}
		got, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(path)
		if !bytes.Equal(got, want) {
			t.Errorf("fetched bundle differs from the pushed one (%d vs %d bytes)", len(got), len(want))
		}
		fb, err := manifest.OpenFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if err := fb.Verify(); err != nil {
			t.Error(err)
		}
		fb.Close()
	}
	// By digest, from a warm cache: no request at all.
	c := newCounter()
	o.Client = c.client()
	if _, err := Fetch(ctx, res.Ref.String(), o); err != nil {
		t.Fatal(err)
	}
	f, err := Fetch(ctx, res.Ref.String(), o)
	if err != nil {
		t.Fatal(err)
	}
	n := c.requests.Load()
	if !f.Cached {
		t.Error("second fetch by digest was not a cache hit")
	}
	if _, err := Fetch(ctx, res.Ref.String(), o); err != nil {
		t.Fatal(err)
	}
	if c.requests.Load() != n {
		t.Errorf("a fetch by digest with a warm cache sent %d requests", c.requests.Load()-n)
	}
}

// TestPushSendsOnlyWhatChanged pushes a bundle, then a new version of it
// that changes one skill's SKILL.md: the second push sends that file, the
// manifest, the config and the image manifest, and nothing else (counted
// on the wire).
func TestPushSendsOnlyWhatChanged(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	root := genLibrary(t, 100, "")
	_, b1 := buildBundle(t, root, nil)
	writeLibrary(t, root, 1, "A changed line.\n")
	_, b2 := buildBundle(t, root, nil)
	ref, _ := ParseRef(reg.ref("skills/gen:v1"))
	o := testOptions(t)
	start := time.Now()
	if _, err := Push(ctx, b1, ref, nil, o); err != nil {
		t.Fatal(err)
	}
	t.Logf("first push: %v", time.Since(start))
	start = time.Now()
	c := newCounter()
	o.Client = c.client()
	ref.Tag = "v2"
	res, err := Push(ctx, b2, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("second push: %v, requests %v", time.Since(start), c.methods)
	m2, _ := b2.ManifestBytes()
	skill, _ := b2.Skill(0)
	changed := skill.Entry.Resources[0].Size
	if res.Sent != 4 || res.Skipped != 399 {
		t.Errorf("second push sent %d and skipped %d; want 4 (SKILL.md, manifest, config, image manifest) and 399", res.Sent, res.Skipped)
	}
	limit := changed + int64(len(m2)) + 4096 + 300*int64(res.Layers) // the file, the manifest, the config, the image manifest
	if got := c.sent.Load(); got > limit || res.SentBytes > limit {
		t.Errorf("second push sent %d bytes on the wire (%d counted); want at most %d", got, res.SentBytes, limit)
	}
	t.Logf("second push: %d bytes on the wire, %d blobs sent, %d skipped (%d bytes not sent); changed file %d bytes, manifest %d bytes",
		c.sent.Load(), res.Sent, res.Skipped, res.SkippedBytes, changed, len(m2))
}

// signer returns a function that signs a bundle's manifest with a fresh
// key, and the keys to trust it.
func signer(t testing.TB) (func(*manifest.Bundle) []manifest.Signature, []manifest.TrustedKey, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.Public().(ed25519.PublicKey)
	line, err := manifest.MarshalAllowedSigner("ci@example", pub)
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := manifest.ParseTrust([]byte(line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return func(b *manifest.Bundle) []manifest.Signature {
		msg, err := b.ManifestBytes()
		if err != nil {
			t.Fatal(err)
		}
		mini, err := manifest.SignMinisign(priv, msg, "skills bundle "+b.ID().String())
		if err != nil {
			t.Fatal(err)
		}
		return []manifest.Signature{{Kind: manifest.SignatureSSH, Data: manifest.SignSSH(priv, msg)}, {Kind: manifest.SignatureMinisign, Data: mini}}
	}, trusted, line
}

// TestSignaturesAsReferrers pushes a signed bundle: its signatures become a
// referrer (through the tag-schema index, which distribution 2.8 needs),
// a fetch with trusted keys checks them before fetching any blob, and the
// cached bundle carries them. An unsigned artifact, or one signed by
// another key, is refused under trust, and nothing is cached.
func TestSignaturesAsReferrers(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	root := genLibrary(t, 5, "")
	sign, trusted, _ := signer(t)
	_, signed := buildBundle(t, root, sign)
	_, unsigned := buildBundle(t, genLibrary(t, 3, ""), nil)
	_, other, _ := signer(t)
	o := testOptions(t)
	ref, _ := ParseRef(reg.ref("skills/signed:v1"))
	res, err := Push(ctx, signed, ref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Signatures == "" {
		t.Fatal("push attached no signatures")
	}
	uref, _ := ParseRef(reg.ref("skills/unsigned:v1"))
	if _, err := Push(ctx, unsigned, uref, nil, o); err != nil {
		t.Fatal(err)
	}

	o.Trusted = trusted
	f, err := Fetch(ctx, ref.String(), o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	msg, _ := b.ManifestBytes()
	if _, err := manifest.VerifySignatures(msg, b.Signatures(), trusted); err != nil {
		t.Errorf("cached bundle: %v", err)
	}
	for _, c := range []struct {
		ref     string
		trusted []manifest.TrustedKey
		want    error
	}{
		{uref.String(), trusted, manifest.ErrUnsigned},
		{ref.String(), other, manifest.ErrUntrusted},
	} {
		o := testOptions(t)
		o.Trusted = c.trusted
		_, err := Fetch(ctx, c.ref, o)
		if !errors.Is(err, c.want) {
			t.Errorf("fetch %s: %v, want %v", c.ref, err, c.want)
		}
		assertEmptyCache(t, o.CacheDir)
	}
}

// assertEmptyCache fails unless the cache folder holds no file.
func assertEmptyCache(t testing.TB, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("cache holds %s", p)
		}
		return nil
	})
}

// TestPushMountsFromAnotherRepository pushes a bundle to one repository,
// then to another of the same registry with MountFrom naming the first: the
// registry takes every blob from there, and only the image manifest is
// sent. Without MountFrom every blob would be sent again.
func TestPushMountsFromAnotherRepository(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 10, ""), nil)
	o := testOptions(t)
	a, _ := ParseRef(reg.ref("team-a/skills:v1"))
	if _, err := Push(ctx, b, a, nil, o); err != nil {
		t.Fatal(err)
	}
	c := newCounter()
	o.Client = c.client()
	o.MountFrom = "team-a/skills"
	bref, _ := ParseRef(reg.ref("team-b/skills:v1"))
	res, err := Push(ctx, b, bref, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Mounted != 42 || res.Sent != 1 {
		t.Errorf("push with a mount: %d mounted, %d sent; want 42 (40 files, manifest, config) and 1 (the image manifest)", res.Mounted, res.Sent)
	}
	image, _ := Fetch(ctx, res.Ref.String(), testOptions(t))
	if image == nil {
		t.Fatal("the mounted artifact does not fetch")
	}
	if sent := c.sent.Load(); sent > 64<<10 {
		t.Errorf("push with a mount sent %d bytes", sent)
	}
}
