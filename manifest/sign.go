package manifest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Signatures. A bundle is signed by signing its manifest bytes with one
// Ed25519 key, in two containers that stock tools verify:
//
//   - SSHSIG (OpenSSH PROTOCOL.sshsig), namespace SignatureNamespace, hash
//     sha512, armored as -----BEGIN SSH SIGNATURE-----; verified with
//     ssh-keygen -Y verify -f allowed_signers -I PRINCIPAL -n skills-bundle-v1 -s F.sig < F
//   - minisign, legacy "Ed" algorithm (pure Ed25519 over the message, as
//     minisign -S -l writes), with a trusted comment; verified with
//     minisign -V -P RW… -x F.minisig -m F
//
// Ed25519 is deterministic, so one key and one message always give
// byte-identical signatures; SignSSH's output equals that of
// ssh-keygen -Y sign -n skills-bundle-v1 with the same key.

// Errors that verification returns, wrapped with details. Callers branch
// on them with errors.Is.
var (
	// ErrBadSignature means the signature is malformed, uses an algorithm
	// or namespace this package does not accept, or does not match the
	// message.
	ErrBadSignature = errors.New("bad signature")
	// ErrUntrusted means the signature is well formed but its key is not
	// among the trusted keys, or not trusted for SignatureNamespace. For
	// SSHSIG, which carries its key, it also means the signature is valid;
	// a minisign signature names only a key ID, so it cannot be checked
	// without a trusted key of that ID.
	ErrUntrusted = errors.New("key not trusted")
)

// Limits on signature sizes.
const (
	sigMaxBytes              = 16 << 10
	maxTrustedCommentBytes   = 4096
	maxUntrustedCommentBytes = 1024
)

const (
	sshsigMagic     = "SSHSIG"
	sshsigVersion   = 1
	sshsigArmorType = "SSH SIGNATURE"
	sshsigHash      = "sha512"

	minisignSigAlg         = "Ed" // legacy: Ed25519 over the message itself
	minisignPrehashedAlg   = "ED" // Ed25519 over BLAKE2b-512 of the message
	minisignTrustedTag     = "trusted comment: "
	minisignSigComment     = "signature from skills-mcp secret key"
	minisignSigLineBytes   = 2 + 8 + ed25519.SignatureSize
	minisignSigLineEncoded = (minisignSigLineBytes + 2) / 3 * 4
)

// SignSSH returns an armored SSH signature (PROTOCOL.sshsig) of msg by priv
// in namespace SignatureNamespace with hash sha512, base64 in lines of 70
// characters. It panics if priv is not ed25519.PrivateKeySize bytes long.
func SignSSH(priv ed25519.PrivateKey, msg []byte) []byte {
	if len(priv) != ed25519.PrivateKeySize {
		panic("manifest: bad ed25519 private key length")
	}
	sig := ed25519.Sign(priv, sshsigSignedData(SignatureNamespace, sshsigHash, msg))

	blob := []byte(sshsigMagic)
	blob = binary.BigEndian.AppendUint32(blob, sshsigVersion)
	blob = sshAppendString(blob, sshPublicKeyBlob(priv[32:]))
	blob = sshAppendString(blob, []byte(SignatureNamespace))
	blob = sshAppendString(blob, nil) // reserved
	blob = sshAppendString(blob, []byte(sshsigHash))
	blob = sshAppendString(blob, sshAppendString(sshAppendString(nil, []byte(sshKeyType)), sig))
	return sshArmor(sshsigArmorType, blob)
}

// sshsigSignedData returns what an SSHSIG signature signs: the magic, then
// namespace, reserved (empty), hash algorithm and hash of msg as strings.
func sshsigSignedData(namespace, hashAlg string, msg []byte) []byte {
	var h []byte
	switch hashAlg {
	case "sha256":
		s := sha256.Sum256(msg)
		h = s[:]
	case "sha512":
		s := sha512.Sum512(msg)
		h = s[:]
	default:
		panic("manifest: unknown sshsig hash " + hashAlg)
	}
	b := []byte(sshsigMagic)
	b = sshAppendString(b, []byte(namespace))
	b = sshAppendString(b, nil)
	b = sshAppendString(b, []byte(hashAlg))
	return sshAppendString(b, h)
}

