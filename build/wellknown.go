package build

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// openIndexLibrary reads an Agent Skills discovery site as a library
// (--lib NS=https://HOST/.well-known/agent-skills/index.json): every skill
// the index lists, checked by wellknown.Client (digest before unpacking,
// strict archives, SKILL.md's name), placed at its skill path (a skills-mcp
// site's skillsMcp.path, else the entry's name). Artifacts are cached by
// digest in CacheDir/wellknown, so an unchanged site costs one request for
// its index; when the site cannot be reached, the last index read is used
// with a warning. An entry that fails is left out with a warning naming its
// rule. The skills are then read like a zip library's, by the same rules.
func openIndexLibrary(opt *Options, src *source) error {
	lib := src.lib
	timeout := opt.Fetch.Timeout
	if timeout <= 0 {
		timeout = DefaultFetchTimeout
	}
	hc := fetch.Client(opt.Fetch.Client, fetch.Policy{Timeout: timeout})
	c := wellknown.NewClient(opt.Context, wellknown.ClientOptions{HTTP: hc, MaxBytes: opt.Fetch.MaxBytes, CacheDir: opt.Fetch.CacheDir,
		Limits: wellknown.Limits{Files: opt.Archive.MaxEntries, Bytes: opt.Archive.MaxTotalBytes}})
	u, data, p, stale, err := c.IndexOrCached(lib.URL)
	if err != nil {
		return fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
	}
	if stale != nil {
		src.warnings = append(src.warnings, fmt.Sprintf("the site could not be read (%v); using the index cached from an earlier build", stale))
	}
	for _, r := range p.Refused {
		src.warnings = append(src.warnings, fmt.Sprintf("%s: %v", wellknown.Redact(u), r))
	}
	files := map[string]wellknown.File{}
	for _, e := range p.Entries {
		f, err := c.Skill(u, e)
		if err == nil {
			for _, file := range f.Files {
				if old, ok := files[f.Path+"/"+file.Path]; ok && old.Digest != file.Digest {
					err = fmt.Errorf("%s differs from the copy another entry holds", manifest.QuoteName(f.Path+"/"+file.Path))
				}
			}
		}
		if err != nil {
			src.warnings = append(src.warnings, fmt.Sprintf("index entry %q left out: %v", e.Name, err))
			continue
		}
		for _, file := range f.Files {
			files[f.Path+"/"+file.Path] = file
		}
	}
	// The skills become a zip (stored, in path order) written to a file in
	// the client's scratch folder, then read by OpenZip: one set of rules
	// for every archive-like library, and no skill held in memory.
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fail := func(err error) error {
		c.Close()
		return fmt.Errorf("library %s: %s: %w", displayNS(lib.Namespace), wellknown.Redact(u), err)
	}
	dir := "" // the system's temporary folder
	if opt.Fetch.CacheDir != "" {
		dir = filepath.Join(opt.Fetch.CacheDir, "wellknown")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fail(err)
		}
	}
	zf, err := os.CreateTemp(dir, ".index-*.zip")
	if err != nil {
		return fail(err)
	}
	os.Remove(zf.Name()) // open until the build ends; nothing left behind
	h := manifest.NewHash()
	zw := zip.NewWriter(io.MultiWriter(zf, h))
	for _, p := range paths {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Store})
		if err != nil {
			zf.Close()
			return fail(err)
		}
		r, err := c.Open(files[p].Digest)
		if err == nil {
			_, err = io.Copy(w, r)
			r.Close()
		}
		if err != nil {
			zf.Close()
			return fail(err)
		}
	}
	if err := zw.Close(); err != nil {
		zf.Close()
		return fail(err)
	}
	c.Close() // the files are in the zip now
	size, err := zf.Seek(0, io.SeekCurrent)
	if err != nil {
		zf.Close()
		return fail(err)
	}
	fsys, err := OpenZip(zf, size, opt.Archive)
	if err != nil {
		zf.Close()
		return fail(err)
	}
	d := manifest.Sum(data)
	src.info.Kind, src.info.Digest = "url", &d
	src.fsys, src.key, src.close = fsys, "index:"+manifest.DigestOf(h).Hex(), zf.Close
	return nil
}
