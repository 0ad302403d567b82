// Package cosign signs and verifies skills artifacts in the formats the
// Sigstore tools read: cosign's key pairs (cosign generate-key-pair), the
// simple-signing payload cosign 2 keeps at the sha256-<hex>.sig tag, and
// Sigstore bundles (a DSSE envelope around an in-toto Statement) that
// cosign 3 attaches as OCI 1.1 referrers. Key-based bundles are written
// here on the standard library (a DSSE envelope and the key's hint is all
// they hold) and checked by sigstore-go (github.com/sigstore/sigstore-go),
// as keyless signatures are, offline against a Sigstore trusted root
// (trusted_root.json).
//
// # Invariants
//
//   - Every signature is over the artifact's digest (the OCI manifest
//     digest): a simple-signing payload names it as
//     docker-manifest-digest, a bundle's Statement as its subject.
//     Nothing else of the payload is trusted: a signature over another
//     digest is refused, whatever repository it names.
//   - Key-based signing needs no transparency log; verification of a
//     key-based signature needs none either (cosign's
//     --insecure-ignore-tlog=true). A keyless signature needs the Fulcio
//     chain, the signer identity and a Rekor inclusion proof or a signed
//     timestamp from the trusted root: all offline.
//   - Everything read is bounded before it is parsed: keys, payloads and
//     bundles (MaxBundle), certificate chains (MaxChain).
//
// The package imports sigstore-go and its dependencies; the serve package
// does not import it (the command wires it in).
package cosign
