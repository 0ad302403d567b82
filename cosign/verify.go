package cosign

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// simpleSigningType is the type a cosign simple-signing payload declares.
const simpleSigningType = "cosign container image signature"

// Limits on what verification parses.
const (
	// MaxChain bounds the certificates of a bundle's chain.
	MaxChain = 10
	// maxSignatureB64 bounds a simple-signing signature annotation.
	maxSignatureB64 = 4 << 10
)

// Identity is the keyless signer a verifier accepts, as cosign's
// --certificate-identity[-regexp] and --certificate-oidc-issuer[-regexp]
// name it: one of each pair must be set.
type Identity struct {
	Subject, SubjectRegexp string
	Issuer, IssuerRegexp   string
}

// Verifier checks cosign signatures and Sigstore bundles over artifact
// digests: by public keys (no transparency log needed), or keyless
// against a trusted root and an identity. It implements
// oci.CosignVerifier.
type Verifier struct {
	keys     []crypto.PublicKey
	sigVer   [][]signature.Verifier // the signature checks of each key (keyVerifiers)
	verifier [][]*verify.Verifier   // key-based bundle verifiers, the same
	keyless  *verify.Verifier       // a signed timestamp or log time
	withLog  *verify.Verifier       // the same, and the log entry's inclusion
	identity *verify.CertificateIdentity
	idText   string
}

// NewKeyVerifier returns a Verifier that trusts keys (cosign.pub).
func NewKeyVerifier(keys []crypto.PublicKey) (*Verifier, error) {
	v := &Verifier{keys: keys}
	for _, k := range keys {
		svs, err := keyVerifiers(k)
		if err != nil {
			return nil, fmt.Errorf("cosign key %s: %w", KeyID(k), err)
		}
		var vvs []*verify.Verifier
		for _, sv := range svs {
			ek := root.NewExpiringKey(sv, time.Time{}, time.Time{})
			// Any hint names the key: cosign's and ToolHive's bundles name it
			// by its digest, other signers otherwise; the signature decides.
			tm := root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) { return ek, nil })
			vv, err := verify.NewVerifier(tm, verify.WithNoObserverTimestamps())
			if err != nil {
				return nil, err
			}
			vvs = append(vvs, vv)
		}
		v.sigVer = append(v.sigVer, svs)
		v.verifier = append(v.verifier, vvs)
	}
	return v, nil
}

// keyVerifiers returns the ways a signature by k is checked: ECDSA P-256
// over SHA-256; for an Ed25519 key, pure Ed25519 (what skills-mcp signs and
// what cosign verify --key checks) and Ed25519ph, the pre-hashed variant of
// RFC 8032 (SHA-512) that cosign v2.6 sign --key makes with an Ed25519 key,
// which its own verify --key refuses. The two are domain-separated (ph
// signs under a dom2 prefix), so neither's signature passes for the other.
func keyVerifiers(k crypto.PublicKey) ([]signature.Verifier, error) {
	sv, err := signature.LoadVerifier(k, crypto.SHA256)
	if err != nil {
		return nil, err
	}
	ed, ok := k.(ed25519.PublicKey)
	if !ok {
		return []signature.Verifier{sv}, nil
	}
	ph, err := signature.LoadED25519phVerifier(ed)
	if err != nil {
		return nil, err
	}
	return []signature.Verifier{sv, ph}, nil
}

// NewKeylessVerifier returns a Verifier that trusts certificates the
// trusted root's certificate authorities issued to id, each with a Rekor
// entry whose inclusion proof checks or a signed timestamp from the root's
// timestamp authorities (offline: nothing is fetched).
func NewKeylessVerifier(trustedRoot []byte, id Identity) (*Verifier, error) {
	if len(trustedRoot) > maxTrustedRoot {
		return nil, fmt.Errorf("trusted root: larger than %d bytes", maxTrustedRoot)
	}
	tr, err := root.NewTrustedRootFromJSON(trustedRoot)
	if err != nil {
		return nil, fmt.Errorf("trusted root: %w", err)
	}
	return newKeyless(tr, id)
}

