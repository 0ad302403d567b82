package oci

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
)

// trustRequired reports whether a fetch must find a trusted signature.
func (o *Options) trustRequired() bool { return o.Trusted != nil || o.Cosign != nil }

// checkTrust applies Options.Trusted and Options.Cosign to the signatures
// of the artifact of digest d whose bundle manifest is mb (nil for a
// ToolHive skill): one valid signature of either kind that its kind of
// trust accepts is enough, and then the attestation
// Options.RequireAttestation names must be there too. Errors wrap
// manifest.ErrUnsigned, ErrUntrusted or ErrBadSignature.
func (o *Options) checkTrust(d string, mb []byte, sigs []manifest.Signature) (string, error) {
	var own []manifest.Signature
	for _, s := range sigs {
		if s.Kind != manifest.SignatureCosign {
			own = append(own, s)
		}
	}
	cos, err := CosignSignatures(sigs)
	if err != nil {
		return "", fmt.Errorf("%w: %v", manifest.ErrBadSignature, err)
	}
	if len(own) == 0 && len(cos) == 0 {
		return "", manifest.ErrUnsigned
	}
	var errs []error
	who := ""
	if o.Trusted != nil && len(own) > 0 {
		k, err := manifest.VerifySignatures(mb, own, o.Trusted)
		if err == nil {
			who = manifest.Signer(k)
		}
		errs = append(errs, err)
	}
	if who == "" && o.Cosign != nil && len(cos) > 0 {
		var err error
		who, err = o.Cosign.VerifyCosign(d, cos)
		errs = append(errs, err)
	}
	if who == "" {
		if errs = slicesCompact(errs); len(errs) == 0 {
			kind := "cosign's formats: trust a cosign public key (cosign.pub) to check them"
			if len(cos) == 0 {
				kind = "skills-mcp's formats (SSHSIG, minisign): trust an allowed_signers file or a minisign key to check them"
			}
			return "", fmt.Errorf("%w: signed only in %s", manifest.ErrUntrusted, kind)
		}
		if len(errs) == 2 {
			return "", fmt.Errorf("%w; %w", errs[0], errs[1])
		}
		return "", errs[0]
	}
	if o.RequireAttestation != "" {
		if o.Cosign == nil {
			return "", fmt.Errorf("%w: an attestation is checked by a cosign public key in --trust", manifest.ErrUntrusted)
		}
		if _, err := o.Cosign.VerifyAttestation(d, cos, o.RequireAttestation); err != nil {
			return "", err
		}
	}
	return who, nil
}

func slicesCompact(errs []error) []error {
	var out []error
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// cosignSignatures reads the signatures in Sigstore formats of the
// artifact desc describes: the simple-signing layers at its .sig tag, and
// the Sigstore bundle referrers, each bounded (MaxSigstoreBundle, at most
// maxCosignSignatures in all) and checked against its digest. Whether
// they are valid is for Options.Cosign to say.
func (f *fetcher) cosignSignatures(ctx context.Context, desc ocispec.Descriptor) ([]CosignSignature, error) {
	d := desc.Digest.String()
	out, err := f.simpleSignatures(ctx, d)
	if err != nil {
		return nil, err
	}
	refs, err := f.referrers(ctx, desc)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		// The tag-schema index names a referrer by its config's media type
		// where go-containerregistry (cosign) pushed it.
		if r.ArtifactType != SigstoreBundleType && r.ArtifactType != emptyJSONType {
			continue
		}
		if r.MediaType != ocispec.MediaTypeImageManifest || r.Size > maxImageManifest {
			return nil, refused(f.ref, "bundle referrer %s: media type %q, size %d", r.Digest, r.MediaType, r.Size)
		}
		body, err := content.FetchAll(ctx, f.repo.Manifests(), r)
		if err != nil {
			return nil, refused(f.ref, "bundle referrer %s: %v", r.Digest, err)
		}
		var im ocispec.Manifest
		if err := json.Unmarshal(body, &im); err != nil {
			return nil, refused(f.ref, "bundle referrer %s: %v", r.Digest, err)
		}
		if im.ArtifactType != SigstoreBundleType {
			continue // another artifact with an empty config
		}
		if im.Subject == nil || im.Subject.Digest != desc.Digest || len(im.Layers) != 1 || im.Layers[0].MediaType != SigstoreBundleType {
			return nil, refused(f.ref, "bundle referrer %s: not one Sigstore bundle of this artifact", r.Digest)
		}
		if len(out) == maxCosignSignatures {
			return nil, refused(f.ref, "more than %d cosign signatures", maxCosignSignatures)
		}
		b, err := f.fetchSmall(ctx, im.Layers[0], MaxSigstoreBundle, "Sigstore bundle")
		if err != nil {
			return nil, err
		}
		out = append(out, CosignSignature{Digest: d, Bundle: b, PredicateType: im.Annotations[annotationBundleFor]})
	}
	return out, nil
}

// simpleSignatures reads the simple-signing layers at the .sig tag of d.
func (f *fetcher) simpleSignatures(ctx context.Context, d string) ([]CosignSignature, error) {
	tag := SignatureTag(d)
	desc, rc, err := f.repo.FetchReference(ctx, tag)
	if errors.Is(err, errdef.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.ref, tag, err)
	}
	defer rc.Close()
	if desc.MediaType != ocispec.MediaTypeImageManifest || desc.Size > maxImageManifest {
		return nil, refused(f.ref, "%s: media type %q, size %d", tag, desc.MediaType, desc.Size)
	}
	body, err := content.ReadAll(rc, desc)
	if err != nil {
		return nil, refused(f.ref, "%s: %v", tag, err)
	}
	var im ocispec.Manifest
	if err := json.Unmarshal(body, &im); err != nil {
		return nil, refused(f.ref, "%s: %v", tag, err)
	}
	var out []CosignSignature
	for _, l := range im.Layers {
		if l.MediaType != SimpleSigningType {
			continue
		}
		if len(out) == maxCosignSignatures {
			return nil, refused(f.ref, "%s: more than %d signatures", tag, maxCosignSignatures)
		}
		sig := l.Annotations[annotationCosignSig]
		if len(sig) > 4<<10 {
			return nil, refused(f.ref, "%s: a signature annotation of %d bytes", tag, len(sig))
		}
		p, err := f.fetchSmall(ctx, l, MaxSigstoreBundle, "simple-signing payload")
		if err != nil {
			return nil, err
		}
		out = append(out, CosignSignature{Digest: d, Payload: p, Signature: sig})
	}
	return out, nil
}

// allSignatures reads every signature of the artifact desc describes, ours
// (the signatures referrer) and those in Sigstore formats (kept as
// manifest.SignatureCosign records).
func (f *fetcher) allSignatures(ctx context.Context, desc ocispec.Descriptor) ([]manifest.Signature, error) {
	sigs, err := f.signatures(ctx, desc)
	if err != nil {
		return nil, err
	}
	cos, err := f.cosignSignatures(ctx, desc)
	if err != nil {
		return nil, err
	}
	recs, err := cosignRecords(cos)
	if err != nil {
		return nil, err
	}
	return append(sigs, recs...), nil
}
