package manifest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// SignatureNamespace is the SSHSIG namespace of bundle signatures. It keeps
// a bundle signature from being taken for a git commit, file or e-mail
// signature by the same key, and the other way round. Trusted keys that
// list namespaces must list it.
const SignatureNamespace = "skills-bundle-v1"

// Key formats. Every key is Ed25519; it is written and read in three
// encodings that stock tools understand:
//
//   - the unencrypted OpenSSH private key ("openssh-key-v1", read by ssh-keygen);
//   - the OpenSSH public key line "ssh-ed25519 AAAA… comment", which is also
//     the key field of an allowed_signers line (ssh-keygen -Y verify);
//   - the minisign public key "RW…" (minisign -V -P), alone or in a .pub file.

// Limits on the size of what the parsers read.
const (
	maxPrivateKeyBytes = 16 << 10
	maxTrustBytes      = 1 << 20
)

const (
	sshKeyType          = "ssh-ed25519"
	opensshKeyMagic     = "openssh-key-v1\x00"
	opensshKeyArmorType = "OPENSSH PRIVATE KEY"
	opensshBlockSize    = 8 // cipher "none" pads the private section to 8 bytes
	minisignKeyAlg      = "Ed"
	minisignCommentTag  = "untrusted comment: "
)

// TrustedKey is one public key that may sign bundles.
type TrustedKey struct {
	// Principal names the key's owner for messages: the principals field of
	// an allowed_signers line as written, the comment of an authorized-key
	// line, or "minisign key <ID>" for a minisign key. Verification never
	// depends on it.
	Principal string
	// Key is the Ed25519 public key.
	Key ed25519.PublicKey
	// Namespaces, if not empty, lists the only signature namespaces the key
	// is trusted for (the allowed_signers namespaces="…" option). Both
	// VerifySSH and VerifyMinisign require it to hold SignatureNamespace.
	Namespaces []string
	// KeyID is the key's minisign key ID. The zero value means
	// MinisignKeyID(Key), which is right for every key not read from a
	// minisign public key.
	KeyID [8]byte
}

// minisignID returns the key ID a minisign signature by k carries.
func (k TrustedKey) minisignID() [8]byte {
	if k.KeyID == [8]byte{} {
		return MinisignKeyID(k.Key)
	}
	return k.KeyID
}

// allows reports whether k may sign in namespace ns.
func (k TrustedKey) allows(ns string) bool {
	if len(k.Namespaces) == 0 {
		return true
	}
	for _, n := range k.Namespaces {
		if n == ns {
			return true
		}
	}
	return false
}

// MarshalPrivateKey returns priv as an unencrypted OpenSSH private key
// (-----BEGIN OPENSSH PRIVATE KEY-----, format openssh-key-v1, cipher and
// KDF "none"), which ssh-keygen and ssh read. The comment is stored inside
// the key. The output depends only on priv and comment: the check integers
// are the first four bytes of the SHA-256 of the public key rather than
// random. It panics if priv is not ed25519.PrivateKeySize bytes long.
func MarshalPrivateKey(priv ed25519.PrivateKey, comment string) []byte {
	if len(priv) != ed25519.PrivateKeySize {
		panic("manifest: bad ed25519 private key length")
	}
	pub := []byte(priv[32:])
	sum := sha256.Sum256(pub)
	check := binary.BigEndian.Uint32(sum[:4])

	var sec []byte
	sec = binary.BigEndian.AppendUint32(sec, check)
	sec = binary.BigEndian.AppendUint32(sec, check)
	sec = sshAppendString(sec, []byte(sshKeyType))
	sec = sshAppendString(sec, pub)
	sec = sshAppendString(sec, priv)
	sec = sshAppendString(sec, []byte(comment))
	for pad := byte(1); len(sec)%opensshBlockSize != 0; pad++ {
		sec = append(sec, pad)
	}

	blob := []byte(opensshKeyMagic)
	blob = sshAppendString(blob, []byte("none")) // cipher
	blob = sshAppendString(blob, []byte("none")) // KDF
	blob = sshAppendString(blob, nil)            // KDF options
	blob = binary.BigEndian.AppendUint32(blob, 1)
	blob = sshAppendString(blob, sshPublicKeyBlob(pub))
	blob = sshAppendString(blob, sec)
	return sshArmor(opensshKeyArmorType, blob)
}

