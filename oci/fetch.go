package oci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
)

// fetchConcurrency is how many layers a fetch reads ahead of the writer.
const fetchConcurrency = 8

// Fetched is a bundle fetched from a registry into the cache.
type Fetched struct {
	Path   string // the bundle file in the cache
	Ref    Ref    // the reference pinned to the artifact's digest
	Cached bool   // the file was in the cache already: nothing was fetched
	// Signer names who signed it, when Options asked for trust.
	Signer string
}

// CachePath returns where the cache under dir keeps the bundle of the
// artifact with digest d ("sha256:<hex>").
func CachePath(dir, d string) string {
	return filepath.Join(dir, "oci", "sha256", strings.TrimPrefix(d, "sha256:")+".skb")
}

// Fetch returns a local bundle file for the artifact s names
// (oci://HOST/REPO:TAG or oci://HOST/REPO@sha256:…). A tag is resolved to a
// digest once, and logged. A bundle already in the cache under that digest
// is used as it is, without a request when s names a digest. Otherwise
// every byte fetched is checked against its digest as it streams, and the
// artifact is reassembled into a bundle file in the cache, written
// atomically: on any error the cache is left as it was. With
// Options.Trusted, the referrers' signatures are checked against the
// manifest before any blob is fetched.
func Fetch(ctx context.Context, s string, o Options) (*Fetched, error) {
	ref, err := ParseRef(s)
	if err != nil {
		return nil, err
	}
	if ref.Tag == "" && ref.Digest == "" {
		return nil, fmt.Errorf("%s: name a tag (:TAG) or a digest (@sha256:…)", ref)
	}
	if o.CacheDir == "" {
		return nil, fmt.Errorf("%s: no cache folder to fetch into", ref)
	}
	if ref.Digest != "" {
		if p := CachePath(o.CacheDir, ref.Digest); fileExists(p) {
			if who, ok := o.cachedTrusted(ctx, p, ref); ok {
				o.logf("%s: in the cache (%s)", ref, p)
				return &Fetched{Path: p, Ref: ref, Cached: true, Signer: who}, nil
			}
		}
	}
	// What fetches killed before they renamed left, of this digest or any
	// other (which may never be fetched again); a warm fetch by digest,
	// above, writes nothing and skips this.
	manifest.RemoveStaleTemps(filepath.Dir(CachePath(o.CacheDir, "sha256:")))
	repo, err := o.repository(ref)
	if err != nil {
		return nil, err
	}
	pinned := ref
	var desc ocispec.Descriptor
	if ref.Digest == "" {
		desc, err = repo.Resolve(ctx, ref.Tag)
		if err != nil {
			return nil, fmt.Errorf("%s: resolve: %w", ref, err)
		}
		pinned = ref.WithDigest(desc.Digest.String())
		o.logf("%s: resolved to %s", ref, pinned)
	}
	f := &fetcher{repo: repo, ref: pinned, o: &o}
	if p := CachePath(o.CacheDir, pinned.Digest); fileExists(p) {
		if who, ok := o.cachedTrusted(ctx, p, pinned); ok {
			o.logf("%s: in the cache (%s)", pinned, p)
			return &Fetched{Path: p, Ref: pinned, Cached: true, Signer: who}, nil
		}
		// Signatures may have been attached since the bundle was cached.
		who, err := f.refreshSignatures(ctx, p)
		switch {
		case errors.Is(err, errNotThisArtifact):
			o.logf("%s: the cached %s is not known to be this artifact: fetching it again", pinned, p)
		case err != nil:
			return nil, err
		default:
			o.logf("%s: in the cache (%s), with the signatures attached since", pinned, p)
			return &Fetched{Path: p, Ref: pinned, Cached: true, Signer: who}, nil
		}
	}
	im, desc, err := f.imageManifest(ctx, desc)
	if err != nil {
		return nil, err
	}
	path := CachePath(o.CacheDir, pinned.Digest)
	switch {
	case im.ArtifactType == ArtifactType:
		err = f.bundle(ctx, desc, im, path)
	case isToolHive(im):
		err = f.toolHive(ctx, desc, im, path)
	default:
		return nil, refused(pinned, "artifact type %q: not a skills bundle (%s) nor a ToolHive skill (%s)", artifactTypeOf(im), ArtifactType, ToolHiveArtifactType)
	}
	if err != nil {
		return nil, err
	}
	return &Fetched{Path: path, Ref: pinned, Signer: f.signer}, nil
}