// VerifySSH checks an armored SSH signature of msg and returns the trusted
// key that made it. It accepts only version 1, namespace
// SignatureNamespace, an empty reserved field, hash sha256 or sha512, and
// ssh-ed25519 keys and signatures, with no byte left over anywhere. Every
// key in trusted counts, whatever its principal, if it allows
// SignatureNamespace. Errors wrap ErrBadSignature or ErrUntrusted.
func VerifySSH(sig, msg []byte, trusted []TrustedKey) (TrustedKey, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("ssh signature: %w: "+format, append([]any{ErrBadSignature}, args...)...)
	}
	if len(sig) > sigMaxBytes {
		return TrustedKey{}, bad("larger than %d bytes", sigMaxBytes)
	}
	blob, err := sshDearmor(sig, sshsigArmorType)
	if err != nil {
		return TrustedKey{}, bad("%v", err)
	}
	rest, ok := bytes.CutPrefix(blob, []byte(sshsigMagic))
	if !ok {
		return TrustedKey{}, bad("missing %s magic", sshsigMagic)
	}
	version, rest, ok0 := sshReadUint32(rest)
	pubBlob, rest, ok1 := sshReadString(rest)
	namespace, rest, ok2 := sshReadString(rest)
	reserved, rest, ok3 := sshReadString(rest)
	hashAlg, rest, ok4 := sshReadString(rest)
	sigBlob, rest, ok5 := sshReadString(rest)
	switch {
	case !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5):
		return TrustedKey{}, bad("truncated")
	case len(rest) != 0:
		return TrustedKey{}, bad("%d bytes after the signature", len(rest))
	case version != sshsigVersion:
		return TrustedKey{}, bad("version %d, want %d", version, sshsigVersion)
	case string(namespace) != SignatureNamespace:
		return TrustedKey{}, bad("namespace %q, want %q", sigShort(namespace), SignatureNamespace)
	case len(reserved) != 0:
		return TrustedKey{}, bad("reserved field is not empty")
	case string(hashAlg) != "sha256" && string(hashAlg) != "sha512":
		return TrustedKey{}, bad("hash %q is not supported; want sha512 or sha256", sigShort(hashAlg))
	}
	pub, err := sshParsePublicKeyBlob(pubBlob)
	if err != nil {
		return TrustedKey{}, bad("public key: %v", err)
	}
	sigType, raw, ok1 := sshReadString(sigBlob)
	raw, rest, ok2 = sshReadString(raw)
	switch {
	case !ok1 || !ok2:
		return TrustedKey{}, bad("truncated signature")
	case string(sigType) != sshKeyType:
		return TrustedKey{}, bad("signature type %q is not supported; want %s", sigShort(sigType), sshKeyType)
	case len(raw) != ed25519.SignatureSize:
		return TrustedKey{}, bad("%d-byte signature, want %d", len(raw), ed25519.SignatureSize)
	case len(rest) != 0:
		return TrustedKey{}, bad("%d bytes after the signature", len(rest))
	}
	if !ed25519.Verify(pub, sshsigSignedData(SignatureNamespace, string(hashAlg), msg), raw) {
		return TrustedKey{}, bad("signature by %s does not match the message", SSHFingerprint(pub))
	}
	return trustedFor(pub, trusted, "ssh signature", SSHFingerprint(pub))
}

// trustedFor returns the first key in trusted that is pub and allows
// SignatureNamespace, or an error wrapping ErrUntrusted.
func trustedFor(pub ed25519.PublicKey, trusted []TrustedKey, what, name string) (TrustedKey, error) {
	var elsewhere []string
	for _, k := range trusted {
		if !bytes.Equal(k.Key, pub) {
			continue
		}
		if k.allows(SignatureNamespace) {
			return k, nil
		}
		elsewhere = append(elsewhere, k.Namespaces...)
	}
	if elsewhere != nil {
		return TrustedKey{}, fmt.Errorf("%s: %w: key %s is trusted only for namespaces %s, not %s",
			what, ErrUntrusted, name, strings.Join(elsewhere, ","), SignatureNamespace)
	}
	return TrustedKey{}, fmt.Errorf("%s: %w: key %s is not among the trusted keys", what, ErrUntrusted, name)
}

