package oci

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// TestCosignFloods: what a registry holds in Sigstore's formats is bounded
// before it is read: a referrer flood (more than 1,024 referrers of any
// type), more than 64 cosign signatures at the .sig tag, a simple-signing
// payload or a Sigstore bundle declared 100 MB, a signature annotation of
// 5 KiB. Under trust each is refused naming the reference and the rule,
// within a bound on time and memory, and a warm cache is left as it was.
func TestCosignFloods(t *testing.T) {
	reg, goodRef, trusted, b := trustedLies(t)
	ctx := context.Background()
	const huge = 100 << 20
	// sigTag pushes the image cosign keeps at the artifact's .sig tag, with
	// these layers.
	sigTag := func(c *craft, layers []ocispec.Descriptor) {
		empty := c.blob(ocispec.MediaTypeEmptyJSON, ocispec.DescriptorEmptyJSON.Data)
		body, err := marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, Config: empty, Layers: layers})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.repo.PushReference(ctx, descriptorOf(ocispec.MediaTypeImageManifest, body), bytes.NewReader(body), SignatureTag(c.digest)); err != nil {
			t.Fatal(err)
		}
	}
	payload := func(c *craft) ocispec.Descriptor {
		ref, _ := ParseRef(c.reg.ref(c.name))
		p, err := SimpleSigningPayload(ref, c.digest)
		if err != nil {
			t.Fatal(err)
		}
		d := c.blob(SimpleSigningType, p)
		d.Annotations = map[string]string{annotationCosignSig: "MEUCIQ=="}
		return d
	}
	for _, tc := range []struct {
		name string
		lie  func(c *craft)
		want string
	}{
		{"referrer-flood", func(c *craft) {
			// The referrers tag schema's index, listing more referrers
			// than a fetch reads (the registry wants each to exist).
			empty := c.blob(ocispec.MediaTypeEmptyJSON, ocispec.DescriptorEmptyJSON.Data)
			listed := make([]ocispec.Descriptor, maxReferrers+1)
			errs := make(chan error, len(listed))
			work := make(chan int)
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					for i := range work {
						body, err := marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
							ArtifactType: "application/x-flood", Config: empty, Layers: []ocispec.Descriptor{empty}, Annotations: map[string]string{"n": fmt.Sprint(i)}})
						d := descriptorOf(ocispec.MediaTypeImageManifest, body)
						if err == nil {
							err = c.repo.Push(ctx, d, bytes.NewReader(body))
						}
						d.ArtifactType = "application/x-flood"
						listed[i] = d
						errs <- err
					}
				})
			}
			for i := range listed {
				work <- i
			}
			close(work)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			c.referrersIndex(listed)
		}, fmt.Sprintf(`referrers: .*more than %d referrers`, maxReferrers)},
		{"cosign-signature-flood", func(c *craft) {
			sigTag(c, slices.Repeat([]ocispec.Descriptor{payload(c)}, maxCosignSignatures+1))
		}, fmt.Sprintf(`sha256-[0-9a-f]{64}\.sig: more than %d signatures`, maxCosignSignatures)},
		{"huge-payload", func(c *craft) {
			d := payload(c)
			d.Size = huge // declared; the blob is never asked for
			sigTag(c, []ocispec.Descriptor{d})
		}, fmt.Sprintf(`simple-signing payload of %d bytes: the limit is %d`, huge, MaxSigstoreBundle)},
		{"huge-annotation", func(c *craft) {
			d := payload(c)
			d.Annotations[annotationCosignSig] = strings.Repeat("A", 5<<10)
			sigTag(c, []ocispec.Descriptor{d})
		}, `\.sig: a signature annotation of 5120 bytes`},
		{"huge-bundle", func(c *craft) {
			subject, err := c.repo.Resolve(ctx, "pushed")
			if err != nil {
				t.Fatal(err)
			}
			subject = ocispec.Descriptor{MediaType: subject.MediaType, Digest: subject.Digest, Size: subject.Size}
			empty := c.blob(ocispec.MediaTypeEmptyJSON, ocispec.DescriptorEmptyJSON.Data)
			layer := descriptorOf(SigstoreBundleType, []byte("{}"))
			layer.Size = huge
			body, err := marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
				ArtifactType: SigstoreBundleType, Config: empty, Layers: []ocispec.Descriptor{layer}, Subject: &subject})
			if err != nil {
				t.Fatal(err)
			}
			// oras-go writes the referrers tag index as it pushes.
			if err := c.repo.Push(ctx, descriptorOf(ocispec.MediaTypeImageManifest, body), bytes.NewReader(body)); err != nil {
				t.Fatal(err)
			}
		}, fmt.Sprintf(`Sigstore bundle of %d bytes: the limit is %d`, huge, MaxSigstoreBundle)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCraft(t, reg, "skills/"+tc.name, b)
			tc.lie(c)
			ref := c.reg.ref(c.name + "@" + c.digest)
			o, before := warmCache(t, goodRef.String())
			o.Trusted = trusted
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			start := time.Now()
			_, err := Fetch(ctx, ref, o)
			took := time.Since(start)
			runtime.ReadMemStats(&m1)
			assertRefused(t, err, ref, tc.want, o, before)
			if took > 20*time.Second {
				t.Errorf("refused after %v", took)
			}
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 64<<20 {
				t.Errorf("refusing allocated %d MB", alloc>>20)
			}
		})
	}
}
