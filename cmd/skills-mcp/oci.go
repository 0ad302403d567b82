package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

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

var _ io.Writer = (*os.File)(nil)
