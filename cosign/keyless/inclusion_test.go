package keyless

import (
	"errors"
	"strings"
	"testing"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// TestInclusionProofTampered: a keyless bundle whose Rekor entry carries
// an inclusion proof (and a signed timestamp, which vouches for the time:
// a proof without a promise does not) passes as it was made, in its JSON
// form, the proof checked against the log's signed checkpoint; with the
// proof's root hash, its log index or the entry's body changed, the proof
// no longer matches and the bundle is refused, naming the rule.
func TestInclusionProofTampered(t *testing.T) {
	vs, st := virtualSigstore(t)
	var err error
	ent, err := vs.AttestAtTime(who, iss, st, time.Now().Add(5*time.Minute), true)
	if err != nil {
		t.Fatal(err)
	}
	tles, _ := ent.TlogEntries()
	if len(tles) != 1 || !tles[0].HasInclusionProof() {
		t.Fatal("the virtual Sigstore made no inclusion proof")
	}
	// The bundle as a registry holds it, with the log entry and its proof.
	var pb protobundle.Bundle
	if err := protojson.Unmarshal(bundleJSON(t, ent), &pb); err != nil {
		t.Fatal(err)
	}
	v, err := newKeyless(vs, Identity{Subject: who, Issuer: iss})
	if err != nil {
		t.Fatal(err)
	}
	check := func(mutate func(*protobundle.Bundle)) error {
		b := proto.Clone(&pb).(*protobundle.Bundle)
		tle := proto.Clone(tles[0].TransparencyLogEntry()).(*protorekor.TransparencyLogEntry)
		tle.KindVersion = &protorekor.KindVersion{Kind: "dsse", Version: "0.0.1"} // what the virtual log's entry is
		b.VerificationMaterial.TlogEntries = []*protorekor.TransparencyLogEntry{tle}
		if mutate != nil {
			mutate(b)
		}
		raw, err := protojson.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = v.Check(digestA, raw, SignPredicateType)
		return err
	}
	if err := check(nil); err != nil {
		t.Fatalf("as made: %v", err)
	}
	for name, mutate := range map[string]func(*protobundle.Bundle){
		"root hash": func(b *protobundle.Bundle) {
			b.VerificationMaterial.TlogEntries[0].InclusionProof.RootHash[0] ^= 1
		},
		"log index": func(b *protobundle.Bundle) {
			b.VerificationMaterial.TlogEntries[0].InclusionProof.LogIndex++
		},
		"entry body": func(b *protobundle.Bundle) {
			b.VerificationMaterial.TlogEntries[0].CanonicalizedBody = append([]byte(" "), b.VerificationMaterial.TlogEntries[0].CanonicalizedBody...)
		},
	} {
		err := check(mutate)
		t.Logf("%s: %v", name, err)
		if !errors.Is(err, manifest.ErrUntrusted) || !strings.Contains(err.Error(), "failed to verify log inclusion") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s changed: %v, want an untrusted error on one line naming the log entry's check", name, err)
		}
	}
}
