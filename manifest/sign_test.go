package manifest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sigMessage is a stand-in for manifest bytes.
var sigMessage = []byte(`{"mediaType":"application/vnd.skills-mcp.manifest.v1+json","skills":[]}` + "\n")

// sigTrust returns the trusted keys parsed from a testdata/sign file.
func sigTrust(t testing.TB, name string) []TrustedKey {
	t.Helper()
	keys, err := ParseTrust(sigFixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// sigTampered returns a copy of b with one bit of byte i flipped.
func sigTampered(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 1
	return c
}

// sigWantBad requires err to wrap ErrBadSignature (and not ErrUntrusted)
// and to contain want.
func sigWantBad(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: accepted", name)
	case !errors.Is(err, ErrBadSignature) || errors.Is(err, ErrUntrusted):
		t.Errorf("%s: error %q does not wrap ErrBadSignature alone", name, err)
	case !strings.Contains(err.Error(), want):
		t.Errorf("%s: error %q does not contain %q", name, err, want)
	}
}

// sigWantUntrusted requires err to wrap ErrUntrusted (and not
// ErrBadSignature) and to contain want.
func sigWantUntrusted(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: accepted", name)
	case !errors.Is(err, ErrUntrusted) || errors.Is(err, ErrBadSignature):
		t.Errorf("%s: error %q does not wrap ErrUntrusted alone", name, err)
	case !strings.Contains(err.Error(), want):
		t.Errorf("%s: error %q does not contain %q", name, err, want)
	}
}

func TestSignatureFixturesAreReproduced(t *testing.T) {
	priv := sigTestKey()
	msg := sigFixture(t, "message")
	if got, want := SignSSH(priv, msg), sigFixture(t, "message.sig"); !bytes.Equal(got, want) {
		t.Errorf("SignSSH output changed:\n got %s\nwant %s", got, want)
	}
	got, err := SignMinisign(priv, msg, "skills-mcp test message")
	if err != nil {
		t.Fatal(err)
	}
	if want := sigFixture(t, "message.minisig"); !bytes.Equal(got, want) {
		t.Errorf("SignMinisign output changed:\n got %s\nwant %s", got, want)
	}
}

func TestVerifyFixtures(t *testing.T) {
	msg := sigFixture(t, "message")
	signers := sigTrust(t, "allowed_signers")
	for _, name := range []string{"message.sig", "ssh-keygen-sha256.sig"} {
		k, err := VerifySSH(sigFixture(t, name), msg, signers)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if k.Principal != "release@example" {
			t.Errorf("%s: signed by %q", name, k.Principal)
		}
		_, err = VerifySSH(sigFixture(t, name), sigTampered(msg, 3), signers)
		sigWantBad(t, name+" tampered", err, "does not match the message")
	}

	// Our minisign signature verifies with our minisign key and with the
	// same key read from allowed_signers, whose ID is derived.
	for _, trust := range []string{"minisign.pub", "allowed_signers"} {
		if _, err := VerifyMinisign(sigFixture(t, "message.minisig"), msg, sigTrust(t, trust)); err != nil {
			t.Errorf("message.minisig with %s: %v", trust, err)
		}
	}
	// minisign -S -l by a key minisign made, with a random ID.
	tool := sigTrust(t, "minisign-tool.pub")
	if _, err := VerifyMinisign(sigFixture(t, "minisign-tool.minisig"), msg, tool); err != nil {
		t.Errorf("minisign-tool.minisig: %v", err)
	}
	_, err := VerifyMinisign(sigFixture(t, "minisign-tool.minisig"), sigTampered(msg, 0), tool)
	sigWantBad(t, "minisign-tool.minisig tampered", err, "does not match the message")
	_, err = VerifyMinisign(sigFixture(t, "minisign-tool-prehashed.minisig"), msg, tool)
	sigWantBad(t, "minisign -S without -l", err, "prehashed (ED) signatures are not supported; sign with minisign -S -l")
	_, err = VerifyMinisign(sigFixture(t, "minisign-tool.minisig"), msg, signers)
	sigWantUntrusted(t, "minisign-tool.minisig by an unknown key", err, "no trusted key has key ID B227B7CA37CE5F0C")
}

