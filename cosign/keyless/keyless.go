// Package keyless checks keyless Sigstore bundles with sigstore-go: the
// Fulcio certificate chain against a trusted root (trusted_root.json), the
// signer identity, and a Rekor inclusion proof or a signed timestamp, all
// offline. It is the body of the helper program skills-mcp-sigstore
// (Serve); skills-mcp itself does not link it, so that sigstore-go's
// dependencies cost nothing at its start (package cosign runs the helper).
//
// # Invariants
//
//   - A bundle is bounded (cosign.ParseBundle) before sigstore-go parses it.
//   - Only a bundle signed keyless by the identity asked for, over the
//     digest asked for, with a Statement of the predicate type asked for,
//     passes; a key-based bundle is refused here (package cosign checks
//     those).
package keyless

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/skills-mcp/skills-mcp/cosign"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// maxTrustedRoot bounds a trusted_root.json.
const maxTrustedRoot = 1 << 20

// Verifier checks keyless bundles against a trusted root and an identity.
type Verifier struct {
	keyless  *verify.Verifier // a signed timestamp or log time
	withLog  *verify.Verifier // the same, and the log entry's inclusion
	identity *verify.CertificateIdentity
	idText   string
}

// New returns a Verifier that trusts certificates the trusted root's
// certificate authorities issued to id, each with a Rekor entry whose
// inclusion proof checks or a signed timestamp from the root's timestamp
// authorities (offline: nothing is fetched).
func New(trustedRoot []byte, id cosign.Identity) (*Verifier, error) {
	if len(trustedRoot) > maxTrustedRoot {
		return nil, fmt.Errorf("trusted root: larger than %d bytes", maxTrustedRoot)
	}
	tr, err := root.NewTrustedRootFromJSON(trustedRoot)
	if err != nil {
		return nil, fmt.Errorf("trusted root: %w", err)
	}
	return newKeyless(tr, id)
}

// newKeyless is New with the trusted material decoded.
func newKeyless(tr root.TrustedMaterial, id cosign.Identity) (*Verifier, error) {
	if err := id.Check(); err != nil {
		return nil, err
	}
	ci, err := verify.NewShortCertificateIdentity(id.Issuer, id.IssuerRegexp, id.Subject, id.SubjectRegexp)
	if err != nil {
		return nil, fmt.Errorf("keyless identity: %w", err)
	}
	vv, err := verify.NewVerifier(tr, verify.WithObserverTimestamps(1))
	if err != nil {
		return nil, err
	}
	wl, err := verify.NewVerifier(tr, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
	if err != nil {
		return nil, err
	}
	return &Verifier{keyless: vv, withLog: wl, identity: &ci, idText: id.String()}, nil
}

func untrusted(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrUntrusted}, args...)...)
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{manifest.ErrBadSignature}, args...)...)
}

// Check checks the bundle b (JSON) over the artifact of digest d, whose
// Statement must be of predicateType: the Statement and who signed it.
func (v *Verifier) Check(d string, b []byte, predicateType string) ([]byte, string, error) {
	if _, err := cosign.ParseBundle(b); err != nil {
		return nil, "", bad("%v", err)
	}
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		return nil, "", bad("bundle: %v", err)
	}
	return v.verifyEntity(d, &pb, predicateType)
}

// oneLine is err on one line: sigstore-go's errors may span several (an
// inclusion proof's roots, printed as byte lists), and a refusal is one
// line of the command's error.
func oneLine(err error) error {
	return errors.New(strings.Join(strings.Fields(err.Error()), " "))
}

// timeRule reports whether sigstore-go refused a keyless bundle for the
// times its certificate was used at (it has no error values for them).
func timeRule(err error) bool {
	s := err.Error()
	return strings.Contains(s, "certificate validity") || strings.Contains(s, "verify leaf certificate")
}

// verifyEntity is Check's check of a decoded bundle.
func (v *Verifier) verifyEntity(d string, e verify.SignedEntity, predicateType string) ([]byte, string, error) {
	hx, ok := strings.CutPrefix(d, "sha256:")
	sum, err := hex.DecodeString(hx)
	if !ok || err != nil || len(sum) != 32 {
		return nil, "", bad("digest %q", d)
	}
	vc, err := e.VerificationContent()
	if err != nil {
		return nil, "", bad("bundle: %v", err)
	}
	sc, err := e.SignatureContent()
	if err != nil || sc.EnvelopeContent() == nil {
		return nil, "", bad("bundle: not a DSSE envelope of an in-toto Statement")
	}
	c := vc.Certificate()
	if c == nil {
		return nil, "", untrusted("bundle: signed by a key, and only keyless signers by %s are trusted", v.idText)
	}
	vv := v.keyless
	if e.HasInclusionProof() || e.HasInclusionPromise() {
		vv = v.withLog // a bundle with a log entry has its inclusion checked
	}
	res, err := vv.Verify(e, verify.NewPolicy(verify.WithArtifactDigest("sha256", sum), verify.WithCertificateIdentity(*v.identity)))
	if err != nil {
		err = oneLine(err)
		if timeRule(err) {
			// A short-lived certificate is checked at the times the
			// bundle's observers vouch for; say which window it had.
			return nil, "", untrusted("keyless bundle: %v (the certificate is valid from %s to %s: a signed timestamp and log time must fall inside)",
				err, c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
		}
		return nil, "", untrusted("keyless bundle: %v", err)
	}
	who := "keyless " + res.Signature.Certificate.SubjectAlternativeName + " (issuer " + res.Signature.Certificate.Issuer + ")"
	if res.Statement == nil || res.Statement.GetPredicateType() != predicateType {
		return nil, "", bad("bundle: a Statement of predicate type %q, want %q", res.Statement.GetPredicateType(), predicateType)
	}
	st, err := sc.EnvelopeContent().RawEnvelope().DecodeB64Payload()
	if err != nil {
		return nil, "", bad("bundle: payload: %v", err)
	}
	return st, who, nil
}

// maxRequest bounds the helper's request: the trusted root and the
// largest number of bundles a fetch keeps, base64.
const maxRequest = maxTrustedRoot + 64*(2*(256<<10)) + 64<<10

// Serve is the helper program: it reads a cosign.KeylessRequest (JSON)
// from r, checks each bundle, and writes a cosign.KeylessResponse to w.
// The error is for a request that cannot be read or an answer that cannot
// be written; a refused trusted root or identity is an answer.
func Serve(r io.Reader, w io.Writer) error {
	body, err := io.ReadAll(io.LimitReader(r, maxRequest+1))
	if err != nil {
		return err
	}
	var resp cosign.KeylessResponse
	var req cosign.KeylessRequest
	if len(body) > maxRequest {
		resp.Error = fmt.Sprintf("request larger than %d bytes", maxRequest)
	} else if err := json.Unmarshal(body, &req); err != nil {
		resp.Error = fmt.Sprintf("request: %v", err)
	} else if v, err := New(req.TrustedRoot, req.Identity); err != nil {
		resp.Error = err.Error()
	} else {
		for _, b := range req.Bundles {
			st, who, err := v.Check(req.Digest, b, req.PredicateType)
			res := cosign.KeylessResult{Statement: st, Signer: who}
			if err != nil {
				res = cosign.KeylessResult{Error: err.Error(), Untrusted: errors.Is(err, manifest.ErrUntrusted)}
			}
			resp.Results = append(resp.Results, res)
		}
	}
	return json.NewEncoder(w).Encode(resp)
}
