package oci

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// A ToolHive skill's bundle is derived: the analyser builds it from the
// artifact's layer, and what it finds (findings, capabilities) is part of
// the bundle. Rebuilding it to show that a cached bundle is the artifact's
// runs the analyser on every warm start; instead the cache records, once a
// bundle is built or rebuilt, which bundle (by its content address, the
// manifest digest a bundle is opened by) the artifact built into, under a
// name made of everything the bytes depend on: the artifact's digest, the
// analyser, the library source, and the limits the layer was read under.
// A warm start finds the record by that name and uses the cached bundle
// only if it opens as the bundle recorded; any other, or no record, or a
// record that does not parse, is rebuilt from the artifact's blobs as
// before (cachedToolHive).

// derivedMagic starts every derivation record: the format's name and
// version, then the record's own name and the bundle's digest, a line each.
const derivedMagic = "skills-mcp derived bundle v1\n"

// maxDerivedRecord bounds what is read of a record: its three lines.
const maxDerivedRecord = 256

// analyserVersion names the analyser this program is: its build (Go
// version, module versions, VCS revision) and its executable (path, size,
// modification time), so that a rebuilt or replaced binary, whose analyser
// may find other things, never takes a record another one wrote. Empty
// when the executable cannot be read: then nothing is recorded, and every
// warm start rebuilds.
var analyserVersion = &lazy.Value[string]{New: func() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	var s strings.Builder
	fmt.Fprintf(&s, "%s %d %d", p, fi.Size(), fi.ModTime().UnixNano())
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&s, " %s %s@%s", bi.GoVersion, bi.Main.Path, bi.Main.Version)
		for _, kv := range bi.Settings {
			if strings.HasPrefix(kv.Key, "vcs.") {
				fmt.Fprintf(&s, " %s=%s", kv.Key, kv.Value)
			}
		}
	}
	return s.String()
}}

// derivationKey returns the name of the record of what the artifact of
// digest d builds into as the library source, under the limits given and
// this analyser; empty when the analyser cannot be named.
// Options.toolHiveKey says which limits.
func derivationKey(d, source string, limits ...int64) string {
	v := analyserVersion.Get()
	if v == "" {
		return ""
	}
	h := sha256.New()
	for _, f := range []string{"toolhive", d, v, source} {
		fmt.Fprintf(h, "%d:%s\n", len(f), f)
	}
	for _, l := range limits {
		fmt.Fprintf(h, "%d\n", l)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// derivedPath returns where the cache under dir keeps the record named key.
func derivedPath(dir, key string) string {
	return filepath.Join(dir, "oci", "derived", "sha256", key)
}

// derivedBundle returns the digest of the bundle the record named key
// holds, and false when there is none or it is not a record of that name.
func derivedBundle(dir, key string) (manifest.Digest, bool) {
	if key == "" {
		return manifest.Digest{}, false
	}
	f, err := os.Open(derivedPath(dir, key))
	if err != nil {
		return manifest.Digest{}, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDerivedRecord+1))
	if err != nil || len(b) > maxDerivedRecord {
		return manifest.Digest{}, false
	}
	rest, ok := bytes.CutPrefix(b, []byte(derivedMagic))
	if !ok {
		return manifest.Digest{}, false
	}
	lines := strings.Split(string(rest), "\n")
	if len(lines) != 3 || lines[0] != key || lines[2] != "" {
		return manifest.Digest{}, false
	}
	d, err := manifest.ParseDigest(lines[1])
	return d, err == nil
}

// recordDerived writes, atomically, the record named key: the bundle of
// digest id. A record that cannot be written costs the next warm start a
// rebuild, nothing else, so its error is logged and dropped.
func (o *Options) recordDerived(ref Ref, key string, id manifest.Digest) {
	if key == "" {
		return
	}
	if got, ok := derivedBundle(o.CacheDir, key); ok && got == id {
		return
	}
	p := derivedPath(o.CacheDir, key)
	dir := filepath.Dir(p)
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		manifest.RemoveStaleTemps(dir)
		err = manifest.WriteFileAtomic(p, 0o644, func(w io.Writer) error {
			_, err := io.WriteString(w, derivedMagic+key+"\n"+id.String()+"\n")
			return err
		})
	}
	if err != nil {
		o.logf("warning: %s: cache: %v; a warm start under cosign trust will rebuild the bundle", ref, err)
	}
}
