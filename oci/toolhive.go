package oci

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/content"
)

// ToolHive's skill artifact, as its packager (stacklok/toolhive-core
// oci/skills) writes it: an image index of per-platform image manifests,
// each of artifact type ToolHiveArtifactType with an OCI image config
// (skill metadata in its labels) and one tar+gzip layer holding the skill's
// files at the archive root, SKILL.md first.
const (
	ToolHiveArtifactType = "dev.toolhive.skills.v1"
	toolHiveName         = "dev.toolhive.skills.name"
	toolHiveVersion      = "dev.toolhive.skills.version"
)

func isToolHive(im *ocispec.Manifest) bool {
	return im.ArtifactType == ToolHiveArtifactType
}

// toolHiveManifest picks the image manifest of a ToolHive image index:
// the first one (every platform's manifest carries the same layer), fetched
// and checked against its descriptor.
func (f *fetcher) toolHiveManifest(ctx context.Context, body []byte) (*ocispec.Manifest, error) {
	var idx ocispec.Index
	if err := json.Unmarshal(body, &idx); err != nil {
		return nil, refused(f.ref, "index: %v", err)
	}
	if idx.ArtifactType != ToolHiveArtifactType {
		return nil, refused(f.ref, "an image index of artifact type %q: only a ToolHive skill (%s) may be an index", idx.ArtifactType, ToolHiveArtifactType)
	}
	for _, d := range idx.Manifests {
		if d.MediaType != ocispec.MediaTypeImageManifest {
			continue
		}
		if d.Size <= 0 || d.Size > maxImageManifest {
			return nil, refused(f.ref, "index entry %s: size %d out of range", d.Digest, d.Size)
		}
		b, err := content.FetchAll(ctx, f.repo.Manifests(), d)
		if err != nil {
			return nil, refused(f.ref, "index entry %s: %v", d.Digest, err)
		}
		return decodeManifest(f.ref, b)
	}
	return nil, refused(f.ref, "ToolHive index lists no image manifest")
}

// toolHiveLimit bounds the bytes a ToolHive layer inflates to: the skill's
// files (at most manifest.MaxSkillBytes) plus the tar headers of at most
// manifest.MaxSkillFiles entries and their folders.
const toolHiveLimit = manifest.MaxSkillBytes + 4*manifest.MaxSkillFiles*1024

// toolHive turns a ToolHive skill artifact into a one-skill bundle at path:
// the layer, checked against its digest, is unpacked strictly (regular
// files and folders only, every path by manifest.CheckPath, no clash under
// case folding, sizes counted while inflating) into a temporary folder
// beside path, and built like any library, so the skill meets every rule a
// skill of ours does.
//
// Its signatures are ToolHive's: cosign's formats over the image index
// (desc), read before the layer is fetched, checked under trust, and kept
// in the bundle's signature area.
func (f *fetcher) toolHive(ctx context.Context, desc ocispec.Descriptor, im *ocispec.Manifest, path string) error {
	name := im.Annotations[toolHiveName]
	if err := manifest.CheckSegment(name); err != nil || name == "" {
		return refused(f.ref, "ToolHive skill: annotation %s %q: not a skill name", toolHiveName, name)
	}
	if len(im.Layers) != 1 || im.Layers[0].MediaType != ocispec.MediaTypeImageLayerGzip {
		return refused(f.ref, "ToolHive skill: want one %s layer", ocispec.MediaTypeImageLayerGzip)
	}
	cos, err := f.cosignSignatures(ctx, desc)
	if err != nil && f.o.trustRequired() {
		return err
	} else if err != nil {
		f.o.logf("warning: %v; going on without signatures", err)
	}
	sigs, err := cosignRecords(cos)
	if err != nil {
		return err
	}
	if f.o.trustRequired() {
		if f.signer, err = f.o.checkTrust(desc.Digest.String(), nil, sigs); err != nil {
			return fmt.Errorf("%s: %w", f.ref, err)
		}
	}
	layer, err := f.fetchSmall(ctx, im.Layers[0], min(f.o.maxBytes(), toolHiveLimit), "ToolHive layer")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	removeStale(filepath.Dir(path))
	tmp, err := os.MkdirTemp(filepath.Dir(path), toolHiveTemp+"*")
	if err != nil {
		return fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	defer os.RemoveAll(tmp)
	if err := unpackSkill(layer, filepath.Join(tmp, name)); err != nil {
		return refused(f.ref, "ToolHive layer %s: %v", im.Layers[0].Digest, err)
	}
	opt := build.Options{
		Context:   ctx,
		Libraries: []build.Library{{Root: tmp, Source: f.ref.String(), Version: im.Annotations[toolHiveVersion]}},
	}
	err = manifest.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		var buf bytes.Buffer
		res, err := build.Build(opt, &buf)
		if err != nil {
			return refused(f.ref, "ToolHive skill: %v", err)
		}
		if len(res.Manifest.Withheld) > 0 {
			return refused(f.ref, "ToolHive skill %s: %s", name, res.Manifest.Withheld[0].Reason)
		}
		if len(res.Manifest.Skills) != 1 {
			return refused(f.ref, "ToolHive skill %s: the layer holds %d skills, want 1", name, len(res.Manifest.Skills))
		}
		b, err := manifest.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			return err
		}
		defer b.Close()
		return b.WriteSigned(w, sigs)
	})
	return unwrapWrite(err)
}

// toolHiveTemp starts the names of the folders a ToolHive layer is unpacked
// into, beside the cache's bundles.
const toolHiveTemp = ".toolhive-"

// staleAfter is how old an unpack folder must be to count as left by a
// killed fetch: far longer than any fetch takes.
const staleAfter = time.Hour

// removeStale removes the unpack folders in dir that killed fetches left.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), toolHiveTemp) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// unpackSkill writes the files of a tar+gzip layer under dir.
func unpackSkill(layer []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(layer))
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	lim := &io.LimitedReader{R: zr, N: toolHiveLimit + 1}
	tr := tar.NewReader(lim)
	var paths manifest.PathSet
	files := 0
	root, err := openRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("tar: %w", err)
		}
		name := stripSlash(h.Name)
		if err := manifest.CheckPath(name); err != nil {
			return fmt.Errorf("entry %s: path-invalid: %v", manifest.QuoteName(h.Name), err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := paths.Add(name, true); err != nil {
				return fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
			}
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("entry %s: not a regular file or folder (type %q)", manifest.QuoteName(h.Name), h.Typeflag)
		}
		if files++; files > manifest.MaxSkillFiles {
			return fmt.Errorf("more than %d files", manifest.MaxSkillFiles)
		}
		if err := paths.Add(name, false); err != nil {
			return fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
		}
		if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
			return err
		}
		w, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, tr)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
		}
		if lim.N <= 0 {
			return fmt.Errorf("inflates past %d bytes", toolHiveLimit)
		}
	}
	if lim.N <= 0 {
		return fmt.Errorf("inflates past %d bytes", toolHiveLimit)
	}
	return nil
}

func stripSlash(s string) string {
	for len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// openRoot creates dir and opens it as an os.Root, so that nothing is
// written outside it.
func openRoot(dir string) (*os.Root, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}
