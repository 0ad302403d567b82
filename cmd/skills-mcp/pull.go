package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// Run opens the source, then lists or pulls.
func (c *PullCmd) Run(ctx context.Context, argv commandArgv) error {
	n := 0
	for _, given := range []bool{c.From != "", c.URL != "", c.Command} {
		if given {
			n++
		}
	}
	if c.Check || c.Frozen {
		if err := c.lockFlags(); err != nil {
			return err
		}
	}
	if n != 1 && !((c.Check || c.Frozen) && n == 0) {
		return &exitError{exitUsage, errors.New("pull: give exactly one source: --from X.skb|URL|DIR, --url http://…/mcp or --command CMD ARGS…")}
	}
	if c.OAuth && c.URL == "" {
		return &exitError{exitUsage, errors.New("pull: --oauth signs in to a live server: it needs --url")}
	}
	if c.Command && len(argv) == 0 {
		return &exitError{exitUsage, errors.New("pull: --command needs the server's command line after it: --command CMD ARGS…")}
	}
	var trusted []manifest.TrustedKey
	if c.Trust != "" {
		if c.From == "" && !c.Check && !c.Frozen {
			return &exitError{exitUsage, errors.New("pull: --trust applies to bundles and exports; a live server's digests are unsigned (SEP-2640)")}
		}
		spec, err := loadTrustSpec(c.Trust, &c.Keyless)
		if err != nil {
			return err
		}
		trusted, c.Registry.cosign = spec.keys, spec.cosign
	}
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.Timeout, fmt.Errorf("timed out after %v (--timeout)", c.Timeout))
		defer cancel()
	}
	switch {
	case c.Check:
		return c.runCheck(ctx, argv, trusted)
	case c.Frozen:
		return c.runFrozen(ctx, argv, trusted)
	}
	src, err := c.open(ctx, argv, trusted)
	if err != nil {
		switch {
		case errors.Is(err, manifest.ErrUnsigned):
			return &exitError{exitUnsigned, fmt.Errorf("pull: unsigned: %w", err)}
		case errors.Is(err, manifest.ErrUntrusted), errors.Is(err, manifest.ErrBadSignature):
			return &exitError{exitUntrusted, fmt.Errorf("pull: untrusted: %w", err)}
		}
		return fmt.Errorf("pull: %w", err)
	}
	defer src.Close()
	note := func(format string, args ...any) { fmt.Fprintf(stderr, "skills-mcp: "+format+"\n", args...) }
	switch {
	case src.Unverified:
		note("warning: %s is a v0.1.0 index: it publishes no digests, so the files are UNVERIFIED (--allow-unverified); only their paths and names are checked", src.Name)
	case src.Kind == "server" && c.List:
		// A listing copies nothing, so what the digests prove is no concern yet.
	case src.Kind == "server":
		note("note: %s is a live server: its digests are unsigned (SEP-2640); they prove the files arrived as listed, not who wrote them", src.Name)
	case src.Signed:
		note("%s: %s signed by %s", src.Name, src.ID, src.SignedBy)
	default:
		note("note: %s: %s; signatures not checked (use --trust FILE to require a trusted signature)", src.Name, src.ID)
	}
	for _, w := range src.Warnings {
		note("warning: refused: %s", w)
	}
	// refused fails a listing or an --all pull that left out skills the
	// source offers, unless the user asked to skip them.
	refused := func() error {
		if len(src.Warnings) == 0 || c.SkipInvalid {
			return nil
		}
		return &exitError{exitFailed, fmt.Errorf("pull: %d skill(s) offered by %s refused (first: %s); the others were handled; use --skip-invalid to skip them and exit 0",
			len(src.Warnings), src.Name, src.Warnings[0])}
	}
	if c.List {
		if err := c.list(src); err != nil {
			return err
		}
		return refused()
	}
	skills, err := src.Select(ctx, c.Skills, c.All)
	if err != nil {
		return &exitError{exitFailed, fmt.Errorf("pull: %w", err)}
	}
	if len(skills) == 0 {
		why := ""
		if src.Kind == "server" {
			why = "; a server behind authorization lists only the namespaces the token may read"
		}
		return &exitError{exitFailed, fmt.Errorf("pull: --all: %s lists no skills, nothing to copy%s", src.Name, why)}
	}
	opt := pull.Options{To: c.To, KeepPath: c.KeepPath, Force: c.Force, Sync: c.Sync, DryRun: c.DryRun,
		Progress: progress("pulling"), Logf: func(format string, args ...any) { note(format, args...) }}
	if !c.DryRun {
		if opt.Lock, err = c.lockSource(src, argv); err != nil {
			return fmt.Errorf("pull: lock: %w", err)
		}
	}
	res, err := pull.Pull(ctx, src, skills, opt)
	if errors.Is(err, pull.ErrLock) {
		return &exitError{exitUsage, fmt.Errorf("pull: %w; nothing written", err)}
	}
	if res != nil {
		if c.JSON {
			if jerr := writeJSON(os.Stdout, res); jerr != nil && err == nil {
				err = jerr
			}
		}
		dry := ""
		if res.DryRun {
			dry = " (dry run: nothing written)"
		}
		note("done: %d skill(s), %d file(s) written, %d kept, %d deleted, %d failed%s", len(res.Skills), res.Written, res.Kept, res.Deleted, res.Failed, dry)
	}
	if err != nil {
		return fmt.Errorf("pull: %w", err)
	}
	if c.All {
		return refused()
	}
	return nil
}

func (c *PullCmd) list(src *pull.Source) error {
	if c.JSON {
		return writeJSON(os.Stdout, src.Skills)
	}
	for _, sk := range src.Skills {
		d := strings.Join(strings.Fields(sk.Description), " ")
		if r := []rune(d); len(r) > 100 {
			d = string(r[:100]) + "…"
		}
		fmt.Printf("%s\t%s\n", sk.Path, d)
	}
	return nil
}
