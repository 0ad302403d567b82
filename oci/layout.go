package oci

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Media types of our artifact and of the signatures attached to it.
const (
	ArtifactType   = "application/vnd.skills-mcp.bundle.v1"
	ConfigType     = "application/vnd.skills-mcp.bundle.config.v1+json"
	BlobType       = "application/vnd.skills-mcp.blob.v1"
	PackType       = "application/vnd.skills-mcp.pack.v2.tar+gzip"
	SignaturesType = "application/vnd.skills-mcp.signatures.v1"
	SSHSigType     = "application/vnd.skills-mcp.signature.sshsig.v1"
	MinisignType   = "application/vnd.skills-mcp.signature.minisign.v1"
)

// ManifestTitle names the layer holding the bundle manifest.
const ManifestTitle = "manifest.json"

// Limits on what one artifact may hold.
const (
	// maxImageManifest is the largest image manifest pushed or accepted.
	maxImageManifest = 4 << 20
	// maxConfig is the largest config blob accepted.
	maxConfig = 1 << 20
	// maxSignature is the largest signature layer accepted, and
	// maxSignatures the most signatures taken from the referrers.
	maxSignature  = 64 << 10
	maxSignatures = 64
)

// maxLayers is the most blob layers a push makes before it packs
// neighbouring blobs together: it keeps the image manifest well below the
// 4 MiB that registries (and oras-go) accept. A variable so that a test can
// pack a small bundle.
var maxLayers = 8192

// Config is the config blob of a bundle artifact: the bundle's public
// description, readable without fetching the bundle.
type Config struct {
	ID        string             `json:"id"` // the bundle id: sha256 of manifest.json
	Created   string             `json:"created,omitempty"`
	Skills    int                `json:"skills"`
	Blobs     int                `json:"blobs"`
	Libraries []manifest.Library `json:"libraries"`
}

// blobRef is one distinct blob of a bundle, in first-use order.
type blobRef struct {
	d    manifest.Digest
	size int64
}

// blobOrder lists the distinct blobs of m in first-use order (skills by
// URI, files in manifest order): the order a bundle writer stores them in,
// and the order of the bytes of an artifact's blob and pack layers.
func blobOrder(m *manifest.Manifest) []blobRef {
	seen := map[manifest.Digest]bool{}
	var out []blobRef
	for i := range m.Skills {
		for _, r := range m.Skills[i].Entry.Resources {
			if !seen[r.Digest] {
				seen[r.Digest] = true
				out = append(out, blobRef{r.Digest, r.Size})
			}
		}
	}
	return out
}

// layer is a planned blob or pack layer: blobs[from:to] of the order.
type layer struct {
	desc     ocispec.Descriptor
	from, to int
	pack     bool
}

// placeholder stands for a pack's digests until they are computed: of the
// same length, so that the image manifest planned with it has the size of
// the one pushed. A constant (TestPlaceholderDigest checks it is the
// SHA-256 digest of 64 zeros), so it costs nothing at start-up.
const placeholder = digest.Digest("sha256:" + "00000000000000000000000000000000" + "00000000000000000000000000000000")

// planLayers groups the non-empty blobs into layers. With few blobs each is
// a layer of its own, named by its digest; with more than maxLayers,
// neighbours are packed together (PackType), cut where a blob's digest
// says (so that changing one file changes one pack and leaves the others
// as they were) or where a pack's tar reaches maxPackBytes. A pack that
// would hold one blob is that blob's layer. Empty blobs take no layer:
// they have no bytes to carry, and not every registry stores an empty
// blob. k is the average number of blobs per pack, a power of two. The
// packs' descriptors carry placeholder digests, and the size of their
// tar, until packDescriptors fills them in.
func planLayers(order []blobRef, k uint32) []layer {
	var out []layer
	start, bytes := -1, int64(0)
	flush := func(to int) {
		if start < 0 {
			return
		}
		l := layer{from: start, to: to}
		if b := order[start]; to-start == 1 {
			l.desc = ocispec.Descriptor{MediaType: BlobType, Digest: digest.Digest(b.d.String()), Size: b.size,
				Annotations: map[string]string{ocispec.AnnotationTitle: "blobs/sha256/" + b.d.Hex()}}
		} else {
			l.pack = true
			l.desc = ocispec.Descriptor{MediaType: PackType, Digest: placeholder, Size: bytes,
				Annotations: map[string]string{
					ocispec.AnnotationTitle: packTitle(b.d),
					AnnotationDigest:        placeholder.String(),
					AnnotationUnpack:        "true",
				}}
		}
		out = append(out, l)
		start, bytes = -1, 0
	}
	for i, b := range order {
		if b.size == 0 {
			continue
		}
		if start < 0 {
			start = i
		}
		bytes += packEntryBytes(b.size)
		if k <= 1 || binary.BigEndian.Uint32(b.d[28:])%k == 0 || bytes >= maxPackBytes {
			flush(i + 1)
		}
	}
	flush(len(order))
	return out
}

// imageManifest returns the encoded image manifest of a bundle artifact.
func imageManifest(config, man ocispec.Descriptor, layers []layer, m *manifest.Manifest) ([]byte, error) {
	im := ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		MediaType:    ocispec.MediaTypeImageManifest,
		ArtifactType: ArtifactType,
		Config:       config,
		Layers:       make([]ocispec.Descriptor, 0, len(layers)+1),
	}
	im.Layers = append(im.Layers, man)
	for _, l := range layers {
		im.Layers = append(im.Layers, l.desc)
	}
	im.Annotations = annotations(m)
	return marshal(im)
}

// annotations returns the image manifest's annotations for the bundle
// whose manifest is m: org.opencontainers.image.created from its Created
// (set from SOURCE_DATE_EPOCH only), and .version, .source and .revision
// from what its libraries agree on (manifest.Release); nil for none. They
// depend on the manifest alone, so one bundle gives one artifact.
func annotations(m *manifest.Manifest) map[string]string {
	a := map[string]string{}
	rel := manifest.Release(m.Libraries)
	for k, v := range map[string]string{
		ocispec.AnnotationCreated:  m.Created,
		ocispec.AnnotationVersion:  rel.Version,
		ocispec.AnnotationSource:   rel.Source,
		ocispec.AnnotationRevision: rel.Revision,
	} {
		if v != "" {
			a[k] = v
		}
	}
	if len(a) == 0 {
		return nil
	}
	return a
}

// marshal encodes v as compact JSON without HTML escaping: one encoding for
// one value, so a push of the same bundle gives the same digests.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// descriptorOf describes content of the given media type.
func descriptorOf(mediaType string, content []byte) ocispec.Descriptor {
	return ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(content), Size: int64(len(content))}
}
