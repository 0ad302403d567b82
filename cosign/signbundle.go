package cosign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// The Sigstore bundle in its JSON form (protobuf-specs' Bundle as
// protojson writes it): what Signer.Attest writes, and the part a
// key-based check reads. The key-based path needs nothing more, so it
// stays on the standard library; keyless bundles go to sigstore-go whole
// (cosign/keyless).

// Predicate types and the in-toto payload type.
const (
	// SignPredicateType is the predicate type of the Statement in a
	// signature bundle, as cosign writes it (a Statement with no
	// predicate: the signature is over its subject alone).
	SignPredicateType = "https://sigstore.dev/cosign/sign/v1"
	statementType     = "https://in-toto.io/Statement/v1"
	inTotoPayloadType = "application/vnd.in-toto+json"
)

// MaxChain bounds the certificates of a bundle's chain.
const MaxChain = 10

func untrusted(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrUntrusted}, args...)...)
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrBadSignature}, args...)...)
}

// Bundle media types: v0.3 is what Attest writes.
const (
	bundleBase = "application/vnd.dev.sigstore.bundle"
	bundleV03  = bundleBase + ".v0.3+json"
	bundleV02  = bundleBase + "+json;version=0.2"
)

// knownBundleType reports whether mt is a bundle media type of versions
// 0.1 to 0.3, in either spelling: the JSON fields a key-based check reads
// are the same in all of them.
func knownBundleType(mt string) bool {
	for _, v := range []string{"0.1", "0.2", "0.3"} {
		if mt == bundleBase+"+json;version="+v || mt == bundleBase+".v"+v+"+json" {
			return true
		}
	}
	return false
}

// Bundle is a decoded Sigstore bundle: the fields a key-based check reads
// and the certificates a keyless one would (counted, never parsed here).
type Bundle struct {
	MediaType            string               `json:"mediaType"`
	VerificationMaterial verificationMaterial `json:"verificationMaterial"`
	DSSEEnvelope         *dsseEnvelope        `json:"dsseEnvelope,omitempty"`
	MessageSignature     json.RawMessage      `json:"messageSignature,omitempty"`
}

type verificationMaterial struct {
	PublicKey            *publicKeyID    `json:"publicKey,omitempty"`
	X509CertificateChain *certChain      `json:"x509CertificateChain,omitempty"`
	Certificate          json.RawMessage `json:"certificate,omitempty"`
}

type publicKeyID struct {
	Hint string `json:"hint"`
}

// certChain is a certificate chain, counted and left undecoded: the
// keyless check (sigstore-go) reads it.
type certChain struct {
	Certificates []json.RawMessage `json:"certificates"`
}

// dsseEnvelope is a DSSE envelope; Payload and Sig are base64 in JSON.
type dsseEnvelope struct {
	Payload     []byte          `json:"payload"`
	PayloadType string          `json:"payloadType"`
	Signatures  []dsseSignature `json:"signatures"`
}

type dsseSignature struct {
	Sig   []byte `json:"sig"`
	KeyID string `json:"keyid,omitempty"`
}

// pae is DSSE's pre-authentication encoding of a payload and its type:
// what a DSSE signature signs.
func pae(payloadType string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString("DSSEv1 ")
	b.WriteString(strconv.Itoa(len(payloadType)))
	b.WriteByte(' ')
	b.WriteString(payloadType)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(payload)))
	b.WriteByte(' ')
	b.Write(payload)
	return b.Bytes()
}

// signedMessage is what a cosign key signs for data: its sha256 for ECDSA
// (P-256), the data itself for Ed25519; and the hash to tell the signer.
func signedMessage(k crypto.PublicKey, data []byte) ([]byte, crypto.Hash, error) {
	switch k.(type) {
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(data)
		return sum[:], crypto.SHA256, nil
	case ed25519.PublicKey:
		return data, crypto.Hash(0), nil
	}
	return nil, 0, fmt.Errorf("key of type %T: want ECDSA P-256 or Ed25519", k)
}

