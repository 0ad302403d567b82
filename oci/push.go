package oci

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

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
