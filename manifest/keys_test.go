package manifest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The files in testdata/sign were made once: those named after a tool by
// that tool, the others by this package from sigTestKey. Tests below check
// that this package still writes the latter byte for byte.

// sigTestKey returns the key of testdata/sign/id_ed25519.
func sigTestKey() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("skills-mcp signing test key"))
	return ed25519.NewKeyFromSeed(seed[:])
}

// sigNewKey returns a fresh random key.
func sigNewKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv
}

// sigFixture reads testdata/sign/name.
func sigFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sign", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sigTool returns the path of a command-line tool. A missing tool skips the
// test, or fails it when the environment variable CI is set.
func sigTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required when CI is set: %v", name, err)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// sigRun runs a tool in dir with stdin and returns its combined output.
func sigRun(dir string, stdin []byte, tool string, args ...string) (string, error) {
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// sigWrite writes a file in dir and returns its path.
func sigWrite(t *testing.T, dir, name string, b []byte, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func sigWantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func TestKeyFixturesAreReproduced(t *testing.T) {
	priv := sigTestKey()
	pub := priv.Public().(ed25519.PublicKey)
	ak, err := MarshalAuthorizedKey(pub, "release@example")
	if err != nil {
		t.Fatal(err)
	}
	as, err := MarshalAllowedSigner("release@example", pub)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{
		"id_ed25519":      MarshalPrivateKey(priv, "release@example"),
		"id_ed25519.pub":  []byte(ak + "\n"),
		"allowed_signers": []byte(as + "\n"),
		"minisign.pub":    MarshalMinisignPublicKeyFile(pub),
	} {
		if want := sigFixture(t, name); !bytes.Equal(got, want) {
			t.Errorf("%s changed:\n got %q\nwant %q", name, got, want)
		}
	}
}

func TestPrivateKeyRoundTrip(t *testing.T) {
	// Comments of 0 to 8 bytes give every padding length.
	for _, comment := range []string{"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", strings.Repeat("long ", 100)} {
		priv := sigNewKey(t)
		got, err := ParsePrivateKey(MarshalPrivateKey(priv, comment))
		if err != nil {
			t.Fatalf("comment %q: %v", comment, err)
		}
		if !priv.Equal(got) {
			t.Fatalf("comment %q: parsed key differs", comment)
		}
	}
}

func TestParsePrivateKeyForms(t *testing.T) {
	want := sigTestKey()
	seed := want.Seed()
	for name, in := range map[string][]byte{
		"openssh":           sigFixture(t, "id_ed25519"),
		"openssh crlf":      bytes.ReplaceAll(sigFixture(t, "id_ed25519"), []byte("\n"), []byte("\r\n")),
		"hex":               []byte(hex.EncodeToString(seed)),
		"hex upper newline": []byte(strings.ToUpper(hex.EncodeToString(seed)) + "\n"),
		"base64":            []byte(base64.StdEncoding.EncodeToString(seed)),
		"base64 spaces":     []byte("  " + base64.StdEncoding.EncodeToString(seed) + "\n\n"),
	} {
		got, err := ParsePrivateKey(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !want.Equal(got) {
			t.Errorf("%s: wrong key", name)
		}
	}

	// A key written by ssh-keygen -t ed25519 -N "" (testdata).
	got, err := ParsePrivateKey(sigFixture(t, "ssh-keygen_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	pub, comment, err := ParseAuthorizedKey(sigFixture(t, "ssh-keygen_ed25519.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(got.Public()) || comment != "made-by@ssh-keygen" {
		t.Fatalf("ssh-keygen key: public key or comment %q differs from its .pub", comment)
	}
}

// sigOpenSSHKey holds every field of an openssh-key-v1 file, to build
// broken ones.
type sigOpenSSHKey struct {
	magic, cipher, kdf, kdfOpts string
	nkeys                       uint32
	pubBlob                     []byte
	check1, check2              uint32
	keyType                     string
	pub, priv                   []byte
	comment                     string
	padding                     []byte
	trailer                     []byte
	section                     []byte // replaces the private section if set
}

func sigValidOpenSSHKey() sigOpenSSHKey {
	priv := sigTestKey()
	return sigOpenSSHKey{
		magic: opensshKeyMagic, cipher: "none", kdf: "none", nkeys: 1,
		pubBlob: sshPublicKeyBlob(priv[32:]),
		check1:  7, check2: 7, keyType: sshKeyType,
		pub: priv[32:], priv: priv, comment: "abcdef",
		padding: []byte{1, 2, 3, 4, 5, 6, 7},
	}
}

func (k sigOpenSSHKey) encode() []byte {
	var sec []byte
	sec = binary.BigEndian.AppendUint32(sec, k.check1)
	sec = binary.BigEndian.AppendUint32(sec, k.check2)
	sec = sshAppendString(sec, []byte(k.keyType))
	sec = sshAppendString(sec, k.pub)
	sec = sshAppendString(sec, k.priv)
	sec = sshAppendString(sec, []byte(k.comment))
	sec = append(sec, k.padding...)
	if k.section != nil {
		sec = k.section
	}
	b := []byte(k.magic)
	b = sshAppendString(b, []byte(k.cipher))
	b = sshAppendString(b, []byte(k.kdf))
	b = sshAppendString(b, []byte(k.kdfOpts))
	b = binary.BigEndian.AppendUint32(b, k.nkeys)
	b = sshAppendString(b, k.pubBlob)
	b = sshAppendString(b, sec)
	return sshArmor(opensshKeyArmorType, append(b, k.trailer...))
}

func TestParsePrivateKeyRefusals(t *testing.T) {
	if _, err := ParsePrivateKey(sigValidOpenSSHKey().encode()); err != nil {
		t.Fatalf("the unbroken key is refused: %v", err)
	}
	other := sigNewKey(t)
	otherSeed := append(append([]byte(nil), other.Seed()...), sigTestKey()[32:]...)
	broken := map[string]struct {
		edit func(*sigOpenSSHKey)
		want string
	}{
		"magic":           {func(k *sigOpenSSHKey) { k.magic = "openssh-key-v2\x00" }, "missing openssh-key-v1 magic"},
		"cipher":          {func(k *sigOpenSSHKey) { k.cipher = "aes256-ctr" }, "encrypted private keys are not supported"},
		"kdf":             {func(k *sigOpenSSHKey) { k.kdf = "bcrypt" }, "encrypted private keys are not supported"},
		"kdf options":     {func(k *sigOpenSSHKey) { k.kdfOpts = "x" }, "kdf none with kdf options"},
		"two keys":        {func(k *sigOpenSSHKey) { k.nkeys = 2 }, "holds 2 keys, want 1"},
		"trailer":         {func(k *sigOpenSSHKey) { k.trailer = []byte{0} }, "1 bytes after the private section"},
		"public type":     {func(k *sigOpenSSHKey) { k.pubBlob = sshAppendString(sshAppendString(nil, []byte("ssh-rsa")), k.pub) }, `key type "ssh-rsa" is not supported`},
		"checkints":       {func(k *sigOpenSSHKey) { k.check2 = 8 }, "check integers differ"},
		"private type":    {func(k *sigOpenSSHKey) { k.keyType = "ssh-rsa-xyz" }, `key type "ssh-rsa-xyz" is not supported`},
		"padding value":   {func(k *sigOpenSSHKey) { k.padding[3] = 9 }, "bad padding"},
		"padding length":  {func(k *sigOpenSSHKey) { k.padding = append(k.padding, []byte{8, 9, 10, 11, 12, 13, 14, 15}...) }, "15 bytes of padding, want fewer than 8"},
		"not block size":  {func(k *sigOpenSSHKey) { k.padding = k.padding[:6] }, "not a multiple of 8 bytes"},
		"short private":   {func(k *sigOpenSSHKey) { k.priv = k.priv[:63]; k.comment += "g" }, "63-byte private key, want 32 and 64"},
		"public mismatch": {func(k *sigOpenSSHKey) { k.pub = other[32:] }, "public and private parts name different keys"},
		"wrong seed":      {func(k *sigOpenSSHKey) { k.priv = otherSeed }, "seed does not derive the stored public key"},
		"truncated":       {func(k *sigOpenSSHKey) { k.section = []byte{0, 0, 0, 7, 0, 0, 0, 7} }, "truncated private section"},
	}
	for name, c := range broken {
		k := sigValidOpenSSHKey()
		c.edit(&k)
		_, err := ParsePrivateKey(k.encode())
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
	}

	valid := string(sigFixture(t, "id_ed25519"))
	seed := sigTestKey().Seed()
	for name, c := range map[string]struct{ in, want string }{
		"encrypted by ssh-keygen": {string(sigFixture(t, "encrypted_ed25519")), "encrypted private keys are not supported; "},
		"empty":                   {"", "not an OpenSSH private key nor a 32-byte seed"},
		"junk":                    {"hello", "not an OpenSSH private key nor a 32-byte seed"},
		"63 hex digits":           {hex.EncodeToString(seed)[:63], "not an OpenSSH private key nor a 32-byte seed"},
		"64 non-hex":              {strings.Repeat("g", 64), "64-character seed is not hexadecimal"},
		"base64 of 31 bytes":      {base64.StdEncoding.EncodeToString(seed[:31]), "44-character seed is not base64 of 32 bytes"},
		"44 non-base64":           {strings.Repeat("*", 44), "44-character seed is not base64 of 32 bytes"},
		"rsa block":               {strings.ReplaceAll(valid, "OPENSSH", "RSA"), "want a -----BEGIN OPENSSH PRIVATE KEY----- block"},
		"headers":                 {strings.Replace(valid, "-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n", 1), "block has headers"},
		"data after":              {valid + "more", "data after the OPENSSH PRIVATE KEY block"},
		"data before":             {"x" + valid, "not an OpenSSH private key nor a 32-byte seed"},
		"no end line":             {strings.Split(valid, "-----END")[0], "malformed OPENSSH PRIVATE KEY block"},
		"too large":               {valid + strings.Repeat("\n", maxPrivateKeyBytes), "larger than 16384 bytes"},
	} {
		_, err := ParsePrivateKey([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
		if strings.Contains(err.Error(), hex.EncodeToString(seed)[:8]) {
			t.Errorf("%s: error quotes the key: %q", name, err)
		}
	}
}

func TestSSHKeygenReadsOurPrivateKey(t *testing.T) {
	sshKeygen := sigTool(t, "ssh-keygen")
	priv := sigNewKey(t)
	key := sigWrite(t, t.TempDir(), "key", MarshalPrivateKey(priv, "ci@example"), 0o600)
	out, err := sigRun("", nil, sshKeygen, "-y", "-f", key)
	if err != nil {
		t.Fatalf("ssh-keygen -y: %v\n%s", err, out)
	}
	want, err := MarshalAuthorizedKey(priv.Public().(ed25519.PublicKey), "ci@example")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != want {
		t.Fatalf("ssh-keygen -y printed %q, want %q", out, want)
	}
}

func TestParsePrivateKeyFromSSHKeygen(t *testing.T) {
	sshKeygen := sigTool(t, "ssh-keygen")
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	if out, err := sigRun("", nil, sshKeygen, "-q", "-t", "ed25519", "-N", "", "-C", "fresh", "-f", key); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	b, err := os.ReadFile(key)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	pubLine, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	pub, _, err := ParseAuthorizedKey(pubLine)
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) {
		t.Fatal("the private key does not match ssh-keygen's .pub")
	}

	// The same key with a passphrase is refused.
	if out, err := sigRun("", nil, sshKeygen, "-q", "-p", "-P", "", "-N", "secret", "-f", key); err != nil {
		t.Fatalf("ssh-keygen -p: %v\n%s", err, out)
	}
	if b, err = os.ReadFile(key); err != nil {
		t.Fatal(err)
	}
	_, err = ParsePrivateKey(b)
	sigWantErr(t, err, "encrypted private keys are not supported")
}

func TestAuthorizedKey(t *testing.T) {
	priv := sigNewKey(t)
	pub := priv.Public().(ed25519.PublicKey)
	for _, comment := range []string{"", "release@example", "two words\tand a tab"} {
		line, err := MarshalAuthorizedKey(pub, comment)
		if err != nil {
			t.Fatal(err)
		}
		got, gotComment, err := ParseAuthorizedKey([]byte(line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(pub) || gotComment != comment {
			t.Fatalf("round trip of %q gave comment %q", line, gotComment)
		}
	}
	_, err := MarshalAuthorizedKey(pub, "a\nssh-ed25519 AAAA… attacker")
	sigWantErr(t, err, "control character at byte 1")

	b64 := func(blob []byte) string { return base64.StdEncoding.EncodeToString(blob) }
	good, _ := MarshalAuthorizedKey(pub, "c")
	for name, c := range map[string]struct{ in, want string }{
		"rsa":            {"ssh-rsa " + b64(sshAppendString(sshAppendString(nil, []byte("ssh-rsa")), []byte{1, 0, 1})), `key type "ssh-rsa" is not supported`},
		"options":        {`from="10.0.0.1" ` + good, `key type "from=\"10.0.0.1\"" is not supported`},
		"two lines":      {good + "\n" + good, "more than one line"},
		"not base64":     {"ssh-ed25519 AAAA!!!!", "key is not base64"},
		"no key":         {"ssh-ed25519", "truncated key"},
		"blob type":      {"ssh-ed25519 " + b64(sshAppendString(sshAppendString(nil, []byte("ssh-rsa")), pub)), `key type "ssh-rsa" is not supported`},
		"short key":      {"ssh-ed25519 " + b64(sshAppendString(sshAppendString(nil, []byte(sshKeyType)), pub[:31])), "31-byte key, want 32"},
		"trailing bytes": {"ssh-ed25519 " + b64(append(sshPublicKeyBlob(pub), 0)), "1 bytes after the key"},
		"truncated":      {"ssh-ed25519 " + b64(sshPublicKeyBlob(pub)[:20]), "truncated key"},
	} {
		_, _, err := ParseAuthorizedKey([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
	}
}

func TestSSHFingerprintMatchesSSHKeygen(t *testing.T) {
	sshKeygen := sigTool(t, "ssh-keygen")
	pub := sigTestKey().Public().(ed25519.PublicKey)
	out, err := sigRun("", nil, sshKeygen, "-l", "-f", filepath.Join("testdata", "sign", "id_ed25519.pub"))
	if err != nil {
		t.Fatalf("ssh-keygen -l: %v\n%s", err, out)
	}
	if fp := SSHFingerprint(pub); !strings.Contains(out, " "+fp+" ") {
		t.Fatalf("ssh-keygen -l printed %q, want fingerprint %s", out, fp)
	}
}

func TestMarshalAllowedSignerRefusals(t *testing.T) {
	pub := sigTestKey().Public().(ed25519.PublicKey)
	for _, p := range []string{"", "#x", "a b", "a\tb", `a"b`, "a\nb"} {
		_, err := MarshalAllowedSigner(p, pub)
		sigWantErr(t, err, "allowed signer principal")
	}
}

func TestMinisignPublicKey(t *testing.T) {
	pub := sigTestKey().Public().(ed25519.PublicKey)
	sum := sha256.Sum256(pub)
	id := MinisignKeyID(pub)
	if !bytes.Equal(id[:], sum[:8]) {
		t.Fatalf("MinisignKeyID = %x, want the first 8 bytes of SHA-256(pub) %x", id, sum[:8])
	}
	s := MarshalMinisignPublicKey(pub)
	if !strings.HasPrefix(s, "RW") || len(s) != 56 {
		t.Fatalf("MarshalMinisignPublicKey = %q, want 56 characters starting RW", s)
	}
	for _, in := range []string{s, s + "\n", string(MarshalMinisignPublicKeyFile(pub))} {
		got, gotID, err := ParseMinisignPublicKey([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(pub) || gotID != id {
			t.Fatalf("parse %q: wrong key or ID", in)
		}
	}
	// minisign prints the ID of the key it made as B227B7CA37CE5F0C.
	_, toolID, err := ParseMinisignPublicKey(sigFixture(t, "minisign-tool.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if got := minisignIDString(toolID); got != "B227B7CA37CE5F0C" {
		t.Fatalf("minisign-tool.pub key ID %s, want B227B7CA37CE5F0C", got)
	}

	raw, _ := base64.StdEncoding.DecodeString(s)
	enc := base64.StdEncoding.EncodeToString
	for name, c := range map[string]struct{ in, want string }{
		"three lines":    {"untrusted comment: x\n" + s + "\n" + s, "want an \"untrusted comment: \" line and the key"},
		"comment prefix": {"comment: x\n" + s, "want an \"untrusted comment: \" line and the key"},
		"prehashed alg":  {enc(append([]byte("ED"), raw[2:]...)), `algorithm "ED" is not supported`},
		"short":          {enc(raw[:41]), "41 bytes, want 42"},
		"not base64":     {"RW" + strings.Repeat("!", 54), "illegal base64"},
		"empty":          {"", "0 bytes, want 42"},
	} {
		_, _, err := ParseMinisignPublicKey([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
	}
}

func TestParseTrust(t *testing.T) {
	a := sigTestKey().Public().(ed25519.PublicKey)
	b := sigNewKey(t).Public().(ed25519.PublicKey)
	akA, _ := MarshalAuthorizedKey(a, "")
	akB, _ := MarshalAuthorizedKey(b, "bob's laptop")

	file := "# release keys\n\n" +
		"release@example namespaces=\"skills-bundle-v1\" " + akA + "\n" +
		"  \"alice@example,bob@example\" " + akB + " a comment\r\n" +
		"carol@example frobnicate=\"x\" " + akA + "\n"
	_, err := ParseTrust([]byte(file))
	sigWantErr(t, err, `line 5: unknown option "frobnicate=\"x\""`)

	file = file[:strings.LastIndex(file, "carol")] +
		"dave@example namespaces=\"git,file\" " + akB + "\n" +
		akB + "\n"
	keys, err := ParseTrust([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := []TrustedKey{
		{Principal: "release@example", Key: a, Namespaces: []string{"skills-bundle-v1"}},
		{Principal: "alice@example,bob@example", Key: b},
		{Principal: "dave@example", Key: b, Namespaces: []string{"git", "file"}},
		{Principal: "bob's laptop", Key: b},
	}
	if len(keys) != len(want) {
		t.Fatalf("got %d keys, want %d: %+v", len(keys), len(want), keys)
	}
	for i := range want {
		g, w := keys[i], want[i]
		if g.Principal != w.Principal || !g.Key.Equal(w.Key) || strings.Join(g.Namespaces, ",") != strings.Join(w.Namespaces, ",") || g.KeyID != ([8]byte{}) {
			t.Errorf("key %d = %+v, want %+v", i, g, w)
		}
	}

	for name, in := range map[string]string{
		"allowed_signers fixture": string(sigFixture(t, "allowed_signers")),
		"authorized key fixture":  string(sigFixture(t, "id_ed25519.pub")),
		"minisign file":           string(sigFixture(t, "minisign.pub")),
		"minisign string":         MarshalMinisignPublicKey(a) + "\n",
	} {
		keys, err := ParseTrust([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(keys) != 1 || !keys[0].Key.Equal(a) {
			t.Errorf("%s: got %+v", name, keys)
		}
	}
	keys, err = ParseTrust(sigFixture(t, "minisign-tool.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if k := keys[0]; k.Principal != "minisign key B227B7CA37CE5F0C" || minisignIDString(k.KeyID) != "B227B7CA37CE5F0C" {
		t.Fatalf("minisign-tool.pub: %+v", k)
	}
}

func TestParseTrustRefusals(t *testing.T) {
	pub := sigTestKey().Public().(ed25519.PublicKey)
	ak, _ := MarshalAuthorizedKey(pub, "")
	rsa := "ssh-rsa " + base64.StdEncoding.EncodeToString(sshAppendString(sshAppendString(nil, []byte("ssh-rsa")), []byte{1, 0, 1}))
	for name, c := range map[string]struct{ in, want string }{
		"empty":               {"", "no keys found"},
		"only comments":       {"# nothing\n\n# here\n", "no keys found"},
		"rsa key":             {"x@example " + rsa, `line 1: key type "ssh-rsa" is not supported`},
		"bare rsa key":        {ak + "\n" + rsa, `line 2: key type "ssh-rsa" is not supported`},
		"ecdsa key":           {"x@example ecdsa-sha2-nistp256 AAAA", `key type "ecdsa-sha2-nistp256" is not supported`},
		"cert-authority":      {"x@example cert-authority " + ak, "option cert-authority is not supported"},
		"cert-authority list": {`x@example cert-authority,namespaces="a" ` + ak, "option cert-authority is not supported"},
		"valid-before":        {`x@example valid-before="20300101" ` + ak, "option valid-before is not supported"},
		"valid-after":         {`x@example namespaces="skills-bundle-v1",valid-after="20200101" ` + ak, "option valid-after is not supported"},
		"unknown option":      {`x@example foo="bar" ` + ak, `unknown option "foo=\"bar\""`},
		"namespaces twice":    {`x@example namespaces="a",namespaces="b" ` + ak, "option namespaces given twice"},
		"unquoted namespaces": {`x@example namespaces=a ` + ak, `want namespaces="name,…"`},
		"empty namespace":     {`x@example namespaces="a,,b" ` + ak, `"" is not a plain namespace name`},
		"wildcard namespace":  {`x@example namespaces="skills-*" ` + ak, `"skills-*" is not a plain namespace name (patterns are not supported)`},
		"negated namespace":   {`x@example namespaces="!git" ` + ak, `"!git" is not a plain namespace name`},
		"unterminated quote":  {`"x@example ` + ak, "principals: unterminated double quote"},
		"empty principal":     {`"" ` + ak, "empty principals"},
		"no key":              {"x@example", "illegal base64"},
		"missing key":         {"x@example ssh-ed25519", "truncated key"},
		"bad minisign file":   {"untrusted comment: x\nRWQ", "minisign public key"},
		"too large":           {ak + strings.Repeat("\n", maxTrustBytes), "larger than 1048576 bytes"},
	} {
		_, err := ParseTrust([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", name, err, c.want)
		}
	}
}

func FuzzParsePrivateKey(f *testing.F) {
	for _, name := range []string{"id_ed25519", "ssh-keygen_ed25519", "encrypted_ed25519"} {
		f.Add(sigFixture(f, name))
	}
	f.Add(sigValidOpenSSHKey().encode())
	f.Add([]byte(hex.EncodeToString(sigTestKey().Seed())))
	f.Add([]byte(base64.StdEncoding.EncodeToString(sigTestKey().Seed())))
	f.Fuzz(func(t *testing.T, b []byte) {
		priv, err := ParsePrivateKey(b)
		if err != nil {
			return
		}
		if !priv.Equal(ed25519.NewKeyFromSeed(priv.Seed())) {
			t.Fatal("accepted a key whose halves disagree")
		}
		again, err := ParsePrivateKey(MarshalPrivateKey(priv, "x"))
		if err != nil || !again.Equal(priv) {
			t.Fatalf("re-marshalled key does not parse back: %v", err)
		}
	})
}

func FuzzParseTrust(f *testing.F) {
	for _, name := range []string{"allowed_signers", "id_ed25519.pub", "minisign.pub", "minisign-tool.pub", "ssh-keygen_ed25519.pub"} {
		f.Add(sigFixture(f, name))
	}
	f.Add([]byte(`"a b",c namespaces="skills-bundle-v1,git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJnjOzdCWu3mVFPa4Zy6uVGMIWJTh+rG4hKxlkQdFgP+ x`))
	f.Add([]byte("# c\n\nx cert-authority ssh-ed25519 AAAA\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		keys, err := ParseTrust(b)
		if err != nil {
			return
		}
		if len(keys) == 0 {
			t.Fatal("no keys and no error")
		}
		for _, k := range keys {
			if len(k.Key) != ed25519.PublicKeySize {
				t.Fatalf("%d-byte key accepted", len(k.Key))
			}
			for _, ns := range k.Namespaces {
				if ns == "" || strings.ContainsAny(ns, `*?!",`) {
					t.Fatalf("namespace %q accepted", ns)
				}
			}
		}
	})
}
