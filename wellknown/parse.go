package wellknown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
	"gopkg.in/yaml.v3"
)

// MaxIndexBytes is the largest index ParseIndex reads.
const MaxIndexBytes = 16 << 20

// Parsed is an index read from an untrusted site: the entries that passed
// every check, and one refusal per entry that did not.
type Parsed struct {
	Extra   *SiteExtra
	Entries []Entry
	Refused []error // each a *RuleError naming the entry and the rule
}

// rawIndex is an index as it arrives: skills may be anything.
type rawIndex struct {
	Schema    *string           `json:"$schema"`
	SkillsMCP json.RawMessage   `json:"skillsMcp"`
	Skills    []json.RawMessage `json:"skills"`
}

// ParseIndex reads an index written by anyone. It refuses the whole index
// when it is not JSON, not an object with a skills array, or not v0.2.0
// ($schema must be Schema; an index without $schema is v0.1.0, which
// publishes no digests: rule index-unverified). Each entry is checked on
// its own: a name that breaks the skill-name rule, a second entry with one
// name, a missing or malformed description, url or digest is refused, and
// an unknown type is refused under rule entry-type (a client skips it with a
// warning). Unknown fields are ignored, as the RFC requires.
func ParseIndex(data []byte) (*Parsed, error) {
	if len(data) > MaxIndexBytes {
		return nil, refuse(RuleTooLarge, "index: %d bytes, more than %d", len(data), MaxIndexBytes)
	}
	var raw rawIndex
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, refuse(RuleSchema, "index: not a JSON object with a skills array: %v", err)
	}
	if dec.More() {
		return nil, refuse(RuleSchema, "index: data after the JSON object")
	}
	if raw.Skills == nil {
		return nil, refuse(RuleSchema, "index: no skills array")
	}
	switch {
	case raw.Schema == nil:
		return nil, refuse(RuleLegacy, "index: no $schema: a v0.1.0 index, which publishes no digests, so nothing it serves can be verified (--allow-unverified reads it anyway)")
	case *raw.Schema != Schema:
		return nil, refuse(RuleSchema, "index: $schema %q is not %s", short(*raw.Schema), Schema)
	}
	p := &Parsed{}
	if len(raw.SkillsMCP) > 0 {
		var x SiteExtra
		if json.Unmarshal(raw.SkillsMCP, &x) == nil {
			p.Extra = &x
		}
	}
	seen := map[string]bool{}
	for i, r := range raw.Skills {
		e, err := parseEntry(r)
		if err == nil && seen[e.Name] {
			err = refuse(RuleDuplicate, "a second entry named %q", e.Name)
		}
		if err != nil {
			re := err.(*RuleError)
			p.Refused = append(p.Refused, &RuleError{Rule: re.Rule, Msg: fmt.Sprintf("index entry %d: %s", i, re.Msg)})
			continue
		}
		seen[e.Name] = true
		p.Entries = append(p.Entries, e)
	}
	return p, nil
}

// wireEntry is an entry with every field optional, to tell missing from
// malformed.
type wireEntry struct {
	Name        *string         `json:"name"`
	Type        *string         `json:"type"`
	Description *string         `json:"description"`
	URL         *string         `json:"url"`
	Digest      *string         `json:"digest"`
	Version     json.RawMessage `json:"version"`
	SkillsMCP   json.RawMessage `json:"skillsMcp"`
}

// MaxVersion is the longest entry version ParseIndex accepts, in bytes:
// as long as build allows a library's version.
const MaxVersion = 200

func parseEntry(r json.RawMessage) (Entry, error) {
	var w wireEntry
	if err := json.Unmarshal(r, &w); err != nil {
		return Entry{}, refuse(RuleEntry, "not an object with string fields: %v", err)
	}
	if w.Name == nil {
		return Entry{}, refuse(RuleEntry, "no name")
	}
	if err := CheckName(*w.Name); err != nil {
		return Entry{}, refuse(RuleName, "%v", err)
	}
	e := Entry{Name: *w.Name}
	switch {
	case w.Type == nil:
		return e, refuse(RuleEntry, "%q: no type", e.Name)
	case *w.Type != TypeSkillMD && *w.Type != TypeArchive:
		return e, refuse(RuleType, "%q: unknown type %q, skipped", e.Name, short(*w.Type))
	case w.Description == nil || *w.Description == "" || utf8.RuneCountInString(*w.Description) > 1024:
		return e, refuse(RuleEntry, "%q: description missing or longer than 1024 characters", e.Name)
	case w.URL == nil || *w.URL == "":
		return e, refuse(RuleEntry, "%q: no url", e.Name)
	case w.Digest == nil:
		return e, refuse(RuleEntry, "%q: no digest", e.Name)
	}
	if _, err := manifest.ParseDigest(*w.Digest); err != nil {
		return e, refuse(RuleEntry, "%q: digest: %v", e.Name, err)
	}
	if !utf8.ValidString(*w.Description) || strings.ContainsRune(*w.URL, 0) {
		return e, refuse(RuleEntry, "%q: invalid UTF-8 or NUL", e.Name)
	}
	e.Type, e.Description, e.URL, e.Digest = *w.Type, *w.Description, *w.URL, *w.Digest
	if v := bytes.TrimSpace(w.Version); len(v) > 0 && string(v) != "null" {
		// Optional; when present, a string (the draft's type).
		if json.Unmarshal(v, &e.Version) != nil || len(e.Version) > MaxVersion || !utf8.ValidString(e.Version) || strings.ContainsRune(e.Version, 0) {
			return e, refuse(RuleEntry, "%q: version is not a string of at most %d bytes", e.Name, MaxVersion)
		}
	}
	if len(w.SkillsMCP) > 0 {
		var x EntryExtra
		if json.Unmarshal(w.SkillsMCP, &x) == nil && x.Path != "" {
			e.SkillsMCP = &x
		}
	}
	return e, nil
}

