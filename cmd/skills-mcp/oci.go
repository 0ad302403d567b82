package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// RegistryFlags say how to reach OCI registries, for every command that
// takes an oci:// reference.
type RegistryFlags struct {
	PlainHTTP bool     `name:"plain-http" env:"SKILLS_REGISTRY_PLAIN_HTTP" help:"Talk plain http to the registry: only for a loopback registry, or one named in --insecure-registry."`
	Insecure  []string `name:"insecure-registry" env:"SKILLS_INSECURE_REGISTRIES" sep:"," placeholder:"HOST[:PORT]" help:"A registry that --plain-http may reach although it is not on loopback (repeatable)."`

	// maxBytes caps a fetched bundle: the command's --max-download-bytes
	// where it has one; 0 means oci.DefaultMaxBytes. archive and
	// maxFileBytes bound a ToolHive skill's layer as the command's library
	// flags bound an archive library, where it has them (withLibrary);
	// zero means build's defaults, which are those flags' defaults.
	maxBytes     int64
	archive      build.ArchiveLimits
	maxFileBytes int64
	// cosign checks Sigstore signatures under trust (--trust cosign.pub,
	// --trusted-root); attestation names an attestation's predicate type
	// a fetch requires too.
	cosign      oci.CosignVerifier
	attestation string
}

// CacheFlag is --cache-dir for commands without library flags (which have
// their own).
type CacheFlag struct {
	CacheDir string `name:"cache-dir" env:"SKILLS_CACHE_DIR" placeholder:"DIR" help:"Where bundles fetched from registries are cached by digest (default: the user cache folder)."`
}

// cacheDir returns dir, or skills-mcp's folder in the user cache folder.
func cacheDir(dir string) string {
	if dir != "" {
		return dir
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "skills-mcp")
	}
	return filepath.Join(os.TempDir(), "skills-mcp-cache")
}

// options returns the registry options of the flags; notes go to logf.
func (r *RegistryFlags) options(cache string, trusted []manifest.TrustedKey, logf func(string, ...any)) oci.Options {
	return oci.Options{CacheDir: cacheDir(cache), PlainHTTP: r.PlainHTTP, Insecure: r.Insecure, Trusted: trusted, MaxBytes: r.maxBytes, Logf: logf, Client: outbound,
		Cosign: r.cosign, RequireAttestation: r.attestation, Archive: r.archive, MaxFileBytes: r.maxFileBytes}
}

// withLibrary takes the download and archive limits of the library flags
// f: a fetched artifact is bounded as an https or archive library is.
func (r *RegistryFlags) withLibrary(f *LibraryFlags) *RegistryFlags {
	return r.bounded(f.MaxDownload, &f.ArchiveFlags)
}

// bounded sets the limits of a fetch: maxDownload (--max-download-bytes)
// for what is fetched, and a's for a ToolHive skill's layer
// (--max-archive-entries, --max-archive-bytes, --max-file-bytes).
func (r *RegistryFlags) bounded(maxDownload int64, a *ArchiveFlags) *RegistryFlags {
	r.maxBytes = maxDownload
	r.archive = build.ArchiveLimits{MaxEntries: a.MaxArchiveFiles, MaxTotalBytes: a.MaxArchiveBytes}
	r.maxFileBytes = a.MaxFileBytes
	return r
}

// localBundle returns the bundle file arg names: arg itself, or for an
// oci:// reference the bundle fetched into the cache (see oci.Fetch). With
// trusted keys, a fetch refuses an artifact without a valid signature by one
// of them before it fetches any blob: the error wraps manifest.ErrUnsigned,
// ErrUntrusted or ErrBadSignature (see trustExit).
func (r *RegistryFlags) localBundle(ctx context.Context, arg, cache string, trusted []manifest.TrustedKey, logf func(string, ...any)) (string, error) {
	f, err := r.fetch(ctx, arg, cache, trusted, logf)
	if err != nil || f == nil {
		return arg, err
	}
	return f.Path, nil
}

// fetch is localBundle's fetch: nil for a file.
func (r *RegistryFlags) fetch(ctx context.Context, arg, cache string, trusted []manifest.TrustedKey, logf func(string, ...any)) (*oci.Fetched, error) {
	if !oci.IsRef(arg) {
		return nil, nil
	}
	o := r.options(cache, trusted, logf)
	o.Progress = progressOf("fetching", "layers")
	return oci.Fetch(ctx, arg, o)
}

