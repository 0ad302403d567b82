package oci

import (
	"context"
	"encoding/json"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
)

// signatures returns the signatures of the referrers of desc that are of
// type SignaturesType, each checked against its digest.
func (f *fetcher) signatures(ctx context.Context, desc ocispec.Descriptor) ([]manifest.Signature, error) {
	all, err := f.referrers(ctx, desc)
	if err != nil {
		return nil, err
	}
	var refs []ocispec.Descriptor
	for _, r := range all {
		if r.ArtifactType == SignaturesType {
			refs = append(refs, r)
		}
	}
	if len(refs) > maxSignatures {
		return nil, refused(f.ref, "referrers: more than %d signature referrers", maxSignatures)
	}
	var sigs []manifest.Signature
	for _, r := range refs {
		if r.MediaType != ocispec.MediaTypeImageManifest || r.Size > maxImageManifest {
			return nil, refused(f.ref, "signature referrer %s: media type %q, size %d", r.Digest, r.MediaType, r.Size)
		}
		body, err := content.FetchAll(ctx, f.repo.Manifests(), r)
		if err != nil {
			return nil, refused(f.ref, "signature referrer %s: %v", r.Digest, err)
		}
		layers, err := decodeSignatureReferrer(f.ref, r.Digest, body, desc.Digest)
		if err != nil {
			return nil, err
		}
		for _, l := range layers {
			if len(sigs) == maxSignatures {
				return nil, refused(f.ref, "more than %d signatures", maxSignatures)
			}
			data, err := f.fetchSmall(ctx, l.desc, maxSignature, "signature")
			if err != nil {
				return nil, err
			}
			sigs = append(sigs, manifest.Signature{Kind: l.kind, Data: data})
		}
	}
	return sigs, nil
}

// signatureLayer is a layer of a signature referrer that holds a signature
// of a kind skills-mcp checks.
type signatureLayer struct {
	kind manifest.SignatureKind
	desc ocispec.Descriptor
}

// decodeSignatureReferrer decodes the image manifest of referrer r and
// checks that it is a signature artifact whose subject is the artifact of
// digest subject; it returns its signature layers, in order (layers of
// other media types are skipped).
func decodeSignatureReferrer(ref Ref, r digest.Digest, body []byte, subject digest.Digest) ([]signatureLayer, error) {
	var im ocispec.Manifest
	if err := json.Unmarshal(body, &im); err != nil {
		return nil, refused(ref, "signature referrer %s: %v", r, err)
	}
	if im.Subject == nil || im.Subject.Digest != subject || im.ArtifactType != SignaturesType {
		return nil, refused(ref, "signature referrer %s: not a signature of this artifact", r)
	}
	var out []signatureLayer
	for _, l := range im.Layers {
		switch l.MediaType {
		case SSHSigType:
			out = append(out, signatureLayer{manifest.SignatureSSH, l})
		case MinisignType:
			out = append(out, signatureLayer{manifest.SignatureMinisign, l})
		}
	}
	return out, nil
}
