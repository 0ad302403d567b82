package keyless

import (
	"errors"
	"strings"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestKeyless checks keyless bundles against a virtual Sigstore (its own
// Fulcio CA, Rekor log and timestamp authority, from sigstore-go's test
// helpers), offline: the identity and issuer asked for pass; another
// identity or issuer and another Sigstore's log entry are refused, naming
// the rule.
func TestKeyless(t *testing.T) {
	vs, st := virtualSigstore(t)
	var err error
	ent, err := vs.Attest(who, iss, st)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := newKeyless(vs, Identity{Subject: who, Issuer: iss})
	if err != nil {
		t.Fatal(err)
	}
	if _, signer, err := exact.verifyEntity(digestA, ent, SignPredicateType); err != nil || !strings.Contains(signer, who) {
		t.Fatalf("keyless: %q, %v", signer, err)
	}
	re, _ := newKeyless(vs, Identity{SubjectRegexp: `^release@example\.com$`, IssuerRegexp: `^https://issuer\.`})
	if _, _, err := re.verifyEntity(digestA, ent, SignPredicateType); err != nil {
		t.Errorf("regexp identity: %v", err)
	}
	if _, _, err := exact.verifyEntity(digestB, ent, SignPredicateType); err == nil {
		t.Error("accepted over another digest")
	}
	refuse := func(name string, v *Verifier, e interface{}, want string) {
		t.Helper()
		_, _, err := v.verifyEntity(digestA, ent, SignPredicateType)
		if e != nil {
			te := e.(*ca.TestEntity)
			_, _, err = v.verifyEntity(digestA, te, SignPredicateType)
		}
		t.Logf("%s: %v", name, err)
		if !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an untrusted error naming %q", name, err, want)
		}
	}
	other, _ := newKeyless(vs, Identity{Subject: "mallory@example.com", Issuer: iss})
	refuse("another identity", other, nil, `expected SAN value "mallory@example.com"`)
	otherIss, _ := newKeyless(vs, Identity{Subject: who, Issuer: "https://other.example"})
	refuse("another issuer", otherIss, nil, `expected issuer value "https://other.example"`)
	// An entry of another Sigstore's log: its proof does not check here.
	vs2, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := vs2.Attest(who, iss, st)
	if err != nil {
		t.Fatal(err)
	}
	refuse("another log", exact, foreign, "log inclusion")
	if _, err := newKeyless(vs, Identity{Subject: who}); err == nil {
		t.Error("an identity without an issuer accepted")
	}
}

// The signer the keyless tests' certificates are issued to.
const who, iss = "release@example.com", "https://issuer.example"

// virtualSigstore returns a virtual Sigstore (sigstore-go's test CA, log
// and timestamp authority) and a signature Statement over digestA for it
// to sign: what the keyless tests start from.
func virtualSigstore(t *testing.T) (*ca.VirtualSigstore, []byte) {
	t.Helper()
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	st, err := Statement(digestA, SignPredicateType, nil)
	if err != nil {
		t.Fatal(err)
	}
	return vs, st
}
