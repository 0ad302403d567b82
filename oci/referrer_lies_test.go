package oci

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestSignatureReferrerLies: under trust, a referrers index that lists as a
// signature a manifest that is none (no subject), or more signature
// referrers than a fetch takes, is refused before any blob is fetched, and
// the cache is as it was. Without trust the same lies are a warning: the
// bundle is fetched without signatures.
func TestSignatureReferrerLies(t *testing.T) {
	reg, goodRef, trusted, b := trustedLies(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		n    int // referrers listed
		want string
	}{
		{"not-a-signature", 1, `signature referrer sha256:[0-9a-f]{64}: not a signature of this artifact`},
		{"too-many", maxSignatures + 1, fmt.Sprintf(`referrers: .*more than %d signature referrers`, maxSignatures)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCraft(t, reg, "skills/"+tc.name, b)
			empty := c.blob(ocispec.MediaTypeEmptyJSON, ocispec.DescriptorEmptyJSON.Data)
			var listed []ocispec.Descriptor
			for i := range tc.n {
				// A manifest of the signatures' artifact type that names no
				// subject: listed in the index, it is a lie.
				body, err := marshal(ocispec.Manifest{
					Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
					ArtifactType: SignaturesType, Config: empty, Layers: []ocispec.Descriptor{empty},
					Annotations: map[string]string{"n": fmt.Sprint(i)},
				})
				if err != nil {
					t.Fatal(err)
				}
				d := descriptorOf(ocispec.MediaTypeImageManifest, body)
				if err := c.repo.Push(ctx, d, bytes.NewReader(body)); err != nil {
					t.Fatal(err)
				}
				d.ArtifactType = SignaturesType
				listed = append(listed, d)
			}
			c.referrersIndex(listed)
			ref := c.reg.ref(c.name + "@" + c.digest)
			o, before := warmCache(t, goodRef.String())
			o.Trusted = trusted
			_, err := Fetch(ctx, ref, o)
			assertRefused(t, err, ref, tc.want, o, before)

			var logs strings.Builder
			o = testOptions(t)
			o.Logf = func(f string, a ...any) { fmt.Fprintf(&logs, f+"\n", a...) }
			f, err := Fetch(ctx, ref, o)
			if err != nil {
				t.Fatalf("fetch without trust: %v", err)
			}
			if !regexp.MustCompile(`warning: .*` + tc.want + `.*; going on without signatures`).MatchString(logs.String()) {
				t.Errorf("fetch without trust logged %q; want a warning matching %q", logs.String(), tc.want)
			}
			fb, err := manifest.OpenFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer fb.Close()
			if len(fb.Signatures()) != 0 {
				t.Errorf("the fetched bundle carries %d signatures", len(fb.Signatures()))
			}
		})
	}
}

// TestSignatureReferrerLimits: under trust, a signature referrer with more
// signature layers than a fetch takes, or a referrers index entry that is
// not an image manifest, is refused naming the reference and the rule, and
// a warm cache is left as it was.
func TestSignatureReferrerLimits(t *testing.T) {
	reg, goodRef, trusted, b := trustedLies(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		lie  func(c *craft)
		want string
	}{
		{"too-many-signatures", func(c *craft) {
			subject, err := c.repo.Resolve(ctx, "pushed")
			if err != nil {
				t.Fatal(err)
			}
			subject = ocispec.Descriptor{MediaType: subject.MediaType, Digest: subject.Digest, Size: subject.Size}
			empty := c.blob(ocispec.MediaTypeEmptyJSON, ocispec.DescriptorEmptyJSON.Data)
			sig := c.blob(SSHSigType, []byte("not checked: there are too many"))
			layers := slices.Repeat([]ocispec.Descriptor{sig}, maxSignatures+1)
			body, err := marshal(ocispec.Manifest{
				Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
				ArtifactType: SignaturesType, Config: empty, Layers: layers, Subject: &subject,
			})
			if err != nil {
				t.Fatal(err)
			}
			// oras-go writes the referrers tag index as it pushes.
			if err := c.repo.Push(ctx, descriptorOf(ocispec.MediaTypeImageManifest, body), bytes.NewReader(body)); err != nil {
				t.Fatal(err)
			}
		}, fmt.Sprintf(`more than %d signatures`, maxSignatures)},
		{"referrer-not-a-manifest", func(c *craft) {
			d := descriptorOf(ocispec.MediaTypeImageIndex, []byte("x"))
			d.Digest, d.Size, d.ArtifactType = digestOf(c.digest), c.imageSize(), SignaturesType
			c.referrersIndex([]ocispec.Descriptor{d})
		}, `signature referrer sha256:[0-9a-f]{64}: media type "` + regexp.QuoteMeta(ocispec.MediaTypeImageIndex) + `", size \d+`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCraft(t, reg, "skills/"+tc.name, b)
			tc.lie(c)
			ref := c.reg.ref(c.name + "@" + c.digest)
			o, before := warmCache(t, goodRef.String())
			o.Trusted = trusted
			_, err := Fetch(ctx, ref, o)
			assertRefused(t, err, ref, tc.want, o, before)
		})
	}
}

// trustedLies starts a registry holding a signed bundle (goodRef, to warm
// a cache with) and returns the keys that trust it and an unsigned bundle
// to craft lies around: what the tests of refusals under trust share.
func trustedLies(t *testing.T) (*testRegistry, Ref, []manifest.TrustedKey, *manifest.Bundle) {
	t.Helper()
	reg := startRegistry(t, false)
	sign, trusted, _ := signer(t)
	_, good := buildBundle(t, genLibrary(t, 2, "good"), sign)
	goodRef, _ := ParseRef(reg.ref("skills/good:v1"))
	if _, err := Push(context.Background(), good, goodRef, nil, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	_, b := buildBundle(t, genLibrary(t, 2, ""), nil)
	return reg, goodRef, trusted, b
}

// referrersIndex pushes the index of the referrers tag schema that lists
// the pushed artifact's referrers (distribution 2.8 has no referrers API):
// listed, whatever they are.
func (c *craft) referrersIndex(listed []ocispec.Descriptor) {
	c.t.Helper()
	idx, err := marshal(ocispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageIndex, Manifests: listed})
	if err != nil {
		c.t.Fatal(err)
	}
	tag := strings.Replace(c.digest, ":", "-", 1)
	if err := c.repo.PushReference(context.Background(), descriptorOf(ocispec.MediaTypeImageIndex, idx), bytes.NewReader(idx), tag); err != nil {
		c.t.Fatal(err)
	}
}

func digestOf(s string) digest.Digest { return digest.Digest(s) }

// imageSize is the size of the pushed artifact's image manifest.
func (c *craft) imageSize() int64 {
	c.t.Helper()
	d, err := c.repo.Resolve(context.Background(), "pushed")
	if err != nil {
		c.t.Fatal(err)
	}
	return d.Size
}