// SignMinisign returns a minisign signature file of msg by priv: the
// legacy "Ed" algorithm (Ed25519 over msg itself, which minisign -V checks
// unless given -H), the key ID MinisignKeyID, and trustedComment, which the
// global signature (Ed25519 over the signature and the comment) binds to
// it. The trusted comment may be empty but may not be longer than 4096 bytes
// or hold a line break or other control character except tab. It panics if
// priv is not ed25519.PrivateKeySize bytes long.
func SignMinisign(priv ed25519.PrivateKey, msg []byte, trustedComment string) ([]byte, error) {
	if len(priv) != ed25519.PrivateKeySize {
		panic("manifest: bad ed25519 private key length")
	}
	if err := checkTrustedComment(trustedComment); err != nil {
		return nil, fmt.Errorf("minisign trusted comment: %w", err)
	}
	id := MinisignKeyID(ed25519.PublicKey(priv[32:]))
	sig := ed25519.Sign(priv, msg)
	global := ed25519.Sign(priv, append(sig[:len(sig):len(sig)], trustedComment...))

	line := append([]byte(minisignSigAlg), id[:]...)
	line = append(line, sig...)
	var b bytes.Buffer
	b.WriteString(minisignCommentTag + minisignSigComment + "\n")
	b.WriteString(base64.StdEncoding.EncodeToString(line) + "\n")
	b.WriteString(minisignTrustedTag + trustedComment + "\n")
	b.WriteString(base64.StdEncoding.EncodeToString(global) + "\n")
	return b.Bytes(), nil
}

// checkTrustedComment enforces SignMinisign's rules on a trusted comment.
func checkTrustedComment(c string) error {
	if len(c) > maxTrustedCommentBytes {
		return fmt.Errorf("%d bytes, limit %d", len(c), maxTrustedCommentBytes)
	}
	if i := strings.IndexFunc(c, sigIsControl); i >= 0 {
		return fmt.Errorf("control character at byte %d", i)
	}
	return nil
}

