package oci

import (
	"context"

	"github.com/opencontainers/go-digest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// cachedToolHive reports whether the cached bundle b at p is what the
// ToolHive artifact ref (pinned to its digest) builds into, by the cache's
// record of that (derivedBundle), or else from that artifact's blobs in
// the store, offline (recording it then), and returns who signed the
// artifact when the signatures b carries meet the trust. A bundle the
// blobs build into other bytes (another version of the analyser, or a
// file planted with the artifact's signatures) is replaced by the one they
// build into, with the same signatures. Untrusted signatures, missing or
// bad blobs say not trusted: the artifact is fetched again.
func (o *Options) cachedToolHive(ctx context.Context, b *manifest.Bundle, p string, ref Ref) (string, bool) {
	// The signatures first: they are over the artifact's digest, and
	// cheap to check; without them there is nothing to rebuild for.
	sigs := b.Signatures()
	who, err := o.checkTrust(ref.Digest, nil, sigs)
	if err != nil {
		return "", false
	}
	// Then the record of what the artifact built into by this analyser,
	// under these limits: the bundle is that one if it opened as it (b's
	// digest is its manifest's, checked at open; each file is checked
	// against the manifest as it is read).
	source := cachedSource(b, ref)
	key := o.toolHiveKey(ref, source)
	if o.recordedAs(b, key) {
		return who, true
	}
	// The artifact is an image index, or an image manifest itself.
	top, err := readBlob(o.CacheDir, digest.Digest(ref.Digest), maxImageManifest)
	if err != nil {
		return "", false
	}
	im, err := decodeManifest(ref, top)
	if err != nil {
		ed, err := toolHiveEntry(ref, top)
		if err != nil {
			return "", false
		}
		mb, err := readBlob(o.CacheDir, ed.Digest, ed.Size)
		if err != nil {
			return "", false
		}
		if im, err = decodeManifest(ref, mb); err != nil {
			return "", false
		}
	}
	if !isToolHive(im) {
		return "", false
	}
	_, ld, err := toolHiveSkillLayer(ref, im)
	if err != nil || ld.Size > o.toolHiveLayerCap() {
		return "", false
	}
	layer, err := readBlob(o.CacheDir, ld.Digest, ld.Size)
	if err != nil {
		return "", false
	}
	built, id, err := o.toolHiveBundle(ctx, ref, source, im, layer)
	if err != nil {
		o.logf("%s: the cached artifact no longer builds: %v", ref, err)
		return "", false
	}
	if id != b.ID() {
		if err := writeSigned(p, built, sigs); err != nil {
			return "", false
		}
		o.logf("%s: the cached bundle rebuilt from the cached artifact (%s)", ref, p)
	}
	o.recordDerived(ref, key, id)
	return who, true
}

// recordedToolHive reports whether the cache recorded b as the bundle the
// ToolHive artifact ref pins built into, as cachedToolHive would find it.
func (o *Options) recordedToolHive(b *manifest.Bundle, ref Ref) bool {
	return o.recordedAs(b, o.toolHiveKey(ref, cachedSource(b, ref)))
}

// recordedAs reports whether the record named key names b.
func (o *Options) recordedAs(b *manifest.Bundle, key string) bool {
	id, ok := derivedBundle(o.CacheDir, key)
	return ok && id == b.ID()
}

// cachedSource returns the source the cached bundle b names, when it is a
// reference pinned to ref's digest (the same artifact fetched from the
// same or another name of its registry), else ref: so that a warm start
// by another name of the registry (or none reachable) rebuilds the same
// bytes.
func cachedSource(b *manifest.Bundle, ref Ref) string {
	m, err := b.Head()
	if err != nil || len(m.Libraries) != 1 {
		return ref.String()
	}
	if r, err := ParseRef(m.Libraries[0].Source); err == nil && r.Digest == ref.Digest {
		return r.String()
	}
	return ref.String()
}