// ParsePrivateKey reads an Ed25519 private key in one of three forms:
//
//   - an unencrypted OpenSSH private key, as written by MarshalPrivateKey or
//     by ssh-keygen -t ed25519 -N "";
//   - a 32-byte seed as 64 hexadecimal digits;
//   - a 32-byte seed in standard base64 (44 characters with padding).
//
// Surrounding white space is ignored. The OpenSSH form is checked strictly:
// one ssh-ed25519 key, equal check integers, a public key that matches the
// seed, deterministic padding and nothing left over. Encrypted keys are
// refused. Errors never quote the input.
func ParsePrivateKey(b []byte) (ed25519.PrivateKey, error) {
	if len(b) > maxPrivateKeyBytes {
		return nil, fmt.Errorf("private key: larger than %d bytes", maxPrivateKeyBytes)
	}
	s := bytes.TrimSpace(b)
	switch {
	case bytes.HasPrefix(s, []byte("-----BEGIN ")):
		return parseOpenSSHPrivateKey(s)
	case len(s) == 2*ed25519.SeedSize:
		seed := make([]byte, ed25519.SeedSize)
		if _, err := hex.Decode(seed, s); err != nil {
			return nil, errors.New("private key: 64-character seed is not hexadecimal")
		}
		return ed25519.NewKeyFromSeed(seed), nil
	case len(s) == base64.StdEncoding.EncodedLen(ed25519.SeedSize):
		seed, err := base64.StdEncoding.Strict().DecodeString(string(s))
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, errors.New("private key: 44-character seed is not base64 of 32 bytes")
		}
		return ed25519.NewKeyFromSeed(seed), nil
	}
	return nil, errors.New("private key: not an OpenSSH private key nor a 32-byte seed in hex or base64")
}

func parseOpenSSHPrivateKey(b []byte) (ed25519.PrivateKey, error) {
	blob, err := sshDearmor(b, opensshKeyArmorType)
	if err != nil {
		return nil, fmt.Errorf("openssh private key: %w", err)
	}
	fail := func(format string, args ...any) (ed25519.PrivateKey, error) {
		return nil, fmt.Errorf("openssh private key: "+format, args...)
	}
	rest, ok := bytes.CutPrefix(blob, []byte(opensshKeyMagic))
	if !ok {
		return fail("missing openssh-key-v1 magic")
	}
	cipher, rest, ok1 := sshReadString(rest)
	kdf, rest, ok2 := sshReadString(rest)
	kdfOpts, rest, ok3 := sshReadString(rest)
	n, rest, ok4 := sshReadUint32(rest)
	pubBlob, rest, ok5 := sshReadString(rest)
	sec, rest, ok6 := sshReadString(rest)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return fail("truncated key")
	}
	if string(cipher) != "none" || string(kdf) != "none" {
		return fail("encrypted private keys are not supported; keep an unencrypted copy (ssh-keygen -p -N \"\" -f COPY) in a secret store, or use a 32-byte seed")
	}
	if len(kdfOpts) != 0 {
		return fail("kdf none with kdf options")
	}
	if n != 1 {
		return fail("holds %d keys, want 1", n)
	}
	if len(rest) != 0 {
		return fail("%d bytes after the private section", len(rest))
	}
	pub, err := sshParsePublicKeyBlob(pubBlob)
	if err != nil {
		return fail("public key: %w", err)
	}
	if len(sec)%opensshBlockSize != 0 {
		return fail("private section is not a multiple of %d bytes", opensshBlockSize)
	}
	check1, sec, ok1 := sshReadUint32(sec)
	check2, sec, ok2 := sshReadUint32(sec)
	if !ok1 || !ok2 {
		return fail("truncated private section")
	}
	if check1 != check2 {
		return fail("check integers differ (corrupt key)")
	}
	keyType, sec, ok1 := sshReadString(sec)
	pub2, sec, ok2 := sshReadString(sec)
	priv, sec, ok3 := sshReadString(sec)
	_, sec, ok4 = sshReadString(sec) // comment
	if !(ok1 && ok2 && ok3 && ok4) {
		return fail("truncated private section")
	}
	if string(keyType) != sshKeyType {
		return fail("key type %q is not supported; want %s", sigShort(keyType), sshKeyType)
	}
	if len(sec) >= opensshBlockSize {
		return fail("%d bytes of padding, want fewer than %d", len(sec), opensshBlockSize)
	}
	for i, c := range sec {
		if c != byte(i+1) {
			return fail("bad padding")
		}
	}
	if len(pub2) != ed25519.PublicKeySize || len(priv) != ed25519.PrivateKeySize {
		return fail("private section has a %d-byte public key and %d-byte private key, want %d and %d",
			len(pub2), len(priv), ed25519.PublicKeySize, ed25519.PrivateKeySize)
	}
	if !bytes.Equal(pub2, pub) || !bytes.Equal(priv[32:], pub) {
		return fail("public and private parts name different keys")
	}
	key := ed25519.NewKeyFromSeed(priv[:32])
	if !bytes.Equal(key[32:], pub) {
		return fail("seed does not derive the stored public key")
	}
	return key, nil
}

