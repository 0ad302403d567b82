package main

import (
	"context"
	"os"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/release"
)

// ReleaseFlags say how to open a release given as pull --from takes one:
// for diff and for --baseline.
type ReleaseFlags struct {
	Trust           string `placeholder:"KEYS" help:"Require a valid signature by a trusted key on each release (KEYS as for verify --trust)."`
	AllowUnverified bool   `name:"allow-unverified" help:"Read a v0.1.0 discovery index, which publishes no digests."`
	MaxDownload     int64  `name:"max-download-bytes" env:"SKILLS_MAX_DOWNLOAD_BYTES" default:"268435456" help:"Largest bundle to download over https or from a registry; for a discovery site, the most bytes downloaded from it."`

	Registry RegistryFlags `embed:""`
	Cache    CacheFlag     `embed:""`
}

// open opens the release ref names, as pull --from would, and returns it
// with a function that closes what it holds. A bundle file, or one fetched
// from a registry, is opened in place, so that comparing it parses only
// what differs; other sources are read by pull.
func (f *ReleaseFlags) open(ctx context.Context, ref string) (*release.Release, func(), error) {
	var trusted []manifest.TrustedKey
	if f.Trust != "" {
		var err error
		if trusted, err = loadTrust(f.Trust); err != nil {
			return nil, nil, err
		}
	}
	if trusted == nil && !isHTTP(ref) {
		path := ref
		if oci.IsRef(ref) {
			f.Registry.maxBytes = f.MaxDownload
			var err error
			if path, err = f.Registry.localBundle(ctx, ref, f.Cache.CacheDir, nil, stderrNote); err != nil {
				return nil, nil, err
			}
		}
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			b, err := openBundle(path)
			if err != nil {
				return nil, nil, err
			}
			r, err := release.FromBundle(b, ref)
			if err != nil {
				b.Close()
				return nil, nil, err
			}
			return r, func() { b.Close() }, nil
		}
	}
	p := &PullCmd{From: ref, AllowUnverified: f.AllowUnverified, MaxDownload: f.MaxDownload, Registry: f.Registry, Cache: f.Cache}
	src, err := p.open(ctx, nil, trusted)
	if err != nil {
		return nil, nil, err
	}
	r, err := release.FromSource(src)
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	for _, w := range src.Warnings {
		stderrNote("warning: %s: refused: %s", src.Name, w)
	}
	if src.Manifest() == nil {
		stderrNote("note: %s: read from its index alone: skills and files, no findings or capabilities (with --trust, a site's signed manifest is read)", src.Name)
	}
	return r, func() { src.Close() }, nil
}

// releaseFlags returns how to open a release given as pull --from takes
// one (--baseline), with these flags' download limit and cache.
func (f *LibraryFlags) releaseFlags(r RegistryFlags) ReleaseFlags {
	return ReleaseFlags{MaxDownload: f.MaxDownload, Registry: r, Cache: CacheFlag{CacheDir: f.CacheDir}}
}
