package oci

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"
)

// ErrRefused is wrapped by every error that reports an artifact or a
// registry answer that breaks a rule: a wrong digest or size, a manifest of
// another media type, a layer out of place.
var ErrRefused = errors.New("refused")

func refused(ref Ref, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", ref, fmt.Sprintf(format, args...), ErrRefused)
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// fetcher reads one artifact.
type fetcher struct {
	repo *remote.Repository
	ref  Ref // pinned to the digest
	o    *Options

	refs   []ocispec.Descriptor // the artifact's referrers, once listed
	listed bool
	signer string // who signed it, under trust

	thIndex, thManifest []byte // a ToolHive skill's index and image manifest, as fetched
}

// decodeManifest decodes an image manifest and checks its media type.
func decodeManifest(ref Ref, body []byte) (*ocispec.Manifest, error) {
	im := new(ocispec.Manifest)
	if err := json.Unmarshal(body, im); err != nil {
		return nil, refused(ref, "manifest: %v", err)
	}
	if im.MediaType != ocispec.MediaTypeImageManifest || im.SchemaVersion != 2 {
		return nil, refused(ref, "manifest says media type %q, schema %d: want %q, schema 2", im.MediaType, im.SchemaVersion, ocispec.MediaTypeImageManifest)
	}
	return im, nil
}

// fetchSmall fetches a blob of at most max bytes, checked against d.
func (f *fetcher) fetchSmall(ctx context.Context, d ocispec.Descriptor, max int64, what string) ([]byte, error) {
	if d.Size < 0 || d.Size > max {
		return nil, refused(f.ref, "%s of %d bytes: the limit is %d", what, d.Size, max)
	}
	if err := d.Digest.Validate(); err != nil || d.Digest.Algorithm() != digest.SHA256 {
		return nil, refused(f.ref, "%s: digest %q: want sha256:<64 hex>", what, d.Digest)
	}
	rc, err := f.repo.Blobs().Fetch(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", f.ref, what, d.Digest, err)
	}
	defer rc.Close()
	b, err := content.ReadAll(rc, d)
	if err != nil {
		return nil, refused(f.ref, "%s %s: %v", what, d.Digest, err)
	}
	return b, nil
}

// unwrapWrite drops the "write PATH: " that WriteFileAtomic puts before a
// refusal, which names the reference already; the cache path is no part of
// the rule that was broken.
func unwrapWrite(err error) error {
	if errors.Is(err, ErrRefused) {
		if u := errors.Unwrap(err); u != nil {
			return u
		}
	}
	return err
}

// referrers lists the referrers of desc, of every type, at most
// maxReferrers (a flood is refused); once per fetch.
func (f *fetcher) referrers(ctx context.Context, desc ocispec.Descriptor) ([]ocispec.Descriptor, error) {
	if f.listed {
		return f.refs, nil
	}
	var refs []ocispec.Descriptor
	err := f.repo.Referrers(ctx, desc, "", func(rs []ocispec.Descriptor) error {
		refs = append(refs, rs...)
		if len(refs) > maxReferrers {
			return refused(f.ref, "more than %d referrers", maxReferrers)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: referrers: %w", f.ref, err)
	}
	f.refs, f.listed = refs, true
	return refs, nil
}