// newKeyless is NewKeylessVerifier with the trusted material decoded.
func newKeyless(tr root.TrustedMaterial, id Identity) (*Verifier, error) {
	if id.Subject == "" && id.SubjectRegexp == "" || id.Issuer == "" && id.IssuerRegexp == "" {
		return nil, errors.New("keyless: give --certificate-identity (or -regexp) and --certificate-oidc-issuer (or -regexp)")
	}
	ci, err := verify.NewShortCertificateIdentity(id.Issuer, id.IssuerRegexp, id.Subject, id.SubjectRegexp)
	if err != nil {
		return nil, fmt.Errorf("keyless identity: %w", err)
	}
	vv, err := verify.NewVerifier(tr, verify.WithObserverTimestamps(1))
	if err != nil {
		return nil, err
	}
	wl, err := verify.NewVerifier(tr, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
	if err != nil {
		return nil, err
	}
	return &Verifier{keyless: vv, withLog: wl, identity: &ci, idText: identityText(id)}, nil
}

// timeRule reports whether sigstore-go refused a keyless bundle for the
// times its certificate was used at (it has no error values for them).
func timeRule(err error) bool {
	s := err.Error()
	return strings.Contains(s, "certificate validity") || strings.Contains(s, "verify leaf certificate")
}

// maxTrustedRoot bounds a trusted_root.json.
const maxTrustedRoot = 1 << 20

func identityText(id Identity) string {
	s := id.Subject
	if s == "" {
		s = "~" + id.SubjectRegexp
	}
	i := id.Issuer
	if i == "" {
		i = "~" + id.IssuerRegexp
	}
	return s + " (issuer " + i + ")"
}

func untrusted(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrUntrusted}, args...)...)
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrBadSignature}, args...)...)
}

// VerifyCosign returns who signed the artifact of digest d: the first of
// sigs that is a valid signature by a trusted key or identity (a
// simple-signing payload, or a bundle of a signature Statement).
func (v *Verifier) VerifyCosign(d string, sigs []oci.CosignSignature) (string, error) {
	if len(sigs) == 0 {
		return "", manifest.ErrUnsigned
	}
	var errs []error
	for i, s := range sigs {
		if s.Bundle != nil && s.PredicateType != "" && s.PredicateType != SignPredicateType {
			continue // an attestation, which VerifyAttestation checks
		}
		who, err := v.verifyOne(d, s, SignPredicateType)
		if err == nil {
			return who, nil
		}
		errs = append(errs, fmt.Errorf("cosign signature %d: %w", i+1, err))
	}
	if len(errs) == 0 {
		return "", fmt.Errorf("%w: only attestations, no cosign signature", manifest.ErrUntrusted)
	}
	return "", fmt.Errorf("no valid cosign signature by a trusted key among %d: %w", len(errs), oneLine(errs))
}

// VerifyAttestation returns the Statement of the first bundle among sigs
// over d whose predicate is of predicateType and whose signature is valid
// and trusted.
func (v *Verifier) VerifyAttestation(d string, sigs []oci.CosignSignature, predicateType string) (*oci.Attestation, error) {
	var errs []error
	n := 0
	for i, s := range sigs {
		if s.Bundle == nil || s.PredicateType != "" && s.PredicateType != predicateType {
			continue
		}
		n++
		st, who, err := v.verifyBundle(d, s.Bundle, predicateType)
		if err == nil {
			return &oci.Attestation{PredicateType: predicateType, Statement: st, Signer: who}, nil
		}
		errs = append(errs, fmt.Errorf("attestation %d: %w", i+1, err))
	}
	if n == 0 {
		return nil, fmt.Errorf("no attestation of type %s: %w", predicateType, manifest.ErrUnsigned)
	}
	return nil, fmt.Errorf("no valid attestation of type %s by a trusted key among %d: %w", predicateType, n, oneLine(errs))
}

