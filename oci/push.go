package oci

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"golang.org/x/sync/errgroup"
	"oras.land/oras-go/v2/registry/remote"
)

// PushResult says what a push stored and what it sent.
type PushResult struct {
	Ref        Ref    // the reference pinned to the artifact's digest
	Digest     string // the image manifest's digest
	Tags       []string
	Signatures string // the digest of the signatures' referrer, if any
	// Cosign lists the cosign signature's tag and the digests of the
	// Sigstore bundle referrers pushed (signature, then attestation).
	Cosign []string
	Layers int // blob and pack layers of the artifact
	// Sent and SentBytes count the blobs and manifests uploaded; Skipped and
	// SkippedBytes the blobs the registry already held; Mounted and
	// MountedBytes the blobs it took from Options.MountFrom.
	Sent, Skipped, Mounted                int
	SentBytes, SkippedBytes, MountedBytes int64
}

// pushConcurrency is how many blobs a push uploads at once.
const pushConcurrency = 8

// Push stores bundle b in the repository ref names, as an artifact of type
// ArtifactType, and tags it with ref's tag and tags. Blobs the registry
// already holds are not sent again, so a new version of a bundle that
// changes one skill uploads that skill's changed files, the manifest and
// the image manifest. The bundle's signatures are attached as a referrer
// of the artifact (OCI 1.1 subject; oras-go keeps the tag-schema index for
// registries without the referrers API).
func Push(ctx context.Context, b *manifest.Bundle, ref Ref, tags []string, o Options) (*PushResult, error) {
	if ref.Digest != "" {
		return nil, fmt.Errorf("%s: push to a tag or a repository, not a digest", ref)
	}
	if ref.Tag != "" {
		tags = append([]string{ref.Tag}, tags...)
	}
	for _, t := range tags {
		if err := (Ref{Host: ref.Host, Repository: ref.Repository}).validTag(t); err != nil {
			return nil, err
		}
	}
	repo, err := o.repository(ref)
	if err != nil {
		return nil, err
	}
	mb, err := b.ManifestBytes()
	if err != nil {
		return nil, err
	}
	m, err := b.Manifest()
	if err != nil {
		return nil, err
	}
	a, err := planArtifact(b, m, mb)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	res := &PushResult{Layers: len(a.layers), Tags: tags}
	sigUps, sigLayers := signatureUploads(b.Signatures())
	if o.CosignSigner != nil {
		// Signing for cosign adds referrers one after another: on a registry
		// without the referrers API each replaces the sha256-<hex> tag
		// index, and a registry that refuses DELETE (many do) would fail
		// the push over removing the index it replaced, which is harmless
		// to keep.
		repo.SkipReferrersGC = true
	}
	p := &pusher{repo: repo, res: res, o: &o}
	ups := []upload{
		{a.configDesc, func() (io.Reader, error) { return bytes.NewReader(a.config), nil }},
		{a.manDesc, func() (io.Reader, error) { return bytes.NewReader(mb), nil }},
	}
	for _, l := range a.layers {
		ups = append(ups, upload{l.desc, func() (io.Reader, error) { return a.layerReader(l) }})
	}
	// One progress count runs over the artifact's blobs and the signatures'.
	p.total = len(ups) + len(sigUps)
	if o.CosignSigner != nil {
		p.total += 4 // the simple-signing payload and config, the bundle and the empty config
		if o.Attestation != nil {
			p.total += 2
		}
	}
	if err := p.blobs(ctx, ups); err != nil {
		return nil, fmt.Errorf("push %s: %w", ref, err)
	}
	desc := descriptorOf(ocispec.MediaTypeImageManifest, a.image)
	desc.ArtifactType = ArtifactType
	// The tags move last, once the signatures are attached: a server that
	// follows a tag (serve --follow --trust) never finds it on an artifact
	// not signed yet.
	untagged := tags
	if len(sigUps) > 0 || o.CosignSigner != nil {
		untagged = nil
	}
	if err := p.manifest(ctx, desc, a.image, untagged); err != nil {
		return nil, fmt.Errorf("push %s: %w", ref, err)
	}
	res.Digest = desc.Digest.String()
	res.Ref = ref.WithDigest(res.Digest)
	if len(sigUps) > 0 {
		d, err := p.signatures(ctx, desc, sigUps, sigLayers)
		if err != nil {
			return nil, fmt.Errorf("push %s: signatures: %w", res.Ref, err)
		}
		res.Signatures = d
	}
	if o.CosignSigner != nil {
		refs, err := p.cosignSign(ctx, ref, desc, o.AttestationType, o.Attestation)
		if err != nil {
			return nil, fmt.Errorf("push %s: %w", res.Ref, err)
		}
		res.Cosign = append([]string{SignatureTag(res.Digest)}, refs...)
	}
	if untagged == nil {
		for _, t := range tags {
			if err := p.repo.Tag(ctx, desc, t); err != nil {
				return nil, fmt.Errorf("push %s: tag %s: %w", ref, t, err)
			}
		}
	}
	return res, nil
}

