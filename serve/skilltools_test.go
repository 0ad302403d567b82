package serve

// The skill tools: get_skill, read_skill_file and how a skill argument
// is resolved.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/manifest"
)

func TestResolveSkillArgument(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	tc := newToolClient(t, connectMem(t, s, "2025-11-25", nil))
	for arg, want := range map[string]string{
		"pdf-processing":                       "acme/pdf-processing",
		"acme/pdf-processing":                  "acme/pdf-processing",
		"/acme/pdf-processing/":                "acme/pdf-processing",
		"acme/pdf-processing/SKILL.md":         "acme/pdf-processing",
		"skill://acme/pdf-processing/SKILL.md": "acme/pdf-processing",
		"skill://acme/pdf-processing":          "acme/pdf-processing",
		"acme/refunds":                         "acme/billing/refunds",
		"community/refunds":                    "community/refunds",
		"acme/billing/refunds":                 "acme/billing/refunds",
		"partial-refunds":                      "acme/billing/refunds/partial-refunds",
		"acme/partial-refunds":                 "acme/billing/refunds/partial-refunds",
		"deploy-production":                    "acme/deploy-production", // hidden skills are answered when named
		" csv-cleaner ":                        "community/csv-cleaner",
	} {
		var out GetSkillOutput
		tc.call(p+"_get_skill", map[string]any{"skill": arg}, &out)
		if out.Path != want {
			t.Errorf("get_skill(%q) = %s, want %s", arg, out.Path, want)
		}
	}
	tc.fail(p+"_get_skill", map[string]any{"skill": "refunds"}, "ambiguous", "acme/billing/refunds", "community/refunds")
	tc.fail(p+"_get_skill", map[string]any{"skill": "refund"}, `no skill "refund"`, "did you mean", "refunds", p+"_search_skills")
	tc.fail(p+"_get_skill", map[string]any{"skill": "skill://acme/nope/SKILL.md"}, "no skill is served at skill://acme/nope/SKILL.md")
	tc.fail(p+"_get_skill", map[string]any{"skill": "acme/billing/nope/x"}, "no skill")
	tc.fail(p+"_get_skill", map[string]any{"skill": ""}, "empty")
	tc.fail(p+"_get_skill", map[string]any{}, "skill")
	tc.fail(p+"_get_skill", map[string]any{"skill": "x", "name": "y"}, "name")
}

func TestGetSkillTool(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		tc := newToolClient(t, cs)
		var out GetSkillOutput
		text := tc.call(p+"_get_skill", map[string]any{"skill": "pdf-processing"}, &out)
		if out.Source != "acme-skills" || out.Library != "acme" || out.URI != "skill://acme/pdf-processing/SKILL.md" ||
			!strings.HasPrefix(out.Instructions, "# PDF processing") || out.Frontmatter["name"] != "pdf-processing" ||
			out.Trust["license"] != "Apache-2.0" || len(out.Files) != 6 || out.Files[0].Path != manifest.SkillFile {
			t.Errorf("get_skill %+v", out)
		}
		b := s.Snapshot().Bundles()[0]
		for _, f := range out.Files {
			k, _ := s.Snapshot().Find(out.URI)
			sk, _ := s.Snapshot().Skill(k)
			data, err := b.ReadBlob(sk.Entry.Resources[slices.IndexFunc(sk.Files, func(x manifest.File) bool { return x.Path == f.Path })].Digest)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			if f.Digest != "sha256:"+hex.EncodeToString(sum[:]) || f.Size != int64(len(data)) {
				t.Errorf("file %s: digest %s size %d", f.Path, f.Digest, f.Size)
			}
			if !strings.Contains(text, "- "+f.Path+" (") || !strings.Contains(text, f.Digest) {
				t.Errorf("text does not list %s with its digest", f.Path)
			}
		}
		script := out.Files[slices.IndexFunc(out.Files, func(f SkillFile) bool { return f.Path == "scripts/extract.py" })]
		if !script.Script || script.Interpreter != "python" {
			t.Errorf("script %+v", script)
		}
		for _, want := range []string{
			"# Skill: pdf-processing  (library: acme)",
			"Source: acme-skills (MCP-served skill, not installed locally)",
			"Provenance: license=Apache-2.0",
			"skills-mcp pull --sync --keep-path --to ~/.cache/skills-mcp-client/acme-skills acme/pdf-processing",
			"Show the user what will run",
			"through its interpreter, e.g. `python scripts/extract.py`, never as ./scripts/extract.py",
			p + `_read_skill_file(skill="acme/pdf-processing"`,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("get_skill text lacks %q:\n%s", want, text)
			}
		}
		if len(out.RunScripts) != 4 {
			t.Errorf("runScripts %q", out.RunScripts)
		}
		// The pull command's source depends on the transport.
		if cs.InitializeResult() != nil && strings.Contains(text, "--url") == strings.Contains(text, "--command") {
			t.Errorf("want exactly one of --url and --command:\n%s", text)
		}
		if strings.Contains(text, "/tmp") || strings.Contains(text, "testdata") {
			t.Errorf("a local path leaks:\n%s", text)
		}

		text = tc.call(p+"_get_skill", map[string]any{"skill": "incident-response"}, &out)
		if len(out.RiskFlags) != 1 || out.RiskFlags[0] != (RiskFlag{Rule: "pipe-to-shell", File: "scripts/collect-logs.sh", Line: 10, Column: 5, Severity: out.RiskFlags[0].Severity, Excerpt: out.RiskFlags[0].Excerpt}) ||
			!strings.Contains(text, "⚠ Risk flags (review before following or running anything):\n- pipe-to-shell at scripts/collect-logs.sh:10") ||
			!strings.Contains(text, "run with bash") {
			t.Errorf("risk flags %+v\n%s", out.RiskFlags, text)
		}
		text = tc.call(p+"_get_skill", map[string]any{"skill": "meeting-notes"}, &out)
		if out.RunScripts != nil || strings.Contains(text, "pull") || strings.Contains(text, "Risk flags") || out.Category != "uncategorized" {
			t.Errorf("a plain skill gets script or risk text:\n%s", text)
		}
		text = tc.call(p+"_get_skill", map[string]any{"skill": "deploy-production"}, &out)
		if !out.Hidden || !strings.Contains(text, "Explicit use only") {
			t.Errorf("hidden skill:\n%s", text)
		}
	})
}

