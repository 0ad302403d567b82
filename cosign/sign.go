package cosign

import (
	"context"
	"crypto"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Signer signs artifacts with a cosign key: simple-signing payloads and
// Sigstore bundles. It makes no request: key-based signing needs no
// transparency log.
type Signer struct {
	key crypto.Signer
}

// NewSigner returns a Signer for k (ECDSA P-256 or Ed25519).
func NewSigner(k crypto.Signer) (*Signer, error) {
	if err := checkKey(k.Public()); err != nil {
		return nil, err
	}
	return &Signer{key: k}, nil
}

// Public returns the signer's public key.
func (s *Signer) Public() crypto.PublicKey { return s.key.Public() }

// SignPayload signs a simple-signing payload as cosign does: ECDSA over
// its sha256 (ASN.1 DER), Ed25519 over the payload itself.
func (s *Signer) SignPayload(payload []byte) ([]byte, error) {
	return s.sign(payload)
}

// sign signs data as cosign signs with the key (signedMessage).
func (s *Signer) sign(data []byte) ([]byte, error) {
	msg, h, err := signedMessage(s.key.Public(), data)
	if err != nil {
		return nil, err
	}
	sig, err := s.key.Sign(rand.Reader, msg, h)
	if err != nil {
		return nil, fmt.Errorf("cosign key: sign: %w", err)
	}
	return sig, nil
}

// Attest returns a Sigstore bundle (v0.3, JSON) holding a DSSE envelope of
// an in-toto Statement whose subject is the artifact of digest d
// ("sha256:<hex>"), of predicateType, with predicate (nil: none, as for a
// signature). The bundle names the key by its hint (KeyID); it carries no
// transparency log entry: the bundle sigstore-go's sign.Bundle writes for a
// key, which cosign verify --key reads.
func (s *Signer) Attest(ctx context.Context, d, predicateType string, predicate json.RawMessage) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := Statement(d, predicateType, predicate)
	if err != nil {
		return nil, err
	}
	sig, err := s.sign(pae(inTotoPayloadType, st))
	if err != nil {
		return nil, err
	}
	return json.Marshal(Bundle{
		MediaType:            bundleV03,
		VerificationMaterial: verificationMaterial{PublicKey: &publicKeyID{Hint: KeyID(s.key.Public())}},
		DSSEEnvelope:         &dsseEnvelope{Payload: st, PayloadType: inTotoPayloadType, Signatures: []dsseSignature{{Sig: sig}}},
	})
}

// statement is an in-toto Statement v1.
type statement struct {
	Type          string          `json:"_type"`
	Subject       []subject       `json:"subject"`
	PredicateType string          `json:"predicateType"`
	Predicate     json.RawMessage `json:"predicate,omitempty"`
}

type subject struct {
	Name   string            `json:"name,omitempty"`
	Digest map[string]string `json:"digest"`
}

// Statement returns the in-toto Statement whose one subject is the
// artifact of digest d, of predicateType with predicate (nil for none).
func Statement(d, predicateType string, predicate json.RawMessage) ([]byte, error) {
	hx, ok := strings.CutPrefix(d, "sha256:")
	if _, err := hex.DecodeString(hx); !ok || err != nil || len(hx) != 64 {
		return nil, fmt.Errorf("digest %q: want sha256:<64 hex>", d)
	}
	return json.Marshal(statement{Type: statementType, Subject: []subject{{Digest: map[string]string{"sha256": hx}}},
		PredicateType: predicateType, Predicate: predicate})
}

// Owns reports whether sig is this signer's signature of payload.
func (s *Signer) Owns(payload, sig []byte) bool {
	return verifyKey(s.key.Public(), payload, sig)
}
