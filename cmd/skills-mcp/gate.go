package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/release"
)

// GateFlags are the new-findings gate of build and lint: fail only on what
// the baseline release did not have.
type GateFlags struct {
	Baseline     string `name:"baseline" placeholder:"OLD" help:"The accepted release to compare with (anything pull --from takes: X.skb, oci://..., an https bundle, an export folder, a discovery site), for --fail-on-new and --fail-on-new-capability."`
	FailOnNew    string `name:"fail-on-new" enum:",error,warning,note" default:"" placeholder:"error|warning|note" help:"Fail when a finding the baseline did not have, that no waiver covers, reaches this severity."`
	FailOnNewCap bool   `name:"fail-on-new-capability" help:"Fail when a skill shows a capability that it did not show in the baseline (a new skill: any capability)."`

	base  *release.Release
	close func()
}

// open checks the flags and opens the baseline, before anything is built.
func (g *GateFlags) open(ctx context.Context, rf ReleaseFlags) error {
	if g.Baseline == "" {
		if g.FailOnNew != "" || g.FailOnNewCap {
			return &exitError{exitUsage, errors.New("--fail-on-new and --fail-on-new-capability need --baseline OLD")}
		}
		return nil
	}
	r, closer, err := rf.open(ctx, g.Baseline)
	if err != nil {
		return fmt.Errorf("--baseline %s: %w", g.Baseline, err)
	}
	g.base, g.close = r, closer
	return nil
}

// done closes the baseline.
func (g *GateFlags) done() {
	if g.close != nil {
		g.close()
	}
}

// check compares the manifest m just built with the baseline, notes on
// stderr what is new, and returns an error when a gate is reached.
func (g *GateFlags) check(ctx context.Context, m *manifest.Manifest) error {
	if g.base == nil {
		return nil
	}
	d, err := release.Compare(ctx, g.base, release.FromManifest(m, "this build", "", nil))
	if err != nil {
		return fmt.Errorf("--baseline %s: %w", g.Baseline, err)
	}
	stderrNote("since %s: %s new, %s gone, %s unchanged; %s with new capabilities", g.Baseline,
		count(len(d.Risk.New), "finding"), count(len(d.Risk.Gone), "finding"), count(len(d.Risk.Unchanged), "finding"),
		count(len(d.Risk.NewCapabilities), "skill"))
	var errs []error
	if fails := d.NewAtOrAbove(g.FailOnNew); len(fails) > 0 {
		f := fails[0]
		errs = append(errs, fmt.Errorf("--fail-on-new %s: %s at %s or above that %s did not have (first: %s/%s:%d:%d: %s [%s])",
			g.FailOnNew, count(len(fails), "new finding"), g.FailOnNew, g.Baseline, f.Skill, f.File, f.Line, f.Column, f.Severity, f.Rule))
	}
	if caps := d.Risk.NewCapabilities; g.FailOnNewCap && len(caps) > 0 {
		errs = append(errs, fmt.Errorf("--fail-on-new-capability: %s with capabilities that %s did not show (first: %s: %s)",
			count(len(caps), "skill"), g.Baseline, caps[0].Skill, strings.Join(caps[0].Capabilities, ", ")))
	}
	return errors.Join(errs...)
}
