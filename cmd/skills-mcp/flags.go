package main

import (
	"context"
	"os"
	"path/filepath"

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
