package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/skills-mcp/skills-mcp/cosign"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// CosignKeyFlag is --cosign-key for the commands that push.
type CosignKeyFlag struct {
	CosignKey string `name:"cosign-key" placeholder:"KEY" help:"With oci://...: also sign the artifact in cosign's formats with this cosign private key (cosign generate-key-pair; password from COSIGN_PASSWORD): the simple-signing payload at the sha256-<hex>.sig tag and a Sigstore bundle referrer, with no transparency log."`
}

// signer loads the cosign key, nil without --cosign-key.
func (f *CosignKeyFlag) signer() (oci.CosignSigner, error) {
	if f.CosignKey == "" {
		return nil, nil
	}
	k, err := cosign.LoadPrivateKey(f.CosignKey, []byte(os.Getenv(cosign.EnvPassword)))
	if err != nil {
		return nil, &exitError{exitUsage, err}
	}
	s, err := cosign.NewSigner(k)
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("%s: %w", f.CosignKey, err)}
	}
	return s, nil
}

// KeylessFlags say which keyless (Sigstore) signers --trust-less commands
// accept: a trusted root and the signer's identity, as cosign names them.
type KeylessFlags struct {
	TrustedRoot    string `name:"trusted-root" placeholder:"FILE" help:"Accept keyless Sigstore signatures on oci:// artifacts that this trusted root (trusted_root.json) vouches for, offline, by the identity --certificate-identity and --certificate-oidc-issuer (or their -regexp forms) name."`
	Identity       string `name:"certificate-identity" placeholder:"SAN" help:"With --trusted-root: the signer's identity (the certificate's SAN: an e-mail or a workflow URI)."`
	IdentityRegexp string `name:"certificate-identity-regexp" placeholder:"RE" help:"With --trusted-root: a regular expression the signer's identity must match."`
	Issuer         string `name:"certificate-oidc-issuer" placeholder:"URL" help:"With --trusted-root: the OIDC issuer that vouched for the signer."`
	IssuerRegexp   string `name:"certificate-oidc-issuer-regexp" placeholder:"RE" help:"With --trusted-root: a regular expression the OIDC issuer must match."`
}

// trustSpec is what --trust and the keyless flags say: skills-mcp's keys
// (keys, not nil when any trust is asked for, so that nil still means "no
// trust" downstream), and a verifier of Sigstore signatures.
type trustSpec struct {
	keys   []manifest.TrustedKey
	cosign oci.CosignVerifier
}

// loadTrustSpec reads --trust (an allowed_signers file, ssh-ed25519 lines,
// a minisign key, or a PEM public key file such as cosign.pub) and the
// keyless flags. Nothing asked for gives the zero trustSpec.
func loadTrustSpec(arg string, kf *KeylessFlags) (trustSpec, error) {
	var t trustSpec
	if arg != "" {
		data, err := os.ReadFile(arg)
		if err == nil && cosign.IsPublicKeyFile(data) {
			keys, err := cosign.ParsePublicKeys(arg, data)
			if err != nil {
				return t, &exitError{exitUsage, fmt.Errorf("trust file: %w", err)}
			}
			v, err := cosign.NewKeyVerifier(keys)
			if err != nil {
				return t, &exitError{exitUsage, fmt.Errorf("trust file %s: %w", arg, err)}
			}
			t.keys, t.cosign = []manifest.TrustedKey{}, v
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return t, &exitError{exitUsage, fmt.Errorf("trust file: %w", err)}
		} else if t.keys, err = loadTrust(arg); err != nil {
			return t, err
		}
	}
	if kf != nil && kf.TrustedRoot != "" {
		if t.cosign != nil {
			return t, &exitError{exitUsage, errors.New("--trusted-root and a cosign public key in --trust: give one")}
		}
		data, err := os.ReadFile(kf.TrustedRoot)
		if err != nil {
			return t, &exitError{exitUsage, fmt.Errorf("trusted root: %w", err)}
		}
		v, err := cosign.NewKeylessVerifier(data, cosign.Identity{Subject: kf.Identity, SubjectRegexp: kf.IdentityRegexp, Issuer: kf.Issuer, IssuerRegexp: kf.IssuerRegexp})
		if err != nil {
			return t, &exitError{exitUsage, fmt.Errorf("%s: %w", kf.TrustedRoot, err)}
		}
		if t.keys == nil {
			t.keys = []manifest.TrustedKey{}
		}
		t.cosign = v
	} else if kf != nil && (kf.Identity != "" || kf.IdentityRegexp != "" || kf.Issuer != "" || kf.IssuerRegexp != "") {
		return t, &exitError{exitUsage, errors.New("--certificate-identity and --certificate-oidc-issuer need --trusted-root")}
	}
	return t, nil
}