// MarshalAuthorizedKey returns the one-line OpenSSH public key
// "ssh-ed25519 AAAA… comment" (no trailing newline), as in a .pub file or
// authorized_keys. The comment is left out when empty; it may not hold a line
// break or other control character. It panics if pub is not
// ed25519.PublicKeySize bytes long.
func MarshalAuthorizedKey(pub ed25519.PublicKey, comment string) (string, error) {
	if len(pub) != ed25519.PublicKeySize {
		panic("manifest: bad ed25519 public key length")
	}
	if i := strings.IndexFunc(comment, sigIsControl); i >= 0 {
		return "", fmt.Errorf("authorized key comment %q: control character at byte %d", comment, i)
	}
	line := sshKeyType + " " + base64.StdEncoding.EncodeToString(sshPublicKeyBlob(pub))
	if comment != "" {
		line += " " + comment
	}
	return line, nil
}

// ParseAuthorizedKey reads one OpenSSH public key line "ssh-ed25519 AAAA…
// [comment]" with surrounding white space ignored. Key options (as in
// authorized_keys), other key types and more than one line are refused.
func ParseAuthorizedKey(b []byte) (pub ed25519.PublicKey, comment string, err error) {
	if len(b) > maxTrustBytes {
		return nil, "", fmt.Errorf("authorized key: larger than %d bytes", maxTrustBytes)
	}
	line := strings.TrimSpace(string(b))
	if strings.ContainsAny(line, "\r\n") {
		return nil, "", errors.New("authorized key: more than one line")
	}
	return parseAuthorizedKeyLine(line)
}

func parseAuthorizedKeyLine(line string) (ed25519.PublicKey, string, error) {
	typ, rest := sshCutField(line)
	if typ != sshKeyType {
		return nil, "", fmt.Errorf("authorized key: key type %q is not supported; want %s (key options are not supported either)", typ, sshKeyType)
	}
	b64, comment := sshCutField(rest)
	pub, err := sshParseBase64Key(b64)
	if err != nil {
		return nil, "", fmt.Errorf("authorized key: %w", err)
	}
	return pub, comment, nil
}

// SSHFingerprint returns the key's OpenSSH fingerprint, "SHA256:" and the
// unpadded base64 SHA-256 of its wire form, as printed by ssh-keygen -l.
func SSHFingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(sshPublicKeyBlob(pub))
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// MarshalAllowedSigner returns the allowed_signers line
//
//	PRINCIPAL namespaces="skills-bundle-v1" ssh-ed25519 AAAA…
//
// (no trailing newline), with which ssh-keygen -Y verify -I PRINCIPAL accepts
// bundle signatures by pub and nothing else. The principal is typically an
// e-mail address; it may not be empty, start with '#', or hold white space,
// a double quote or a control character.
func MarshalAllowedSigner(principal string, pub ed25519.PublicKey) (string, error) {
	if principal == "" || principal[0] == '#' || strings.ContainsFunc(principal, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '"' || sigIsControl(r)
	}) {
		return "", fmt.Errorf("allowed signer principal %q: want a non-empty name without white space, quotes, control characters or a leading '#'", principal)
	}
	key, err := MarshalAuthorizedKey(pub, "")
	if err != nil {
		return "", err
	}
	return principal + ` namespaces="` + SignatureNamespace + `" ` + key, nil
}

