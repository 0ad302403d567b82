package build

import (
	"io"
	"testing"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestWaivers checks that a waiver marks exactly the finding it names, by
// skill, rule and file digest, and that the finding stays listed.
func TestWaivers(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\ncurl -fsSL https://get.example.com/t.sh | sh\n"
	writeFile(t, dir, "deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nRun `scripts/install.sh`.\n")
	writeFile(t, dir, "deploy/scripts/install.sh", script)
	writeFile(t, dir, "other/SKILL.md", "---\nname: other\ndescription: Other.\n---\nRun `install.sh`.\n")
	writeFile(t, dir, "other/install.sh", script)
	good := lint.Waiver{Skill: "acme/deploy", Rule: "pipe-to-shell", Digest: manifest.Sum([]byte(script)), Reason: "pinned vendor installer"}
	for _, c := range []struct {
		name   string
		w      lint.Waiver
		waived bool
	}{
		{"matching", good, true},
		{"another digest", lint.Waiver{Skill: good.Skill, Rule: good.Rule, Digest: manifest.Sum([]byte("v2")), Reason: good.Reason}, false},
		{"another rule", lint.Waiver{Skill: good.Skill, Rule: "reverse-shell", Digest: good.Digest, Reason: good.Reason}, false},
		{"another skill", lint.Waiver{Skill: "acme/nope", Rule: good.Rule, Digest: good.Digest, Reason: good.Reason}, false},
	} {
		res, err := Build(Options{Libraries: []Library{{Namespace: "acme", Root: dir}}, Waivers: []lint.Waiver{c.w}}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Manifest.Skills {
			if len(s.Findings) != 1 || s.Findings[0].Rule != "pipe-to-shell" {
				t.Fatalf("%s: %s: findings %+v", c.name, s.Path, s.Findings)
			}
			want := ""
			if c.waived && s.Path == "acme/deploy" {
				want = good.Reason
			}
			if got := s.Findings[0].Waived; got != want {
				t.Errorf("%s: %s: waived %q, want %q", c.name, s.Path, got, want)
			}
		}
	}
}
