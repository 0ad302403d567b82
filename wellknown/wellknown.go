// Package wellknown is the Agent Skills discovery index (the discovery RFC
// v0.2.0, /.well-known/agent-skills/index.json): its format, the naming rule
// that maps skill paths to index names, the artifact bytes of a skill, and a
// strict reader of indexes and archives written by anyone.
//
// Invariants:
//   - One function makes an artifact's bytes (Artifact): export writes them,
//     serve answers with them and pull checks against them, so a site
//     exported twice, served, or exported on another machine has the same
//     digests for the same skills.
//   - An archive artifact is a gzip'd tar of regular files only, at the
//     archive root, mode 0644, owner 0 without names, time 0, in the
//     manifest's file order (SKILL.md first); its bytes depend only on the
//     skill's file paths and contents.
//   - Index names are valid skill names (1–64 of [a-z0-9-], no leading,
//     trailing or double hyphen) and unique in an index (Names).
//   - Nothing read from an index or an archive is trusted: ParseIndex and
//     Unpack refuse, naming the rule, what breaks the format or could write
//     outside a skill folder.
package wellknown

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Schema is the $schema of a v0.2.0 index, the only version this package
// reads and writes.
const Schema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// Dir is the site folder of the index and its artifacts; IndexPath the
// index's path on a site. LegacyIndexPath is where v0.1.0 indexes (no
// digests) live.
const (
	Dir             = "/.well-known/agent-skills/"
	IndexFile       = "index.json"
	IndexPath       = Dir + IndexFile
	LegacyIndexPath = "/.well-known/skills/" + IndexFile
)

// Entry types of the v0.2.0 index.
const (
	TypeSkillMD = "skill-md" // the artifact is the skill's SKILL.md
	TypeArchive = "archive"  // the artifact is a .tar.gz or .zip of the skill folder
)

// Content types of what a site serves.
const (
	IndexMIME     = "application/json"
	SkillMDMIME   = "text/markdown; charset=utf-8"
	ArchiveMIME   = "application/gzip"
	ZipMIME       = "application/zip"
	SignatureMIME = "text/plain; charset=utf-8"
)

// Index is a v0.2.0 discovery index. SkillsMCP is our extra field (clients
// ignore unknown fields): set when the site publishes one bundle.
type Index struct {
	Schema    string     `json:"$schema"`
	SkillsMCP *SiteExtra `json:"skillsMcp,omitempty"`
	Skills    []Entry    `json:"skills"`
}

// SiteExtra tells a client that knows skills-mcp which bundle a site
// publishes, and where its manifest and signatures are (relative to the
// index) when the bundle is signed.
type SiteExtra struct {
	Bundle     string   `json:"bundle"`             // bundle id, "sha256:…"
	Manifest   string   `json:"manifest,omitempty"` // "manifest.json"
	Signatures []string `json:"signatures,omitempty"`
}

// Entry is one skill of an index.
type Entry struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Digest      string `json:"digest"`
	// Version is the optional per-entry version of the newer discovery
	// draft (0.2.0 clients ignore it): the version of the skill's library,
	// as its configuration gives it; left out when it has none.
	Version   string      `json:"version,omitempty"`
	SkillsMCP *EntryExtra `json:"skillsMcp,omitempty"`
	Files     []string    `json:"-"` // a v0.1.0 entry's paths (ParseLegacyIndex)
}

// EntryExtra is our extra field on an entry: the skill's full path
// (namespace and folders) and the bundle it comes from.
type EntryExtra struct {
	Path   string `json:"path"`
	Bundle string `json:"bundle"`
}

// CheckName reports why s is not a valid index name (a skill name: 1–64
// characters of [a-z0-9-], no leading, trailing or double hyphen), or nil.
func CheckName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty name")
	case len(s) > 64:
		return fmt.Errorf("name %.64q… is longer than 64 characters", s)
	case s[0] == '-' || s[len(s)-1] == '-':
		return fmt.Errorf("name %q starts or ends with a hyphen", s)
	case strings.Contains(s, "--"):
		return fmt.Errorf("name %q holds a double hyphen", s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return fmt.Errorf("name %q holds a character outside [a-z0-9-]", s)
		}
	}
	return nil
}

// Names maps skill paths (namespace and folders, slash-separated, each
// ending in the skill's name) to index names, unique among them. The rule:
//
//  1. A skill whose name no other path shares keeps its name.
//  2. Skills that share a name take their whole path as a slug: lower
//     case, every run of characters outside [a-z0-9] one hyphen, segments
//     joined by hyphens ("acme/billing/refunds" → "acme-billing-refunds"),
//     when that slug is a valid name that no other path gets.
//  3. Otherwise the name, cut to 55 characters, a hyphen and the first 8
//     hex digits of the path's sha256 ("refunds-1a2b3c4d").
//
// The result depends only on the set of paths, never on their order.
func Names(paths []string) ([]string, error) {
	base := make([]string, len(paths))
	count := map[string]int{}
	for i, p := range paths {
		base[i] = p[strings.LastIndexByte(p, '/')+1:]
		count[base[i]]++
	}
	out := make([]string, len(paths))
	taken := map[string]bool{}
	for i, b := range base {
		if count[b] == 1 {
			out[i] = b
			taken[b] = true
		}
	}
	slugs := map[string]int{}
	for i, p := range paths {
		if out[i] == "" {
			slugs[slug(p)]++
		}
	}
	for i, p := range paths {
		if out[i] != "" {
			continue
		}
		if s := slug(p); slugs[s] == 1 && !taken[s] && CheckName(s) == nil {
			out[i] = s
		}
	}
	for _, n := range out {
		if n != "" {
			taken[n] = true
		}
	}
	for i, p := range paths {
		if out[i] != "" {
			continue
		}
		sum := sha256.Sum256([]byte(p))
		n := strings.TrimRight(base[i][:min(len(base[i]), 55)], "-")
		out[i] = n + "-" + hex.EncodeToString(sum[:4])
	}
	seen := map[string]string{}
	for i, n := range out {
		if err := CheckName(n); err != nil {
			return nil, fmt.Errorf("skill %s: index %w", paths[i], err)
		}
		if other, dup := seen[n]; dup {
			return nil, fmt.Errorf("skills %s and %s map to one index name %q", other, paths[i], n)
		}
		seen[n] = paths[i]
	}
	return out, nil
}

// slug lower-cases p, turns every run of characters outside [a-z0-9]
// into one hyphen, and joins the non-empty segments with hyphens.
func slug(p string) string {
	var segs []string
	for seg := range strings.SplitSeq(p, "/") {
		var b strings.Builder
		dash := false
		for _, r := range strings.ToLower(seg) {
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = false
				b.WriteRune(r)
			} else {
				dash = true
			}
		}
		if b.Len() > 0 {
			segs = append(segs, b.String())
		}
	}
	return strings.Join(segs, "-")
}

// ArtifactPath returns where a skill's artifact sits below the index's
// folder: "<name>/<hex>/SKILL.md" for a lone SKILL.md, "<name>/<hex>.tar.gz"
// for an archive. The digest in the path makes every artifact URL
// immutable, so caches may keep it for good.
func ArtifactPath(name, typ string, d manifest.Digest) string {
	if typ == TypeSkillMD {
		return name + "/" + d.Hex() + "/" + manifest.SkillFile
	}
	return name + "/" + d.Hex() + ".tar.gz"
}
