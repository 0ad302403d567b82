package oci

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
)

// SignatureTag is the tag cosign 2 keeps an artifact's simple-signing
// image under: sha256-<hex>.sig.
func SignatureTag(d string) string { return strings.Replace(d, ":", "-", 1) + ".sig" }

// SimpleSigningPayload returns the payload cosign signs for the artifact of
// digest d in repository ref (HOST/REPO): what `cosign sign` writes.
func SimpleSigningPayload(ref Ref, d string) ([]byte, error) {
	type identity struct {
		DockerReference string `json:"docker-reference"`
	}
	type image struct {
		Digest string `json:"docker-manifest-digest"`
	}
	type critical struct {
		Identity identity `json:"identity"`
		Image    image    `json:"image"`
		Type     string   `json:"type"`
	}
	return marshal(struct {
		Critical critical `json:"critical"`
		Optional any      `json:"optional"`
	}{critical{identity{ref.repo()}, image{d}, "cosign container image signature"}, nil})
}

// cosignSign attaches the cosign signatures of the artifact subject: the
// simple-signing image at its .sig tag (cosign 2), kept with the layers of
// other signers already there, and a Sigstore bundle referrer of a
// signature Statement (cosign 3); then, with a predicate, a bundle
// referrer of an attestation Statement of predicateType. It returns the
// digests of the referrers it pushed.
func (p *pusher) cosignSign(ctx context.Context, ref Ref, subject ocispec.Descriptor, predicateType string, predicate json.RawMessage) ([]string, error) {
	s := p.o.CosignSigner
	d := subject.Digest.String()
	if err := p.simpleSigning(ctx, ref, d); err != nil {
		return nil, fmt.Errorf("cosign signature: %w", err)
	}
	var out []string
	b, err := s.Attest(ctx, d, CosignSignPredicate, nil)
	if err != nil {
		return nil, err
	}
	rd, err := p.bundleReferrer(ctx, subject, b, CosignSignPredicate)
	if err != nil {
		return nil, fmt.Errorf("sigstore bundle: %w", err)
	}
	out = append(out, rd)
	if predicate != nil {
		b, err := s.Attest(ctx, d, predicateType, predicate)
		if err != nil {
			return nil, err
		}
		rd, err := p.bundleReferrer(ctx, subject, b, predicateType)
		if err != nil {
			return nil, fmt.Errorf("attestation: %w", err)
		}
		out = append(out, rd)
	}
	return out, nil
}

// CosignSignPredicate is the predicate type of a signature Statement, as
// cosign writes it.
const CosignSignPredicate = "https://sigstore.dev/cosign/sign/v1"

// simpleSigning pushes the simple-signing image of the artifact of digest
// d: the layers already at its .sig tag that are not this signer's, and
// one for this signature.
func (p *pusher) simpleSigning(ctx context.Context, ref Ref, d string) error {
	payload, err := SimpleSigningPayload(ref, d)
	if err != nil {
		return err
	}
	sig, err := p.o.CosignSigner.SignPayload(payload)
	if err != nil {
		return err
	}
	layer := descriptorOf(SimpleSigningType, payload)
	layer.Annotations = map[string]string{annotationCosignSig: base64.StdEncoding.EncodeToString(sig)}
	layers := []ocispec.Descriptor{}
	old, err := p.existingSimpleSigning(ctx, d)
	if err != nil {
		return err
	}
	for _, l := range old {
		prev, err := base64.StdEncoding.DecodeString(l.Annotations[annotationCosignSig])
		if l.Digest == layer.Digest && err == nil && p.o.CosignSigner.Owns(payload, prev) {
			continue // this signer's earlier signature of the same payload
		}
		layers = append(layers, l)
	}
	layers = append(layers, layer)
	cfg, err := simpleSigningConfig(layers)
	if err != nil {
		return err
	}
	cfgDesc := descriptorOf(imageConfigType, cfg)
	if err := p.blobs(ctx, []upload{
		{layer, func() (io.Reader, error) { return bytes.NewReader(payload), nil }},
		{cfgDesc, func() (io.Reader, error) { return bytes.NewReader(cfg), nil }},
	}); err != nil {
		return err
	}
	body, err := marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    cfgDesc,
		Layers:    layers,
	})
	if err != nil {
		return err
	}
	return p.manifest(ctx, descriptorOf(ocispec.MediaTypeImageManifest, body), body, []string{SignatureTag(d)})
}

