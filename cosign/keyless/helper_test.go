package keyless

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"strings"
	"testing"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protodsse "github.com/sigstore/protobuf-specs/gen/pb-go/dsse"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/skills-mcp/skills-mcp/cosign"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"google.golang.org/protobuf/encoding/protojson"
)

// What the tests moved from package cosign call by their old names.
type Identity = cosign.Identity

var Statement = cosign.Statement

const (
	SignPredicateType = cosign.SignPredicateType
	digestA           = "sha256:2ea837d625927fcde3324e60d5d29562330d07ca16518aebe44524e74e3ab919"
	digestB           = "sha256:85bc3264692c8d80c708788df8cb527d81749a0ccb2088986cb88e6a9a78e19d"
)

// envServe makes this test binary the helper (Serve) for the tests that
// run skills-mcp's side of it (cosign.NewKeylessVerifier).
const envServe = "SKILLS_MCP_KEYLESS_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(envServe) == "1" {
		if err := Serve(os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// bundleJSON writes a keyless test entity as the Sigstore bundle (v0.3,
// JSON) a registry would hold: its certificate, signed timestamp and DSSE
// envelope (no log entry: the signed timestamp vouches for the time; the
// log's checks run in TestKeyless).
func bundleJSON(t *testing.T, e *ca.TestEntity) []byte {
	t.Helper()
	vc, _ := e.VerificationContent()
	sc, _ := e.SignatureContent()
	env := sc.EnvelopeContent().RawEnvelope()
	payload, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
	if err != nil {
		t.Fatal(err)
	}
	tss, _ := e.Timestamps()
	var stamps []*protocommon.RFC3161SignedTimestamp
	for _, ts := range tss {
		stamps = append(stamps, &protocommon.RFC3161SignedTimestamp{SignedTimestamp: ts})
	}
	b, err := protojson.Marshal(&protobundle.Bundle{
		MediaType: "application/vnd.dev.sigstore.bundle.v0.3+json",
		VerificationMaterial: &protobundle.VerificationMaterial{
			Content:                   &protobundle.VerificationMaterial_Certificate{Certificate: &protocommon.X509Certificate{RawBytes: vc.Certificate().Raw}},
			TimestampVerificationData: &protobundle.TimestampVerificationData{Rfc3161Timestamps: stamps},
		},
		Content: &protobundle.Bundle_DsseEnvelope{DsseEnvelope: &protodsse.Envelope{
			Payload: payload, PayloadType: env.PayloadType, Signatures: []*protodsse.Signature{{Sig: sig}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rootJSON writes the virtual Sigstore's trusted_root.json.
func rootJSON(t *testing.T, vs *ca.VirtualSigstore) []byte {
	t.Helper()
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01, vs.FulcioCertificateAuthorities(), vs.CTLogs(), vs.TimestampingAuthorities(), vs.RekorLogs())
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHelper runs skills-mcp's side of keyless verification
// (cosign.NewKeylessVerifier) against this package run as the helper
// program, over bundles and a trusted root in their JSON forms, as
// --trusted-root reads them: the identity asked for passes, for a
// signature and an attestation; another identity, a key-based bundle, and
// a helper that is not installed are refused, naming the rule.
func TestHelper(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(cosign.EnvHelper, exe)
	t.Setenv(envServe, "1")
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	const who, iss = "release@example.com", "https://issuer.example"
	sign := func(predicateType string) []byte {
		st, err := cosign.Statement(digestA, predicateType, nil)
		if err != nil {
			t.Fatal(err)
		}
		ent, err := vs.Attest(who, iss, st)
		if err != nil {
			t.Fatal(err)
		}
		return bundleJSON(t, ent)
	}
	sigB, attB := sign(cosign.SignPredicateType), sign(oci.AnalysisPredicateType)
	tr := rootJSON(t, vs)
	v, err := cosign.NewKeylessVerifier(tr, cosign.Identity{Subject: who, Issuer: iss})
	if err != nil {
		t.Fatal(err)
	}
	sigs := []oci.CosignSignature{{Digest: digestA, Bundle: sigB}, {Digest: digestA, Bundle: attB, PredicateType: oci.AnalysisPredicateType}}
	signer, err := v.VerifyCosign(digestA, sigs)
	if err != nil || !strings.Contains(signer, "keyless "+who) {
		t.Fatalf("keyless through the helper: %q, %v", signer, err)
	}
	att, err := v.VerifyAttestation(digestA, sigs, oci.AnalysisPredicateType)
	if err != nil || !strings.Contains(att.Signer, who) || !bytes.Contains(att.Statement, []byte(oci.AnalysisPredicateType)) {
		t.Fatalf("keyless attestation: %+v, %v", att, err)
	}
	if _, err := v.VerifyCosign(digestB, []oci.CosignSignature{{Digest: digestB, Bundle: sigB}}); !errors.Is(err, manifest.ErrUntrusted) {
		t.Errorf("over another digest: %v", err)
	}
	other, _ := cosign.NewKeylessVerifier(tr, cosign.Identity{Subject: "mallory@example.com", Issuer: iss})
	if _, err := other.VerifyCosign(digestA, sigs); !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), `expected SAN value "mallory@example.com"`) {
		t.Errorf("another identity: %v", err)
	}
	// A key-based bundle is refused before the helper runs; a key
	// verifier refuses a keyless bundle.
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, _ := cosign.NewSigner(k)
	keyed, err := s.Attest(context.Background(), digestA, cosign.SignPredicateType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyCosign(digestA, []oci.CosignSignature{{Digest: digestA, Bundle: keyed}}); !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "signed by a key") {
		t.Errorf("a key-based bundle to a keyless verifier: %v", err)
	}
	kv, _ := cosign.NewKeyVerifier([]crypto.PublicKey{k.Public()})
	if _, err := kv.VerifyCosign(digestA, sigs[:1]); !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "signed keyless") {
		t.Errorf("key verifier on a keyless bundle: %v", err)
	}
	// A trusted root the helper cannot load, and no helper at all.
	broken, _ := cosign.NewKeylessVerifier([]byte(`{"mediaType":"nonsense"}`), cosign.Identity{Subject: who, Issuer: iss})
	if _, err := broken.VerifyCosign(digestA, sigs); err == nil || !strings.Contains(err.Error(), "trusted root") {
		t.Errorf("broken trusted root: %v", err)
	}
	t.Setenv(cosign.EnvHelper, "")
	t.Setenv("PATH", t.TempDir())
	if _, err := v.VerifyCosign(digestA, sigs); err == nil || !strings.Contains(err.Error(), cosign.HelperName) {
		t.Errorf("no helper: %v", err)
	}
}
