package main

import (
	"context"
	"errors"
	"fmt"
	"os"

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