// cachedTrusted reports whether the cached bundle at p, of the artifact
// ref pins, meets Options.Trusted and Options.Cosign with the signatures it
// carries (always, without trust). A bundle that cannot be opened counts
// as not trusted. A bundle cosign signatures vouch for only if it is the
// artifact they sign: one that makes it (cachedOf), or one a ToolHive
// artifact kept in the cache builds into (cachedToolHive).
func (o *Options) cachedTrusted(ctx context.Context, p string, ref Ref) (string, bool) {
	if !o.trustRequired() {
		return "", true
	}
	d := ref.Digest
	b, err := manifest.OpenFile(p)
	if err != nil {
		return "", false
	}
	defer b.Close()
	mb, err := b.ManifestBytes()
	if err != nil {
		return "", false
	}
	// A bundle the cache recorded as what a ToolHive artifact built into
	// is not one of ours: the record is its proof (cachedToolHive checks
	// the signatures first), and cachedOf's need not be made.
	if o.Cosign != nil && o.recordedToolHive(b, ref) {
		if who, ok := o.cachedToolHive(ctx, b, p, ref); ok {
			return who, true
		}
	}
	oc := o.cachedOf(b, d)
	if oc != o {
		if who, ok := o.cachedToolHive(ctx, b, p, ref); ok {
			return who, true
		}
	}
	who, err := oc.checkTrust(d, mb, b.Signatures())
	return who, err == nil
}

// errNotThisArtifact: a cached bundle whose only trusted signatures are
// cosign's is not shown to be the artifact they sign; it is fetched again.
var errNotThisArtifact = errors.New("the cached bundle is not the artifact signed")

// cachedOf returns the options that check the signatures of b, a bundle in
// the cache under the artifact digest d. A cosign signature signs d, not
// the bundle: it vouches for a cached bundle only if the bundle makes the
// artifact of d (ArtifactDigest), as a bundle push made does. Any other
// file at the cache path (planted there, or a ToolHive skill converted)
// is checked without cosign trust, so that signatures of d fetched again
// cannot make a bundle that is not d's trusted.
func (o *Options) cachedOf(b *manifest.Bundle, d string) *Options {
	if o.Cosign == nil {
		return o
	}
	if ad, err := ArtifactDigest(b); err == nil && ad == d {
		return o
	}
	oc := *o
	oc.Cosign = nil
	return &oc
}

