package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// KeygenCmd is `skills-mcp keygen`.
type KeygenCmd struct {
	Output    string `short:"o" name:"output" required:"" placeholder:"KEY" help:"Private key file to write (mode 0600); KEY.pub, KEY.allowed_signers and KEY.minisign.pub are written next to it."`
	Principal string `default:"skills-mcp" help:"Identity of the key in KEY.allowed_signers (ssh-keygen -Y verify -I PRINCIPAL), typically an e-mail address."`
	Force     bool   `help:"Overwrite existing key files."`
}

// Run writes a new Ed25519 key pair in OpenSSH and minisign forms.
func (c *KeygenCmd) Run() error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("keygen: %w", err)
	}
	allowed, err := manifest.MarshalAllowedSigner(c.Principal, pub)
	if err != nil {
		return fmt.Errorf("keygen: --principal: %w", err)
	}
	authorized, err := manifest.MarshalAuthorizedKey(pub, c.Principal)
	if err != nil {
		return fmt.Errorf("keygen: --principal: %w", err)
	}
	files := []struct {
		path string
		perm os.FileMode
		data []byte
	}{
		{c.Output, 0o600, manifest.MarshalPrivateKey(priv, c.Principal)},
		{c.Output + ".pub", 0o644, []byte(authorized + "\n")},
		{c.Output + ".allowed_signers", 0o644, []byte(allowed + "\n")},
		{c.Output + ".minisign.pub", 0o644, manifest.MarshalMinisignPublicKeyFile(pub)},
	}
	if !c.Force {
		for _, f := range files {
			if _, err := os.Lstat(f.path); err == nil {
				return fmt.Errorf("keygen: %s exists; refusing to overwrite it (use --force)", f.path)
			}
		}
	}
	for _, f := range files {
		if err := manifest.WriteFileAtomic(f.path, f.perm, func(w io.Writer) error { _, err := w.Write(f.data); return err }); err != nil {
			return fmt.Errorf("keygen: %w", err)
		}
	}
	fmt.Printf("wrote %s (private: keep it secret), %s.pub, %s.allowed_signers, %s.minisign.pub\n", c.Output, c.Output, c.Output, c.Output)
	fmt.Printf("fingerprint  %s\n", manifest.SSHFingerprint(pub))
	fmt.Printf("minisign     %s\n", manifest.MarshalMinisignPublicKey(pub))
	return nil
}

// loadKey reads a private key: an OpenSSH ed25519 key file, or a file holding
// a 32-byte seed in hex or base64; "-" reads it from standard input.
func loadKey(path string) (ed25519.PrivateKey, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(os.Stdin, 64<<10))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("signing key: %w", err)}
	}
	key, err := manifest.ParsePrivateKey(data)
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("signing key %s: %w", path, err)}
	}
	return key, nil
}

// signManifest signs b's manifest bytes msg with key, as SSHSIG and as
// minisign. Both are deterministic: the same key and bundle always give the
// same bytes.
func signManifest(key ed25519.PrivateKey, b *manifest.Bundle, msg []byte) ([]manifest.Signature, error) {
	mini, err := manifest.SignMinisign(key, msg, "skills bundle "+b.ID().String())
	if err != nil {
		return nil, err
	}
	return []manifest.Signature{
		{Kind: manifest.SignatureSSH, Data: manifest.SignSSH(key, msg)},
		{Kind: manifest.SignatureMinisign, Data: mini},
	}, nil
}

// addSignatures returns b's signatures with those by key's public key
// replaced by fresh ones; signatures by other keys are kept, in order.
func addSignatures(b *manifest.Bundle, key ed25519.PrivateKey) ([]manifest.Signature, error) {
	msg, err := b.ManifestBytes()
	if err != nil {
		return nil, err
	}
	fresh, err := signManifest(key, b, msg)
	if err != nil {
		return nil, err
	}
	own := []manifest.TrustedKey{{Key: key.Public().(ed25519.PublicKey)}}
	var out []manifest.Signature
	for _, s := range b.Signatures() {
		if _, err := manifest.VerifySignatures(msg, []manifest.Signature{s}, own); err == nil {
			continue // by this key: replaced below
		}
		out = append(out, s)
	}
	return append(out, fresh...), nil
}

