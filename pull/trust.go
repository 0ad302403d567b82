package pull

import (
	"errors"
	"fmt"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// ErrUnsigned is returned by VerifySignatures for a manifest that carries no
// signature at all.
var ErrUnsigned = errors.New("not signed")

// VerifySignatures checks the signatures over a bundle's manifest bytes and
// returns the trusted key behind the first valid one. One valid signature by
// a trusted key is enough; the others may be by keys the caller does not
// know. With no signature it returns ErrUnsigned; otherwise its error joins
// one error per signature, each wrapping manifest.ErrUntrusted or
// manifest.ErrBadSignature.
func VerifySignatures(msg []byte, sigs []manifest.Signature, trusted []manifest.TrustedKey) (manifest.TrustedKey, error) {
	if len(sigs) == 0 {
		return manifest.TrustedKey{}, ErrUnsigned
	}
	var errs []error
	for _, s := range sigs {
		var k manifest.TrustedKey
		var err error
		switch s.Kind {
		case manifest.SignatureSSH:
			k, err = manifest.VerifySSH(s.Data, msg, trusted)
		case manifest.SignatureMinisign:
			k, err = manifest.VerifyMinisign(s.Data, msg, trusted)
		default:
			err = fmt.Errorf("signature kind %d: %w: unknown kind", s.Kind, manifest.ErrBadSignature)
		}
		if err == nil {
			return k, nil
		}
		errs = append(errs, err)
	}
	return manifest.TrustedKey{}, fmt.Errorf("no valid signature by a trusted key among %d: %w", len(sigs), errList(errs))
}

// errList joins errors on one line; errors.Is and errors.As see each of them.
type errList []error

func (l errList) Error() string {
	s := ""
	for i, e := range l {
		if i > 0 {
			s += "; "
		}
		s += e.Error()
	}
	return s
}

func (l errList) Unwrap() []error { return l }

// Signer describes a trusted key for messages: its principal and its
// OpenSSH fingerprint.
func Signer(k manifest.TrustedKey) string {
	fp := manifest.SSHFingerprint(k.Key)
	if k.Principal == "" {
		return fp
	}
	return k.Principal + " (" + fp + ")"
}