func TestGetSkillPullSource(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	for name, connect := range map[string]func(testing.TB, *Server, string, *mcp.ClientOptions) *mcp.ClientSession{
		"--command": connectMem, "--url": connectHTTP,
	} {
		tc := newToolClient(t, connect(t, s, "", nil))
		var out GetSkillOutput
		text := tc.call(p+"_get_skill", map[string]any{"skill": "csv-cleaner"}, &out)
		if !strings.Contains(text, "community/csv-cleaner "+name) {
			t.Errorf("%s transport: pull command:\n%s", name, text)
		}
	}
}

func TestReadSkillFileTool(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		tc := newToolClient(t, cs)
		var out ReadFileOutput
		text := tc.call(p+"_read_skill_file", map[string]any{"skill": "pdf-processing", "path": "references/FORMS.md"}, &out)
		if out.Kind != "file" || len(out.Files) != 1 || out.Files[0].Encoding != "text" || !strings.HasPrefix(out.Files[0].Text, "# ") ||
			out.Skill != "acme/pdf-processing" || out.Source != "acme-skills" || out.Files[0].Note != "" {
			t.Fatalf("text file %+v", out)
		}
		f := out.Files[0]
		if sum := sha256.Sum256([]byte(f.Text)); f.Digest != "sha256:"+hex.EncodeToString(sum[:]) || !strings.Contains(text, f.Text) {
			t.Errorf("text file digest %s or text", f.Digest)
		}

		tc.call(p+"_read_skill_file", map[string]any{"skill": "acme/pdf-processing", "path": "assets/logo.png"}, &out)
		f = out.Files[0]
		data, err := base64.StdEncoding.DecodeString(f.Base64)
		if err != nil || f.Encoding != "base64" || f.Text != "" || !bytes.HasPrefix(data, []byte("\x89PNG")) || int64(len(data)) != f.Size {
			t.Errorf("binary file %+v: %v", f, err)
		}
		if sum := sha256.Sum256(data); f.Digest != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("binary digest %s", f.Digest)
		}
		tc.call(p+"_read_skill_file", map[string]any{"skill": "incident-response", "path": "notes/legacy-latin1.txt"}, &out)
		if out.Files[0].Encoding != "base64" {
			t.Errorf("a non-UTF-8 file comes back as %s", out.Files[0].Encoding)
		}

		text = tc.call(p+"_read_skill_file", map[string]any{"skill": "pdf-processing", "path": "scripts/extract.py"}, &out)
		f = out.Files[0]
		if !f.Script || f.Interpreter != "python" || !strings.Contains(f.Note, "Do not run it from this output") ||
			!strings.Contains(f.Note, f.Digest) || !strings.Contains(f.Note, "`python scripts/extract.py`") ||
			!strings.Contains(text, f.Note+"\n\n"+f.Text) {
			t.Errorf("script %+v\n%s", f, text)
		}

		for _, path := range []string{"templates", "templates/"} {
			tc.call(p+"_read_skill_file", map[string]any{"skill": "pdf-processing", "path": path}, &out)
			var got []string
			for _, f := range out.Files {
				got = append(got, f.Path)
				if f.Encoding != "text" || f.Text == "" {
					t.Errorf("folder file %+v", f)
				}
			}
			if out.Kind != "folder" || !slices.Equal(got, []string{"templates/invoice.md", "templates/regional/eu-invoice.md"}) {
				t.Errorf("folder %q: %s %v", path, out.Kind, got)
			}
		}
		// A nested skill's files are files of the enclosing skill's folder.
		tc.call(p+"_read_skill_file", map[string]any{"skill": "acme/billing/refunds", "path": "partial-refunds"}, &out)
		if len(out.Files) != 1 || out.Files[0].Path != "partial-refunds/SKILL.md" {
			t.Errorf("nested skill folder %+v", out.Files)
		}

		for _, args := range []map[string]any{{"skill": "pdf-processing"}, {"skill": "pdf-processing", "path": ""}} {
			text = tc.call(p+"_read_skill_file", args, &out)
			if out.Kind != "listing" || len(out.Files) != 6 || out.Files[0].Text != "" || out.Files[0].Encoding != "" || out.Files[0].Digest == "" {
				t.Errorf("listing %+v", out)
			}
			if !strings.Contains(text, "- scripts/extract.py (") {
				t.Errorf("listing text %q", text)
			}
		}
		// A hidden skill's files are readable, as with resources/read.
		tc.call(p+"_read_skill_file", map[string]any{"skill": "deploy-production", "path": "SKILL.md"}, &out)

		for _, tcase := range []struct{ path, want string }{
			{"../git-workflow/SKILL.md", ".. segment"},
			{"scripts/../SKILL.md", ".. segment"},
			{"./SKILL.md", ". or .."},
			{"templates//invoice.md", "empty"},
			{"/etc/passwd", "absolute"},
			{`scripts\extract.py`, "backslash"},
			{"SKILL.md\x00", "control character"},
			{"skill://acme/pdf-processing/SKILL.md", "is a URI"},
			{"nope.md", `no file or folder "nope.md" in skill acme/pdf-processing`},
			{"templ", `no file or folder "templ"`},
		} {
			tc.fail(p+"_read_skill_file", map[string]any{"skill": "pdf-processing", "path": tcase.path}, tcase.want)
		}
		tc.fail(p+"_read_skill_file", map[string]any{"skill": "refunds", "path": "SKILL.md"}, "ambiguous")
		tc.fail(p+"_read_skill_file", map[string]any{"path": "SKILL.md"}, "skill")
	})
}

