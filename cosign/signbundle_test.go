package cosign

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/skills-mcp/skills-mcp/oci"
)

// sigstoreAccepts is the reference: whether sigstore-go's verifier, set
// up for a cosign key with no transparency log (what --trust cosign.pub
// asked of it before the check moved to the standard library), accepts
// bundle b by k over d with a Statement of predicateType.
func sigstoreAccepts(t *testing.T, k crypto.PublicKey, d string, b []byte, predicateType string) bool {
	t.Helper()
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		return false
	}
	sv, err := signature.LoadVerifier(k, crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	ek := root.NewExpiringKey(sv, time.Time{}, time.Time{})
	tm := root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) { return ek, nil })
	vv, err := verify.NewVerifier(tm, verify.WithNoObserverTimestamps())
	if err != nil {
		t.Fatal(err)
	}
	hx, _ := hex.DecodeString(strings.TrimPrefix(d, "sha256:"))
	res, err := vv.Verify(&pb, verify.NewPolicy(verify.WithArtifactDigest("sha256", hx), verify.WithKey()))
	return err == nil && res.Statement != nil && res.Statement.GetPredicateType() == predicateType
}

// TestKeyedBundleDifferential: the standard-library check of a key-based
// bundle accepts exactly what sigstore-go accepts, for both key types,
// over bundles we sign and over each way of changing one: another key,
// payload, payload type, subject, predicate type, media type, number of
// signatures, a message signature instead of an envelope, a certificate
// instead of a key.
func TestKeyedBundleDifferential(t *testing.T) {
	ks, other := keys(t), keys(t)
	for i, k := range ks {
		s, _ := NewSigner(k)
		so, _ := NewSigner(other[i])
		sign := func(s *Signer, d, pt string) []byte {
			b, err := s.Attest(context.Background(), d, pt, nil)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		good := sign(s, digestA, SignPredicateType)
		edit := func(f func(m map[string]any)) []byte {
			var m map[string]any
			if err := json.Unmarshal(good, &m); err != nil {
				t.Fatal(err)
			}
			f(m)
			b, _ := json.Marshal(m)
			return b
		}
		env := func(m map[string]any) map[string]any { return m["dsseEnvelope"].(map[string]any) }
		st, _ := Statement(digestA, SignPredicateType, nil)
		cases := map[string][]byte{
			"ours":           good,
			"another key":    sign(so, digestA, SignPredicateType),
			"another digest": sign(s, digestB, SignPredicateType),
			"an attestation": sign(s, digestA, oci.AnalysisPredicateType),
			"payload changed": edit(func(m map[string]any) {
				env(m)["payload"] = base64.StdEncoding.EncodeToString([]byte(strings.Replace(string(st), "sign/v1", "sign/v2", 1)))
			}),
			"payload type":     edit(func(m map[string]any) { env(m)["payloadType"] = "application/json" }),
			"two signatures":   edit(func(m map[string]any) { sg := env(m)["signatures"].([]any); env(m)["signatures"] = append(sg, sg[0]) }),
			"no signature":     edit(func(m map[string]any) { env(m)["signatures"] = []any{} }),
			"media type 0.1":   edit(func(m map[string]any) { m["mediaType"] = "application/vnd.dev.sigstore.bundle+json;version=0.1" }),
			"media type 0.2":   edit(func(m map[string]any) { m["mediaType"] = bundleV02 }),
			"media type v0.4":  edit(func(m map[string]any) { m["mediaType"] = bundleBase + ".v0.4+json" }),
			"media type other": edit(func(m map[string]any) { m["mediaType"] = "application/json" }),
			"message signature": edit(func(m map[string]any) {
				delete(m, "dsseEnvelope")
				m["messageSignature"] = map[string]any{"messageDigest": map[string]any{"algorithm": "SHA2_256", "digest": "AAAA"}, "signature": "AAAA"}
			}),
			"no envelope": edit(func(m map[string]any) { delete(m, "dsseEnvelope") }),
			"a certificate": edit(func(m map[string]any) {
				m["verificationMaterial"] = map[string]any{"certificate": map[string]any{"rawBytes": "AAAA"}}
			}),
		}
		v, _ := NewKeyVerifier([]crypto.PublicKey{k.Public()})
		for name, b := range cases {
			for _, pt := range []string{SignPredicateType, oci.AnalysisPredicateType} {
				want := sigstoreAccepts(t, k.Public(), digestA, b, pt)
				var err error
				if pt == SignPredicateType {
					_, err = v.VerifyCosign(digestA, []oci.CosignSignature{{Digest: digestA, Bundle: b}})
				} else {
					_, err = v.VerifyAttestation(digestA, []oci.CosignSignature{{Digest: digestA, Bundle: b}}, pt)
				}
				if got := err == nil; got != want {
					t.Errorf("key %d, %s, %s: we accept %v, sigstore-go %v (%v)", i, name, pt, got, want, err)
				}
			}
		}
	}
}
