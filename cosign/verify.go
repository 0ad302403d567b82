package cosign

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// simpleSigningType is the type a cosign simple-signing payload declares.
const simpleSigningType = "cosign container image signature"

// Limits on what verification parses.
const (
	// maxSignatureB64 bounds a simple-signing signature annotation.
	maxSignatureB64 = 4 << 10
)

// Verifier checks cosign signatures and Sigstore bundles over artifact
// digests: by public keys (no transparency log needed), or keyless
// against a trusted root and an identity. It implements
// oci.CosignVerifier. Key-based checks run here on the standard library;
// keyless ones in the helper skills-mcp-sigstore (runHelper).
type Verifier struct {
	keys        []crypto.PublicKey
	keyless     bool
	trustedRoot []byte // keyless: trusted_root.json
	identity    Identity
}

// NewKeyVerifier returns a Verifier that trusts keys (cosign.pub): ECDSA
// P-256 signatures over SHA-256; for an Ed25519 key pure Ed25519 (what
// skills-mcp signs and what cosign verify --key checks) and Ed25519ph, the
// pre-hashed variant of RFC 8032 that cosign v2.6 sign --key makes with an
// Ed25519 key.
func NewKeyVerifier(keys []crypto.PublicKey) (*Verifier, error) {
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return nil, fmt.Errorf("cosign key %s: %w", KeyID(k), err)
		}
	}
	return &Verifier{keys: keys}, nil
}

// NewKeylessVerifier returns a Verifier that trusts certificates the
// trusted root's certificate authorities issued to id, each with a Rekor
// entry whose inclusion proof checks or a signed timestamp from the root's
// timestamp authorities (offline: nothing is fetched). The helper
// skills-mcp-sigstore checks them, when a keyless bundle is to be checked.
func NewKeylessVerifier(trustedRoot []byte, id Identity) (*Verifier, error) {
	if len(trustedRoot) > maxTrustedRoot {
		return nil, fmt.Errorf("trusted root: larger than %d bytes", maxTrustedRoot)
	}
	if !json.Valid(trustedRoot) {
		return nil, errors.New("trusted root: not JSON")
	}
	if err := id.Check(); err != nil {
		return nil, err
	}
	return &Verifier{keyless: true, trustedRoot: trustedRoot, identity: id}, nil
}

// maxTrustedRoot bounds a trusted_root.json.
const maxTrustedRoot = 1 << 20

// VerifyCosign returns who signed the artifact of digest d: the first of
// sigs that is a valid signature by a trusted key or identity (a
// simple-signing payload, or a bundle of a signature Statement).
func (v *Verifier) VerifyCosign(d string, sigs []oci.CosignSignature) (string, error) {
	if len(sigs) == 0 {
		return "", manifest.ErrUnsigned
	}
	var cands []oci.CosignSignature
	var names []string
	for i, s := range sigs {
		if s.Bundle != nil && s.PredicateType != "" && s.PredicateType != SignPredicateType {
			continue // an attestation, which VerifyAttestation checks
		}
		cands = append(cands, s)
		names = append(names, fmt.Sprintf("cosign signature %d", i+1))
	}
	if len(cands) == 0 {
		return "", fmt.Errorf("%w: only attestations, no cosign signature", manifest.ErrUntrusted)
	}
	_, who, errs := v.first(d, cands, names, SignPredicateType)
	if who != "" {
		return who, nil
	}
	return "", fmt.Errorf("no valid cosign signature by a trusted key among %d: %w", len(cands), oneLine(errs))
}

// VerifyAttestation returns the Statement of the first bundle among sigs
// over d whose predicate is of predicateType and whose signature is valid
// and trusted.
func (v *Verifier) VerifyAttestation(d string, sigs []oci.CosignSignature, predicateType string) (*oci.Attestation, error) {
	var cands []oci.CosignSignature
	var names []string
	for i, s := range sigs {
		if s.Bundle == nil || s.PredicateType != "" && s.PredicateType != predicateType {
			continue
		}
		cands = append(cands, s)
		names = append(names, fmt.Sprintf("attestation %d", i+1))
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("no attestation of type %s: %w", predicateType, manifest.ErrUnsigned)
	}
	st, who, errs := v.first(d, cands, names, predicateType)
	if who != "" {
		return &oci.Attestation{PredicateType: predicateType, Statement: st, Signer: who}, nil
	}
	return nil, fmt.Errorf("no valid attestation of type %s by a trusted key among %d: %w", predicateType, len(cands), oneLine(errs))
}