// refreshSignatures reads the artifact's signature referrers again and,
// when they meet Options.Trusted, rewrites the cached bundle at p with them
// (atomically); otherwise it leaves p as it is and says why.
func (f *fetcher) refreshSignatures(ctx context.Context, p string) (string, error) {
	b, err := manifest.OpenFile(p)
	if err != nil {
		return "", fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	defer b.Close()
	mb, err := b.ManifestBytes()
	if err != nil {
		return "", fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.Digest(f.ref.Digest)}
	sigs, err := f.allSignatures(ctx, desc)
	if err != nil {
		return "", err
	}
	oc := f.o.cachedOf(b, f.ref.Digest)
	who, err := oc.checkTrust(f.ref.Digest, mb, sigs)
	if err != nil {
		if oc != f.o {
			return "", errNotThisArtifact
		}
		return "", fmt.Errorf("%s: %w", f.ref, err)
	}
	return who, manifest.WriteFileAtomic(p, 0o644, func(w io.Writer) error { return b.WriteSigned(w, sigs) })
}

func artifactTypeOf(im *ocispec.Manifest) string {
	if im.ArtifactType != "" {
		return im.ArtifactType
	}
	return im.Config.MediaType
}

// imageManifest fetches and checks the image manifest the pinned reference
// names: its bytes must hash to the digest, its media type must be an OCI
// image manifest, or the image index of a ToolHive skill. desc is what the
// tag resolved to, or zero.
func (f *fetcher) imageManifest(ctx context.Context, desc ocispec.Descriptor) (*ocispec.Manifest, ocispec.Descriptor, error) {
	want := digest.Digest(f.ref.Digest)
	if err := want.Validate(); err != nil {
		return nil, desc, refused(f.ref, "digest: %v", err)
	}
	got, rc, err := f.repo.FetchReference(ctx, f.ref.Digest)
	if err != nil {
		return nil, desc, fmt.Errorf("%s: fetch manifest: %w", f.ref, err)
	}
	defer rc.Close()
	if got.MediaType != ocispec.MediaTypeImageManifest && got.MediaType != ocispec.MediaTypeImageIndex {
		return nil, desc, refused(f.ref, "manifest media type %q, want %q", got.MediaType, ocispec.MediaTypeImageManifest)
	}
	if got.Size > maxImageManifest {
		return nil, desc, refused(f.ref, "manifest of %d bytes exceeds %d", got.Size, maxImageManifest)
	}
	if desc.Size != 0 && got.Size != desc.Size {
		return nil, desc, refused(f.ref, "manifest size %d, the tag said %d", got.Size, desc.Size)
	}
	got.Digest = want
	body, err := content.ReadAll(rc, got)
	if err != nil {
		return nil, desc, refused(f.ref, "manifest does not match its digest: %v", err)
	}
	if got.MediaType == ocispec.MediaTypeImageIndex {
		im, err := f.toolHiveManifest(ctx, body)
		return im, got, err
	}
	im, err := decodeManifest(f.ref, body)
	f.thManifest = body // kept for the cache if it is a ToolHive skill
	return im, got, err
}

// bundle reassembles a skills bundle artifact into the bundle file at path.
func (f *fetcher) bundle(ctx context.Context, desc ocispec.Descriptor, im *ocispec.Manifest, path string) error {
	if im.Config.MediaType != ConfigType {
		return refused(f.ref, "config media type %q, want %q", im.Config.MediaType, ConfigType)
	}
	if len(im.Layers) == 0 || im.Layers[0].MediaType != manifest.MediaType {
		return refused(f.ref, "the first layer must be the bundle manifest (%s)", manifest.MediaType)
	}
	cb, err := f.fetchSmall(ctx, im.Config, maxConfig, "config")
	if err != nil {
		return err
	}
	mb, err := f.fetchSmall(ctx, im.Layers[0], f.o.maxBytes(), "manifest layer")
	if err != nil {
		return err
	}
	id := manifest.Sum(mb)
	m, err := manifest.Parse(mb)
	if err != nil {
		return refused(f.ref, "manifest layer: %v", err)
	}
	if _, err := checkConfig(f.ref, cb, m, mb); err != nil {
		return err
	}
	sigs, err := f.allSignatures(ctx, desc)
	if err != nil {
		if f.o.trustRequired() {
			return err
		}
		f.o.logf("warning: %v; going on without signatures", err)
		sigs = nil
	}
	if f.o.trustRequired() {
		if f.signer, err = f.o.checkTrust(desc.Digest.String(), mb, sigs); err != nil {
			return fmt.Errorf("%s: %w", f.ref, err)
		}
	}
	order := blobOrder(m)
	layers := im.Layers[1:]
	var want int64
	nonEmpty := 0
	for _, r := range order {
		want += r.size
		if r.size > 0 {
			nonEmpty++
		}
	}
	if len(layers) > nonEmpty {
		return refused(f.ref, "%d layers for the manifest's %d non-empty blobs", len(layers), nonEmpty)
	}
	for i, l := range layers {
		switch l.MediaType {
		case BlobType:
			if l.Size <= 0 || l.Size > manifest.MaxSkillBytes {
				return refused(f.ref, "layer %d: size %d out of range", i+1, l.Size)
			}
		case PackType:
			if l.Size <= 0 || l.Size > maxPackLayer {
				return refused(f.ref, "layer %d: size %d out of range", i+1, l.Size)
			}
		default:
			return refused(f.ref, "layer %d: media type %q, want %s or %s", i+1, l.MediaType, BlobType, PackType)
		}
	}
	if want+int64(len(mb)) > f.o.maxBytes() {
		return refused(f.ref, "bundle of %d bytes exceeds the limit of %d", want+int64(len(mb)), f.o.maxBytes())
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	err = manifest.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		bw := manifest.NewWriter(w)
		if err := f.blobs(ctx, layers, order, bw); err != nil {
			return err
		}
		got, err := bw.Finish(m, sigs...)
		if err != nil {
			return refused(f.ref, "reassemble: %v", err)
		}
		if got != id {
			return refused(f.ref, "reassembled bundle %s, want %s", got, id)
		}
		return nil
	})
	return unwrapWrite(err)
}