// PushCmd is `skills-mcp push`.
type PushCmd struct {
	Bundle    string        `arg:"" placeholder:"BUNDLE.skb" help:"The bundle to push."`
	Ref       string        `arg:"" placeholder:"oci://HOST[:PORT]/REPO[:TAG]" help:"Where to push it."`
	Tags      []string      `name:"tag" placeholder:"TAG" help:"Also tag the artifact with TAG (repeatable)."`
	MountFrom string        `name:"mount-from" placeholder:"REPO" help:"Ask the registry to take blobs from another of its repositories (a cross-repository mount) before sending them."`
	Cosign    CosignKeyFlag `embed:""`
	Registry  RegistryFlags `embed:""`
}

// Run pushes the bundle and prints the artifact's digest.
func (c *PushCmd) Run(ctx context.Context) error {
	signer, err := c.Cosign.signer()
	if err != nil {
		return err
	}
	b, err := manifest.OpenFile(c.Bundle)
	if err != nil {
		return err
	}
	defer b.Close()
	return pushBundle(ctx, b, c.Ref, c.Tags, c.MountFrom, &c.Registry, signer)
}

// pushBundle pushes b to ref (oci://…) with tags, prints the digest on
// stdout and a summary on stderr.
func pushBundle(ctx context.Context, b *manifest.Bundle, ref string, tags []string, mountFrom string, rf *RegistryFlags, signer oci.CosignSigner) error {
	r, err := oci.ParseRef(ref)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if err := b.Verify(); err != nil {
		return fmt.Errorf("push: refusing to push a tampered or corrupt bundle: %w", err)
	}
	o := rf.options("", nil, stderrNote)
	o.Progress = progressOf("pushing", "blobs")
	o.MountFrom = mountFrom
	if signer != nil {
		// The analysis attestation goes with the cosign signature.
		pred, err := analysisPredicate(b)
		if err != nil {
			return err
		}
		o.CosignSigner, o.AttestationType, o.Attestation = signer, oci.AnalysisPredicateType, pred
	}
	res, err := oci.Push(ctx, b, r, tags, o)
	if err != nil {
		return err
	}
	sig := "unsigned"
	if res.Signatures != "" {
		sig = "signatures attached as referrer " + res.Signatures
	}
	if len(res.Cosign) > 0 {
		sig += "; cosign signature at tag " + res.Cosign[0] + ", Sigstore bundle referrer " + res.Cosign[1] + ", analysis attestation " + strings.Join(res.Cosign[2:], ", ")
	}
	mounted := ""
	if res.Mounted > 0 {
		mounted = fmt.Sprintf("; %s (%s) mounted from %s", count(res.Mounted, "blob"), count(res.MountedBytes, "byte"), mountFrom)
	}
	stderrNote("pushed %s (bundle %s, %s): sent %s, %s; %s (%s) already there%s; %s",
		res.Ref, b.ID(), count(res.Layers, "layer"), count(res.Sent, "blob"), count(res.SentBytes, "byte"),
		count(res.Skipped, "blob"), count(res.SkippedBytes, "byte"), mounted, sig)
	fmt.Println(res.Digest)
	return nil
}

// buildToRegistry builds the bundle into a temporary file, then pushes it
// to ref.
func (c *BuildCmd) buildToRegistry(ctx context.Context, opt build.Options, key ed25519.PrivateKey) (*build.Result, error) {
	if _, err := oci.ParseRef(c.Output); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	signer, err := c.Cosign.signer()
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "skills-mcp-push-*.skb")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	var res *build.Result
	if key != nil {
		res, err = buildSigned(opt, key, tmp)
	} else {
		res, err = build.Build(opt, tmp)
	}
	if err != nil {
		return nil, err
	}
	if err := c.policy(res); err != nil {
		return res, err
	}
	if c.Strict && len(res.Manifest.Withheld) > 0 {
		return res, errStrict
	}
	b, err := manifest.OpenFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return res, pushBundle(ctx, b, c.Output, c.Tags, c.MountFrom, &c.Registry, signer)
}

var _ io.Writer = (*os.File)(nil)