// checkCosign checks the Sigstore signatures a bundle carries (kept by a
// fetch from a registry) against v: over digest d when the bundle came
// from oci://…@d, otherwise over the digest of the artifact the bundle
// makes (push makes the same artifact of the same bundle).
func checkCosign(b *manifest.Bundle, v oci.CosignVerifier, d, requireAttestation string) (string, *oci.Attestation, error) {
	cos, err := oci.CosignSignatures(b.Signatures())
	if err != nil {
		return "", nil, &exitError{exitUntrusted, fmt.Errorf("untrusted: %w", err)}
	}
	if len(cos) == 0 {
		return "", nil, &exitError{exitUnsigned, errors.New("unsigned: the bundle carries no cosign signature (fetch it from its registry, where cosign signed it)")}
	}
	if d == "" {
		if d, err = oci.ArtifactDigest(b); err != nil {
			return "", nil, err
		}
		if err := signsAnother(b, d, cos); err != nil {
			return "", nil, err
		}
	}
	who, err := v.VerifyCosign(d, cos)
	if err != nil {
		return "", nil, trustExit(err, exitUntrusted)
	}
	var att *oci.Attestation
	if requireAttestation != "" {
		if att, err = v.VerifyAttestation(d, cos, requireAttestation); err != nil {
			return "", nil, trustExit(err, exitUntrusted)
		}
	}
	return who, att, nil
}

// signsAnother refuses a bundle file whose cosign signatures all sign
// another artifact than the one it makes (d): the bundle a ToolHive skill
// was built into, whose signatures sign ToolHive's artifact, which the
// file does not hold. The error says where to get the artifact instead.
func signsAnother(b *manifest.Bundle, d string, cos []oci.CosignSignature) error {
	for _, c := range cos {
		if c.Digest == d {
			return nil
		}
	}
	other := cos[0].Digest
	from := "oci://HOST/REPO@" + other
	if m, err := b.Manifest(); err == nil && len(m.Libraries) == 1 {
		if r, err := oci.ParseRef(m.Libraries[0].Source); err == nil && r.Digest == other {
			from = r.String()
		}
	}
	return &exitError{exitUntrusted, fmt.Errorf("untrusted: the bundle's cosign signatures sign %s, not %s, the artifact this file makes (a ToolHive skill's bundle is built from an artifact it does not hold): use %s, which starts from the cache offline", other, d, from)}
}

// check checks b's signatures under t: Sigstore signatures with a cosign
// verifier (over the digest f was fetched by, or for a file the digest of
// the artifact it makes), skills-mcp's by the keys of arg otherwise.
func (t trustSpec) check(b *manifest.Bundle, arg string, f *oci.Fetched) (string, error) {
	if t.cosign == nil {
		return checkTrust(b, arg)
	}
	if f != nil && f.Signer != "" {
		return f.Signer, nil // the fetch checked it, just now or from the cache
	}
	who, _, err := checkCosign(b, t.cosign, "", "")
	return who, err
}

// checkAttestation requires the analysis attestation among b's Sigstore
// signatures (over the digest f names, or the artifact b makes).
func (t trustSpec) checkAttestation(b *manifest.Bundle, f *oci.Fetched) error {
	d := ""
	if f != nil {
		d = f.Ref.Digest
	}
	_, _, err := checkCosign(b, t.cosign, d, oci.AnalysisPredicateType)
	return err
}

// fetchTrusted is localBundle under spec: the file arg names, or the
// bundle fetched into the cache for an oci:// reference (f, nil for a
// file), its signatures checked under spec before any blob is fetched. A
// signature check that fails gets its exit status (trustExit).
func (r *RegistryFlags) fetchTrusted(ctx context.Context, arg, cache string, spec trustSpec, logf func(string, ...any)) (path string, f *oci.Fetched, err error) {
	r.cosign = spec.cosign
	if f, err = r.fetch(ctx, arg, cache, spec.keys, logf); err != nil {
		return "", nil, trustExit(err, exitFailed)
	}
	if f != nil {
		return f.Path, f, nil
	}
	return arg, nil, nil
}