// blobs streams the blob and pack layers, fetchConcurrency ahead, into bw:
// each layer checked against its descriptor, each pack unpacked strictly
// (readPack), each blob against the manifest's digest, in the manifest's
// order.
func (f *fetcher) blobs(ctx context.Context, layers []ocispec.Descriptor, order []blobRef, bw *manifest.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		blobs []packBlob // d is zero for a blob layer: checked against the order
		err   error
	}
	results := make([]chan result, len(layers))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	window := make(chan struct{}, fetchConcurrency)
	go func() {
		for i, l := range layers {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				what := fmt.Sprintf("layer %d", i+1)
				data, err := f.fetchSmall(ctx, l, max(manifest.MaxSkillBytes, maxPackLayer), what)
				if err != nil || l.MediaType != PackType {
					results[i] <- result{[]packBlob{{data: data}}, err}
					return
				}
				bs, err := readPack(data, l.Annotations[ocispec.AnnotationTitle], l.Annotations[AnnotationDigest])
				if err != nil {
					err = refused(f.ref, "%s (pack %s): %v", what, l.Digest, err)
				}
				results[i] <- result{bs, err}
			}()
		}
	}()
	next := 0
	addEmpty := func() error {
		for next < len(order) && order[next].size == 0 {
			if err := bw.AddBlob(order[next].d, nil); err != nil {
				return err
			}
			next++
		}
		return nil
	}
	for i := range layers {
		var r result
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		<-window
		if r.err != nil {
			return r.err
		}
		for _, pb := range r.blobs {
			if err := addEmpty(); err != nil {
				return err
			}
			if next == len(order) {
				return refused(f.ref, "layer %d: a blob past the manifest's last", i+1)
			}
			b := order[next]
			if int64(len(pb.data)) != b.size {
				return refused(f.ref, "layer %d: %d bytes where the manifest's next blob, %s, has %d", i+1, len(pb.data), b.d, b.size)
			}
			if pb.d.IsZero() {
				if manifest.Sum(pb.data) != b.d {
					return refused(f.ref, "layer %d: blob %s does not match its digest", i+1, b.d)
				}
			} else if pb.d != b.d {
				return refused(f.ref, "layer %d: blob %s where the manifest's next is %s", i+1, pb.d, b.d)
			}
			if err := bw.AddBlob(b.d, pb.data); err != nil {
				return err
			}
			next++
		}
		if f.o.Progress != nil {
			f.o.Progress(i+1, len(layers))
		}
	}
	if err := addEmpty(); err != nil {
		return err
	}
	if next != len(order) {
		return refused(f.ref, "the layers end before the manifest's blob %s", order[next].d)
	}
	return nil
}
