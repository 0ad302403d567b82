package manifest

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckSegment(t *testing.T) {
	ok := []string{"a", "SKILL.md", "café.md", "a b", "%41", "#x", "?q", ".hidden", "ab:c", "1:x", strings.Repeat("é", 127)}
	for _, s := range ok {
		if err := CheckSegment(s); err != nil {
			t.Errorf("CheckSegment(%q) = %v, want nil", s, err)
		}
	}
	bad := map[string]error{
		"":                       ErrPathName,
		"..":                     ErrPathEscape,
		`a\b`:                    ErrPathEscape,
		"a/b":                    ErrPathEscape,
		"C:":                     ErrPathEscape,
		"c:x":                    ErrPathEscape,
		"z:/":                    ErrPathEscape,
		".":                      ErrPathName,
		"caf\xe9.md":             ErrPathName,
		"\xff":                   ErrPathName,
		"a\x00b":                 ErrPathName,
		"a\x1fb":                 ErrPathName,
		"a\x7fb":                 ErrPathName,
		"a\u0085b":               ErrPathName, // a C1 control
		strings.Repeat("a", 256): ErrPathName,
		strings.Repeat("é", 128): ErrPathName, // 256 bytes
	}
	for s, kind := range bad {
		err := CheckSegment(s)
		if !errors.Is(err, kind) {
			t.Errorf("CheckSegment(%.20q) = %v, want %v", s, err, kind)
		}
	}
}

func TestCheckPathNamesSegment(t *testing.T) {
	err := CheckPath("docs/caf\xe9.md")
	if err == nil || !strings.Contains(err.Error(), `"caf\xe9.md"`) || !utf8.ValidString(err.Error()) {
		t.Fatalf("CheckPath = %v, want it to name the segment quoted", err)
	}
	for _, p := range []string{"a/../b", `a\b`, "x/C:y"} {
		if !errors.Is(CheckPath(p), ErrPathEscape) {
			t.Errorf("CheckPath(%q) = %v, want ErrPathEscape", p, CheckPath(p))
		}
	}
}

func TestPathSet(t *testing.T) {
	cases := []struct {
		paths []string // a trailing slash adds a folder
		clash string   // the path Add refuses, "" for none
	}{
		{[]string{"SKILL.md", "docs/a.md", "docs/b.md", "docs/sub/c.md"}, ""},
		{[]string{"docs/", "docs/a.md", "docs/"}, ""},
		{[]string{"Notes.md", "notes.md"}, "notes.md"},
		{[]string{"Docs", "docs/a.md"}, "docs"},
		{[]string{"docs/a.md", "Docs"}, "Docs"},
		{[]string{"docs", "docs/a.md"}, "docs"},
		{[]string{"docs/a.md", "docs"}, "docs"},
		{[]string{"a.md", "a.md"}, "a.md"},
		{[]string{"skill.md", "SKILL.md"}, "SKILL.md"},
		{[]string{"x/K.md", "x/\u212a.md"}, "x/\u212a.md"}, // KELVIN SIGN folds to k
		{[]string{"é.md", "e\u0301.md"}, ""},               // NFC and NFD differ in bytes
	}
	for _, c := range cases {
		var s PathSet
		got := ""
		for _, p := range c.paths {
			err := s.Add(strings.TrimSuffix(p, "/"), strings.HasSuffix(p, "/"))
			var ce *CollisionError
			if errors.As(err, &ce) {
				got = ce.Path
				if !strings.Contains(err.Error(), ce.Path) {
					t.Errorf("%v: error %q does not name %s", c.paths, err, ce.Path)
				}
				break
			}
		}
		if got != c.clash {
			t.Errorf("%v: clash at %q, want %q", c.paths, got, c.clash)
		}
	}
}

