package cosign

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore/pkg/signature"
	"google.golang.org/protobuf/encoding/protojson"
)

// Predicate types and the in-toto payload type.
const (
	// SignPredicateType is the predicate type of the Statement in a
	// signature bundle, as cosign writes it (a Statement with no
	// predicate: the signature is over its subject alone).
	SignPredicateType = "https://sigstore.dev/cosign/sign/v1"
	statementType     = "https://in-toto.io/Statement/v1"
	inTotoPayloadType = "application/vnd.in-toto+json"
)

// Signer signs artifacts with a cosign key: simple-signing payloads and
// Sigstore bundles. It makes no request: key-based signing needs no
// transparency log.
type Signer struct {
	key crypto.Signer
	alg signature.AlgorithmDetails
}

// NewSigner returns a Signer for k (ECDSA P-256 or Ed25519).
func NewSigner(k crypto.Signer) (*Signer, error) {
	if err := checkKey(k.Public()); err != nil {
		return nil, err
	}
	alg, err := signature.GetDefaultAlgorithmDetails(k.Public())
	if err != nil {
		return nil, fmt.Errorf("cosign key: %w", err)
	}
	return &Signer{key: k, alg: alg}, nil
}

// Public returns the signer's public key.
func (s *Signer) Public() crypto.PublicKey { return s.key.Public() }

// SignPayload signs a simple-signing payload as cosign does: ECDSA over
// its sha256 (ASN.1 DER), Ed25519 over the payload itself.
func (s *Signer) SignPayload(payload []byte) ([]byte, error) {
	sig, _, err := s.SignData(context.Background(), payload)
	return sig, err
}

// Attest returns a Sigstore bundle (v0.3, JSON) holding a DSSE envelope of
// an in-toto Statement whose subject is the artifact of digest d
// ("sha256:<hex>"), of predicateType, with predicate (nil: none, as for a
// signature). The bundle names the key by its hint (KeyID); it carries no
// transparency log entry.
func (s *Signer) Attest(ctx context.Context, d, predicateType string, predicate json.RawMessage) ([]byte, error) {
	st, err := Statement(d, predicateType, predicate)
	if err != nil {
		return nil, err
	}
	pb, err := sign.Bundle(&sign.DSSEData{Data: st, PayloadType: inTotoPayloadType}, s, sign.BundleOptions{Context: ctx})
	if err != nil {
		return nil, fmt.Errorf("sigstore bundle: %w", err)
	}
	return protojson.Marshal(pb)
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

// The methods below make Signer a sigstore-go sign.Keypair.

// GetHashAlgorithm returns the hash signed over.
func (s *Signer) GetHashAlgorithm() protocommon.HashAlgorithm { return s.alg.GetProtoHashType() }

// GetSigningAlgorithm returns the key's algorithm.
func (s *Signer) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	return s.alg.GetSignatureAlgorithm()
}

// GetHint returns the key's hint (KeyID), as cosign writes it.
func (s *Signer) GetHint() []byte { return []byte(KeyID(s.key.Public())) }

// GetKeyAlgorithm returns the key's family.
func (s *Signer) GetKeyAlgorithm() string {
	if s.alg.GetKeyType() == signature.ED25519 {
		return "ED25519"
	}
	return "ECDSA"
}

// GetPublicKey returns the public key.
func (s *Signer) GetPublicKey() crypto.PublicKey { return s.key.Public() }

// GetPublicKeyPem returns the public key as PEM.
func (s *Signer) GetPublicKeyPem() (string, error) {
	b, err := PublicKeyPEM(s.key.Public())
	return string(b), err
}

// SignData signs data: the signature, and what was signed (a digest, or
// the data itself for Ed25519).
func (s *Signer) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	hf := s.alg.GetHashType()
	msg := data
	if hf != crypto.Hash(0) {
		h := hf.New()
		h.Write(data)
		msg = h.Sum(nil)
	}
	sig, err := s.key.Sign(rand.Reader, msg, hf)
	if err != nil {
		return nil, nil, fmt.Errorf("cosign key: sign: %w", err)
	}
	return sig, msg, nil
}

var _ sign.Keypair = (*Signer)(nil)

// Owns reports whether sig is this signer's signature of payload.
func (s *Signer) Owns(payload, sig []byte) bool {
	v, err := signature.LoadVerifier(s.key.Public(), crypto.SHA256)
	return err == nil && v.VerifySignature(bytes.NewReader(sig), bytes.NewReader(payload)) == nil
}
