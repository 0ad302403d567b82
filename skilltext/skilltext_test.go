package skilltext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

func skill(path, library, frontmatter string) *manifest.Skill {
	return &manifest.Skill{Path: path, Library: library, Entry: manifest.Entry{Frontmatter: json.RawMessage(frontmatter)}}
}

// TestOf reads name, description, tags in their order and category from a
// skill's frontmatter, and falls back where the frontmatter says nothing.
func TestOf(t *testing.T) {
	f := Of(skill("acme/docs/pdf-tools", "acme", `{"name":"pdf","description":"  Fill PDF forms. ",
		"tags":["pdf"," forms "],"keywords":"acrobat","triggers":[1,"fill a form"],
		"metadata":{"z":"last","a":["first",""],"category":"office"}}`))
	want := Fields{Name: "pdf", Description: "Fill PDF forms.", Category: "office",
		Tags: []string{"pdf", "forms", "acrobat", "fill a form", "first", "office", "last"}}
	if f.Name != want.Name || f.Description != want.Description || f.Category != want.Category || strings.Join(f.Tags, "|") != strings.Join(want.Tags, "|") {
		t.Errorf("Of = %+v, want %+v", f, want)
	}
	f = Of(skill("acme/docs/pdf-tools", "acme", `{"description":7,"category":" "}`))
	if f.Name != "pdf-tools" || f.Description != "" || f.Category != "docs" || f.Tags != nil {
		t.Errorf("Of without frontmatter fields = %+v", f)
	}
	if c := Category(nil, "", "pdf-tools"); c != "uncategorized" {
		t.Errorf("Category of a top-level skill = %q", c)
	}
	if c := Category(nil, "", "team/pdf-tools"); c != "team" {
		t.Errorf("Category of an un-namespaced nested skill = %q", c)
	}
}

// TestBody cuts the frontmatter, and leaves a file without one whole.
func TestBody(t *testing.T) {
	for in, want := range map[string]string{
		"---\nname: x\n---\n\n# Use\nText\n":   "# Use\nText\n",
		"\uFEFF---\r\nname: x\r\n--- \r\nBody": "Body",
		"# No frontmatter\n":                   "# No frontmatter\n",
		"---\nname: x\nnever closed\n":         "---\nname: x\nnever closed\n",
	} {
		if got := string(Body([]byte(in))); got != want {
			t.Errorf("Body(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzBody: the body is always a suffix of the file.
func FuzzBody(f *testing.F) {
	f.Add("---\nname: x\n---\nbody\n")
	f.Fuzz(func(t *testing.T, md string) {
		if body := Body([]byte(md)); !bytes.HasSuffix([]byte(md), body) {
			t.Errorf("Body(%q) = %q, not a suffix", md, body)
		}
	})
}