func (v *Verifier) verifyOne(d string, s oci.CosignSignature, predicateType string) (string, error) {
	if s.Digest != d {
		return "", bad("it signs %s, not %s", s.Digest, d)
	}
	if s.Bundle != nil {
		_, who, err := v.verifyBundle(d, s.Bundle, predicateType)
		return who, err
	}
	return v.verifySimple(d, s.Payload, s.Signature)
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
	if v.keyless != nil {
		return "", untrusted("simple signing: a keyless signature of the .sig tag is not checked; sign with --new-bundle-format")
	}
	who := ""
keys:
	for i, k := range v.keys {
		for _, sv := range v.sigVer[i] {
			if sv.VerifySignature(bytes.NewReader(sig), bytes.NewReader(payload)) == nil {
				who = "cosign key " + KeyID(k)
				break keys
			}
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

// ParseBundle decodes a Sigstore bundle, bounded: its size, and the
// certificates of its chain.
func ParseBundle(b []byte) (*bundle.Bundle, error) {
	if len(b) > oci.MaxSigstoreBundle {
		return nil, fmt.Errorf("bundle of %d bytes: the limit is %d", len(b), oci.MaxSigstoreBundle)
	}
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	if vm := pb.GetVerificationMaterial(); vm != nil {
		if ch := vm.GetX509CertificateChain(); ch != nil && len(ch.GetCertificates()) > MaxChain {
			return nil, fmt.Errorf("bundle: a certificate chain of %d: the limit is %d", len(ch.GetCertificates()), MaxChain)
		}
	}
	return &pb, nil
}

// verifyBundle checks a Sigstore bundle over d whose Statement is of
// predicateType, and returns the Statement and its signer.
func (v *Verifier) verifyBundle(d string, b []byte, predicateType string) ([]byte, string, error) {
	pb, err := ParseBundle(b)
	if err != nil {
		return nil, "", bad("%v", err)
	}
	return v.verifyEntity(d, pb, predicateType)
}

// verifyEntity is verifyBundle's check of a decoded bundle.
func (v *Verifier) verifyEntity(d string, e verify.SignedEntity, predicateType string) ([]byte, string, error) {
	if !validDigest(d) {
		return nil, "", bad("digest %q", d)
	}
	hx, _ := hex.DecodeString(strings.TrimPrefix(d, "sha256:"))
	vc, err := e.VerificationContent()
	if err != nil {
		return nil, "", bad("bundle: %v", err)
	}
	sc, err := e.SignatureContent()
	if err != nil || sc.EnvelopeContent() == nil {
		return nil, "", bad("bundle: not a DSSE envelope of an in-toto Statement")
	}
	keyed := vc.Certificate() == nil
	check := func(vv *verify.Verifier, opts ...verify.PolicyOption) (*verify.VerificationResult, error) {
		return vv.Verify(e, verify.NewPolicy(verify.WithArtifactDigest("sha256", hx), opts...))
	}
	var res *verify.VerificationResult
	who := ""
	if v.keyless != nil {
		if keyed {
			return nil, "", untrusted("bundle: signed by a key, and only keyless signers by %s are trusted", v.idText)
		}
		vv := v.keyless
		if e.HasInclusionProof() || e.HasInclusionPromise() {
			vv = v.withLog // a bundle with a log entry has its inclusion checked
		}
		res, err = check(vv, verify.WithCertificateIdentity(*v.identity))
		if err != nil {
			if c := vc.Certificate(); c != nil && timeRule(err) {
				// A short-lived certificate is checked at the times the
				// bundle's observers vouch for; say which window it had.
				return nil, "", untrusted("keyless bundle: %v (the certificate is valid from %s to %s: a signed timestamp and log time must fall inside)",
					err, c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
			}
			return nil, "", untrusted("keyless bundle: %v", err)
		}
		who = "keyless " + res.Signature.Certificate.SubjectAlternativeName + " (issuer " + res.Signature.Certificate.Issuer + ")"
	} else {
		if !keyed {
			return nil, "", untrusted("bundle: signed keyless; give --trusted-root and --certificate-identity to check it")
		}
	keys:
		for i, k := range v.keys {
			for _, vv := range v.verifier[i] {
				if res, err = check(vv, verify.WithKey()); err == nil {
					who = "cosign key " + KeyID(k)
					break keys
				}
			}
		}
		if who == "" {
			return nil, "", untrusted("bundle: the signature is by none of the %d trusted cosign keys, or not over %s: %v", len(v.keys), d, err)
		}
	}
	if res.Statement == nil || res.Statement.GetPredicateType() != predicateType {
		return nil, "", bad("bundle: a Statement of predicate type %q, want %q", res.Statement.GetPredicateType(), predicateType)
	}
	st, err := sc.EnvelopeContent().RawEnvelope().DecodeB64Payload()
	if err != nil {
		return nil, "", bad("bundle: payload: %v", err)
	}
	return st, who, nil
}

// oneLine joins errs on one line, each still seen by errors.Is.
func oneLine(errs []error) error {
	args := make([]any, len(errs))
	for i, e := range errs {
		args[i] = e
	}
	return fmt.Errorf(strings.TrimSuffix(strings.Repeat("%w; ", len(errs)), "; "), args...)
}