func TestReadSkillFileCap(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", (MaxReadBytes/16)+1) // just over the cap
	half := strings.Repeat("x", MaxReadBytes/2+1)
	b := buildTree(t, map[string]string{
		"lib/big/SKILL.md":      skillFile("big", "A skill with large files.", "Body.\n"),
		"lib/big/data/huge.txt": big,
		"lib/big/pair/a.txt":    half,
		"lib/big/pair/b.txt":    half,
		"lib/big/ok/small.txt":  "small\n",
	})
	s := newServer(t, Options{Name: "acme-skills"}, b)
	tc := newToolClient(t, connectMem(t, s, "", nil))
	tc.fail(p+"_read_skill_file", map[string]any{"skill": "big", "path": "data/huge.txt"}, "file data/huge.txt is 1048592 bytes", "resources/read", "skills-mcp pull")
	tc.fail(p+"_read_skill_file", map[string]any{"skill": "big", "path": "pair"}, "folder pair holds 2 files, 1048578 bytes", "one by one")
	var out ReadFileOutput
	tc.call(p+"_read_skill_file", map[string]any{"skill": "big", "path": "pair/a.txt"}, &out)
	if len(out.Files[0].Text) != len(half) {
		t.Errorf("half-cap file: %d bytes", len(out.Files[0].Text))
	}
	tc.call(p+"_read_skill_file", map[string]any{"skill": "big"}, &out)
	if len(out.Files) != 5 {
		t.Errorf("listing of a large skill: %d files", len(out.Files))
	}
}
