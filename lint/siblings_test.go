package lint

import (
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestInSkill proves bytecode shipped with its source is a note, and
// without it (or beside a source of another name, or a .pyc beside its
// .py) stays a warning; other findings are left as they are.
func TestInSkill(t *testing.T) {
	wasm := "\x00asm\x01\x00\x00\x00"
	class := "\xca\xfe\xba\xbe\x00\x00\x00\x41"
	pyc := "\xcb\r\r\n\x00\x00\x00\x00\x12\x34\x56\x67\x10\x00\x00\x00\xe3"
	cases := []struct {
		file, data string
		others     []string
		want       string
	}{
		{"wasm/adler32.wasm", wasm, []string{"SKILL.md", "wasm/adler32.wat", "wasm/load.js"}, SeverityNote},
		{"lib/core.wasm", wasm, []string{"SKILL.md", "src/core.rs"}, SeverityNote},
		{"lib/core.wasm", wasm, []string{"SKILL.md", "src/lib.rs", "core.md"}, SeverityWarning},
		{"lib/core.wasm", wasm, []string{"SKILL.md"}, SeverityWarning},
		{"bin/Hello.class", class, []string{"SKILL.md", "src/Hello.java"}, SeverityNote},
		{"bin/Hello$1.class", class, []string{"SKILL.md", "src/Hello.java"}, SeverityNote},
		{"bin/Hello.class", class, []string{"SKILL.md", "src/Hello.class.txt"}, SeverityWarning},
		{"scripts/wsfix.pyc", pyc, []string{"SKILL.md", "scripts/wsfix.py"}, SeverityWarning},
	}
	for _, c := range cases {
		fs := Analyze(c.file, []byte(c.data))
		fs = append(fs, manifest.Finding{Rule: "pipe-to-shell", File: "SKILL.md", Line: 3, Severity: SeverityWarning, Excerpt: "curl x | sh"})
		InSkill(append(c.others, c.file), func(string) []byte { return nil }, fs)
		got := ruleFinding(fs, "opaque-file")
		if got == nil {
			t.Errorf("%s: no opaque-file finding in %v", c.file, fs)
			continue
		}
		if got.Severity != c.want {
			t.Errorf("%s beside %v: %s, want %s", c.file, c.others, got.Severity, c.want)
		}
		if c.want == SeverityNote && !strings.Contains(got.Excerpt, "ships with it") {
			t.Errorf("%s: excerpt %q does not name the source", c.file, got.Excerpt)
		}
		if last := fs[len(fs)-1]; last.Severity != SeverityWarning {
			t.Errorf("%s: another rule's finding changed: %+v", c.file, last)
		}
	}
}

// inSkillAnalyzed returns the findings of file (its bytes data) once InSkill
// has graded them beside the skill's other paths.
func inSkillAnalyzed(file, data string, others []string) []manifest.Finding {
	fs := Analyze(file, []byte(data))
	InSkill(append(others, file), func(string) []byte { return nil }, fs)
	return fs
}

// ruleFinding returns the last finding of rule in fs, or nil.
func ruleFinding(fs []manifest.Finding, rule string) *manifest.Finding {
	var got *manifest.Finding
	for i := range fs {
		if fs[i].Rule == rule {
			got = &fs[i]
		}
	}
	return got
}

// TestInSkillMinifiedSource proves a minified file shipped with its
// readable source is a note, and one without it a warning.
func TestInSkillMinifiedSource(t *testing.T) {
	min := "var a=1;" + strings.Repeat("a=a+1;", 400) + "\n"
	cases := []struct {
		file   string
		others []string
		want   string
	}{
		{"assets/vendor/sparkline.min.js", []string{"SKILL.md", "src/sparkline.ts"}, SeverityNote},
		{"vendor/tinyspark.min.js", []string{"SKILL.md", "vendor/tinyspark.js"}, SeverityNote},
		{"vendor/tinyspark.min.js", []string{"SKILL.md", "vendor/other.js", "tinyspark.md"}, SeverityWarning},
		{"vendor/app.js", []string{"SKILL.md", "src/app.ts"}, SeverityWarning}, // not named .min: not a build's output
	}
	for _, c := range cases {
		fs := inSkillAnalyzed(c.file, min, c.others)
		got := ruleFinding(fs, "minified-code")
		if got == nil {
			t.Errorf("%s: no minified-code finding in %v", c.file, fs)
			continue
		}
		if got.Severity != c.want {
			t.Errorf("%s beside %v: %s, want %s", c.file, c.others, got.Severity, c.want)
		}
	}
}

// TestInSkillOwnSecret proves a keychain or Secret Service read of an item
// the skill has the user store is a note, and any other read a warning.
func TestInSkillOwnSecret(t *testing.T) {
	files := map[string]string{
		"SKILL.md":          "Once: `security add-generic-password -a \"$USER\" -s npm-automation-token -w`\n",
		"scripts/get.sh":    "token=$(security find-generic-password -a \"$USER\" -s npm-automation-token -w)\n",
		"scripts/chrome.sh": "k=$(security find-generic-password -s 'Chrome Safe Storage' -w)\n",
		"scripts/st.sh":     "t=$(secret-tool lookup service myapp user \"$USER\")\n",
		"scripts/store.sh":  "secret-tool store --label=myapp service myapp user \"$USER\"\n",
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	data := func(p string) []byte { return []byte(files[p]) }
	for file, want := range map[string]string{"scripts/get.sh": SeverityNote, "scripts/chrome.sh": SeverityWarning, "scripts/st.sh": SeverityNote} {
		fs := Analyze(file, []byte(files[file]))
		InSkill(paths, data, fs)
		got := ""
		for _, f := range fs {
			if f.Rule == "credential-store" {
				got = f.Severity
			}
		}
		if got != want {
			t.Errorf("%s: credential-store %q, want %q", file, got, want)
		}
	}
	// Without the store, the same read is a warning.
	fs := Analyze("scripts/get.sh", []byte(files["scripts/get.sh"]))
	InSkill([]string{"scripts/get.sh"}, data, fs)
	for _, f := range fs {
		if f.Rule == "credential-store" && f.Severity != SeverityWarning {
			t.Errorf("a read of an item no file stores: %s", f.Severity)
		}
	}
}
