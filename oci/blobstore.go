package oci

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/opencontainers/go-digest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// A ToolHive skill is cached as the bundle it was built into, and its
// signatures sign the artifact (its image index), not that bundle: so that
// a warm start under cosign trust can show offline that a cached bundle is
// the artifact's, the artifact's index, image manifest and layer are kept
// beside it in a blob store named by digest. Each blob is checked against
// its name when read; a planted one is no blob of the artifact.

// BlobPath returns where the cache under dir keeps the blob of digest d
// ("sha256:<hex>") of a ToolHive artifact.
func BlobPath(dir, d string) string {
	return filepath.Join(dir, "oci", "blobs", "sha256", strings.TrimPrefix(d, "sha256:"))
}

// keepToolHive writes blobs into the blob store of the cache under dir,
// each atomically under its digest.
func keepToolHive(dir string, blobs ...[]byte) error {
	for _, b := range blobs {
		if b == nil {
			continue
		}
		p := BlobPath(dir, digest.FromBytes(b).String())
		if fileExists(p) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := manifest.WriteFileAtomic(p, 0o644, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return err
		}
	}
	return nil
}

// readBlob reads the blob of digest d from the blob store of the cache
// under dir: at most max bytes, and only if they hash to d.
func readBlob(dir string, d digest.Digest, max int64) ([]byte, error) {
	if err := d.Validate(); err != nil || d.Algorithm() != digest.SHA256 {
		return nil, fmt.Errorf("blob %q: want sha256:<64 hex>", d)
	}
	f, err := os.Open(BlobPath(dir, d.String()))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("blob %s: larger than %d bytes", d, max)
	}
	if digest.FromBytes(b) != d {
		return nil, fmt.Errorf("blob %s: does not match its digest", d)
	}
	return b, nil
}