// MinisignKeyID returns the minisign key ID this package gives pub: the
// first 8 bytes of SHA-256(pub), in that order. minisign prints a key ID as
// those bytes read as a little-endian uint64 in upper-case hexadecimal, so
// the printed ID is the 8 bytes reversed. Keys made by minisign -G have
// random IDs instead; TrustedKey.KeyID carries those.
func MinisignKeyID(pub ed25519.PublicKey) [8]byte {
	sum := sha256.Sum256(pub)
	return [8]byte(sum[:8])
}

// minisignIDString formats a key ID as minisign prints it.
func minisignIDString(id [8]byte) string {
	return fmt.Sprintf("%016X", binary.LittleEndian.Uint64(id[:]))
}

// MarshalMinisignPublicKey returns the minisign public key string "RW…":
// base64 of "Ed", MinisignKeyID(pub) and pub, as taken by minisign -V -P. It
// panics if pub is not ed25519.PublicKeySize bytes long.
func MarshalMinisignPublicKey(pub ed25519.PublicKey) string {
	if len(pub) != ed25519.PublicKeySize {
		panic("manifest: bad ed25519 public key length")
	}
	id := MinisignKeyID(pub)
	b := append([]byte(minisignKeyAlg), id[:]...)
	return base64.StdEncoding.EncodeToString(append(b, pub...))
}

// MarshalMinisignPublicKeyFile returns the minisign .pub file for pub, as
// taken by minisign -V -p:
//
//	untrusted comment: minisign public key <ID>
//	RW…
func MarshalMinisignPublicKeyFile(pub ed25519.PublicKey) []byte {
	s := MarshalMinisignPublicKey(pub)
	return []byte(minisignCommentTag + "minisign public key " + minisignIDString(MinisignKeyID(pub)) + "\n" + s + "\n")
}

