package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/release"
)

// DiffCmd is `skills-mcp diff`.
type DiffCmd struct {
	Old string `arg:"" placeholder:"OLD" help:"The older release: anything pull --from takes (X.skb, https://.../X.skb#sha256=<hex>, oci://..., an export folder, a discovery site)."`
	New string `arg:"" placeholder:"NEW" help:"The newer release, as OLD."`

	Patch bool `name:"patch" help:"Follow each changed text file (SKILL.md, scripts, references) with a unified diff of it."`
	JSON  bool `name:"json" xor:"format" help:"Print the whole comparison as JSON."`
	SARIF bool `name:"sarif" xor:"format" help:"Print only the findings new in NEW, as SARIF 2.1.0."`

	Release ReleaseFlags `embed:""`
}

// Exit statuses of diff, as diff(1) has them.
const (
	diffSame   = 0
	diffDiffer = 1
	diffError  = 2
)

// Run compares the releases: exit 0 when they are identical, 1 when they
// differ, 2 on error.
func (c *DiffCmd) Run(ctx context.Context) error {
	if c.Patch && (c.JSON || c.SARIF) {
		return &exitError{diffError, errors.New("diff: --patch is for the text report; not with --json or --sarif")}
	}
	old, closeOld, err := c.Release.open(ctx, c.Old)
	if err != nil {
		return &exitError{diffError, fmt.Errorf("diff: %w", err)}
	}
	defer closeOld()
	new, closeNew, err := c.Release.open(ctx, c.New)
	if err != nil {
		return &exitError{diffError, fmt.Errorf("diff: %w", err)}
	}
	defer closeNew()
	d, err := release.Compare(ctx, old, new)
	if err != nil {
		return &exitError{diffError, fmt.Errorf("diff: %w", err)}
	}
	switch {
	case c.JSON:
		err = writeJSON(os.Stdout, d)
	case c.SARIF:
		err = d.WriteSARIF(os.Stdout)
	default:
		err = d.WriteText(ctx, os.Stdout, c.Patch)
	}
	if err != nil {
		return &exitError{diffError, fmt.Errorf("diff: %w", err)}
	}
	if !d.Identical {
		return &exitError{diffDiffer, errDiffer}
	}
	return nil
}

// errDiffer is diff's exit 1: the releases differ. It is not printed.
var errDiffer = errors.New("releases differ")

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