func TestQuoteName(t *testing.T) {
	for in, want := range map[string]string{
		"SKILL.md":   "SKILL.md",
		"a b.md":     "a b.md",
		"café":       "café",
		"caf\xe9.md": `"caf\xe9.md"`,
		".\xff":      `".\xff"`,
		`"x"`:        `"\"x\""`,
		`a\b`:        `"a\\b"`,
		"a\nb":       `"a\nb"`,
	} {
		if got := QuoteName(in); got != want || !utf8.ValidString(got) {
			t.Errorf("QuoteName(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestInvalidUTF8Refused: a string that is not valid UTF-8 anywhere in a
// manifest is refused when it is written, with a message naming it, and a
// manifest whose bytes are not valid UTF-8 is refused when it is read.
func TestInvalidUTF8Refused(t *testing.T) {
	_, good := testBundle(t)
	mutations := map[string]func(m *Manifest){
		"warning": func(m *Manifest) { m.Warnings = append(m.Warnings, "skipped .\xff") },
		"reason": func(m *Manifest) {
			m.Withheld = append(m.Withheld, Withheld{Library: "acme", Path: "x", Rules: []string{"r"}, Reason: "caf\xe9.md: bad"})
		},
		"wpath": func(m *Manifest) {
			m.Withheld = append(m.Withheld, Withheld{Library: "acme", Path: "\xff/x", Rules: []string{"r"}, Reason: "r"})
		},
		"title":    func(m *Manifest) { m.Libraries[0].Title = "t\xff" },
		"metadata": func(m *Manifest) { m.Libraries[0].Metadata = map[string]string{"k": "\xff"} },
		"excerpt": func(m *Manifest) {
			m.Skills[0].Findings = append(m.Skills[0].Findings, Finding{Rule: "r", File: SkillFile, Line: 1, Severity: "note", Excerpt: "\xfe"})
		},
		"provenance": func(m *Manifest) { m.Skills[0].Provenance = map[string]any{"origin": []any{"\xff"}} },
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			m := cloneManifest(t, good)
			mutate(m)
			w := NewWriter(&bytes.Buffer{})
			_, err := w.Finish(m)
			if err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
				t.Fatalf("Finish = %v, want a refusal naming invalid UTF-8", err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Errorf("error %q is not valid UTF-8 itself", err)
			}
		})
	}
	b, err := Marshal(good)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`"generator":"`)) + len(`"generator":"`)
	bad := append(append(append([]byte{}, b[:i]...), 0xff), b[i:]...)
	if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "not valid UTF-8 at byte") {
		t.Fatalf("Parse = %v, want a refusal naming invalid UTF-8", err)
	}
}

// TestPathRuleInCheck: a manifest whose skill or file paths break the path
// rule, clash under case folding, or whose URIs are not the ones of their
// paths is never written.
func TestPathRuleInCheck(t *testing.T) {
	_, good := testBundle(t)
	mutations := map[string]func(s *Skill){
		"drive": func(s *Skill) { s.Files[1].Path = "C:x"; s.Entry.Resources[1].URI = s.Entry.Root() + "/C:x" },
		"long": func(s *Skill) {
			p := strings.Repeat("a", 256)
			s.Files[1].Path = p
			s.Entry.Resources[1].URI = s.Entry.Root() + "/" + p
		},
		"case":      func(s *Skill) { s.Files[2].Path = strings.ToUpper(s.Files[1].Path) },
		"uri":       func(s *Skill) { s.Entry.Resources[1].URI = s.Entry.Root() + "/other.md" },
		"skilluri":  func(s *Skill) { s.Path = "acme/other" },
		"pathdrive": func(s *Skill) { s.Path = "c:/x" },
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			m := cloneManifest(t, good)
			mutate(&m.Skills[0])
			if err := Check(m); err == nil {
				t.Fatal("Check accepted it")
			}
		})
	}
	if err := Check(good); err != nil {
		t.Fatal(err)
	}
}

func cloneManifest(t *testing.T, m *Manifest) *Manifest {
	t.Helper()
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
