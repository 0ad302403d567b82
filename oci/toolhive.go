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

// toolHiveManifest picks the image manifest of a ToolHive image index
// (body): the first one (every platform's manifest carries the same
// layer), fetched and checked against its descriptor. The index and the
// manifest are kept for the cache (keepToolHive).
func (f *fetcher) toolHiveManifest(ctx context.Context, body []byte) (*ocispec.Manifest, error) {
	d, err := toolHiveEntry(f.ref, body)
	if err != nil {
		return nil, err
	}
	b, err := content.FetchAll(ctx, f.repo.Manifests(), d)
	if err != nil {
		return nil, refused(f.ref, "index entry %s: %v", d.Digest, err)
	}
	f.thIndex, f.thManifest = body, b
	return decodeManifest(f.ref, b)
}

// toolHiveEntry returns the descriptor of the image manifest that a
// ToolHive image index (body) is read by: its first.
func toolHiveEntry(ref Ref, body []byte) (ocispec.Descriptor, error) {
	var idx ocispec.Index
	if err := json.Unmarshal(body, &idx); err != nil {
		return ocispec.Descriptor{}, refused(ref, "index: %v", err)
	}
	if idx.ArtifactType != ToolHiveArtifactType {
		return ocispec.Descriptor{}, refused(ref, "an image index of artifact type %q: only a ToolHive skill (%s) may be an index", idx.ArtifactType, ToolHiveArtifactType)
	}
	for _, d := range idx.Manifests {
		if d.MediaType != ocispec.MediaTypeImageManifest {
			continue
		}
		if d.Size <= 0 || d.Size > maxImageManifest {
			return ocispec.Descriptor{}, refused(ref, "index entry %s: size %d out of range", d.Digest, d.Size)
		}
		return d, nil
	}
	return ocispec.Descriptor{}, refused(ref, "ToolHive index lists no image manifest")
}

// toolHiveLimits returns the limits a ToolHive layer is read under: those
// of an archive library (Options.Archive, build's defaults where zero) and
// the per-file cap (Options.MaxFileBytes, build.DefaultMaxFileBytes where
// zero); the skill in it keeps manifest.CheckSkillLimits besides.
func (o *Options) toolHiveLimits() (build.ArchiveLimits, int64) {
	maxFile := o.MaxFileBytes
	if maxFile <= 0 {
		maxFile = build.DefaultMaxFileBytes
	}
	return o.Archive.WithDefaults(), maxFile
}

// tarEntryOverhead bounds the bytes a tar entry takes besides its file's:
// its header, a PAX header for a long name, and the padding of both.
const tarEntryOverhead = 4 << 10

// toolHiveLayerCap is the most bytes a ToolHive layer may hold compressed:
// what its entries may inflate to (the skill's files within the SEP-2640
// limit and the overhead of at most MaxEntries entries), within the
// download cap.
func (o *Options) toolHiveLayerCap() int64 {
	lim, _ := o.toolHiveLimits()
	return min(o.maxBytes(), lim.MaxTotalBytes, manifest.MaxSkillBytes+int64(lim.MaxEntries)*tarEntryOverhead)
}

// toolHiveKey returns the name of the cache's record of what the ToolHive
// artifact ref pins builds into as the library source (derivationKey):
// the limits its layer is read under change what it builds into, or
// whether it builds at all.
func (o *Options) toolHiveKey(ref Ref, source string) string {
	lim, maxFile := o.toolHiveLimits()
	return derivationKey(ref.Digest, source, int64(lim.MaxEntries), lim.MaxTotalBytes, maxFile, o.toolHiveLayerCap())
}