// short cuts an untrusted string for a message.
func short(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// SkillMDFields reads the name and description from the YAML frontmatter of
// an untrusted SKILL.md (between its first two "---" lines).
func SkillMDFields(data []byte) (name, description string, err error) {
	text := strings.ReplaceAll(string(data[:min(len(data), 1<<20)]), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", "", refuse(RuleFrontmatter, "%s has no frontmatter", manifest.SkillFile)
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", "", refuse(RuleFrontmatter, "%s: unterminated frontmatter", manifest.SkillFile)
	}
	var fm struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	if err := yaml.Unmarshal([]byte(rest[:end]), &fm); err != nil {
		return "", "", refuse(RuleFrontmatter, "%s: frontmatter: %v", manifest.SkillFile, err)
	}
	if fm.Name == "" || fm.Description == "" {
		return "", "", refuse(RuleFrontmatter, "%s: frontmatter has no name or no description", manifest.SkillFile)
	}
	return fm.Name, fm.Description, nil
}

// TypeLegacy is the type ParseLegacyIndex gives v0.1.0 entries: a skill
// folder whose files are listed without digests.
const TypeLegacy = "v0.1.0"

// ParseLegacyIndex reads a v0.1.0 index ({"skills": [{"name",
// "description", "files": [paths]}]}), which publishes no digests: nothing
// read through it can be verified, only checked for shape and paths. Each
// entry's Files lists its paths, SKILL.md among them, each a safe relative
// path (manifest.CheckPath).
func ParseLegacyIndex(data []byte) (*Parsed, error) {
	if len(data) > MaxIndexBytes {
		return nil, refuse(RuleTooLarge, "index: %d bytes, more than %d", len(data), MaxIndexBytes)
	}
	var raw struct {
		Skills []json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal(data, &raw); err != nil || raw.Skills == nil {
		return nil, refuse(RuleSchema, "index: not a JSON object with a skills array")
	}
	p := &Parsed{}
	seen := map[string]bool{}
	for i, r := range raw.Skills {
		var w struct {
			Name        string   `json:"name"`
			Description string   `json:"description"`
			Files       []string `json:"files"`
		}
		err := json.Unmarshal(r, &w)
		switch {
		case err != nil:
			err = refuse(RuleEntry, "not an object with a name, a description and files: %v", err)
		case CheckName(w.Name) != nil:
			err = refuse(RuleName, "%v", CheckName(w.Name))
		case seen[w.Name]:
			err = refuse(RuleDuplicate, "a second entry named %q", w.Name)
		case !slices.Contains(w.Files, manifest.SkillFile):
			err = refuse(RuleEntry, "%q: files do not list %s", w.Name, manifest.SkillFile)
		case len(w.Files) > 8*manifest.MaxSkillFiles:
			err = refuse(RuleTooLarge, "%q: %d files", w.Name, len(w.Files))
		}
		for _, f := range w.Files {
			if err == nil && manifest.CheckPath(f) != nil {
				err = refuse(RuleTraversal, "%q: file %s: %v", w.Name, manifest.QuoteName(f), manifest.CheckPath(f))
			}
		}
		if err != nil {
			p.Refused = append(p.Refused, &RuleError{Rule: RuleOf(err), Msg: fmt.Sprintf("index entry %d: %s", i, err.(*RuleError).Msg)})
			continue
		}
		seen[w.Name] = true
		p.Entries = append(p.Entries, Entry{Name: w.Name, Type: TypeLegacy, Description: w.Description, URL: w.Name + "/", Files: w.Files})
	}
	return p, nil
}
