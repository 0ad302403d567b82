package teamserver

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// writeSkills writes each path → SKILL.md content below dir.
func writeSkills(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for p, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// indexOf fetches the discovery index with tok and returns each entry's
// skill path → its name, checking that every entry's artifact is served to
// tok at the URL the index gives.
func indexOf(t *testing.T, base, tok string) map[string]string {
	t.Helper()
	get := func(path string) (int, []byte) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	code, body := get(wellknown.IndexPath)
	if code != 200 {
		t.Fatalf("index for %s: %d", tok, code)
	}
	idx, err := wellknown.ParseIndex(body)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range idx.Entries {
		out[e.SkillsMCP.Path] = e.Name
		ref, _ := url.Parse(e.URL)
		at, _ := url.Parse(base + wellknown.IndexPath)
		if code, _ := get(at.ResolveReference(ref).Path); code != 200 {
			t.Errorf("%s: the artifact of %s at %s: %d", tok, e.Name, e.URL, code)
		}
	}
	return out
}

// TestNamesOfOwnView: every name a token sees (a discovery index entry and
// its artifact URL, a prompt) is a function of what it may read, and its
// discovery index lists exactly the skills MCP serves it, un-namespaced
// (--root) ones by their top folder included. The real binary, over HTTP,
// with the Go SDK client.
func TestNamesOfOwnView(t *testing.T) {
	tmp := t.TempDir()
	libA := writeSkills(t, filepath.Join(tmp, "a"), map[string]string{"alpha/SKILL.md": skillFile("alpha", "Alpha of a", "A.")})
	libB := writeSkills(t, filepath.Join(tmp, "b"), map[string]string{"alpha/SKILL.md": skillFile("alpha", "Alpha of b", "B.")})
	root := writeSkills(t, filepath.Join(tmp, "root"), map[string]string{
		"acme/pdf/SKILL.md":   skillFile("pdf", "PDF of acme", "P."),
		"Acme/pdf/SKILL.md":   skillFile("pdf", "PDF of Acme", "Q."),
		"tools/lint/SKILL.md": skillFile("lint", "Lint", "L."),
	})
	tokens := servetest.WriteTokens(t, filepath.Join(tmp, "tokens"), map[string]string{
		"onlya": "a", "upper": "Acme", "tools": "tools", "root": "*"})
	// Two servers: --root is served alone.
	libs, _, stderrLibs := servetest.StartHTTP(t, Endpoint, "--auth-tokens", tokens, "--lib", "a="+libA, "--lib", "b="+libB)
	rooted, _, stderrRoot := servetest.StartHTTP(t, Endpoint, "--auth-tokens", tokens, "--root", root)
	hashed := regexp.MustCompile(`^acme_pdf-[0-9a-f]{6}$`)
	for _, tc := range []struct {
		base    string
		token   string
		index   map[string]string // skill path → index name
		prompts []string          // per-skill prompts, in order
	}{
		{libs, "onlya", map[string]string{"a/alpha": "alpha"}, []string{"a_alpha"}},
		{libs, "root", map[string]string{"a/alpha": "a-alpha", "b/alpha": "b-alpha"}, []string{"a_alpha", "b_alpha"}},
		{rooted, "upper", map[string]string{"Acme/pdf": "pdf"}, []string{"acme_pdf"}},
		{rooted, "tools", map[string]string{"tools/lint": "lint"}, []string{"tools_lint"}},
		{rooted, "root", map[string]string{"acme/pdf": "pdf-HASH", "Acme/pdf": "pdf-HASH", "tools/lint": "lint"},
			[]string{"acme_pdf", "acme_pdf-HASH", "tools_lint"}},
	} {
		base, stderr := tc.base, stderrLibs
		if base == rooted {
			stderr = stderrRoot
		}
		t.Run(tc.token+"@"+map[string]string{libs: "libs", rooted: "root"}[base], func(t *testing.T) {
			idx := indexOf(t, base, "tok-"+tc.token)
			for p, want := range tc.index {
				got := idx[p]
				if prefix, ok := strings.CutSuffix(want, "HASH"); ok {
					if !regexp.MustCompile(`^` + prefix + `[0-9a-f]{8}$`).MatchString(got) {
						t.Errorf("index name of %s: %q, want %s", p, got, want)
					}
					continue
				}
				if got != want {
					t.Errorf("index name of %s: %q, want %q", p, got, want)
				}
			}
			if len(idx) != len(tc.index) {
				t.Errorf("index %v, want %v", idx, tc.index)
			}
			cs, err := connectBearer(t, base, "tok-"+tc.token, "")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var served []string
			res, err := cs.ListResources(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Resources {
				served = append(served, strings.TrimSuffix(strings.TrimPrefix(r.URI, "skill://"), "/SKILL.md"))
			}
			slices.Sort(served)
			if listed := slices.Sorted(func(yield func(string) bool) {
				for p := range idx {
					if !yield(p) {
						return
					}
				}
			}); !slices.Equal(served, listed) {
				t.Errorf("MCP serves %v, the discovery index lists %v", served, listed)
			}
			var got []string
			for _, n := range listedPrompts(t, cs) {
				if n == serve.PromptUseSkill {
					continue
				}
				if hashed.MatchString(n) {
					n = "acme_pdf-HASH"
				}
				got = append(got, n)
			}
			if !slices.Equal(got, tc.prompts) {
				t.Errorf("prompts %v, want %v", got, tc.prompts)
			}
			if tc.token == "upper" {
				if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "acme_pdf"}); err != nil {
					t.Errorf("Acme's prompt by its name: %v", err)
				}
			}
		})
	}
}

// listedPrompts lists the names of the prompts cs is offered, in order.
func listedPrompts(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range res.Prompts {
		out = append(out, p.Name)
	}
	return out
}

func skillFile(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body
}