// toolHiveSkillLayer checks the image manifest of a ToolHive skill and returns
// its skill name and its one layer.
func toolHiveSkillLayer(ref Ref, im *ocispec.Manifest) (string, ocispec.Descriptor, error) {
	name := im.Annotations[toolHiveName]
	if err := manifest.CheckSegment(name); err != nil || name == "" {
		return "", ocispec.Descriptor{}, refused(ref, "ToolHive skill: annotation %s %q: not a skill name", toolHiveName, name)
	}
	if len(im.Layers) != 1 || im.Layers[0].MediaType != ocispec.MediaTypeImageLayerGzip {
		return "", ocispec.Descriptor{}, refused(ref, "ToolHive skill: want one %s layer", ocispec.MediaTypeImageLayerGzip)
	}
	return name, im.Layers[0], nil
}

// toolHive turns a ToolHive skill artifact into a one-skill bundle at path
// (toolHiveBundle), and keeps the artifact's index, image manifest and
// layer in the cache's blob store, so that a warm start can show offline
// that the bundle is this artifact's (cachedToolHive).
//
// Its signatures are ToolHive's: cosign's formats over the image index
// (desc), read before the layer is fetched, checked under trust, and kept
// in the bundle's signature area.
func (f *fetcher) toolHive(ctx context.Context, desc ocispec.Descriptor, im *ocispec.Manifest, path string) error {
	_, ld, err := toolHiveSkillLayer(f.ref, im)
	if err != nil {
		return err
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
	layer, err := f.fetchSmall(ctx, ld, f.o.toolHiveLayerCap(), "ToolHive layer")
	if err != nil {
		return err
	}
	bundle, id, err := f.o.toolHiveBundle(ctx, f.ref, f.ref.String(), im, layer)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%s: cache: %w", f.ref, err)
	}
	removeStale(filepath.Dir(path))
	err = writeSigned(path, bundle, sigs)
	if err != nil {
		return err
	}
	if err := keepToolHive(f.o.CacheDir, f.thIndex, f.thManifest, layer); err != nil {
		f.o.logf("warning: %s: cache: %v; a warm start under cosign trust will fetch it again", f.ref, err)
		return nil
	}
	f.o.recordDerived(f.ref, f.o.toolHiveKey(f.ref, f.ref.String()), id)
	return nil
}

// toolHiveBundle builds the one-skill bundle of a ToolHive skill (its
// image manifest im and its layer, checked already against their
// digests): the layer is read strictly (regular files and folders only,
// every path by manifest.CheckPath, no clash under case folding, the
// archive limits and the skill's counted from the headers before any byte
// is inflated; readSkillLayer) into a tree in memory, and built like any
// folder library, so the skill meets every rule a skill of ours does;
// source is the library's (the pinned reference it was fetched by). The
// same artifact and source give the same bytes, with the same options; id
// is the bundle's. Nothing is written to disk: a warm start rebuilds with
// no folder made.
func (o *Options) toolHiveBundle(ctx context.Context, ref Ref, source string, im *ocispec.Manifest, layer []byte) (b []byte, id manifest.Digest, err error) {
	name, ld, err := toolHiveSkillLayer(ref, im)
	if err != nil {
		return nil, id, err
	}
	lim, maxFile := o.toolHiveLimits()
	tree, err := readSkillLayer(layer, name, lim, maxFile)
	if err != nil {
		return nil, id, refused(ref, "ToolHive layer %s: %v", ld.Digest, err)
	}
	opt := build.Options{
		Context:      ctx,
		MaxFileBytes: maxFile,
		Libraries:    []build.Library{{FS: tree, Source: source, Version: im.Annotations[toolHiveVersion]}},
	}
	var buf bytes.Buffer
	res, err := build.Build(opt, &buf)
	if err != nil {
		return nil, id, refused(ref, "ToolHive skill: %v", err)
	}
	if len(res.Manifest.Withheld) > 0 {
		return nil, id, refused(ref, "ToolHive skill %s: %s", name, res.Manifest.Withheld[0].Reason)
	}
	if len(res.Manifest.Skills) != 1 {
		return nil, id, refused(ref, "ToolHive skill %s: the layer holds %d skills, want 1", name, len(res.Manifest.Skills))
	}
	return buf.Bytes(), res.ID, nil
}