// verifyKey reports whether sig is k's signature of data, as signedMessage
// says k signs.
func verifyKey(k crypto.PublicKey, data, sig []byte) bool {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(data)
		return ecdsa.VerifyASN1(k, sum[:], sig)
	case ed25519.PublicKey:
		if ed25519.Verify(k, data, sig) {
			return true
		}
		// Ed25519ph (RFC 8032, SHA-512 first): what cosign sign --key
		// makes with an Ed25519 key. Domain separation keeps either from
		// passing for the other.
		sum := sha512.Sum512(data)
		return ed25519.VerifyWithOptions(k, sum[:], sig, &ed25519.Options{Hash: crypto.SHA512}) == nil
	}
	return false
}

// Statement types a bundle's in-toto Statement may declare.
const statementTypeV01 = "https://in-toto.io/Statement/v0.1"

// checkKeyed checks a key-based bundle (Keyed) against keys: a DSSE
// envelope of one signature, by one of keys, over an in-toto Statement
// whose subjects include the artifact of digest d and whose predicate is
// of predicateType. It returns the Statement and the index of the key.
// Key-based verification needs no log entry or timestamp (cosign's
// --insecure-ignore-tlog=true); what the bundle holds of them is not read.
func (b *Bundle) checkKeyed(keys []crypto.PublicKey, d, predicateType string) ([]byte, int, error) {
	if !knownBundleType(b.MediaType) {
		return nil, -1, bad("bundle: media type %q: want a Sigstore bundle of version 0.1 to 0.3 (%s)", b.MediaType, bundleV03)
	}
	env := b.DSSEEnvelope
	if env == nil {
		return nil, -1, bad("bundle: not a DSSE envelope of an in-toto Statement")
	}
	if len(env.Signatures) != 1 {
		return nil, -1, bad("bundle: a DSSE envelope of %d signatures: want 1", len(env.Signatures))
	}
	if env.PayloadType != inTotoPayloadType {
		return nil, -1, bad("bundle: a DSSE payload of type %q: want %q", env.PayloadType, inTotoPayloadType)
	}
	signed := pae(env.PayloadType, env.Payload)
	who := -1
	for i, k := range keys {
		if verifyKey(k, signed, env.Signatures[0].Sig) {
			who = i
			break
		}
	}
	if who < 0 {
		return nil, -1, untrusted("bundle: the signature is by none of the %d trusted cosign keys (or the payload was changed)", len(keys))
	}
	var st struct {
		Type    string `json:"_type"`
		Subject []struct {
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
		PredicateType string `json:"predicateType"`
	}
	if err := json.Unmarshal(env.Payload, &st); err != nil {
		return nil, -1, bad("bundle: Statement: %v", err)
	}
	if st.Type != statementType && st.Type != statementTypeV01 {
		return nil, -1, bad("bundle: a Statement of type %q: want %q", st.Type, statementType)
	}
	want, _ := hex.DecodeString(strings.TrimPrefix(d, "sha256:"))
	over := false
	for _, sub := range st.Subject {
		got, err := hex.DecodeString(sub.Digest["sha256"])
		over = over || err == nil && len(want) == sha256.Size && bytes.Equal(got, want)
	}
	if !over {
		return nil, -1, bad("bundle: the Statement's subjects do not include %s", d)
	}
	if st.PredicateType != predicateType {
		return nil, -1, bad("bundle: a Statement of predicate type %q, want %q", st.PredicateType, predicateType)
	}
	return env.Payload, who, nil
}

// ParseBundle decodes a Sigstore bundle's JSON, bounded: its size
// (oci.MaxSigstoreBundle) and the certificates of its chain (MaxChain).
// It checks nothing of its signature.
func ParseBundle(b []byte) (*Bundle, error) {
	if len(b) > oci.MaxSigstoreBundle {
		return nil, fmt.Errorf("bundle of %d bytes: the limit is %d", len(b), oci.MaxSigstoreBundle)
	}
	var pb Bundle
	if err := json.Unmarshal(b, &pb); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	if ch := pb.VerificationMaterial.X509CertificateChain; ch != nil && len(ch.Certificates) > MaxChain {
		return nil, fmt.Errorf("bundle: a certificate chain of %d: the limit is %d", len(ch.Certificates), MaxChain)
	}
	return &pb, nil
}

// Keyed reports whether the bundle names a public key rather than a
// certificate: a key-based signature.
func (b *Bundle) Keyed() bool {
	vm := b.VerificationMaterial
	return vm.PublicKey != nil && vm.X509CertificateChain == nil && len(vm.Certificate) == 0
}