// buildSigned builds into a temporary file, then copies the bundle to w with
// key's signatures over its manifest.
func buildSigned(opt build.Options, key ed25519.PrivateKey, w io.Writer) (*build.Result, error) {
	tmp, err := os.CreateTemp("", "skills-mcp-unsigned-*.skb")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	res, err := build.Build(opt, tmp)
	if err != nil {
		return nil, err
	}
	fi, err := tmp.Stat()
	if err != nil {
		return nil, err
	}
	b, err := manifest.Open(tmp, fi.Size())
	if err != nil {
		return nil, err
	}
	msg, err := b.ManifestBytes()
	if err != nil {
		return nil, err
	}
	sigs, err := signManifest(key, b, msg)
	if err != nil {
		return nil, err
	}
	return res, b.WriteSigned(w, sigs)
}

// SignCmd is `skills-mcp sign`.
type SignCmd struct {
	Bundle string `arg:"" placeholder:"BUNDLE.skb" help:"The bundle to sign."`
	Key    string `required:"" placeholder:"KEY" help:"Private key: an OpenSSH ed25519 key file (skills-mcp keygen, or ssh-keygen -t ed25519 -N \"\"), or a file with a 32-byte seed in hex or base64; - reads standard input."`
	Output string `short:"o" name:"output" placeholder:"OUT.skb" help:"Write the signed bundle here instead of replacing BUNDLE (atomically either way)."`
}

// Run verifies the bundle, then adds (or renews) the key's signatures. The
// manifest, and so the bundle id, does not change.
func (c *SignCmd) Run() error {
	key, err := loadKey(c.Key)
	if err != nil {
		return err
	}
	b, err := openBundle(c.Bundle)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := b.Verify(); err != nil {
		return fmt.Errorf("sign: %s: refusing to sign a tampered or corrupt bundle: %w", c.Bundle, err)
	}
	sigs, err := addSignatures(b, key)
	if err != nil {
		return fmt.Errorf("sign: %w", err)
	}
	out := c.Output
	if out == "" {
		out = c.Bundle
	}
	if err := manifest.WriteFileAtomic(out, 0o644, func(w io.Writer) error { return b.WriteSigned(w, sigs) }); err != nil {
		return fmt.Errorf("sign: %w", err)
	}
	fmt.Printf("signed %s: %s by %s, %d signature(s)\n", out, b.ID(), manifest.SSHFingerprint(key.Public().(ed25519.PublicKey)), len(sigs))
	return nil
}

// ExportCmd is `skills-mcp export`.
type ExportCmd struct {
	Bundle       string        `arg:"" placeholder:"BUNDLE.skb|oci://..." help:"The bundle to export: a file, or oci://HOST/REPO:TAG or @sha256:... (fetched into the cache)."`
	To           string        `placeholder:"DIR" xor:"dest" required:"" help:"Folder to write manifest.json, its signatures, blobs/sha256/<hex> and SHA256SUMS into (created if missing)."`
	WellKnown    string        `name:"well-known" placeholder:"DIR" xor:"dest" required:"" help:"Write an Agent Skills discovery site: DIR/.well-known/agent-skills/index.json and one artifact per skill (and, for a signed bundle, its manifest and signatures)."`
	ShowDisabled bool          `name:"show-disabled" help:"With --well-known: list hidden (disable-model-invocation) skills too."`
	Registry     RegistryFlags `embed:""`
	Cache        CacheFlag     `embed:""`
}