// validTag checks a tag by the distribution specification's grammar.
func (r Ref) validTag(tag string) error {
	_, err := ParseRef(Scheme + r.repo() + ":" + tag)
	if err != nil {
		return fmt.Errorf("tag %q: not a valid tag (up to 128 letters, digits, _, . and -, not starting with . or -)", tag)
	}
	return nil
}

// artifact is a bundle laid out for a registry.
type artifact struct {
	b          *manifest.Bundle
	order      []blobRef
	layers     []layer
	config     []byte
	configDesc ocispec.Descriptor
	manDesc    ocispec.Descriptor
	image      []byte
}

// planArtifact lays out bundle b, whose manifest is m (bytes mb): the
// config, the manifest layer, the blob layers and the image manifest.
func planArtifact(b *manifest.Bundle, m *manifest.Manifest, mb []byte) (*artifact, error) {
	a := &artifact{b: b, order: blobOrder(m)}
	var err error
	if a.config, err = marshal(configOf(m, mb)); err != nil {
		return nil, err
	}
	a.configDesc = descriptorOf(ConfigType, a.config)
	a.manDesc = descriptorOf(manifest.MediaType, mb)
	a.manDesc.Annotations = map[string]string{ocispec.AnnotationTitle: ManifestTitle}
	nonEmpty := 0
	for _, r := range a.order {
		if r.size > 0 {
			nonEmpty++
		}
	}
	k := uint32(1)
	for nonEmpty/int(k) > maxLayers {
		k *= 2
	}
	for ; ; k *= 2 {
		a.layers = planLayers(a.order, k)
		if a.image, err = imageManifest(a.configDesc, a.manDesc, a.layers, m); err != nil {
			return nil, err
		}
		if len(a.image) <= maxImageManifest/2 || k >= 1<<16 {
			break
		}
	}
	if err := a.packDescriptors(); err != nil {
		return nil, err
	}
	if a.image, err = imageManifest(a.configDesc, a.manDesc, a.layers, m); err != nil {
		return nil, err
	}
	return a, nil
}

// packDescriptors writes every pack, pushConcurrency at once, to fill in
// its descriptor: the digest and size of the layer, and of its tar.
func (a *artifact) packDescriptors() error {
	var g errgroup.Group
	g.SetLimit(pushConcurrency)
	for i := range a.layers {
		l := &a.layers[i]
		if !l.pack {
			continue
		}
		g.Go(func() error {
			info, err := a.writePack(io.Discard, *l)
			if err != nil {
				return err
			}
			l.desc.Digest, l.desc.Size = info.digest, info.size
			l.desc.Annotations[AnnotationDigest] = info.tar.String()
			return nil
		})
	}
	return g.Wait()
}

// writePack writes the pack of layer l to w.
func (a *artifact) writePack(w io.Writer, l layer) (packInfo, error) {
	i := l.from
	return writePack(w, a.order[l.from].d, func() (manifest.Digest, int64, io.Reader, bool, error) {
		for i < l.to && a.order[i].size == 0 {
			i++
		}
		if i == l.to {
			return manifest.Digest{}, 0, nil, false, nil
		}
		r := a.order[i]
		i++
		br, err := a.b.BlobReader(r.d)
		return r.d, r.size, br, true, err
	})
}

// layerReader reads the bytes of layer l: a blob as it is, a pack as
// writePack makes it (again: the same bytes as when its digest was taken).
func (a *artifact) layerReader(l layer) (io.Reader, error) {
	if !l.pack {
		return a.b.BlobReader(a.order[l.from].d)
	}
	var buf bytes.Buffer
	buf.Grow(int(l.desc.Size))
	info, err := a.writePack(&buf, l)
	if err != nil {
		return nil, err
	}
	if info.digest != l.desc.Digest {
		return nil, fmt.Errorf("pack %s: written again as %s", l.desc.Digest, info.digest)
	}
	return &buf, nil
}

// upload is one blob to send, with a way to read it.
type upload struct {
	desc ocispec.Descriptor
	open func() (io.Reader, error)
}

// pusher sends an artifact's parts and counts them.
type pusher struct {
	repo *remote.Repository
	res  *PushResult
	o    *Options

	mu    sync.Mutex
	done  int // blobs handled, for o.Progress
	total int // blobs to handle in all
}

// How a blob reached the registry.
const (
	wasSent = iota
	wasThere
	wasMounted
)

func (p *pusher) count(how int, n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch how {
	case wasSent:
		p.res.Sent++
		p.res.SentBytes += n
	case wasThere:
		p.res.Skipped++
		p.res.SkippedBytes += n
	case wasMounted:
		p.res.Mounted++
		p.res.MountedBytes += n
	}
}

// step counts one more blob handled and reports it to o.Progress: one call
// at a time, done rising.
func (p *pusher) step() {
	if p.o.Progress == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.o.Progress(p.done, p.total)
}

