package build

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// openBuilt opens and fully verifies a bundle, as verify, inspect, serve
// and pull do.
func openBuilt(t *testing.T, data []byte) *manifest.Manifest {
	t.Helper()
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Verify(); err != nil {
		t.Fatalf("the bundle build wrote does not verify: %v", err)
	}
	m, err := b.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// manifestText is every warning and withheld reason of m, one a line.
func manifestText(m *manifest.Manifest) string {
	var lines []string
	lines = append(lines, m.Warnings...)
	for _, w := range m.Withheld {
		lines = append(lines, w.Path+": "+w.Reason)
	}
	return strings.Join(lines, "\n")
}

// TestNamesNotUTF8 builds libraries where a name that is not valid UTF-8
// reaches a warning or a withheld skill's reason. The bundle must open and
// verify, and each message must name the file with Go escapes.
func TestNamesNotUTF8(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, root, skill string)
		want  string // in a warning or reason
		rule  string // the skill bad-skill is withheld by, or "" when it is published
	}{
		{"dotfile", func(t *testing.T, root, skill string) {
			os.WriteFile(filepath.Join(skill, ".\xff"), []byte("x"), 0o644)
		}, `".\xff"`, ""},
		{"symlink", func(t *testing.T, root, skill string) {
			os.Symlink("/etc/passwd", filepath.Join(skill, "l\xfe"))
		}, `"l\xfe"`, RuleSymlink},
		{"symlinked-folder", func(t *testing.T, root, skill string) {
			os.Symlink(t.TempDir(), filepath.Join(root, "s\xfd"))
		}, `"s\xfd": symlink not followed`, ""},
		{"category-folder", func(t *testing.T, root, skill string) {
			writeSkill(t, root, "\xff/cat", map[string]string{})
		}, `"\xff": folder name is not valid UTF-8 (rule path-invalid)`, ""},
		{"file-in-withheld-skill", func(t *testing.T, root, skill string) {
			os.WriteFile(filepath.Join(skill, "caf\xe9.md"), []byte("x"), 0o644)
		}, `"caf\xe9.md": name is not valid UTF-8 (rule path-invalid)`, RulePathInvalid},
		{"folder-in-skill", func(t *testing.T, root, skill string) {
			os.MkdirAll(filepath.Join(skill, "d\xe9j\xe0"), 0o755)
			os.WriteFile(filepath.Join(skill, "d\xe9j\xe0", "x.md"), []byte("x"), 0o644)
		}, `"d\xe9j\xe0": name is not valid UTF-8`, RulePathInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeSkill(t, root, "ok-skill", map[string]string{})
			skill := writeSkill(t, root, "bad-skill", map[string]string{})
			c.setup(t, root, skill)
			data, _ := buildBytes(t, Options{Libraries: []Library{{Root: root}}})
			m := openBuilt(t, data)
			text := manifestText(m)
			if !utf8.ValidString(text) {
				t.Fatalf("manifest text is not valid UTF-8: %q", text)
			}
			if !strings.Contains(text, c.want) {
				t.Errorf("no message names %s:\n%s", c.want, text)
			}
			withheld := slices.IndexFunc(m.Withheld, func(w manifest.Withheld) bool { return w.Path == "bad-skill" }) >= 0
			if withheld != (c.rule != "") {
				t.Errorf("bad-skill withheld = %v, want %v:\n%s", withheld, c.rule != "", text)
			}
			for _, w := range m.Withheld {
				if c.rule != "" && !slices.Contains(w.Rules, c.rule) {
					t.Errorf("withheld %s by %v, want %s", w.Path, w.Rules, c.rule)
				}
			}
		})
	}
}

// TestRootNameNotUTF8: a root that is itself a skill is published under its
// folder name; a name no skill path may hold leaves it out, with a warning.
func TestRootNameNotUTF8(t *testing.T) {
	root := filepath.Join(t.TempDir(), "r\xff")
	writeSkill(t, root, ".", map[string]string{"SKILL.md": "---\nname: r\ndescription: d\n---\n"})
	data, _ := buildBytes(t, Options{Libraries: []Library{{Root: root}}})
	m := openBuilt(t, data)
	if text := manifestText(m); !strings.Contains(text, `"r\xff": root folder name is not valid UTF-8 (rule path-invalid)`) {
		t.Errorf("no warning names the root folder:\n%s", text)
	}
}