func TestSignSSHIsSSHKeygensSignature(t *testing.T) {
	sshKeygen := sigTool(t, "ssh-keygen")
	dir := t.TempDir()
	priv := sigNewKey(t)
	key := sigWrite(t, dir, "key", MarshalPrivateKey(priv, "ci@example"), 0o600)
	file := sigWrite(t, dir, "f", sigMessage, 0o644)
	trusted := []TrustedKey{{Principal: "ci", Key: priv.Public().(ed25519.PublicKey)}}

	if out, err := sigRun(dir, nil, sshKeygen, "-Y", "sign", "-f", key, "-n", SignatureNamespace, file); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	toolSig, err := os.ReadFile(file + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	if ours := SignSSH(priv, sigMessage); !bytes.Equal(ours, toolSig) {
		t.Errorf("SignSSH differs from ssh-keygen -Y sign:\n got %s\nwant %s", ours, toolSig)
	}
	if _, err := VerifySSH(toolSig, sigMessage, trusted); err != nil {
		t.Errorf("ssh-keygen's signature: %v", err)
	}

	// The sha256 variant, which ssh-keygen writes on request.
	os.Remove(file + ".sig")
	if out, err := sigRun(dir, nil, sshKeygen, "-Y", "sign", "-f", key, "-n", SignatureNamespace, "-O", "hashalg=sha256", file); err != nil {
		t.Fatalf("ssh-keygen -Y sign -O hashalg=sha256: %v\n%s", err, out)
	}
	if toolSig, err = os.ReadFile(file + ".sig"); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifySSH(toolSig, sigMessage, trusted); err != nil {
		t.Errorf("ssh-keygen's sha256 signature: %v", err)
	}
	_, err = VerifySSH(toolSig, sigTampered(sigMessage, 10), trusted)
	sigWantBad(t, "ssh-keygen's sha256 signature, tampered", err, "does not match the message")

	// A signature in another namespace is refused.
	os.Remove(file + ".sig")
	if out, err := sigRun(dir, nil, sshKeygen, "-Y", "sign", "-f", key, "-n", "git", file); err != nil {
		t.Fatalf("ssh-keygen -Y sign -n git: %v\n%s", err, out)
	}
	if toolSig, err = os.ReadFile(file + ".sig"); err != nil {
		t.Fatal(err)
	}
	_, err = VerifySSH(toolSig, sigMessage, trusted)
	sigWantBad(t, "git namespace", err, `namespace "git", want "skills-bundle-v1"`)
}

func TestSSHKeygenVerifiesSignSSH(t *testing.T) {
	sshKeygen := sigTool(t, "ssh-keygen")
	dir := t.TempDir()
	priv := sigNewKey(t)
	line, err := MarshalAllowedSigner("release@example", priv.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	sigWrite(t, dir, "allowed_signers", []byte(line+"\n"), 0o644)
	sigWrite(t, dir, "f.sig", SignSSH(priv, sigMessage), 0o644)
	verify := func(msg []byte, namespace string) (string, error) {
		return sigRun(dir, msg, sshKeygen, "-Y", "verify", "-f", "allowed_signers", "-I", "release@example", "-n", namespace, "-s", "f.sig")
	}

	out, err := verify(sigMessage, SignatureNamespace)
	if err != nil {
		t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
	}
	if !strings.Contains(out, `Good "skills-bundle-v1" signature for release@example`) {
		t.Fatalf("ssh-keygen -Y verify printed %q", out)
	}
	trusted, err := ParseTrust([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifySSH(SignSSH(priv, sigMessage), sigMessage, trusted); err != nil {
		t.Fatal(err)
	}

	tampered := sigTampered(sigMessage, len(sigMessage)/2)
	if out, err := verify(tampered, SignatureNamespace); err == nil {
		t.Fatalf("ssh-keygen -Y verify accepted a tampered message:\n%s", out)
	}
	_, err = VerifySSH(SignSSH(priv, sigMessage), tampered, trusted)
	sigWantBad(t, "tampered message", err, "does not match the message")

	// The allowed_signers line limits the key to our namespace.
	if out, err := verify(sigMessage, "git"); err == nil {
		t.Fatalf("ssh-keygen -Y verify -n git accepted a bundle signature:\n%s", out)
	}
}

func TestMinisignVerifiesSignMinisign(t *testing.T) {
	minisign := sigTool(t, "minisign")
	dir := t.TempDir()
	priv := sigNewKey(t)
	pub := priv.Public().(ed25519.PublicKey)
	const comment = "acme-skills 1.4.0\tsha256:0123"
	sig, err := SignMinisign(priv, sigMessage, comment)
	if err != nil {
		t.Fatal(err)
	}
	sigWrite(t, dir, "f.minisig", sig, 0o644)
	sigWrite(t, dir, "key.pub", MarshalMinisignPublicKeyFile(pub), 0o644)
	sigWrite(t, dir, "f", sigMessage, 0o644)
	sigWrite(t, dir, "g", sigTampered(sigMessage, 5), 0o644)
	keyArgs := map[string][]string{"-P": {"-P", MarshalMinisignPublicKey(pub)}, "-p": {"-p", "key.pub"}}
	for name, args := range keyArgs {
		out, err := sigRun(dir, nil, minisign, append([]string{"-V", "-x", "f.minisig", "-m", "f"}, args...)...)
		if err != nil {
			t.Fatalf("minisign -V %s: %v\n%s", name, err, out)
		}
		if !strings.Contains(out, "Trusted comment: "+comment) {
			t.Fatalf("minisign -V %s printed %q", name, out)
		}
		if out, err := sigRun(dir, nil, minisign, append([]string{"-V", "-x", "f.minisig", "-m", "g"}, args...)...); err == nil {
			t.Fatalf("minisign -V %s accepted a tampered message:\n%s", name, out)
		}
	}
	trusted := []TrustedKey{{Key: pub}}
	if _, err := VerifyMinisign(sig, sigMessage, trusted); err != nil {
		t.Fatal(err)
	}
	_, err = VerifyMinisign(sig, sigTampered(sigMessage, 5), trusted)
	sigWantBad(t, "tampered message", err, "does not match the message")
}

func TestVerifyMinisignReadsMinisign(t *testing.T) {
	minisign := sigTool(t, "minisign")
	dir := t.TempDir()
	if out, err := sigRun(dir, nil, minisign, "-G", "-W", "-p", "key.pub", "-s", "key.sec"); err != nil {
		t.Fatalf("minisign -G: %v\n%s", err, out)
	}
	sigWrite(t, dir, "f", sigMessage, 0o644)
	if out, err := sigRun(dir, nil, minisign, "-S", "-l", "-s", "key.sec", "-m", "f", "-t", "made by minisign"); err != nil {
		t.Fatalf("minisign -S -l: %v\n%s", err, out)
	}
	if out, err := sigRun(dir, nil, minisign, "-S", "-s", "key.sec", "-m", "f", "-x", "f.prehashed"); err != nil {
		t.Fatalf("minisign -S: %v\n%s", err, out)
	}
	pubFile, err := os.ReadFile(filepath.Join(dir, "key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := ParseTrust(pubFile)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(filepath.Join(dir, "f.minisig"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyMinisign(sig, sigMessage, trusted); err != nil {
		t.Fatal(err)
	}
	_, err = VerifyMinisign(sig, sigTampered(sigMessage, 1), trusted)
	sigWantBad(t, "tampered message", err, "does not match the message")
	prehashed, err := os.ReadFile(filepath.Join(dir, "f.prehashed"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = VerifyMinisign(prehashed, sigMessage, trusted)
	sigWantBad(t, "prehashed", err, "prehashed (ED) signatures are not supported")
}

// sigSSHSIG holds every field of an SSH signature, to build broken ones.
type sigSSHSIG struct {
	magic                        string
	version                      uint32
	pubBlob                      []byte
	namespace, reserved, hash    string
	sigType                      string
	sig, sigTrailer, blobTrailer []byte
}

// sigMakeSSHSIG returns an armored SSH signature of msg by priv, altered by
// edit. Unless edit sets sig, the signature is computed after the edit, over
// the edited namespace and hash, so only what edit broke is wrong.
func sigMakeSSHSIG(priv ed25519.PrivateKey, msg []byte, edit func(*sigSSHSIG)) []byte {
	s := sigSSHSIG{
		magic: "SSHSIG", version: 1, pubBlob: sshPublicKeyBlob(priv[32:]),
		namespace: SignatureNamespace, hash: "sha512", sigType: "ssh-ed25519",
	}
	edit(&s)
	if s.sig == nil {
		h512 := sha512.Sum512(msg)
		h := h512[:]
		if s.hash == "sha256" {
			h256 := sha256.Sum256(msg)
			h = h256[:]
		}
		data := []byte("SSHSIG")
		data = sshAppendString(data, []byte(s.namespace))
		data = sshAppendString(data, []byte(s.reserved))
		data = sshAppendString(data, []byte(s.hash))
		data = sshAppendString(data, h)
		s.sig = ed25519.Sign(priv, data)
	}
	b := []byte(s.magic)
	b = binary.BigEndian.AppendUint32(b, s.version)
	b = sshAppendString(b, s.pubBlob)
	b = sshAppendString(b, []byte(s.namespace))
	b = sshAppendString(b, []byte(s.reserved))
	b = sshAppendString(b, []byte(s.hash))
	sigBlob := sshAppendString(sshAppendString(nil, []byte(s.sigType)), s.sig)
	b = sshAppendString(b, append(sigBlob, s.sigTrailer...))
	return sshArmor(sshsigArmorType, append(b, s.blobTrailer...))
}

// sigMalleate returns sig with L, the order of the Ed25519 group, added to
// its S half: the same equation, a non-canonical encoding.
func sigMalleate(sig []byte) []byte {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	le := slices.Clone(sig[32:])
	slices.Reverse(le)
	s := new(big.Int).Add(new(big.Int).SetBytes(le), l).FillBytes(make([]byte, 32))
	slices.Reverse(s)
	return append(slices.Clone(sig[:32]), s...)
}

func TestVerifySSHRefusals(t *testing.T) {
	priv := sigTestKey()
	trusted := []TrustedKey{{Key: priv.Public().(ed25519.PublicKey)}}
	if _, err := VerifySSH(sigMakeSSHSIG(priv, sigMessage, func(*sigSSHSIG) {}), sigMessage, trusted); err != nil {
		t.Fatalf("the unbroken signature is refused: %v", err)
	}
	if _, err := VerifySSH(sigMakeSSHSIG(priv, sigMessage, func(s *sigSSHSIG) { s.hash = "sha256" }), sigMessage, trusted); err != nil {
		t.Fatalf("sha256 is refused: %v", err)
	}
	valid := SignSSH(priv, sigMessage)
	block, _ := pem.Decode(valid)
	validSig := block.Bytes[len(block.Bytes)-64:]
	other := sigNewKey(t)

	for name, c := range map[string]struct {
		edit func(*sigSSHSIG)
		want string
	}{
		"magic":         {func(s *sigSSHSIG) { s.magic = "SSHSIH" }, "missing SSHSIG magic"},
		"version":       {func(s *sigSSHSIG) { s.version = 2 }, "version 2, want 1"},
		"git namespace": {func(s *sigSSHSIG) { s.namespace = "git" }, `namespace "git", want "skills-bundle-v1"`},
		"no namespace":  {func(s *sigSSHSIG) { s.namespace = "" }, `namespace "", want "skills-bundle-v1"`},
		"old namespace": {func(s *sigSSHSIG) { s.namespace = "skills-bundle" }, `namespace "skills-bundle", want`},
		"reserved":      {func(s *sigSSHSIG) { s.reserved = "x" }, "reserved field is not empty"},
		"md5":           {func(s *sigSSHSIG) { s.hash = "md5"; s.sig = validSig }, `hash "md5" is not supported`},
		"SHA512":        {func(s *sigSSHSIG) { s.hash = "SHA512"; s.sig = validSig }, `hash "SHA512" is not supported`},
		"rsa key": {func(s *sigSSHSIG) {
			s.pubBlob = sshAppendString(sshAppendString(nil, []byte("ssh-rsa")), []byte{1, 0, 1})
		}, `public key: key type "ssh-rsa" is not supported`},
		"key trailer":    {func(s *sigSSHSIG) { s.pubBlob = append(s.pubBlob, 0) }, "public key: 1 bytes after the key"},
		"other key":      {func(s *sigSSHSIG) { s.pubBlob = sshPublicKeyBlob(other[32:]) }, "does not match the message"},
		"rsa sig type":   {func(s *sigSSHSIG) { s.sigType = "rsa-sha2-512" }, `signature type "rsa-sha2-512" is not supported`},
		"short sig":      {func(s *sigSSHSIG) { s.sig = validSig[:63] }, "63-byte signature, want 64"},
		"sig trailer":    {func(s *sigSSHSIG) { s.sigTrailer = []byte{0} }, "1 bytes after the signature"},
		"blob trailer":   {func(s *sigSSHSIG) { s.blobTrailer = []byte{0} }, "1 bytes after the signature"},
		"malleated S":    {func(s *sigSSHSIG) { s.sig = sigMalleate(validSig) }, "does not match the message"},
		"zero signature": {func(s *sigSSHSIG) { s.sig = make([]byte, 64) }, "does not match the message"},
	} {
		_, err := VerifySSH(sigMakeSSHSIG(priv, sigMessage, c.edit), sigMessage, trusted)
		sigWantBad(t, name, err, c.want)
	}

	validStr := string(valid)
	truncated := sshArmor(sshsigArmorType, block.Bytes[:len(block.Bytes)-1])
	for name, c := range map[string]struct{ in, want string }{
		"empty":        {"", "want a -----BEGIN SSH SIGNATURE----- block"},
		"bare base64":  {base64.StdEncoding.EncodeToString(block.Bytes), "want a -----BEGIN SSH SIGNATURE----- block"},
		"pgp block":    {strings.ReplaceAll(validStr, "SSH SIGNATURE", "PGP SIGNATURE"), "want a -----BEGIN SSH SIGNATURE----- block"},
		"headers":      {strings.Replace(validStr, "-----\n", "-----\nComment: hi\n\n", 1), "block has headers"},
		"data after":   {validStr + "x", "data after the SSH SIGNATURE block"},
		"two blocks":   {validStr + validStr, "data after the SSH SIGNATURE block"},
		"no end":       {strings.Split(validStr, "-----END")[0], "malformed SSH SIGNATURE block"},
		"truncated":    {string(truncated), "truncated"},
		"too large":    {validStr + strings.Repeat(" ", sigMaxBytes), "larger than 16384 bytes"},
		"bad base64":   {strings.Replace(validStr, "U1NI", "U!NI", 1), "malformed SSH SIGNATURE block"},
		"magic only":   {string(sshArmor(sshsigArmorType, []byte("SSHSIG"))), "truncated"},
		"empty block":  {string(sshArmor(sshsigArmorType, nil)), "missing SSHSIG magic"},
		"wrong length": {string(sshArmor(sshsigArmorType, append([]byte("SSHSIG\x00\x00\x00\x01\xff\xff\xff\xff"), block.Bytes[14:]...))), "truncated"},
	} {
		_, err := VerifySSH([]byte(c.in), sigMessage, trusted)
		sigWantBad(t, name, err, c.want)
	}

	// White space around the block and CRLF line ends are fine.
	crlf := "\r\n" + strings.ReplaceAll(validStr, "\n", "\r\n") + "\r\n\r\n"
	if _, err := VerifySSH([]byte(crlf), sigMessage, trusted); err != nil {
		t.Errorf("CRLF signature: %v", err)
	}
}

func TestVerifySSHTrust(t *testing.T) {
	priv := sigTestKey()
	pub := priv.Public().(ed25519.PublicKey)
	sig := SignSSH(priv, sigMessage)
	other := sigNewKey(t).Public().(ed25519.PublicKey)

	_, err := VerifySSH(sig, sigMessage, nil)
	sigWantUntrusted(t, "no trusted keys", err, "key "+SSHFingerprint(pub)+" is not among the trusted keys")
	_, err = VerifySSH(sig, sigMessage, []TrustedKey{{Key: other}})
	sigWantUntrusted(t, "another key", err, "is not among the trusted keys")
	_, err = VerifySSH(sig, sigMessage, []TrustedKey{{Key: pub, Namespaces: []string{"git", "file"}}})
	sigWantUntrusted(t, "other namespaces", err, "is trusted only for namespaces git,file, not skills-bundle-v1")

	k, err := VerifySSH(sig, sigMessage, []TrustedKey{
		{Principal: "other", Key: other},
		{Principal: "git only", Key: pub, Namespaces: []string{"git"}},
		{Principal: "both", Key: pub, Namespaces: []string{"git", SignatureNamespace}},
	})
	if err != nil || k.Principal != "both" {
		t.Fatalf("got %q, %v; want the key trusted for both namespaces", k.Principal, err)
	}

	// A bad signature by an untrusted key is a bad signature.
	_, err = VerifySSH(sig, sigTampered(sigMessage, 0), nil)
	sigWantBad(t, "bad and untrusted", err, "does not match the message")
}

// sigMangleValues returns the values to XOR into each byte when
// mangling: all 255 normally, three with -short.
func sigMangleValues() []byte {
	if testing.Short() {
		return []byte{0x01, 0x80, 0xff}
	}
	v := make([]byte, 255)
	for i := range v {
		v[i] = byte(i + 1)
	}
	return v
}

func TestVerifySSHRejectsEveryByteChange(t *testing.T) {
	t.Parallel()
	priv := sigTestKey()
	trusted := []TrustedKey{{Key: priv.Public().(ed25519.PublicKey)}}
	block, _ := pem.Decode(SignSSH(priv, sigMessage))
	blob := block.Bytes
	for i := range blob {
		for _, x := range sigMangleValues() {
			blob[i] ^= x
			_, err := VerifySSH(sshArmor(sshsigArmorType, blob), sigMessage, trusted)
			blob[i] ^= x
			if err == nil {
				t.Fatalf("byte %d xor %#x: accepted", i, x)
			}
			if !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrUntrusted) {
				t.Fatalf("byte %d xor %#x: error %q wraps neither sentinel", i, x, err)
			}
		}
	}
}

func TestVerifyMinisignRejectsEveryByteChange(t *testing.T) {
	t.Parallel()
	priv := sigTestKey()
	trusted := []TrustedKey{{Key: priv.Public().(ed25519.PublicKey)}}
	sig, err := SignMinisign(priv, sigMessage, "trusted")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(sig), "\n")
	for _, n := range []int{1, 3} { // the signature and the global signature
		raw, err := base64.StdEncoding.DecodeString(lines[n])
		if err != nil {
			t.Fatal(err)
		}
		for i := range raw {
			for _, x := range sigMangleValues() {
				raw[i] ^= x
				mangled := slices.Clone(lines)
				mangled[n] = base64.StdEncoding.EncodeToString(raw)
				raw[i] ^= x
				_, err := VerifyMinisign([]byte(strings.Join(mangled, "\n")), sigMessage, trusted)
				if err == nil {
					t.Fatalf("line %d byte %d xor %#x: accepted", n+1, i, x)
				}
				if !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrUntrusted) {
					t.Fatalf("line %d byte %d xor %#x: error %q wraps neither sentinel", n+1, i, x, err)
				}
			}
		}
	}
	// The trusted comment is signed, byte by byte.
	for i := len("trusted comment: "); i < len(lines[2]); i++ {
		mangled := slices.Clone(lines)
		mangled[2] = lines[2][:i] + "X" + lines[2][i+1:]
		_, err := VerifyMinisign([]byte(strings.Join(mangled, "\n")), sigMessage, trusted)
		sigWantBad(t, "trusted comment", err, "trusted comment signature by key")
	}
	// The untrusted comment is not.
	mangled := slices.Clone(lines)
	mangled[0] = "untrusted comment: anything at all"
	if _, err := VerifyMinisign([]byte(strings.Join(mangled, "\n")), sigMessage, trusted); err != nil {
		t.Fatalf("changed untrusted comment: %v", err)
	}
}

func TestVerifyMinisignRefusals(t *testing.T) {
	priv := sigTestKey()
	pub := priv.Public().(ed25519.PublicKey)
	trusted := []TrustedKey{{Key: pub}}
	sig, err := SignMinisign(priv, sigMessage, "good")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(sig), "\n"), "\n")
	join := func(l ...string) []byte { return []byte(strings.Join(l, "\n") + "\n") }
	raw, _ := base64.StdEncoding.DecodeString(lines[1])
	withAlg := func(alg string) string {
		return base64.StdEncoding.EncodeToString(append([]byte(alg), raw[2:]...))
	}
	otherGlobal, _ := SignMinisign(priv, sigMessage, "other")

	for name, c := range map[string]struct {
		in   []byte
		want string
	}{
		"empty":                  {nil, "1 lines, want 4"},
		"three lines":            {join(lines[:3]...), "3 lines, want 4"},
		"five lines":             {join(append(lines, "")...), "5 lines, want 4"},
		"no untrusted tag":       {join("comment: x", lines[1], lines[2], lines[3]), `line 1 does not start with "untrusted comment: "`},
		"no trusted tag":         {join(lines[0], lines[1], "good", lines[3]), `line 3 does not start with "trusted comment: "`},
		"long untrusted comment": {join("untrusted comment: "+strings.Repeat("u", 1025), lines[1], lines[2], lines[3]), "untrusted comment is longer than 1024 bytes"},
		"escape in comment":      {join(lines[0], lines[1], "trusted comment: \x1b[2J", lines[3]), "trusted comment: control character at byte 0"},
		"long trusted comment":   {join(lines[0], lines[1], "trusted comment: "+strings.Repeat("t", 4097), lines[3]), "trusted comment: 4097 bytes, limit 4096"},
		"short signature line":   {join(lines[0], lines[1][:96], lines[2], lines[3]), "signature line is 96 characters, want 100"},
		"signature not base64":   {join(lines[0], "!"+lines[1][1:], lines[2], lines[3]), "signature line is not base64 of 74 bytes"},
		"global not base64":      {join(lines[0], lines[1], lines[2], "!"+lines[3][1:]), "global signature line is not base64 of 64 bytes"},
		"short global":           {join(lines[0], lines[1], lines[2], lines[3][:84]), "global signature line is not base64 of 64 bytes"},
		"prehashed":              {join(lines[0], withAlg("ED"), lines[2], lines[3]), "prehashed (ED) signatures are not supported"},
		"unknown algorithm":      {join(lines[0], withAlg("Xx"), lines[2], lines[3]), `algorithm "Xx" is not supported; want "Ed"`},
		"swapped global":         {join(lines[0], lines[1], lines[2], strings.Split(string(otherGlobal), "\n")[3]), "trusted comment signature by key"},
		"too large":              {append(bytes.Clone(sig), bytes.Repeat([]byte{' '}, sigMaxBytes)...), "larger than 16384 bytes"},
	} {
		_, err := VerifyMinisign(c.in, sigMessage, trusted)
		sigWantBad(t, name, err, c.want)
	}
	_, err = VerifyMinisign(sig, sigTampered(sigMessage, 2), trusted)
	sigWantBad(t, "tampered message", err, "does not match the message")

	// CRLF and a missing final newline are fine.
	for name, in := range map[string]string{
		"crlf":       strings.ReplaceAll(string(sig), "\n", "\r\n"),
		"no newline": strings.TrimSuffix(string(sig), "\n"),
	} {
		if _, err := VerifyMinisign([]byte(in), sigMessage, trusted); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	id := MinisignKeyID(pub)
	_, err = VerifyMinisign(sig, sigMessage, nil)
	sigWantUntrusted(t, "no keys", err, "no trusted key has key ID "+minisignIDString(id))
	_, err = VerifyMinisign(sig, sigMessage, []TrustedKey{{Key: pub, KeyID: [8]byte{1}}})
	sigWantUntrusted(t, "other key ID", err, "no trusted key has key ID")
	_, err = VerifyMinisign(sig, sigMessage, []TrustedKey{{Key: []byte{1, 2, 3}, KeyID: id}})
	sigWantUntrusted(t, "malformed trusted key", err, "no trusted key has key ID")
	_, err = VerifyMinisign(sig, sigMessage, []TrustedKey{{Key: pub, Namespaces: []string{"git"}}})
	sigWantUntrusted(t, "other namespace", err, "is trusted only for namespaces git, not skills-bundle-v1")
	// A key that claims the signer's ID but is another key.
	_, err = VerifyMinisign(sig, sigMessage, []TrustedKey{{Key: sigNewKey(t).Public().(ed25519.PublicKey), KeyID: id}})
	sigWantBad(t, "impostor with the same ID", err, "does not match the message")
	k, err := VerifyMinisign(sig, sigMessage, []TrustedKey{
		{Principal: "impostor", Key: sigNewKey(t).Public().(ed25519.PublicKey), KeyID: id},
		{Principal: "real", Key: pub},
	})
	if err != nil || k.Principal != "real" {
		t.Fatalf("got %q, %v; want the real key", k.Principal, err)
	}
}

func TestSignMinisignRefusesBadComments(t *testing.T) {
	priv := sigTestKey()
	for _, c := range []string{"a\nb", "a\rb", "\x00", "\x7f", strings.Repeat("x", 4097)} {
		if _, err := SignMinisign(priv, sigMessage, c); err == nil || !strings.Contains(err.Error(), "minisign trusted comment: ") {
			t.Errorf("comment %q: error %v", c, err)
		}
	}
	for _, c := range []string{"", "tab\tis fine", "ünïcode", strings.Repeat("x", 4096)} {
		sig, err := SignMinisign(priv, sigMessage, c)
		if err != nil {
			t.Errorf("comment %q: %v", c, err)
			continue
		}
		if _, err := VerifyMinisign(sig, sigMessage, []TrustedKey{{Key: priv.Public().(ed25519.PublicKey)}}); err != nil {
			t.Errorf("comment %q: %v", c, err)
		}
	}
}

func FuzzVerifySSH(f *testing.F) {
	msg := sigFixture(f, "message")
	for _, name := range []string{"message.sig", "ssh-keygen-sha256.sig"} {
		f.Add(sigFixture(f, name), msg)
	}
	f.Add(sigMakeSSHSIG(sigTestKey(), msg, func(s *sigSSHSIG) { s.namespace = "git" }), msg)
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"), []byte{})
	trusted := sigTrust(f, "allowed_signers")
	f.Fuzz(func(t *testing.T, sig, m []byte) {
		k, err := VerifySSH(sig, m, trusted)
		if err != nil {
			if errors.Is(err, ErrBadSignature) == errors.Is(err, ErrUntrusted) {
				t.Fatalf("error %q must wrap exactly one of ErrBadSignature and ErrUntrusted", err)
			}
			return
		}
		if !bytes.Equal(m, msg) || !k.Key.Equal(trusted[0].Key) {
			t.Fatal("verified a message the test key never signed")
		}
	})
}

func FuzzVerifyMinisign(f *testing.F) {
	msg := sigFixture(f, "message")
	for _, name := range []string{"message.minisig", "minisign-tool.minisig", "minisign-tool-prehashed.minisig"} {
		f.Add(sigFixture(f, name), msg)
	}
	trusted := append(sigTrust(f, "minisign.pub"), sigTrust(f, "minisign-tool.pub")...)
	f.Fuzz(func(t *testing.T, sig, m []byte) {
		_, err := VerifyMinisign(sig, m, trusted)
		if err != nil {
			if errors.Is(err, ErrBadSignature) == errors.Is(err, ErrUntrusted) {
				t.Fatalf("error %q must wrap exactly one of ErrBadSignature and ErrUntrusted", err)
			}
			return
		}
		if !bytes.Equal(m, msg) {
			t.Fatal("verified a message no test key signed")
		}
	})
}