// blobs sends each upload the registry does not hold yet (a HEAD request
// tells), pushConcurrency at a time.
func (p *pusher) blobs(ctx context.Context, ups []upload) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(pushConcurrency)
	for _, u := range ups {
		g.Go(func() error {
			defer p.step()
			ok, err := p.repo.Exists(ctx, u.desc)
			if err != nil {
				return fmt.Errorf("blob %s: %w", u.desc.Digest, err)
			}
			if ok {
				p.count(wasThere, u.desc.Size)
				return nil
			}
			if from := p.o.MountFrom; from != "" && from != p.repo.Reference.Repository {
				read := false
				err := p.repo.Mount(ctx, u.desc, from, func() (io.ReadCloser, error) {
					read = true
					r, err := u.open()
					return io.NopCloser(r), err
				})
				if err != nil {
					return fmt.Errorf("blob %s: mount from %s: %w", u.desc.Digest, from, err)
				}
				if read {
					p.count(wasSent, u.desc.Size)
				} else {
					p.count(wasMounted, u.desc.Size)
				}
				return nil
			}
			r, err := u.open()
			if err != nil {
				return err
			}
			if err := p.repo.Push(ctx, u.desc, r); err != nil {
				return fmt.Errorf("blob %s: %w", u.desc.Digest, err)
			}
			p.count(wasSent, u.desc.Size)
			return nil
		})
	}
	return g.Wait()
}

// manifest sends an image manifest under its first tag (or untagged) and
// adds the other tags.
func (p *pusher) manifest(ctx context.Context, desc ocispec.Descriptor, body []byte, tags []string) error {
	var err error
	if len(tags) == 0 {
		err = p.repo.Push(ctx, desc, bytes.NewReader(body))
	} else {
		err = p.repo.PushReference(ctx, desc, bytes.NewReader(body), tags[0])
	}
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	p.count(wasSent, desc.Size)
	for i := 1; i < len(tags); i++ {
		t := tags[i]
		if err := p.repo.Tag(ctx, desc, t); err != nil {
			return fmt.Errorf("tag %s: %w", t, err)
		}
	}
	return nil
}

// signatureUploads returns the blobs that carry sigs as one referrer
// artifact, and its layers: a layer per signature, titled as export names
// the files (manifest.json.sig, manifest.json.minisig, then .2, .3 for
// further keys), so that oras pull of the referrer gives files ssh-keygen
// and minisign check; and the empty config. None for no signature.
func signatureUploads(sigs []manifest.Signature) (ups []upload, layers []ocispec.Descriptor) {
	if len(sigs) == 0 {
		return nil, nil
	}
	counts := map[manifest.SignatureKind]int{}
	for _, s := range sigs {
		mt, title := SSHSigType, ManifestTitle+".sig"
		if s.Kind == manifest.SignatureMinisign {
			mt, title = MinisignType, ManifestTitle+".minisig"
		} else if s.Kind != manifest.SignatureSSH {
			continue
		}
		counts[s.Kind]++
		if n := counts[s.Kind]; n > 1 {
			title += "." + strconv.Itoa(n)
		}
		d := descriptorOf(mt, s.Data)
		d.Annotations = map[string]string{ocispec.AnnotationTitle: title}
		layers = append(layers, d)
		data := s.Data
		ups = append(ups, upload{d, func() (io.Reader, error) { return bytes.NewReader(data), nil }})
	}
	empty := ocispec.DescriptorEmptyJSON
	ups = append(ups, upload{empty, func() (io.Reader, error) { return bytes.NewReader(empty.Data), nil }})
	return ups, layers
}

// signatures attaches signatures to subject: it sends their uploads and
// layers (see signatureUploads) and the referrer manifest, and returns the
// referrer's digest.
func (p *pusher) signatures(ctx context.Context, subject ocispec.Descriptor, ups []upload, layers []ocispec.Descriptor) (string, error) {
	empty := ocispec.DescriptorEmptyJSON
	if err := p.blobs(ctx, ups); err != nil {
		return "", err
	}
	sub := subject
	sub.Annotations = nil
	body, err := marshal(ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		MediaType:    ocispec.MediaTypeImageManifest,
		ArtifactType: SignaturesType,
		// The config, {}, is of the signatures' type too: registries that
		// list a referrer by its config's media type rather than its
		// artifactType (go-containerregistry's) list it as a signature.
		Config:  ocispec.Descriptor{MediaType: SignaturesType, Digest: empty.Digest, Size: empty.Size},
		Layers:  layers,
		Subject: &sub,
	})
	if err != nil {
		return "", err
	}
	desc := descriptorOf(ocispec.MediaTypeImageManifest, body)
	desc.ArtifactType = SignaturesType
	if err := p.manifest(ctx, desc, body, nil); err != nil {
		return "", err
	}
	return desc.Digest.String(), nil
}
