package oci

import (
	"bytes"
	"fmt"
	"io"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
	"golang.org/x/sync/errgroup"
)

// artifact is a bundle laid out for a registry.
type artifact struct {
	b          *manifest.Bundle
	order      []blobRef
	layers     []layer
	config     []byte
	configDesc ocispec.Descriptor
	manDesc    ocispec.Descriptor
	image      []byte
}

// planArtifact lays out bundle b, whose manifest is m (bytes mb): the
// config, the manifest layer, the blob layers and the image manifest.
func planArtifact(b *manifest.Bundle, m *manifest.Manifest, mb []byte) (*artifact, error) {
	a := &artifact{b: b, order: blobOrder(m)}
	var err error
	if a.config, err = marshal(configOf(m, mb)); err != nil {
		return nil, err
	}
	a.configDesc = descriptorOf(ConfigType, a.config)
	a.manDesc = descriptorOf(manifest.MediaType, mb)
	a.manDesc.Annotations = map[string]string{ocispec.AnnotationTitle: ManifestTitle}
	nonEmpty := 0
	for _, r := range a.order {
		if r.size > 0 {
			nonEmpty++
		}
	}
	k := uint32(1)
	for nonEmpty/int(k) > maxLayers {
		k *= 2
	}
	for ; ; k *= 2 {
		a.layers = planLayers(a.order, k)
		if a.image, err = imageManifest(a.configDesc, a.manDesc, a.layers, m); err != nil {
			return nil, err
		}
		if len(a.image) <= maxImageManifest/2 || k >= 1<<16 {
			break
		}
	}
	if err := a.packDescriptors(); err != nil {
		return nil, err
	}
	if a.image, err = imageManifest(a.configDesc, a.manDesc, a.layers, m); err != nil {
		return nil, err
	}
	return a, nil
}

// packDescriptors writes every pack, pushConcurrency at once, to fill in
// its descriptor: the digest and size of the layer, and of its tar.
func (a *artifact) packDescriptors() error {
	var g errgroup.Group
	g.SetLimit(pushConcurrency)
	for i := range a.layers {
		l := &a.layers[i]
		if !l.pack {
			continue
		}
		g.Go(func() error {
			info, err := a.writePack(io.Discard, *l)
			if err != nil {
				return err
			}
			l.desc.Digest, l.desc.Size = info.digest, info.size
			l.desc.Annotations[AnnotationDigest] = info.tar.String()
			return nil
		})
	}
	return g.Wait()
}

// writePack writes the pack of layer l to w.
func (a *artifact) writePack(w io.Writer, l layer) (packInfo, error) {
	i := l.from
	return writePack(w, a.order[l.from].d, func() (manifest.Digest, int64, io.Reader, bool, error) {
		for i < l.to && a.order[i].size == 0 {
			i++
		}
		if i == l.to {
			return manifest.Digest{}, 0, nil, false, nil
		}
		r := a.order[i]
		i++
		br, err := a.b.BlobReader(r.d)
		return r.d, r.size, br, true, err
	})
}

// layerReader reads the bytes of layer l: a blob as it is, a pack as
// writePack makes it (again: the same bytes as when its digest was taken).
func (a *artifact) layerReader(l layer) (io.Reader, error) {
	if !l.pack {
		return a.b.BlobReader(a.order[l.from].d)
	}
	var buf bytes.Buffer
	buf.Grow(int(l.desc.Size))
	info, err := a.writePack(&buf, l)
	if err != nil {
		return nil, err
	}
	if info.digest != l.desc.Digest {
		return nil, fmt.Errorf("pack %s: written again as %s", l.desc.Digest, info.digest)
	}
	return &buf, nil
}
