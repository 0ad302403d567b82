package serve

import (
	"errors"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestResourceLookup checks the lookup resources/read uses, which parses a
// skill's record once and then answers from what it kept, against the
// parsed records: every file of two merged bundles (nested skills, a
// percent-encoded name, a binary file), and URIs that name no file.
func TestResourceLookup(t *testing.T) {
	fx := exampleFixture()
	other := fixture{"zeta/tool": {"SKILL.md": "---\nname: tool\ndescription: Another bundle\n---\nZ.\n", "a b/c%d.md": "x\n"}}
	b1, _ := memBundle(t, fx)
	b2, _ := fileBundle(t, other)
	snap, err := newSnapshot([]*manifest.Bundle{b2, b1}, false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k := range snap.Len() {
		sk, err := snap.Skill(k)
		if err != nil {
			t.Fatal(err)
		}
		wantBundle, _ := snap.Bundle(k)
		for j, r := range sk.Entry.Resources {
			if inner, ok := snap.SkillFor(r.URI); !ok || inner != k {
				continue // a nested skill's file: its own skill answers
			}
			b, f, err := snap.resource(r.URI)
			if err != nil {
				t.Fatalf("%s: %v", r.URI, err)
			}
			want := sk.Files[j]
			if b != wantBundle || f.digest != r.Digest || f.mime != want.MimeType || f.text != want.Text {
				t.Errorf("%s: got %s %q text=%v, want %s %q text=%v", r.URI, f.digest, f.mime, f.text, r.Digest, want.MimeType, want.Text)
			}
			if _, again, _ := snap.resource(r.URI); again != f {
				t.Errorf("%s: the second lookup did not answer from the first one's record", r.URI)
			}
			n++
		}
	}
	if n != 17+2 { // the example's 18 files, less the nested skill's SKILL.md listed twice, and zeta's 2
		t.Errorf("looked up %d files, want 19", n)
	}
	for _, uri := range []string{
		"skill://acme/pdf-processing",                             // a skill's folder
		"skill://acme/pdf-processing/templates",                   // a sub-folder
		"skill://acme/pdf-processing/references/MISSING.md",       // no such file
		"skill://acme/pdf-processing/references/FORMS.md/x",       // below a file
		"skill://acme/pdf-processing/templates/purchase order.md", // not percent-encoded as served
		"skill://acme/pdf-processingX/SKILL.md",                   // a sibling named alike
		"skill://acme/billing/SKILL.md",                           // a folder above skills
		"skill://zeta/tool/a%20b/c%2525d.md",                      // encoded twice
		"skill://nowhere/SKILL.md",
	} {
		if _, _, err := snap.resource(uri); !errors.Is(err, errNoFile) {
			t.Errorf("%s: got %v, want errNoFile", uri, err)
		}
	}
	if _, f, err := snap.resource("skill://zeta/tool/a%20b/c%25d.md"); err != nil || f.rel != "a%20b/c%25d.md" {
		t.Errorf("percent-encoded file: %v %+v", err, f)
	}
}

// TestSkillFilesBelowRootOnly checks that a record listing a resource
// outside its skill's folder (which no build writes) keeps it out of what
// reads can reach, and keeps the others right.
func TestSkillFilesBelowRootOnly(t *testing.T) {
	d := manifest.Sum([]byte("x"))
	sk := &manifest.Skill{Entry: manifest.Entry{URI: "skill://ns/a/SKILL.md", Resources: []manifest.Resource{
		{URI: "skill://ns/a/SKILL.md", Digest: d},
		{URI: "skill://n", Digest: d}, // shorter than the root
		{URI: "x", Digest: d},
		{URI: "y", Digest: d},
		{URI: "skill://ns/ab/x.md", Digest: d},        // a sibling folder
		{URI: "skill://ns/other/SKILL.md", Digest: d}, // another skill
		{URI: "skill://ns/a/scripts/run.py", Digest: d},
	}}, Files: []manifest.File{
		{Path: "SKILL.md", MimeType: "text/markdown", Text: true}, {}, {}, {}, {}, {},
		{Path: "scripts/run.py", MimeType: "text/x-python"},
	}}
	fs := newSkillFiles(sk)
	if fs.rootLen != len("skill://ns/a") || len(fs.files) != 2 {
		t.Fatalf("got root length %d and %d files, want %d and 2", fs.rootLen, len(fs.files), len("skill://ns/a"))
	}
	if f := fs.files[0]; f.rel != "SKILL.md" || f.mime != "text/markdown" || !f.text {
		t.Errorf("first file %+v", f)
	}
	if f := fs.files[1]; f.rel != "scripts/run.py" || f.mime != "text/x-python" || f.text {
		t.Errorf("second file %+v", f)
	}
}
