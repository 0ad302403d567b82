package bundletest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Skill is one skill of a JSON fixture (search/testdata/skills.json,
// written by search/testdata/gen): the fields of its SKILL.md frontmatter
// and its body, at a path whose first segment is the library namespace.
type Skill struct {
	Path        string            `json:"path"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Category    string            `json:"category,omitempty"`
	Tags        []string          `json:"tags,omitempty"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	Hidden      bool              `json:"hidden,omitempty"`
	Body        string            `json:"body"`
}

// ReadJSON decodes file into v, refusing fields v does not have.
func ReadJSON(t testing.TB, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// Markdown renders a fixture skill as SKILL.md.
func Markdown(t testing.TB, s Skill) []byte {
	t.Helper()
	fm := struct {
		Name     string            `yaml:"name"`
		Desc     string            `yaml:"description"`
		Category string            `yaml:"category,omitempty"`
		Tags     []string          `yaml:"tags,omitempty"`
		Metadata map[string]string `yaml:"metadata,omitempty"`
		Disable  bool              `yaml:"disable-model-invocation,omitempty"`
	}{s.Name, s.Description, s.Category, s.Tags, s.Metadata, s.Hidden}
	y, err := yaml.Marshal(fm)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Appendf(nil, "---\n%s---\n\n%s", y, s.Body)
}

// Skills writes skills as library folders (the first path segment is the
// namespace) and builds them, with the folder libraries extra, into bundle
// bytes. Only extra's skills may be withheld; with extra, the risk linter
// is skipped (it does not bear on search, and the corpora are large).
func Skills(t testing.TB, skills []Skill, extra []build.Library) []byte {
	t.Helper()
	dir := t.TempDir()
	var libs []build.Library
	for _, s := range skills {
		ns, _, _ := strings.Cut(s.Path, "/")
		if !slices.ContainsFunc(libs, func(l build.Library) bool { return l.Namespace == ns }) {
			libs = append(libs, build.Library{Namespace: ns, Root: filepath.Join(dir, ns), Title: ns + " skills"})
		}
		p := filepath.Join(dir, filepath.FromSlash(s.Path))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, manifest.SkillFile), Markdown(t, s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	res, err := build.Build(build.Options{Libraries: append(libs, extra...), NoLint: len(extra) > 0}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Manifest.Withheld {
		if !slices.ContainsFunc(extra, func(l build.Library) bool { return l.Namespace == w.Library }) {
			t.Fatalf("build withheld %+v", w)
		}
	}
	return buf.Bytes()
}

// Variants are n skills made from base: each a variant of a base skill,
// named apart and spread over ten namespaces, with the bodies of four base
// skills (about 2 KiB from the search fixture), so the vocabulary and its
// distribution are those of real skills. None is hidden.
func Variants(base []Skill, n int) []Skill {
	out := make([]Skill, 0, n)
	for i := range n {
		s := base[i%len(base)]
		v := s
		v.Name = fmt.Sprintf("%s-%d", s.Name, i)
		v.Path = fmt.Sprintf("ns%d/%s", i%10, v.Name)
		v.Hidden = false
		var body strings.Builder
		for j := range 4 {
			body.WriteString(base[(i*7+j*13)%len(base)].Body)
		}
		v.Body = s.Body + body.String()
		out = append(out, v)
	}
	return out
}
