package oci

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Media types, annotations and tags of the Sigstore formats: cosign 2's
// simple-signing image at the sha256-<hex>.sig tag, and Sigstore bundles
// attached as OCI 1.1 referrers (cosign 3's default, and attestations).
const (
	SimpleSigningType   = "application/vnd.dev.cosign.simplesigning.v1+json"
	SigstoreBundleType  = "application/vnd.dev.sigstore.bundle.v0.3+json"
	annotationCosignSig = "dev.cosignproject.cosign/signature"
	annotationBundleFor = "dev.sigstore.bundle.predicateType"
	annotationContent   = "dev.sigstore.bundle.content"
	imageConfigType     = "application/vnd.oci.image.config.v1+json"
	emptyJSONType       = "application/vnd.oci.empty.v1+json"
)

// Limits on what is read of the Sigstore formats: a flood of referrers or
// signatures, or a huge one, is refused before it is parsed.
const (
	// MaxSigstoreBundle is the largest bundle or simple-signing payload
	// accepted: a certificate chain and a few inclusion proofs fit many
	// times over.
	MaxSigstoreBundle = 256 << 10
	// maxCosignSignatures bounds the cosign signatures and bundles read for
	// one artifact.
	maxCosignSignatures = 64
	// maxReferrers bounds the referrers of every type listed for one
	// artifact.
	maxReferrers = 1024
)

// CosignSignature is one signature in a Sigstore format over the artifact
// of digest Digest: a simple-signing payload and its signature (the .sig
// tag), or a Sigstore bundle (a referrer). It is kept as it was read, in the
// signature area of the cached bundle (manifest.SignatureCosign), so that a
// warm start checks it again without the registry.
type CosignSignature struct {
	Digest string `json:"digest"` // sha256:<hex> of the artifact signed
	// Payload and Signature: a simple-signing payload and the base64
	// signature of its layer's annotation.
	Payload   []byte `json:"payload,omitempty"`
	Signature string `json:"signature,omitempty"`
	// Bundle: a Sigstore bundle, as its referrer's layer holds it.
	Bundle json.RawMessage `json:"bundle,omitempty"`
	// PredicateType is what the bundle's referrer says its Statement's
	// predicate type is (the verifier reads the Statement itself).
	PredicateType string `json:"predicateType,omitempty"`
}

// Attestation is a Statement whose signature a CosignVerifier accepted.
type Attestation struct {
	PredicateType string
	Statement     []byte // the in-toto Statement, as signed
	Signer        string
}

// CosignVerifier checks signatures in Sigstore formats (package cosign
// implements it; this package does not import Sigstore's libraries).
type CosignVerifier interface {
	// VerifyCosign returns who signed the artifact of digest d, by the
	// first of sigs that is valid and trusted; otherwise an error wrapping
	// manifest.ErrUntrusted or manifest.ErrBadSignature.
	VerifyCosign(d string, sigs []CosignSignature) (signer string, err error)
	// VerifyAttestation returns the first attestation among sigs over d of
	// predicateType that is valid and trusted.
	VerifyAttestation(d string, sigs []CosignSignature, predicateType string) (*Attestation, error)
}

// CosignSigner signs in Sigstore formats (package cosign implements it).
type CosignSigner interface {
	// SignPayload signs a simple-signing payload.
	SignPayload(payload []byte) ([]byte, error)
	// Attest returns a Sigstore bundle (JSON) of a DSSE envelope around
	// an in-toto Statement over the artifact of digest d.
	Attest(ctx context.Context, d, predicateType string, predicate json.RawMessage) ([]byte, error)
	// Owns reports whether sig is this signer's signature of payload.
	Owns(payload, sig []byte) bool
}

// CosignSignatures returns the Sigstore signatures kept in a bundle's
// signature area; bad records are an error naming the rule.
func CosignSignatures(sigs []manifest.Signature) ([]CosignSignature, error) {
	var out []CosignSignature
	for i, s := range sigs {
		if s.Kind != manifest.SignatureCosign {
			continue
		}
		var c CosignSignature
		if err := json.Unmarshal(s.Data, &c); err != nil {
			return nil, fmt.Errorf("signature %d: cosign record: %w", i+1, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// cosignRecords encodes sigs for a bundle's signature area.
func cosignRecords(sigs []CosignSignature) ([]manifest.Signature, error) {
	out := make([]manifest.Signature, 0, len(sigs))
	for _, c := range sigs {
		b, err := marshal(c)
		if err != nil {
			return nil, err
		}
		out = append(out, manifest.Signature{Kind: manifest.SignatureCosign, Data: b})
	}
	return out, nil
}

// AnalysisPredicateType is the predicate type of skills-mcp's analysis
// attestation: what the analyser found in the bundle the artifact carries
// (see the README's "Signed analysis attestation").
const AnalysisPredicateType = "https://github.com/skills-mcp/skills-mcp/attestation/analysis/v1"

// Statement returns the in-toto Statement a bundle's DSSE envelope
// carries, as it is, without checking its signature: for showing what an
// attestation says (inspect); VerifyAttestation is what trusts one.
func (c CosignSignature) Statement() ([]byte, error) {
	if len(c.Bundle) == 0 || len(c.Bundle) > MaxSigstoreBundle {
		return nil, fmt.Errorf("not a Sigstore bundle of at most %d bytes", MaxSigstoreBundle)
	}
	var b struct {
		DSSE *struct {
			Payload []byte `json:"payload"` // base64, which encoding/json decodes
		} `json:"dsseEnvelope"`
	}
	if err := json.Unmarshal(c.Bundle, &b); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	if b.DSSE == nil {
		return nil, fmt.Errorf("bundle: no DSSE envelope")
	}
	return b.DSSE.Payload, nil
}
