package oci

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// FuzzCosignRecord decodes what a cached bundle's signature area keeps of
// the Sigstore signatures (CosignSignatures) and the Statement a bundle
// carries, from any bytes: an error or a record, never a panic, and no
// Statement from a bundle over the size bound.
func FuzzCosignRecord(f *testing.F) {
	f.Add([]byte(`{"digest":"sha256:00","bundle":{"dsseEnvelope":{"payload":"e30="}},"predicateType":"x"}`))
	f.Add([]byte(`{"digest":"sha256:00","payload":"e30=","signature":"AAAA"}`))
	f.Add([]byte(`{"bundle":{"dsseEnvelope":null}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := CosignSignatures([]manifest.Signature{{Kind: manifest.SignatureCosign, Data: b}})
		if err != nil {
			return
		}
		for _, c := range cs {
			st, err := c.Statement()
			if err == nil && len(c.Bundle) > MaxSigstoreBundle {
				t.Fatalf("a Statement of %d bytes from a bundle over the bound", len(st))
			}
		}
	})
}