// Run verifies the bundle and writes it out as plain files that stock tools
// check: ssh-keygen -Y verify, minisign -V and sha256sum -c.
func (c *ExportCmd) Run(ctx context.Context) error {
	path, err := c.Registry.localBundle(ctx, c.Bundle, c.Cache.CacheDir, nil, stderrNote)
	if err != nil {
		return err
	}
	b, err := openBundle(path)
	if err != nil {
		return err
	}
	defer b.Close()
	if err := b.Verify(); err != nil {
		return fmt.Errorf("export: %s: refusing to export a tampered or corrupt bundle: %w", c.Bundle, err)
	}
	if c.WellKnown != "" {
		return exportWellKnown(b, c.Bundle, c.WellKnown, c.ShowDisabled)
	}
	m, err := b.Manifest()
	if err != nil {
		return err
	}
	blobDir := filepath.Join(c.To, filepath.FromSlash(pull.ExportBlobs))
	if err := os.MkdirAll(blobDir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var digests []manifest.Digest
	for i := range m.Skills {
		for _, r := range m.Skills[i].Entry.Resources {
			digests = append(digests, r.Digest)
		}
	}
	slices.SortFunc(digests, func(a, b manifest.Digest) int { return bytes.Compare(a[:], b[:]) })
	digests = slices.Compact(digests)
	var sums strings.Builder
	for _, d := range digests {
		r, err := b.BlobReader(d)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := writeFile(filepath.Join(blobDir, d.Hex()), func(w io.Writer) error { _, err := io.Copy(w, r); return err }); err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%s  %s/%s\n", d.Hex(), pull.ExportBlobs, d.Hex())
	}
	if err := writeBytes(filepath.Join(c.To, pull.ExportSums), []byte(sums.String())); err != nil {
		return err
	}
	msg, err := b.ManifestBytes()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := writeBytes(filepath.Join(c.To, pull.ExportManifest), msg); err != nil {
		return err
	}
	sigs := b.Signatures()
	names := pull.ExportSignatureFiles(sigs)
	for i, s := range sigs {
		if err := writeBytes(filepath.Join(c.To, names[i]), s.Data); err != nil {
			return err
		}
	}
	// Signature files of an earlier export that this bundle lacks would
	// otherwise sit next to a manifest they do not sign.
	old, _ := filepath.Glob(filepath.Join(c.To, pull.ExportManifest+".*sig*"))
	for _, p := range old {
		if !slices.Contains(names, filepath.Base(p)) {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("export: %w", err)
			}
		}
	}
	fmt.Printf("exported %s to %s: %s, %d blobs, %d signature(s)\n", c.Bundle, c.To, b.ID(), len(digests), len(sigs))
	if len(sigs) == 0 {
		fmt.Fprintf(stderr, "skills-mcp: warning: %s is not signed; sign it with skills-mcp sign --key KEY before exporting for others\n", c.Bundle)
	}
	return nil
}

// loadTrust reads a trust file: an OpenSSH allowed_signers file, ssh-ed25519
// public key lines, or a minisign public key. arg may also be the bare
// minisign public key string ("RW…") itself, which is how minisign users
// pass keys around; a file of that name, if one exists, wins.
func loadTrust(arg string) ([]manifest.TrustedKey, error) {
	path := arg
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, _, kerr := manifest.ParseMinisignPublicKey([]byte(arg)); kerr == nil {
			data, err = []byte(arg), nil
			path = "(minisign key " + arg + ")"
		}
	}
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("trust file: %w", err)}
	}
	keys, err := manifest.ParseTrust(data)
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("trust file %s: %w", path, err)}
	}
	return keys, nil
}

// checkTrust checks that b carries a valid signature over its manifest by a
// key in trustFile (see loadTrust) and names the signer. It does not re-hash
// the blobs: call b.Verify for that. Its errors are *exitError with
// exitUsage (unreadable trust file), exitUnsigned (no signature at all) or
// exitUntrusted (signatures, but none valid by a trusted key).
func checkTrust(b *manifest.Bundle, trustFile string) (who string, err error) {
	keys, err := loadTrust(trustFile)
	if err != nil {
		return "", err
	}
	msg, err := b.ManifestBytes()
	if err != nil {
		return "", err
	}
	k, err := manifest.VerifySignatures(msg, b.Signatures(), keys)
	switch {
	case errors.Is(err, manifest.ErrUnsigned):
		return "", &exitError{exitUnsigned, fmt.Errorf("unsigned: the bundle carries no signature (sign it with skills-mcp sign --key KEY)")}
	case err != nil:
		return "", &exitError{exitUntrusted, fmt.Errorf("untrusted: %w", err)}
	}
	return manifest.Signer(k), nil
}
