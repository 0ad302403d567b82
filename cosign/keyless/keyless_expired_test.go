package keyless

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	sigdsse "github.com/sigstore/sigstore/pkg/signature/dsse"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestKeylessExpired: a short-lived certificate proves nothing outside its
// validity, so a keyless bundle whose log entry was integrated, or whose
// signed timestamp was issued, after the certificate expired is refused,
// naming the rule; the same bundle made while the certificate was valid
// is accepted (so the refusal is the time's, not the construction's).
func TestKeylessExpired(t *testing.T) {
	vs, st := virtualSigstore(t)

	t.Run("integrated time", func(t *testing.T) {
		v, err := newKeyless(vs, Identity{Subject: who, Issuer: iss})
		if err != nil {
			t.Fatal(err)
		}
		// The virtual Sigstore's certificates are valid for ten minutes
		// from now; its log (an hour either side of now) still takes an
		// entry at +30 minutes, long after the certificate expired.
		late, err := vs.AttestAtTime(who, iss, st, time.Now().Add(30*time.Minute), true)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = v.verifyEntity(digestA, late, SignPredicateType)
		const want = "integrated time outside certificate validity"
		t.Logf("integrated after expiry: %v", err)
		if !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "certificate is valid from") || !strings.Contains(err.Error(), want) {
			t.Errorf("integrated after expiry: %v, want an untrusted error naming %q and the certificate's window", err, want)
		}
		inTime, err := vs.AttestAtTime(who, iss, st, time.Now().Add(5*time.Minute), true)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := v.verifyEntity(digestA, inTime, SignPredicateType); err != nil {
			t.Errorf("integrated in time: %v", err)
		}
	})

	t.Run("signed timestamp", func(t *testing.T) {
		// A Fulcio of our own (the virtual one issues certificates from
		// now only) and the virtual Sigstore's timestamp authority, which
		// stamps the signature now; no log entry, so the signed timestamp
		// is the only observer of the time.
		fulcio := newTestFulcio(t)
		tm := root.TrustedMaterialCollection{fulcio, vs}
		v, err := newKeyless(tm, Identity{Subject: who, Issuer: iss})
		if err != nil {
			t.Fatal(err)
		}
		expired := fulcio.entity(t, vs, who, iss, st, time.Now().Add(-time.Hour))
		_, _, err = v.verifyEntity(digestA, expired, SignPredicateType)
		const want = "failed to verify leaf certificate"
		t.Logf("stamped after expiry: %v", err)
		if !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "certificate is valid from") || !strings.Contains(err.Error(), want) {
			t.Errorf("stamped after expiry: %v, want an untrusted error naming %q and the certificate's window", err, want)
		}
		valid := fulcio.entity(t, vs, who, iss, st, time.Now().Add(-time.Minute))
		if _, signer, err := v.verifyEntity(digestA, valid, SignPredicateType); err != nil || !strings.Contains(signer, who) {
			t.Errorf("stamped in time: %q, %v", signer, err)
		}
	})
}

// testFulcio is a certificate authority whose leaf certificates start when
// the test says (ten minutes each, as the virtual Sigstore's).
type testFulcio struct {
	root.BaseTrustedMaterial
	rootCert, inter *x509.Certificate
	interKey        *ecdsa.PrivateKey
}

func newTestFulcio(t *testing.T) *testFulcio {
	t.Helper()
	rc, rk, err := ca.GenerateRootCa()
	if err != nil {
		t.Fatal(err)
	}
	ic, ik, err := ca.GenerateFulcioIntermediate(rc, rk)
	if err != nil {
		t.Fatal(err)
	}
	return &testFulcio{rootCert: rc, inter: ic, interKey: ik}
}

// FulcioCertificateAuthorities is the one authority, valid a day either
// side of now.
func (f *testFulcio) FulcioCertificateAuthorities() []root.CertificateAuthority {
	return []root.CertificateAuthority{&root.FulcioCertificateAuthority{
		Root: f.rootCert, Intermediates: []*x509.Certificate{f.inter},
		ValidityPeriodStart: time.Now().Add(-24 * time.Hour), ValidityPeriodEnd: time.Now().Add(24 * time.Hour),
	}}
}

// entity signs st in a DSSE envelope with a certificate issued to who (of
// iss) valid for ten minutes from notBefore, stamped now by vs's timestamp
// authority.
func (f *testFulcio) entity(t *testing.T, vs *ca.VirtualSigstore, who, iss string, st []byte, notBefore time.Time) *stampedEntity {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.GenerateLeafCert(who, iss, notBefore, k, f.inter, f.interKey)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := signature.LoadECDSASignerVerifier(k, crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	es, err := dsse.NewEnvelopeSigner(&sigdsse.SignerAdapter{SignatureSigner: sv, Pub: &k.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	env, err := es.SignPayload(context.Background(), "application/vnd.in-toto+json", st)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
	if err != nil {
		t.Fatal(err)
	}
	tsr, err := vs.TimestampResponse(sig)
	if err != nil {
		t.Fatal(err)
	}
	return &stampedEntity{leaf: leaf, env: env, tsr: tsr}
}

// stampedEntity is a keyless signed entity with a signed timestamp and no
// log entry.
type stampedEntity struct {
	leaf *x509.Certificate
	env  *dsse.Envelope
	tsr  []byte
}

func (e *stampedEntity) HasInclusionPromise() bool { return false }
func (e *stampedEntity) HasInclusionProof() bool   { return false }
func (e *stampedEntity) VerificationContent() (verify.VerificationContent, error) {
	return bundle.NewCertificate(e.leaf), nil
}
func (e *stampedEntity) SignatureContent() (verify.SignatureContent, error) {
	return &bundle.Envelope{Envelope: e.env}, nil
}
func (e *stampedEntity) Timestamps() ([][]byte, error)       { return [][]byte{e.tsr}, nil }
func (e *stampedEntity) TlogEntries() ([]*tlog.Entry, error) { return nil, nil }
func (e *stampedEntity) Version() (string, error)            { return "v0.3", nil }