// VerifyMinisign checks a minisign signature file of msg and returns the
// trusted key that made it. It accepts exactly four lines (untrusted
// comment, signature, trusted comment, global signature; LF or CRLF), the
// legacy "Ed" algorithm only, and checks both the signature of msg and the
// global signature of the trusted comment. The key is found by the key ID
// in the signature (TrustedKey.KeyID, else MinisignKeyID) and must allow
// SignatureNamespace. Prehashed ("ED") signatures, which minisign writes
// without -l, are refused: they need BLAKE2b, which the standard library
// lacks. Errors wrap ErrBadSignature or ErrUntrusted.
func VerifyMinisign(sig, msg []byte, trusted []TrustedKey) (TrustedKey, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("minisign signature: %w: "+format, append([]any{ErrBadSignature}, args...)...)
	}
	if len(sig) > sigMaxBytes {
		return TrustedKey{}, bad("larger than %d bytes", sigMaxBytes)
	}
	lines := strings.Split(strings.TrimSuffix(string(sig), "\n"), "\n")
	if len(lines) != 4 {
		return TrustedKey{}, bad("%d lines, want 4", len(lines))
	}
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	untrusted, ok := strings.CutPrefix(lines[0], minisignCommentTag)
	if !ok {
		return TrustedKey{}, bad("line 1 does not start with %q", minisignCommentTag)
	}
	if len(untrusted) > maxUntrustedCommentBytes {
		return TrustedKey{}, bad("untrusted comment is longer than %d bytes", maxUntrustedCommentBytes)
	}
	comment, ok := strings.CutPrefix(lines[2], minisignTrustedTag)
	if !ok {
		return TrustedKey{}, bad("line 3 does not start with %q", minisignTrustedTag)
	}
	if err := checkTrustedComment(comment); err != nil {
		return TrustedKey{}, bad("trusted comment: %v", err)
	}
	if len(lines[1]) != minisignSigLineEncoded {
		return TrustedKey{}, bad("signature line is %d characters, want %d", len(lines[1]), minisignSigLineEncoded)
	}
	line, err := base64.StdEncoding.Strict().DecodeString(lines[1])
	if err != nil || len(line) != minisignSigLineBytes {
		return TrustedKey{}, bad("signature line is not base64 of %d bytes", minisignSigLineBytes)
	}
	global, err := base64.StdEncoding.Strict().DecodeString(lines[3])
	if err != nil || len(global) != ed25519.SignatureSize {
		return TrustedKey{}, bad("global signature line is not base64 of %d bytes", ed25519.SignatureSize)
	}
	switch alg := string(line[:2]); alg {
	case minisignSigAlg:
	case minisignPrehashedAlg:
		return TrustedKey{}, bad("prehashed (ED) signatures are not supported; sign with minisign -S -l")
	default:
		return TrustedKey{}, bad("algorithm %q is not supported; want %q", alg, minisignSigAlg)
	}
	id := [8]byte(line[2:10])
	raw := line[10:]

	var candidates []TrustedKey
	for _, k := range trusted {
		if len(k.Key) == ed25519.PublicKeySize && k.minisignID() == id {
			candidates = append(candidates, k)
		}
	}
	if len(candidates) == 0 {
		return TrustedKey{}, fmt.Errorf("minisign signature: %w: no trusted key has key ID %s", ErrUntrusted, minisignIDString(id))
	}
	signedComment := append(raw[:len(raw):len(raw)], comment...)
	for _, k := range candidates {
		switch {
		case !ed25519.Verify(k.Key, msg, raw):
			err = bad("signature by key %s does not match the message", minisignIDString(id))
		case !ed25519.Verify(k.Key, signedComment, global):
			err = bad("trusted comment signature by key %s is invalid", minisignIDString(id))
		default:
			return trustedFor(k.Key, candidates, "minisign signature", minisignIDString(id))
		}
	}
	return TrustedKey{}, err
}

// ErrUnsigned is returned by VerifySignatures for a manifest that carries no
// signature at all.
var ErrUnsigned = errors.New("not signed")

// VerifySignatures checks the signatures over a bundle's manifest bytes and
// returns the trusted key behind the first valid one. One valid signature by
// a trusted key is enough; the others may be by keys the caller does not
// know. With no signature it returns ErrUnsigned; otherwise its error joins
// one error per signature, each wrapping ErrUntrusted or
// ErrBadSignature.
func VerifySignatures(msg []byte, sigs []Signature, trusted []TrustedKey) (TrustedKey, error) {
	if len(sigs) == 0 {
		return TrustedKey{}, ErrUnsigned
	}
	var errs []error
	for _, s := range sigs {
		var k TrustedKey
		var err error
		switch s.Kind {
		case SignatureSSH:
			k, err = VerifySSH(s.Data, msg, trusted)
		case SignatureMinisign:
			k, err = VerifyMinisign(s.Data, msg, trusted)
		case SignatureCosign:
			err = fmt.Errorf("cosign signature: %w: it signs the OCI artifact's digest, which a cosign public key in --trust checks", ErrUntrusted)
		default:
			err = fmt.Errorf("signature kind %d: %w: unknown kind", s.Kind, ErrBadSignature)
		}
		if err == nil {
			return k, nil
		}
		errs = append(errs, err)
	}
	return TrustedKey{}, fmt.Errorf("no valid signature by a trusted key among %d: %w", len(sigs), errList(errs))
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
func Signer(k TrustedKey) string {
	fp := SSHFingerprint(k.Key)
	if k.Principal == "" {
		return fp
	}
	return k.Principal + " (" + fp + ")"
}