// writeSigned writes the bundle of bytes b to path, atomically, with its
// signature area replaced by sigs.
func writeSigned(path string, b []byte, sigs []manifest.Signature) error {
	err := manifest.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		nb, err := manifest.Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return err
		}
		defer nb.Close()
		return nb.WriteSigned(w, sigs)
	})
	return unwrapWrite(err)
}

// toolHiveTemp starts the names of the folders that earlier versions
// unpacked a ToolHive layer into, beside the cache's bundles; a layer is
// read into memory now, and such folders a killed fetch left are removed.
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

// readSkillLayer reads the files of a tar+gzip layer into a tree in
// memory, each under the folder name, under the limits of an archive
// library (lim: its entries, and the bytes it inflates to) and maxFile
// bytes a file; the skill's files and bytes are counted from each header
// by manifest.CheckSkillLimits, so an entry over a limit is refused before
// its bytes are inflated. Folders are implied by the files' paths. Errors
// are *build.ArchiveError, naming the entry and the rule, or name the
// entry and the path rule.
func readSkillLayer(layer []byte, name string, lim build.ArchiveLimits, maxFile int64) (*memFS, error) {
	zr, err := gzip.NewReader(bytes.NewReader(layer))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	counted := &io.LimitedReader{R: zr, N: lim.MaxTotalBytes + 1}
	inflated := func(entry string) error {
		if counted.N <= 0 {
			return &build.ArchiveError{Entry: entry, Rule: build.ArchiveRuleTotalSize, Err: fmt.Errorf("the layer inflates past %d bytes (--max-archive-bytes)", lim.MaxTotalBytes)}
		}
		return nil
	}
	tr := tar.NewReader(counted)
	var paths manifest.PathSet
	entries, files := 0, 0
	var total int64
	tree := newMemFS()
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ierr := inflated(""); ierr != nil {
				return nil, ierr
			}
			return nil, fmt.Errorf("tar: %w", err)
		}
		if entries++; entries > lim.MaxEntries {
			return nil, &build.ArchiveError{Entry: h.Name, Rule: build.ArchiveRuleTooManyEntries, Err: fmt.Errorf("more than %d entries (--max-archive-entries)", lim.MaxEntries)}
		}
		p := stripSlash(h.Name)
		if err := manifest.CheckPath(p); err != nil {
			return nil, fmt.Errorf("entry %s: path-invalid: %v", manifest.QuoteName(h.Name), err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := paths.Add(p, true); err != nil {
				return nil, fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
			}
			continue
		case tar.TypeReg:
		default:
			return nil, fmt.Errorf("entry %s: not a regular file or folder (type %q)", manifest.QuoteName(h.Name), h.Typeflag)
		}
		if h.Size > maxFile {
			return nil, &build.ArchiveError{Entry: h.Name, Rule: build.RuleFileTooLarge, Err: fmt.Errorf("%d bytes: larger than --max-file-bytes (%d)", h.Size, maxFile)}
		}
		files++
		total += h.Size
		var le *manifest.LimitError
		if errors.As(manifest.CheckSkillLimits(files, total), &le) {
			return nil, &build.ArchiveError{Entry: h.Name, Rule: le.Rule, Err: errors.New(le.Text())}
		}
		if err := paths.Add(p, false); err != nil {
			return nil, fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
		}
		data := make([]byte, h.Size)
		_, err = io.ReadFull(tr, data)
		if ierr := inflated(h.Name); ierr != nil {
			return nil, ierr
		}
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
		}
		if err := tree.add(name+"/"+p, data); err != nil {
			return nil, fmt.Errorf("entry %s: %w", manifest.QuoteName(h.Name), err)
		}
	}
	return tree, inflated("")
}

func stripSlash(s string) string {
	for len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}