// TestPathsPullRefuses: what pull refuses, build withholds, naming the file
// and the rule: a drive-letter segment anywhere, and a file equal to a folder
// under case folding.
func TestPathsPullRefuses(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		rule  string
		want  string
	}{
		{"drive-file", map[string]string{"C:notes.md": "x"}, RulePathInvalid, "C:notes.md: name starts with a drive letter"},
		{"drive-folder", map[string]string{"refs/d:x/a.md": "x"}, RulePathInvalid, "refs/d:x: name starts with a drive letter"},
		{"file-beside-folder", map[string]string{"Docs": "x", "docs/a.md": "y"}, RuleCaseCollision, "docs: same name as Docs except for case"},
		{"folder-beside-file", map[string]string{"Docs/a.md": "x", "docs": "y"}, RuleCaseCollision, "docs: same name as Docs except for case"},
		{"skill-md", map[string]string{"skill.md": "x"}, RuleCaseCollision, "skill.md: same name as SKILL.md except for case"},
		{"kelvin", map[string]string{"K.md": "x", "\u212a.md": "y"}, RuleCaseCollision, "same name as K.md except for case"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeSkill(t, root, "ok-skill", map[string]string{})
			writeSkill(t, root, "bad-skill", c.files)
			data, res := buildBytes(t, Options{Libraries: []Library{{Root: root}}})
			openBuilt(t, data)
			checkWithheld(t, res, c.rule)
			if r := res.Manifest.Withheld[0].Reason; !strings.Contains(r, c.want) {
				t.Errorf("reason %q, want it to hold %q", r, c.want)
			}
		})
	}
}

// TestZipPathsPullRefuses: a zip library holding a path pull refuses is
// refused whole, naming the entry and the rule: a drive letter in any
// segment, a file equal to a folder under case folding. (A name that is
// only no portable file name withholds its skill: TestBadNameWithheld.)
func TestZipPathsPullRefuses(t *testing.T) {
	skill := "---\nname: s\ndescription: d\n---\n"
	for _, c := range []struct {
		entries []zent
		rule    string
	}{
		{[]zent{{name: "s/SKILL.md", body: skill}, {name: "s/refs/C:x.md", body: "x"}}, ArchiveRuleZipSlip},
		{[]zent{{name: "s/SKILL.md", body: skill}, {name: "s/Docs", body: "x"}, {name: "s/docs/a.md", body: "x"}}, ArchiveRuleDuplicate},
	} {
		_, err := openZipBytes(makeZip(t, c.entries...), ArchiveLimits{})
		wantRule(t, err, c.rule)
	}
}

// TestBadNameWithheld: a file or folder name that breaks the path rule
// without escaping (a 300-byte name, a control character) withholds the
// skill that holds it, rule path-invalid, and only that skill, whether the
// library is a zip or a folder: one rule (manifest.CheckSegment), applied by
// the skill reader to both. (A zip entry name that is not UTF-8 can be no
// path of the zip's tree, and refuses the archive.)
func TestBadNameWithheld(t *testing.T) {
	long := strings.Repeat("a", 300)
	for _, name := range []string{long + ".md", "refs/" + long + "/a.md", "a\u0085b.md", "a\x1b[31m.md"} {
		ok := "---\nname: ok-skill\ndescription: d\n---\n"
		bad := "---\nname: bad-skill\ndescription: d\n---\n"
		zipPath := filepath.Join(t.TempDir(), "lib.zip")
		os.WriteFile(zipPath, makeZip(t, zent{name: "ok-skill/SKILL.md", body: ok}, zent{name: "bad-skill/SKILL.md", body: bad},
			zent{name: "bad-skill/" + name, body: "x"}), 0o644)
		_, res := buildBytes(t, Options{Libraries: []Library{{Root: zipPath}}})
		checkWithheld(t, res, RulePathInvalid)
		if len(name) > 255 {
			continue // no folder holds it
		}
		root := t.TempDir()
		writeSkill(t, root, "ok-skill", map[string]string{})
		writeSkill(t, root, "bad-skill", map[string]string{name: "x"})
		_, res = buildBytes(t, Options{Libraries: []Library{{Root: root}}})
		checkWithheld(t, res, RulePathInvalid)
	}
}