// existingSimpleSigning returns the simple-signing layers at the .sig tag
// of d, none when there is no such tag.
func (p *pusher) existingSimpleSigning(ctx context.Context, d string) ([]ocispec.Descriptor, error) {
	desc, rc, err := p.repo.FetchReference(ctx, SignatureTag(d))
	if errors.Is(err, errdef.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SignatureTag(d), err)
	}
	defer rc.Close()
	if desc.Size > maxImageManifest {
		return nil, fmt.Errorf("%s: manifest of %d bytes", SignatureTag(d), desc.Size)
	}
	body, err := content.ReadAll(rc, desc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SignatureTag(d), err)
	}
	var im ocispec.Manifest
	if err := json.Unmarshal(body, &im); err != nil {
		return nil, fmt.Errorf("%s: %w", SignatureTag(d), err)
	}
	var out []ocispec.Descriptor
	for _, l := range im.Layers {
		if l.MediaType == SimpleSigningType && len(out) < maxCosignSignatures-1 {
			out = append(out, l)
		}
	}
	return out, nil
}

// simpleSigningConfig is the image config of a simple-signing image, as
// cosign writes it: the layers' digests as the rootfs, no clock.
func simpleSigningConfig(layers []ocispec.Descriptor) ([]byte, error) {
	type history struct {
		Created string `json:"created"`
	}
	type rootfs struct {
		Type    string          `json:"type"`
		DiffIDs []digest.Digest `json:"diff_ids"`
	}
	cfg := struct {
		Architecture string    `json:"architecture"`
		Created      string    `json:"created"`
		History      []history `json:"history"`
		OS           string    `json:"os"`
		RootFS       rootfs    `json:"rootfs"`
		Config       struct{}  `json:"config"`
	}{Created: "0001-01-01T00:00:00Z", RootFS: rootfs{Type: "layers"}}
	for _, l := range layers {
		cfg.History = append(cfg.History, history{Created: cfg.Created})
		cfg.RootFS.DiffIDs = append(cfg.RootFS.DiffIDs, l.Digest)
	}
	return marshal(cfg)
}

// bundleReferrer pushes a Sigstore bundle as a referrer of subject, as
// cosign attaches one: an image manifest of artifact type
// SigstoreBundleType, an empty config, the bundle as its one layer.
func (p *pusher) bundleReferrer(ctx context.Context, subject ocispec.Descriptor, b []byte, predicateType string) (string, error) {
	empty := ocispec.DescriptorEmptyJSON
	layer := descriptorOf(SigstoreBundleType, b)
	if err := p.blobs(ctx, []upload{
		{layer, func() (io.Reader, error) { return bytes.NewReader(b), nil }},
		{empty, func() (io.Reader, error) { return bytes.NewReader(empty.Data), nil }},
	}); err != nil {
		return "", err
	}
	sub := subject
	sub.Annotations, sub.ArtifactType = nil, ""
	body, err := marshal(ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		MediaType:    ocispec.MediaTypeImageManifest,
		ArtifactType: SigstoreBundleType,
		Config:       ocispec.Descriptor{MediaType: empty.MediaType, Digest: empty.Digest, Size: empty.Size},
		Layers:       []ocispec.Descriptor{layer},
		Subject:      &sub,
		Annotations:  map[string]string{annotationContent: "dsse-envelope", annotationBundleFor: predicateType},
	})
	if err != nil {
		return "", err
	}
	desc := descriptorOf(ocispec.MediaTypeImageManifest, body)
	desc.ArtifactType = SigstoreBundleType
	if err := p.manifest(ctx, desc, body, nil); err != nil {
		return "", err
	}
	return desc.Digest.String(), nil
}

// ArtifactDigest returns the digest of the artifact Push makes of bundle
// b: the same bundle always makes the same artifact, so a cosign signature
// of that digest signs the bundle wherever it is kept.
func ArtifactDigest(b *manifest.Bundle) (string, error) {
	mb, err := b.ManifestBytes()
	if err != nil {
		return "", err
	}
	m, err := b.Manifest()
	if err != nil {
		return "", err
	}
	a, err := planArtifact(b, m, mb)
	if err != nil {
		return "", err
	}
	return digest.FromBytes(a.image).String(), nil
}
