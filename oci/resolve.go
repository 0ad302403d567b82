package oci

import (
	"context"
	"fmt"
)

// Resolve returns the reference s names pinned to its artifact's digest: for
// a tag, with one request (a manifest HEAD, which the registry answers with
// the digest alone); for a digest, with none. `pull --check` uses it to see
// whether a locked tag still names what was pulled.
func Resolve(ctx context.Context, s string, o Options) (Ref, error) {
	ref, err := ParseRef(s)
	if err != nil {
		return Ref{}, err
	}
	if ref.Digest != "" {
		return ref, nil
	}
	if ref.Tag == "" {
		return Ref{}, fmt.Errorf("%s: name a tag (:TAG) or a digest (@sha256:…)", ref)
	}
	repo, err := o.repository(ref)
	if err != nil {
		return Ref{}, err
	}
	desc, err := repo.Resolve(ctx, ref.Tag)
	if err != nil {
		return Ref{}, fmt.Errorf("%s: resolve: %w", ref, err)
	}
	return ref.WithDigest(desc.Digest.String()), nil
}
