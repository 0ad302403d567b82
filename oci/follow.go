package oci

import (
	"context"
	"fmt"

	"oras.land/oras-go/v2/registry/remote"
)

// Tag is a tag reference resolved again and again (serve --follow): it
// keeps its repository client, so that after the first request each
// Resolve is one manifest HEAD, credentials and tokens already at hand.
type Tag struct {
	ref  Ref
	repo *remote.Repository
}

// NewTag returns the tag s names (oci://HOST/REPO:TAG). A digest reference
// is refused: it names one artifact and cannot move.
func NewTag(s string, o Options) (*Tag, error) {
	ref, err := ParseRef(s)
	if err != nil {
		return nil, err
	}
	if ref.Digest != "" {
		return nil, fmt.Errorf("%s: a digest names one artifact and never moves: follow a tag (:TAG)", ref)
	}
	if ref.Tag == "" {
		return nil, fmt.Errorf("%s: name a tag (:TAG)", ref)
	}
	repo, err := o.repository(ref)
	if err != nil {
		return nil, err
	}
	return &Tag{ref: ref, repo: repo}, nil
}

// Ref returns the tag reference.
func (t *Tag) Ref() Ref { return t.ref }

// Resolve returns the reference pinned to the digest the tag names now,
// with one manifest HEAD.
func (t *Tag) Resolve(ctx context.Context) (Ref, error) {
	desc, err := t.repo.Resolve(ctx, t.ref.Tag)
	if err != nil {
		return Ref{}, fmt.Errorf("%s: resolve: %w", t.ref, err)
	}
	return t.ref.WithDigest(desc.Digest.String()), nil
}