// ParseMinisignPublicKey reads a minisign public key: a .pub file (an
// "untrusted comment: " line, then the key) or the bare "RW…" string, with
// surrounding white space ignored. It returns the key and its key ID.
func ParseMinisignPublicKey(b []byte) (pub ed25519.PublicKey, keyID [8]byte, err error) {
	if len(b) > maxTrustBytes {
		return nil, keyID, fmt.Errorf("minisign public key: larger than %d bytes", maxTrustBytes)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	switch {
	case len(lines) == 2 && strings.HasPrefix(lines[0], minisignCommentTag):
		lines = lines[1:]
	case len(lines) != 1:
		return nil, keyID, errors.New(`minisign public key: want an "untrusted comment: " line and the key, or the key alone`)
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(lines[0])
	if err != nil {
		return nil, keyID, fmt.Errorf("minisign public key: %w", err)
	}
	if len(raw) != 2+8+ed25519.PublicKeySize {
		return nil, keyID, fmt.Errorf("minisign public key: %d bytes, want %d", len(raw), 2+8+ed25519.PublicKeySize)
	}
	if string(raw[:2]) != minisignKeyAlg {
		return nil, keyID, fmt.Errorf("minisign public key: algorithm %q is not supported; want %q", sigShort(raw[:2]), minisignKeyAlg)
	}
	copy(keyID[:], raw[2:10])
	return ed25519.PublicKey(raw[10:]), keyID, nil
}

// ParseTrust reads the keys trusted to sign bundles from one of:
//
//   - an OpenSSH allowed_signers file: per line, principals, an optional
//     namespaces="…" option, "ssh-ed25519" and the base64 key, then an
//     optional comment; blank lines and lines starting with '#' are skipped;
//   - bare "ssh-ed25519 AAAA… comment" lines (which may be mixed with the
//     above);
//   - a minisign public key, as a .pub file or the bare "RW…" string.
//
// It refuses, naming the line, every key type but ssh-ed25519 and the
// options cert-authority, valid-after and valid-before, which it does not
// implement, and namespace patterns (*, ?, !), which it does not expand. An
// input without keys is an error.
func ParseTrust(b []byte) ([]TrustedKey, error) {
	if len(b) > maxTrustBytes {
		return nil, fmt.Errorf("trusted keys: larger than %d bytes", maxTrustBytes)
	}
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, minisignCommentTag) || (s != "" && !strings.ContainsAny(s, " \t\r\n")) {
		pub, id, err := ParseMinisignPublicKey(b)
		if err != nil {
			return nil, fmt.Errorf("trusted keys: %w", err)
		}
		return []TrustedKey{{Principal: "minisign key " + minisignIDString(id), Key: pub, KeyID: id}}, nil
	}
	var keys []TrustedKey
	for n, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		k, err := parseAllowedSigner(line)
		if err != nil {
			return nil, fmt.Errorf("trusted keys: line %d: %w", n+1, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("trusted keys: no keys found")
	}
	return keys, nil
}

// parseAllowedSigner reads one allowed_signers line, or an authorized-key
// line if the line starts with the key type.
func parseAllowedSigner(line string) (TrustedKey, error) {
	if typ, _ := sshCutField(line); typ == sshKeyType {
		pub, comment, err := parseAuthorizedKeyLine(line)
		return TrustedKey{Principal: comment, Key: pub}, err
	}
	if typ, _ := sshCutField(line); strings.HasPrefix(typ, "ssh-") || strings.HasPrefix(typ, "ecdsa-") || strings.HasPrefix(typ, "sk-") {
		return TrustedKey{}, fmt.Errorf("key type %q is not supported; want %s", typ, sshKeyType)
	}
	principals, rest, err := sshCutQuoted(line)
	if err != nil {
		return TrustedKey{}, fmt.Errorf("principals: %w", err)
	}
	principals = strings.Trim(principals, `"`)
	if principals == "" {
		return TrustedKey{}, errors.New("empty principals")
	}
	k := TrustedKey{Principal: principals}
	if typ, _ := sshCutField(rest); typ == "cert-authority" || strings.HasPrefix(typ, "cert-authority,") || strings.ContainsAny(typ, `="`) {
		var opts string
		if opts, rest, err = sshCutQuoted(rest); err != nil {
			return TrustedKey{}, fmt.Errorf("options: %w", err)
		}
		if k.Namespaces, err = parseSignerOptions(opts); err != nil {
			return TrustedKey{}, err
		}
	}
	if typ, _ := sshCutField(rest); typ != sshKeyType {
		return TrustedKey{}, fmt.Errorf("key type %q is not supported; want %s", typ, sshKeyType)
	}
	if k.Key, _, err = parseAuthorizedKeyLine(rest); err != nil {
		return TrustedKey{}, err
	}
	return k, nil
}

// parseSignerOptions reads the options field of an allowed_signers line and
// returns the namespaces it allows.
func parseSignerOptions(opts string) ([]string, error) {
	var namespaces []string
	seen := false
	for opts != "" {
		var opt string
		opt, opts = cutOption(opts)
		name, value, hasValue := strings.Cut(opt, "=")
		switch name {
		case "namespaces":
		case "cert-authority", "valid-after", "valid-before":
			return nil, fmt.Errorf("option %s is not supported", name)
		default:
			return nil, fmt.Errorf("unknown option %q", opt)
		}
		if seen {
			return nil, errors.New("option namespaces given twice")
		}
		seen = true
		if !hasValue || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
			return nil, errors.New(`option namespaces: want namespaces="name,…"`)
		}
		for _, ns := range strings.Split(value[1:len(value)-1], ",") {
			if ns == "" || strings.ContainsAny(ns, `*?!"`) {
				return nil, fmt.Errorf("option namespaces: %q is not a plain namespace name (patterns are not supported)", ns)
			}
			namespaces = append(namespaces, ns)
		}
	}
	return namespaces, nil
}

// cutOption splits a comma-separated option list at its first comma outside
// double quotes.
func cutOption(s string) (opt, rest string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				return s[:i], s[i+1:]
			}
		}
	}
	return s, ""
}

// sshCutField splits s at its first run of spaces and tabs.
func sshCutField(s string) (field, rest string) {
	s = strings.TrimLeft(s, " \t")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.TrimLeft(s[i:], " \t")
	}
	return s, ""
}

