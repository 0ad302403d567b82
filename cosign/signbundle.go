package cosign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
)

// The Sigstore bundle in its JSON form (protobuf-specs' Bundle as
// protojson writes it): what Signer.Attest writes, and the part a
// key-based check reads. The key-based path needs nothing more, so it
// stays on the standard library; keyless bundles go to sigstore-go whole
// (cosign/keyless).

// Bundle media types.
const (
	bundleV03 = "application/vnd.dev.sigstore.bundle.v0.3+json"
	bundleV02 = "application/vnd.dev.sigstore.bundle+json;version=0.2"
)

// Bundle is a decoded Sigstore bundle: the fields a key-based check reads
// and the certificates a keyless one would (counted, never parsed here).
type Bundle struct {
	MediaType            string               `json:"mediaType"`
	VerificationMaterial verificationMaterial `json:"verificationMaterial"`
	DSSEEnvelope         *dsseEnvelope        `json:"dsseEnvelope,omitempty"`
	MessageSignature     json.RawMessage      `json:"messageSignature,omitempty"`
}

type verificationMaterial struct {
	PublicKey            *publicKeyID  `json:"publicKey,omitempty"`
	X509CertificateChain *certChain    `json:"x509CertificateChain,omitempty"`
	Certificate          *rawCert      `json:"certificate,omitempty"`
	TlogEntries          []rawJSONItem `json:"tlogEntries,omitempty"`
}

type publicKeyID struct {
	Hint string `json:"hint"`
}

type certChain struct {
	Certificates []rawCert `json:"certificates"`
}

type rawCert struct {
	RawBytes []byte `json:"rawBytes"`
}

// rawJSONItem keeps an element of a list the key-based check does not
// read (a transparency log entry).
type rawJSONItem = json.RawMessage

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
		return ed25519.Verify(k, data, sig)
	}
	return false
}
