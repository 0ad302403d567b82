package pull

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Limits on one skill, beyond which an entry is refused before anything is
// read. They are well above the SEP-2640 limits (512 files, 16 MiB), which
// hosts must accept and may exceed; they only stop a hostile listing from
// filling a disk.
const (
	maxFiles = 8 * manifest.MaxSkillFiles
	maxBytes = 16 * manifest.MaxSkillBytes
)

// errDynamic marks an entry whose resources are "dynamic": it publishes no
// digests, so nothing it serves can be verified.
var errDynamic = errors.New(`resources are "dynamic": the server publishes no digests, so pull cannot verify the files and refuses the skill`)

// Skill is one skill a source offers, checked: its path and every file path
// are safe relative paths, every digest is well formed, SKILL.md is listed.
type Skill struct {
	URI         string `json:"uri"`  // the URI of its SKILL.md
	Path        string `json:"path"` // skill path: the URI's folder without the scheme ("acme/billing/refunds")
	Name        string `json:"name"` // frontmatter name, the last segment of Path
	Description string `json:"description"`
	Files       []File `json:"files"` // SKILL.md first
}

// File is one file of a skill, as the skill's entry lists it.
type File struct {
	Path   string          `json:"path"` // relative to the skill folder, slash-separated
	URI    string          `json:"uri"`
	Digest manifest.Digest `json:"digest"`
	Size   int64           `json:"size"`
}

// wireEntry is a SEP-2640 Skill entry as it arrives: resources is an array
// or the string "dynamic".
type wireEntry struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

type wireResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   *int64 `json:"size"`
}

// parseEntry decodes and checks one SEP-2640 entry from an untrusted source.
func parseEntry(raw []byte) (*Skill, error) {
	var e wireEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("skill entry: %w", err)
	}
	if e.URI == "" {
		return nil, errors.New("skill entry: no uri")
	}
	res := bytes.TrimSpace(e.Resources)
	if len(res) == 0 || string(res) == "null" {
		return nil, fmt.Errorf("skill %s: no resources: the entry is invalid (SEP-2640)", e.URI)
	}
	if res[0] == '"' {
		var s string
		if err := json.Unmarshal(res, &s); err == nil && s == "dynamic" {
			return nil, fmt.Errorf("skill %s: %w", e.URI, errDynamic)
		}
		return nil, fmt.Errorf("skill %s: resources must be an array or \"dynamic\"", e.URI)
	}
	var rs []wireResource
	if err := json.Unmarshal(res, &rs); err != nil {
		return nil, fmt.Errorf("skill %s: resources: %w", e.URI, err)
	}
	files := make([]manifest.Resource, len(rs))
	for i, r := range rs {
		if r.Size == nil {
			return nil, fmt.Errorf("skill %s: resource %q has no size", e.URI, r.URI)
		}
		d, err := manifest.ParseDigest(r.Digest)
		if err != nil {
			return nil, fmt.Errorf("skill %s: resource %q: %w", e.URI, r.URI, err)
		}
		files[i] = manifest.Resource{URI: r.URI, Digest: d, Size: *r.Size}
	}
	return checkEntry(e.URI, e.Frontmatter, files)
}

// checkEntry checks an entry's URI, frontmatter and files, and derives every
// local path from the URIs. It refuses what could write outside the skill
// folder or clash in it: empty, "." and ".." segments (also percent-encoded),
// absolute paths, backslashes, encoded slashes, NUL and other control
// characters, drive letters, duplicates (also under case folding), and a
// path that is both a file and a folder.
func checkEntry(uri string, frontmatter json.RawMessage, res []manifest.Resource) (*Skill, error) {
	sp, err := skillPath(uri)
	if err != nil {
		return nil, err
	}
	s := &Skill{URI: uri, Path: sp, Name: sp[strings.LastIndexByte(sp, '/')+1:]}
	var fm map[string]any
	if err := json.Unmarshal(frontmatter, &fm); err != nil || fm == nil {
		return nil, fmt.Errorf("skill %s: frontmatter is not an object", uri)
	}
	name, _ := fm["name"].(string)
	if name != s.Name {
		return nil, fmt.Errorf("skill %s: frontmatter name %q differs from the last segment of its uri (SEP-2640)", uri, name)
	}
	s.Description, _ = fm["description"].(string)
	if len(res) > maxFiles {
		return nil, fmt.Errorf("skill %s: %d files, more than pull accepts (%d)", uri, len(res), maxFiles)
	}
	root := strings.TrimSuffix(uri, manifest.SkillFile)
	var paths manifest.PathSet // the rule build applies: no clash under case folding
	var total int64
	var hasSkillFile bool
	for _, r := range res {
		if r.Size < 0 {
			return nil, fmt.Errorf("skill %s: resource %q: negative size", uri, r.URI)
		}
		total += r.Size
		if total > maxBytes {
			return nil, fmt.Errorf("skill %s: more than %d bytes, more than pull accepts", uri, maxBytes)
		}
		rest, ok := strings.CutPrefix(r.URI, root)
		if !ok {
			return nil, fmt.Errorf("skill %s: resource %q is outside the skill folder", uri, r.URI)
		}
		rel, err := decodePath(rest)
		if err != nil {
			return nil, fmt.Errorf("skill %s: resource %q: unsafe path: %w", uri, r.URI, err)
		}
		if err := paths.Add(rel, false); err != nil {
			return nil, fmt.Errorf("skill %s: files clash: %w", uri, err)
		}
		f := File{Path: rel, URI: r.URI, Digest: r.Digest, Size: r.Size}
		if r.URI == uri {
			hasSkillFile = true
			s.Files = append([]File{f}, s.Files...)
		} else {
			s.Files = append(s.Files, f)
		}
	}
	if !hasSkillFile {
		return nil, fmt.Errorf("skill %s: resources do not list its %s", uri, manifest.SkillFile)
	}
	return s, nil
}

// skillPath returns the skill path of a SKILL.md URI: for skill:// URIs the
// folder part, for any other scheme the scheme, a slash and the folder part.
func skillPath(uri string) (string, error) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || !validScheme(scheme) {
		return "", fmt.Errorf("skill %q: uri has no valid scheme", uri)
	}
	dir, ok := strings.CutSuffix(rest, "/"+manifest.SkillFile)
	if !ok {
		return "", fmt.Errorf("skill %q: uri does not end in /%s", uri, manifest.SkillFile)
	}
	p, err := decodePath(dir)
	if err != nil {
		return "", fmt.Errorf("skill %q: unsafe skill path: %w", uri, err)
	}
	if scheme+"://" != manifest.URIScheme {
		p = scheme + "/" + p
	}
	return p, nil
}

func validScheme(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z') {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// decodePath percent-decodes each segment of a slash-separated URI path and
// checks that the result is a safe relative path (manifest.CheckPath: the
// rule build applies to what it publishes).
func decodePath(p string) (string, error) {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		d, err := url.PathUnescape(seg)
		if err != nil {
			return "", fmt.Errorf("segment %q: %w", seg, err)
		}
		if strings.Contains(d, "/") {
			return "", fmt.Errorf("segment %q holds an encoded slash", seg)
		}
		segs[i] = d
	}
	d := strings.Join(segs, "/")
	if err := manifest.CheckPath(d); err != nil {
		return "", err
	}
	return d, nil
}
