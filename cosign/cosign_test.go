package cosign

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

const (
	digestA = "sha256:2ea837d625927fcde3324e60d5d29562330d07ca16518aebe44524e74e3ab919"
	digestB = "sha256:85bc3264692c8d80c708788df8cb527d81749a0ccb2088986cb88e6a9a78e19d"
)

func keys(t *testing.T) []crypto.Signer {
	t.Helper()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return []crypto.Signer{ec, ed}
}

// TestSignVerify signs a bundle and a simple-signing payload with each key
// type and checks that the key's verifier accepts them and refuses another
// key and another digest, each naming the rule.
func TestSignVerify(t *testing.T) {
	ks := keys(t)
	other := keys(t)
	for i, k := range ks {
		s, err := NewSigner(k)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Attest(context.Background(), digestA, SignPredicateType, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := oci.ParseRef("oci://127.0.0.1:5000/skills/x")
		payload, err := oci.SimpleSigningPayload(ref, digestA)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.SignPayload(payload)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Owns(payload, sig) {
			t.Fatal("Owns: false for its own signature")
		}
		sigs := []oci.CosignSignature{
			{Digest: digestA, Bundle: b},
			{Digest: digestA, Payload: payload, Signature: base64.StdEncoding.EncodeToString(sig)},
		}
		good, err := NewKeyVerifier([]crypto.PublicKey{k.Public()})
		if err != nil {
			t.Fatal(err)
		}
		for j, one := range sigs {
			who, err := good.VerifyCosign(digestA, []oci.CosignSignature{one})
			if err != nil || !strings.HasPrefix(who, "cosign key ") {
				t.Errorf("key %d signature %d: %q, %v", i, j, who, err)
			}
			one.Digest = digestB
			if _, err := good.VerifyCosign(digestB, []oci.CosignSignature{one}); err == nil {
				t.Errorf("key %d signature %d: accepted over another digest", i, j)
			}
		}
		bad, _ := NewKeyVerifier([]crypto.PublicKey{other[i].Public()})
		_, err = bad.VerifyCosign(digestA, sigs)
		if !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "none of the 1 trusted cosign keys") {
			t.Errorf("key %d: another key: %v", i, err)
		}
		// A payload changed after signing.
		changed := strings.Replace(string(payload), "skills/x", "skills/y", 1)
		_, err = good.VerifyCosign(digestA, []oci.CosignSignature{{Digest: digestA, Payload: []byte(changed), Signature: sigs[1].Signature}})
		if !errors.Is(err, manifest.ErrUntrusted) {
			t.Errorf("key %d: changed payload: %v", i, err)
		}
		if _, err := good.VerifyCosign(digestA, nil); !errors.Is(err, manifest.ErrUnsigned) {
			t.Errorf("no signature: %v", err)
		}
		// A signature bundle is no attestation, and the other way round.
		if _, err := good.VerifyAttestation(digestA, sigs[:1], oci.AnalysisPredicateType); err == nil {
			t.Error("a signature bundle taken for an attestation")
		}
		att, err := s.Attest(context.Background(), digestA, oci.AnalysisPredicateType, json.RawMessage(`{"findings":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		a, err := good.VerifyAttestation(digestA, []oci.CosignSignature{{Digest: digestA, Bundle: att}}, oci.AnalysisPredicateType)
		if err != nil || !strings.Contains(string(a.Statement), `"findings":[]`) {
			t.Errorf("attestation: %v", err)
		}
		if _, err := good.VerifyCosign(digestA, []oci.CosignSignature{{Digest: digestA, Bundle: att}}); err == nil {
			t.Error("an attestation taken for a signature")
		}
	}
}

// TestEd25519ph: cosign sign --key with an Ed25519 key signs the payload
// pre-hashed (Ed25519ph, RFC 8032); it is accepted by that key, and a pure
// Ed25519 signature of the same SHA-512 digest (not ph) is not.
func TestEd25519ph(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := oci.ParseRef("oci://127.0.0.1:5000/skills/x")
	payload, err := oci.SimpleSigningPayload(ref, digestA)
	if err != nil {
		t.Fatal(err)
	}
	h := sha512.Sum512(payload)
	ph, err := priv.Sign(nil, h[:], &ed25519.Options{Hash: crypto.SHA512})
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewKeyVerifier([]crypto.PublicKey{pub})
	if err != nil {
		t.Fatal(err)
	}
	one := func(sig []byte) error {
		_, err := v.VerifyCosign(digestA, []oci.CosignSignature{{Digest: digestA, Payload: payload, Signature: base64.StdEncoding.EncodeToString(sig)}})
		return err
	}
	if err := one(ph); err != nil {
		t.Errorf("Ed25519ph: %v", err)
	}
	if err := one(ed25519.Sign(priv, h[:])); !errors.Is(err, manifest.ErrUntrusted) {
		t.Errorf("pure Ed25519 over the digest: %v, want untrusted", err)
	}
}

// TestPublicKeysRefused: what --trust must not take for cosign keys.
func TestPublicKeysRefused(t *testing.T) {
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&rk.PublicKey)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der384, _ := x509.MarshalPKIXPublicKey(&p384.PublicKey)
	for name, in := range map[string]string{
		"rsa":       string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})),
		"p384":      string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der384})),
		"garbage":   "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n",
		"truncated": "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE7ErPklbR5cshD3jEFlYqB7YiiAr9\n",
		"private":   "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
		"trailing":  string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})) + "junk",
		"huge":      strings.Repeat("A", maxKeyFile+1),
	} {
		if _, err := ParsePublicKeys(name, []byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestBundleBounds: a huge bundle and a certificate chain of depth 1,000
// are refused, quickly, before any verification.
func TestBundleBounds(t *testing.T) {
	start := time.Now()
	if _, err := ParseBundle(make([]byte, 100<<20)); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("100 MB bundle: %v", err)
	}
	cert := base64.StdEncoding.EncodeToString([]byte("not a certificate but bytes"))
	var certs []string
	for range 1000 {
		certs = append(certs, `{"rawBytes":"`+cert+`"}`)
	}
	deep := `{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{"x509CertificateChain":{"certificates":[` +
		strings.Join(certs, ",") + `]}},"messageSignature":{"messageDigest":{"algorithm":"SHA2_256","digest":"AAAA"},"signature":"AAAA"}}`
	if len(deep) > oci.MaxSigstoreBundle {
		t.Fatalf("the deep chain (%d bytes) must fit the size bound to test the chain bound", len(deep))
	}
	if _, err := ParseBundle([]byte(deep)); err == nil || !strings.Contains(err.Error(), "chain") {
		t.Errorf("chain of 1000: %v", err)
	}
	if _, err := ParseSimpleSigning(make([]byte, 100<<20)); err == nil {
		t.Error("100 MB payload accepted")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusals took %v", d)
	}
}

func FuzzParseBundle(f *testing.F) {
	f.Add([]byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{"publicKey":{"hint":"x"}},"dsseEnvelope":{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"sig":"AAAA"}]}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pb, err := ParseBundle(b)
		if err == nil && pb == nil {
			t.Fatal("nil bundle without error")
		}
	})
}

func FuzzParseSimpleSigning(f *testing.F) {
	f.Add([]byte(`{"critical":{"identity":{"docker-reference":"h/r"},"image":{"docker-manifest-digest":"` + digestA + `"},"type":"cosign container image signature"},"optional":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseSimpleSigning(b)
		if err == nil && !validDigest(d) {
			t.Fatalf("accepted digest %q", d)
		}
	})
}

func FuzzParsePublicKeys(f *testing.F) {
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE7ErPklbR5cshD3jEFlYqB7YiiAr9\nTFu41IbmTzxEm4U3P01WCfjY13IBbsLgeImnZb7KHAzkI/fAcJQeJ4fO8Q==\n-----END PUBLIC KEY-----\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ks, err := ParsePublicKeys("fuzz", b)
		if err == nil && len(ks) == 0 {
			t.Fatal("no key without error")
		}
	})
}

// BenchmarkVerifyWarm is what a warm start under --trust cosign.pub adds:
// the key verifier built from the trust file, and the first of the cached
// signatures (the simple-signing one, as a fetch keeps them) checked.
func BenchmarkVerifyWarm(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, _ := NewSigner(k)
	ref, _ := oci.ParseRef("oci://127.0.0.1:5000/skills/x")
	payload, _ := oci.SimpleSigningPayload(ref, digestA)
	sig, _ := s.SignPayload(payload)
	bundle, _ := s.Attest(context.Background(), digestA, SignPredicateType, nil)
	pemKey, _ := PublicKeyPEM(k.Public())
	for _, c := range []struct {
		name string
		sig  oci.CosignSignature
	}{
		{"simple", oci.CosignSignature{Digest: digestA, Payload: payload, Signature: base64.StdEncoding.EncodeToString(sig)}},
		{"bundle", oci.CosignSignature{Digest: digestA, Bundle: bundle}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				keys, err := ParsePublicKeys("cosign.pub", pemKey)
				if err != nil {
					b.Fatal(err)
				}
				v, err := NewKeyVerifier(keys)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := v.VerifyCosign(digestA, []oci.CosignSignature{c.sig}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
