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
	t, err := NewTag(s, o)
	if err != nil {
		return Ref{}, err
	}
	return t.Resolve(ctx)
}
