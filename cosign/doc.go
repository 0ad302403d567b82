// Package cosign signs and verifies skills artifacts in the formats the
// Sigstore tools read: cosign's key pairs (cosign generate-key-pair), the
// simple-signing payload cosign 2 keeps at the sha256-<hex>.sig tag, and
// Sigstore bundles (a DSSE envelope around an in-toto Statement) that
// cosign 3 attaches as OCI 1.1 referrers. Signing and every key-based
// check are on the standard library; keyless signatures, checked offline
// against a Sigstore trusted root (trusted_root.json), are sigstore-go's
// (github.com/sigstore/sigstore-go), in the helper program
// skills-mcp-sigstore (package cosign/keyless), which this package runs.
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
// The package imports nothing of sigstore-go, whose package initialisation
// would run in every skills-mcp start: a test of the command
// (TestStartupDeps) fails if it is linked again.
package cosign
