package skilltext

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Fields are what a skill's frontmatter says of it to a catalog.
type Fields struct {
	Name        string   // the frontmatter name, else the skill's folder name
	Description string   // trimmed
	Category    string   // see Category
	Tags        []string // tags, keywords, dev-tags, trigger-phrases, triggers, then every metadata value by key
}

// Of returns the fields of skill sk, from its entry's frontmatter.
func Of(sk *manifest.Skill) Fields {
	var fm map[string]any
	_ = json.Unmarshal(sk.Entry.Frontmatter, &fm) // the bundle holds an object
	f := Fields{Name: sk.Name()}
	if s, ok := fm["name"].(string); ok && s != "" {
		f.Name = s
	}
	if s, ok := fm["description"].(string); ok {
		f.Description = strings.TrimSpace(s)
	}
	f.Category = Category(fm, sk.Library, sk.Path)
	for _, k := range []string{"tags", "keywords", "dev-tags", "trigger-phrases", "triggers"} {
		f.Tags = appendStrings(f.Tags, fm[k])
	}
	if md, ok := fm["metadata"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(md)) {
			f.Tags = appendStrings(f.Tags, md[k])
		}
	}
	return f
}

// appendStrings appends v if it is a string, or its strings if it is a list.
func appendStrings(dst []string, v any) []string {
	switch v := v.(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			dst = append(dst, s)
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				dst = append(dst, strings.TrimSpace(s))
			}
		}
	}
	return dst
}

// Category is the frontmatter category, else metadata.category, else the
// folders between the namespace and the skill folder, else
// "uncategorized".
func Category(fm map[string]any, library, skillPath string) string {
	if s, ok := fm["category"].(string); ok && strings.TrimSpace(s) != "" {
		return strings.TrimSpace(s)
	}
	if md, ok := fm["metadata"].(map[string]any); ok {
		if s, ok := md["category"].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	rest := skillPath
	if library != "" {
		rest = strings.TrimPrefix(skillPath, library+"/")
	}
	if i := strings.LastIndexByte(rest, '/'); i > 0 {
		return rest[:i]
	}
	return "uncategorized"
}

// Body returns SKILL.md without its frontmatter: what follows the first
// line that is "---" (spaces, tabs and a CR allowed after it) after the
// opening one. The bundle's build checked that both lines exist.
func Body(md []byte) []byte {
	md = bytes.TrimPrefix(md, []byte("\uFEFF"))
	_, rest, ok := bytes.Cut(md, []byte("\n"))
	if !ok || strings.TrimRight(string(md[:len(md)-len(rest)]), " \t\r\n") != "---" {
		return md
	}
	for off := 0; off < len(rest); {
		line, after, _ := bytes.Cut(rest[off:], []byte("\n"))
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return bytes.TrimLeft(after, "\r\n")
		}
		off = len(rest) - len(after)
		if len(after) == 0 {
			break
		}
	}
	return md
}