// first checks cands over d in order and returns the Statement (for a
// bundle) and signer of the first valid one, or why each failed, errors
// named by names. Key-based checks stop at the first valid signature;
// keyless bundles go to the helper in one run (a keyless verifier passes
// nothing here, so the first the helper passes is the first valid).
func (v *Verifier) first(d string, cands []oci.CosignSignature, names []string, predicateType string) ([]byte, string, []error) {
	errs := make([]error, len(cands))
	var pending []int
	for i, s := range cands {
		st, who, err := v.local(d, s, predicateType)
		switch {
		case err == nil && who == "":
			pending = append(pending, i)
		case err == nil:
			return st, who, nil
		default:
			errs[i] = err
		}
	}
	if len(pending) > 0 {
		bundles := make([][]byte, len(pending))
		for j, i := range pending {
			bundles[j] = cands[i].Bundle
		}
		res, err := runHelper(context.Background(), v.trustedRoot, v.identity, d, predicateType, bundles)
		if err != nil {
			return nil, "", []error{err}
		}
		for j, i := range pending {
			if errs[i] = res[j].Err(); errs[i] == nil {
				return res[j].Statement, res[j].Signer, nil
			}
		}
	}
	for i, err := range errs {
		errs[i] = fmt.Errorf("%s: %w", names[i], err)
	}
	return nil, "", errs
}

// local checks s over d as far as this process can: a key-based
// signature or bundle whole; for a keyless verifier, what refuses a
// signature before the helper sees it. It returns no signer and no error
// for a keyless bundle the helper is to check.
func (v *Verifier) local(d string, s oci.CosignSignature, predicateType string) ([]byte, string, error) {
	if s.Digest != d {
		return nil, "", bad("it signs %s, not %s", s.Digest, d)
	}
	if s.Bundle == nil {
		who, err := v.verifySimple(d, s.Payload, s.Signature)
		return nil, who, err
	}
	if !validDigest(d) {
		return nil, "", bad("digest %q", d)
	}
	b, err := ParseBundle(s.Bundle)
	if err != nil {
		return nil, "", bad("%v", err)
	}
	switch {
	case v.keyless && b.Keyed():
		return nil, "", untrusted("bundle: signed by a key, and only keyless signers by %s are trusted", v.identity)
	case v.keyless:
		return nil, "", nil
	case !b.Keyed():
		return nil, "", untrusted("bundle: signed keyless; give --trusted-root and --certificate-identity to check it")
	}
	st, i, err := b.checkKeyed(v.keys, d, predicateType)
	if err != nil {
		return nil, "", err
	}
	return st, "cosign key " + KeyID(v.keys[i]), nil
}

// verifySimple checks a simple-signing payload and its signature: by a
// trusted key, and naming d as the manifest digest.
func (v *Verifier) verifySimple(d string, payload []byte, sigB64 string) (string, error) {
	if len(payload) > oci.MaxSigstoreBundle || len(sigB64) > maxSignatureB64 {
		return "", bad("simple signing: payload of %d bytes or signature of %d: the limits are %d and %d", len(payload), len(sigB64), oci.MaxSigstoreBundle, maxSignatureB64)
	}
	sig, err := base64.StdEncoding.DecodeString(sigB64)
	if err != nil {
		return "", bad("simple signing: signature is not base64")
	}
	if v.keyless {
		return "", untrusted("simple signing: a keyless signature of the .sig tag is not checked; sign with --new-bundle-format")
	}
	who := ""
	for _, k := range v.keys {
		if verifyKey(k, payload, sig) {
			who = "cosign key " + KeyID(k)
			break
		}
	}
	if who == "" {
		return "", untrusted("simple signing: the signature is by none of the %d trusted cosign keys (or the payload was changed)", len(v.keys))
	}
	got, err := ParseSimpleSigning(payload)
	if err != nil {
		return "", bad("simple signing: %v", err)
	}
	if got != d {
		return "", bad("simple signing: the payload names %s, not %s", got, d)
	}
	return who, nil
}

// ParseSimpleSigning decodes a simple-signing payload (cosign's, or
// containers/image's "atomic container signature") and returns the
// manifest digest it names.
func ParseSimpleSigning(payload []byte) (string, error) {
	var p struct {
		Critical struct {
			Image struct {
				Digest string `json:"docker-manifest-digest"`
			} `json:"image"`
			Type string `json:"type"`
		} `json:"critical"`
	}
	if len(payload) > oci.MaxSigstoreBundle {
		return "", fmt.Errorf("payload of %d bytes: the limit is %d", len(payload), oci.MaxSigstoreBundle)
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return "", fmt.Errorf("payload: %w", err)
	}
	if t := p.Critical.Type; t != simpleSigningType && t != "atomic container signature" {
		return "", fmt.Errorf("payload of type %q, want %q", t, simpleSigningType)
	}
	if !validDigest(p.Critical.Image.Digest) {
		return "", fmt.Errorf("payload names digest %q: want sha256:<64 hex>", p.Critical.Image.Digest)
	}
	return p.Critical.Image.Digest, nil
}

func validDigest(d string) bool {
	hx, ok := strings.CutPrefix(d, "sha256:")
	_, err := hex.DecodeString(hx)
	return ok && err == nil && len(hx) == 64
}

// oneLine joins errs on one line, each still seen by errors.Is.
func oneLine(errs []error) error {
	args := make([]any, len(errs))
	for i, e := range errs {
		args[i] = e
	}
	return fmt.Errorf(strings.TrimSuffix(strings.Repeat("%w; ", len(errs)), "; "), args...)
}