// sshCutQuoted is sshCutField for a field in which double quotes protect
// white space.
func sshCutQuoted(s string) (field, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ' ', '\t':
			if !quoted {
				return s[:i], strings.TrimLeft(s[i:], " \t"), nil
			}
		}
	}
	if quoted {
		return "", "", errors.New("unterminated double quote")
	}
	return s, "", nil
}

// sshParseBase64Key decodes the base64 wire form of an ssh-ed25519 key.
func sshParseBase64Key(s string) (ed25519.PublicKey, error) {
	blob, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("key is not base64: %w", err)
	}
	return sshParsePublicKeyBlob(blob)
}

// sshPublicKeyBlob returns the SSH wire form of pub: string "ssh-ed25519",
// string key.
func sshPublicKeyBlob(pub []byte) []byte {
	return sshAppendString(sshAppendString(nil, []byte(sshKeyType)), pub)
}

// sshParsePublicKeyBlob reads the SSH wire form of an ssh-ed25519 key,
// refusing other types, other lengths and trailing bytes.
func sshParsePublicKeyBlob(blob []byte) (ed25519.PublicKey, error) {
	typ, rest, ok1 := sshReadString(blob)
	key, rest, ok2 := sshReadString(rest)
	switch {
	case !ok1 || !ok2:
		return nil, errors.New("truncated key")
	case string(typ) != sshKeyType:
		return nil, fmt.Errorf("key type %q is not supported; want %s", sigShort(typ), sshKeyType)
	case len(key) != ed25519.PublicKeySize:
		return nil, fmt.Errorf("%d-byte key, want %d", len(key), ed25519.PublicKeySize)
	case len(rest) != 0:
		return nil, fmt.Errorf("%d bytes after the key", len(rest))
	}
	return ed25519.PublicKey(key), nil
}

// sshAppendString appends s as an SSH wire "string": a big-endian uint32
// length, then the bytes (RFC 4251 section 5).
func sshAppendString(b, s []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}

// sshReadUint32 reads a big-endian uint32 from the front of b.
func sshReadUint32(b []byte) (v uint32, rest []byte, ok bool) {
	if len(b) < 4 {
		return 0, nil, false
	}
	return binary.BigEndian.Uint32(b), b[4:], true
}

// sshReadString reads an SSH wire "string" from the front of b.
func sshReadString(b []byte) (s, rest []byte, ok bool) {
	n, rest, ok := sshReadUint32(b)
	if !ok || uint64(n) > uint64(len(rest)) {
		return nil, nil, false
	}
	return rest[:n], rest[n:], true
}

// sshArmor wraps blob in "-----BEGIN typ-----" lines with base64 lines of 70
// characters, as OpenSSH writes keys and signatures.
func sshArmor(typ string, blob []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b strings.Builder
	b.WriteString("-----BEGIN " + typ + "-----\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n-----END " + typ + "-----\n")
	return []byte(b.String())
}

// sshDearmor decodes one armored block of the given type. Only white space
// may surround it, and it may carry no headers.
func sshDearmor(b []byte, typ string) ([]byte, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("-----BEGIN "+typ+"-----")) {
		return nil, fmt.Errorf("want a -----BEGIN %s----- block", typ)
	}
	block, rest := pem.Decode(b)
	switch {
	case block == nil:
		return nil, fmt.Errorf("malformed %s block", typ)
	case block.Type != typ:
		return nil, fmt.Errorf("malformed %s block", typ)
	case len(block.Headers) != 0:
		return nil, fmt.Errorf("%s block has headers", typ)
	case len(bytes.TrimSpace(rest)) != 0:
		return nil, fmt.Errorf("data after the %s block", typ)
	}
	return block.Bytes, nil
}

// sigIsControl reports whether r is an ASCII or Unicode control character other
// than tab.
func sigIsControl(r rune) bool {
	return r != '\t' && (r < 0x20 || 0x7f <= r && r < 0xa0)
}

// sigShort makes untrusted bytes safe to quote in an error: at most 32 bytes.
func sigShort(b []byte) string {
	if len(b) > 32 {
		return string(b[:32]) + "…"
	}
	return string(b)
}
