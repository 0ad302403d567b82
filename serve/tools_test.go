package serve

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

var (
	exampleOnce  sync.Once
	exampleBytes []byte
	exampleErr   error
)

// exampleBuilt is testdata/example built with the build package, as
// `skills-mcp build --config testdata/example/skills.json` builds it.
func exampleBuilt(t testing.TB) *manifest.Bundle {
	t.Helper()
	exampleOnce.Do(func() {
		c, err := build.LoadConfig("../testdata/example/skills.json")
		if err != nil {
			exampleErr = err
			return
		}
		var buf bytes.Buffer
		if _, err := build.Build(build.Options{Libraries: c.Libraries}, &buf); err != nil {
			exampleErr = err
			return
		}
		exampleBytes = buf.Bytes()
	})
	if exampleErr != nil {
		t.Fatal(exampleErr)
	}
	return bundletest.Open(t, exampleBytes)
}

// buildTree writes files (paths whose first segment is the library
// namespace) to a temporary folder and builds them into a bundle.
func buildTree(t testing.TB, files map[string]string, libs ...build.Library) *manifest.Bundle {
	t.Helper()
	return bundletest.Open(t, buildTreeBytes(t, files, libs...))
}

// buildTreeBytes is buildTree's bundle, as the bytes of a bundle file.
func buildTreeBytes(t testing.TB, files map[string]string, libs ...build.Library) []byte {
	t.Helper()
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, files)
	for p := range files {
		ns, _, _ := strings.Cut(p, "/")
		if !slices.ContainsFunc(libs, func(l build.Library) bool { return l.Namespace == ns }) {
			libs = append(libs, build.Library{Namespace: ns})
		}
	}
	for i := range libs {
		if libs[i].Root == "" {
			libs[i].Root = filepath.Join(dir, libs[i].Namespace)
		}
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: libs}, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func skillFile(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body
}

// toolClient calls tools and checks every success against the tool's
// outputSchema on the client side, as a strict host would.
type toolClient struct {
	t       *testing.T
	cs      *mcp.ClientSession
	schemas map[string]*jsonschema.Resolved
}

func newToolClient(t *testing.T, cs *mcp.ClientSession) *toolClient {
	t.Helper()
	tc := &toolClient{t: t, cs: cs, schemas: map[string]*jsonschema.Resolved{}}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		data, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		tc.schemas[tool.Name] = rs
	}
	return tc
}

func (tc *toolClient) raw(name string, args any) *mcp.CallToolResult {
	tc.t.Helper()
	res, err := tc.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tc.t.Fatalf("%s(%v): protocol error %v, want a tool result", name, args, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// call calls a tool that must succeed, validates its structuredContent
// against its outputSchema and decodes it strictly into out. It returns the
// text content.
func (tc *toolClient) call(name string, args, out any) string {
	tc.t.Helper()
	res := tc.raw(name, args)
	if res.IsError {
		tc.t.Fatalf("%s(%v): isError: %s", name, args, resultText(res))
	}
	rs := tc.schemas[name]
	if rs == nil {
		tc.t.Fatalf("tool %s is not listed", name)
	}
	if res.StructuredContent == nil {
		tc.t.Fatalf("%s: no structuredContent", name)
	}
	if err := rs.Validate(res.StructuredContent); err != nil {
		tc.t.Fatalf("%s(%v): structuredContent does not validate against the outputSchema: %v", name, args, err)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		tc.t.Fatal(err)
	}
	reflect.ValueOf(out).Elem().SetZero() // fields the answer leaves out must not keep old values
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		tc.t.Fatalf("%s: structuredContent %s: %v", name, data, err)
	}
	return resultText(res)
}

// fail calls a tool that must refuse its arguments with isError, and
// returns the message.
func (tc *toolClient) fail(name string, args any, want ...string) string {
	tc.t.Helper()
	res := tc.raw(name, args)
	msg := resultText(res)
	if !res.IsError {
		tc.t.Fatalf("%s(%v) succeeded: %s", name, args, msg)
	}
	if res.StructuredContent != nil {
		tc.t.Errorf("%s(%v): an error result carries structuredContent", name, args)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			tc.t.Errorf("%s(%v): error %q does not mention %q", name, args, msg, w)
		}
	}
	return msg
}

const p = "acme_skills" // the prefix of Options{Name: "acme-skills"}

func TestToolsListed(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			a := tool.Annotations
			if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("%s: annotations %+v, want read-only, closed-world, not destructive", tool.Name, a)
			} else if a.IdempotentHint != (tool.Name != p+"_catalog_status") {
				t.Errorf("%s: idempotentHint %v", tool.Name, a.IdempotentHint)
			}
			if tool.OutputSchema == nil || tool.InputSchema == nil || tool.Description == "" || tool.Title == "" {
				t.Errorf("%s: missing schema, description or title", tool.Name)
			}
		}
		want := []string{p + "_catalog_status", p + "_get_skill", p + "_list_categories", p + "_list_libraries",
			p + "_list_skills", p + "_read_skill_file", p + "_search_skills"}
		if !slices.Equal(names, want) {
			t.Errorf("tools %v, want %v", names, want)
		}
		if strings.Contains(res.Tools[1].Description, "<available_skills>") {
			t.Error("get_skill describes the skills without DescribeSkills")
		}
		prompts, err := cs.ListPrompts(context.Background(), nil)
		if err != nil {
			t.Fatalf("prompts/list: %v", err)
		}
		i := slices.IndexFunc(prompts.Prompts, func(p *mcp.Prompt) bool { return p.Name == PromptUseSkill })
		if i < 0 {
			t.Fatalf("prompts/list has no %s: %+v", PromptUseSkill, prompts.Prompts)
		}
		if args := prompts.Prompts[i].Arguments; len(args) != 2 || args[0].Name != "skill" || !args[0].Required || args[1].Name != "task" || args[1].Required {
			t.Errorf("use-skill arguments %+v", args)
		}
		if cs.InitializeResult().Capabilities.Completions == nil {
			t.Error("completions capability not announced")
		}
	})
}

func TestToolPrefix(t *testing.T) {
	b := exampleBuilt(t)
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "skills_mcp_search_skills"},
		{Options{Name: "acme-skills"}, "acme_skills_search_skills"},
		{Options{Name: "acme-skills", Prefix: "bob"}, "bob_search_skills"},
	} {
		cs := connectMem(t, newServer(t, tc.opt, b), "", nil)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == tc.want }) {
			t.Errorf("%+v: no tool %s", tc.opt, tc.want)
		}
	}
	for _, bad := range []string{"a b", "x/y", "ü", strings.Repeat("x", 101)} {
		if _, err := New([]*manifest.Bundle{b}, Options{Prefix: bad}); err == nil || !strings.Contains(err.Error(), "prefix") {
			t.Errorf("prefix %q: %v, want an error", bad, err)
		}
	}
}

func TestSearchSkillsTool(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		tc := newToolClient(t, cs)
		var out SearchOutput
		text := tc.call(p+"_search_skills", map[string]any{"query": "fill a PDF form"}, &out)
		if len(out.Results) == 0 || out.Results[0].Path != "acme/pdf-processing" {
			t.Fatalf("results %+v", out.Results)
		}
		top := out.Results[0]
		if top.URI != "skill://acme/pdf-processing/SKILL.md" || top.Library != "acme" || top.Name != "pdf-processing" ||
			top.Score <= 0 || top.Files != 6 || top.Trust["license"] != "Apache-2.0" || top.Category != "uncategorized" {
			t.Errorf("top hit %+v", top)
		}
		if !strings.Contains(text, "1. acme/pdf-processing") || !strings.Contains(text, p+"_get_skill") {
			t.Errorf("text %q", text)
		}
		// Risk flags, categories (metadata.category and folders), the library filter.
		tc.call(p+"_search_skills", map[string]any{"query": "incident outage"}, &out)
		if len(out.Results) == 0 || out.Results[0].Path != "acme/ops/incident-response" ||
			!slices.Equal(out.Results[0].RiskFlags, []string{"pipe-to-shell"}) || out.Results[0].Category != "ops" {
			t.Errorf("incident search %+v", out.Results)
		}
		tc.call(p+"_search_skills", map[string]any{"query": "refunds", "library": "community"}, &out)
		if len(out.Results) != 1 || out.Results[0].Path != "community/refunds" {
			t.Errorf("library filter %+v", out.Results)
		}
		tc.call(p+"_search_skills", map[string]any{"query": "refund", "category": "BILLING"}, &out)
		if len(out.Results) != 1 || out.Results[0].Path != "acme/billing/refunds" {
			t.Errorf("category filter %+v", out.Results)
		}
		tc.call(p+"_search_skills", map[string]any{"query": "refund", "limit": 1}, &out)
		if len(out.Results) != 1 {
			t.Errorf("limit 1: %d results", len(out.Results))
		}
		// The hidden skill is not found; a query without hits gets a hint.
		tc.call(p+"_search_skills", map[string]any{"query": "deploy production kubernetes"}, &out)
		for _, r := range out.Results {
			if r.Path == "acme/deploy-production" {
				t.Error("search found the hidden skill")
			}
		}
		tc.call(p+"_search_skills", map[string]any{"query": "zebra quantum"}, &out)
		if len(out.Results) != 0 || out.Hint == "" || out.Results == nil {
			t.Errorf("no-hit search %+v", out)
		}
		// Bad arguments.
		tc.fail(p+"_search_skills", map[string]any{"query": "  "}, "query is empty")
		tc.fail(p+"_search_skills", map[string]any{"query": strings.Repeat("x", 1001)}, "1001")
		tc.fail(p+"_search_skills", map[string]any{"query": "x", "limit": 51}, "1 to 50")
		tc.fail(p+"_search_skills", map[string]any{"query": "x", "limit": -1}, "1 to 50")
		tc.fail(p+"_search_skills", map[string]any{"query": "x", "library": "nope"}, `unknown library "nope"`, "acme, community")
		tc.fail(p+"_search_skills", map[string]any{"query": "x", "category": "nope"}, `unknown category "nope"`, "billing")
		tc.fail(p+"_search_skills", map[string]any{"query": "x", "extra": 1}, "extra")
		tc.fail(p+"_search_skills", map[string]any{}, "query")
		tc.fail(p+"_search_skills", map[string]any{"query": 42}, "query")
	})
}

func TestSearchShowsHiddenWithShowDisabled(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills", ShowDisabled: true}, exampleBuilt(t))
	tc := newToolClient(t, connectMem(t, s, "", nil))
	var out SearchOutput
	text := tc.call(p+"_search_skills", map[string]any{"query": "deploy to production"}, &out)
	if len(out.Results) == 0 || out.Results[0].Path != "acme/deploy-production" || !out.Results[0].Hidden || !strings.Contains(text, "explicit use only") {
		t.Errorf("with ShowDisabled: %+v\n%s", out.Results, text)
	}
}

func TestListTools(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		tc := newToolClient(t, cs)
		var page ListSkillsOutput
		tc.call(p+"_list_skills", map[string]any{}, &page)
		if page.Total != 10 || len(page.Skills) != 10 || page.NextCursor != "" {
			t.Fatalf("list_skills: total %d, %d skills, cursor %q", page.Total, len(page.Skills), page.NextCursor)
		}
		var paths []string
		for _, sk := range page.Skills {
			paths = append(paths, sk.Path)
		}
		if slices.Contains(paths, "acme/deploy-production") || !slices.IsSorted(paths) {
			t.Errorf("paths %v: want URI order without the hidden skill", paths)
		}
		// Paging with a cursor, which is bound to the filters.
		var all []string
		cursor := ""
		for {
			args := map[string]any{"limit": 3, "library": "acme"}
			if cursor != "" {
				args["cursor"] = cursor
			}
			tc.call(p+"_list_skills", args, &page)
			for _, sk := range page.Skills {
				all = append(all, sk.Path)
			}
			if page.Total != 6 {
				t.Errorf("acme total %d", page.Total)
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
			tc.fail(p+"_list_skills", map[string]any{"cursor": cursor}, "other filters")
		}
		if len(all) != 6 {
			t.Errorf("paged acme skills %v", all)
		}
		tc.call(p+"_list_skills", map[string]any{"category": "ops"}, &page)
		if page.Total != 1 || page.Skills[0].Path != "acme/ops/incident-response" {
			t.Errorf("category ops: %+v", page)
		}
		tc.fail(p+"_list_skills", map[string]any{"cursor": "!!"}, "invalid cursor")
		tc.fail(p+"_list_skills", map[string]any{"cursor": base64.RawURLEncoding.EncodeToString(make([]byte, 16))}, "another catalog")
		tc.fail(p+"_list_skills", map[string]any{"limit": 201}, "1 to 200")
		tc.fail(p+"_list_skills", map[string]any{"library": "x"}, "unknown library")

		var libs ListLibrariesOutput
		text := tc.call(p+"_list_libraries", map[string]any{}, &libs)
		if len(libs.Libraries) != 2 {
			t.Fatalf("libraries %+v", libs)
		}
		acme := libs.Libraries[0]
		if acme.Namespace != "acme" || acme.Title != "Acme engineering skills" || acme.Source != "acme/skills" || acme.Version != "2026.11" ||
			acme.Skills != 7 || acme.Hidden != 1 || acme.Kind != "directory" || acme.Metadata["channel"] != "stable" || !strings.HasPrefix(acme.Bundle, "sha256:") {
			t.Errorf("acme %+v", acme)
		}
		if !strings.Contains(text, "acme: 7 skills (1 hidden)  Acme engineering skills, from acme/skills, version 2026.11, channel=stable") {
			t.Errorf("list_libraries text %q", text)
		}
		tc.fail(p+"_list_libraries", map[string]any{"x": 1}, "x")

		var cats ListCategoriesOutput
		tc.call(p+"_list_categories", map[string]any{}, &cats)
		want := []CategoryCount{{"uncategorized", 6}, {"billing", 1}, {"billing/refunds", 1}, {"devops", 1}, {"ops", 1}}
		if !slices.Equal(cats.Categories, want) || cats.TotalSkills != 10 {
			t.Errorf("categories %+v, want %+v", cats, want)
		}
		tc.call(p+"_list_categories", map[string]any{"library": "community"}, &cats)
		if !slices.Equal(cats.Categories, []CategoryCount{{"uncategorized", 4}}) {
			t.Errorf("community categories %+v", cats)
		}
		tc.fail(p+"_list_categories", map[string]any{"library": "zz"}, "unknown library")
	})
}

func TestCatalogStatusTool(t *testing.T) {
	bad, err := filepath.Abs("../testdata/bad/name-mismatch")
	if err != nil {
		t.Fatal(err)
	}
	withBad := buildTree(t, map[string]string{
		"good/ok/SKILL.md": skillFile("ok", "A good skill.", "Body.\n"),
	}, build.Library{Namespace: "bad", Root: bad})
	var refreshes atomic.Int32
	var refreshErr error
	s := newServer(t, Options{Name: "acme-skills",
		Refresh: func(context.Context) error { refreshes.Add(1); return refreshErr },
		SignedBy: func(b *manifest.Bundle) []string {
			if b == withBad {
				return []string{"release-key"}
			}
			return nil
		}}, exampleBuilt(t), withBad)
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		tc := newToolClient(t, cs)
		var out CatalogStatusOutput
		text := tc.call(p+"_catalog_status", map[string]any{}, &out)
		if out.Server != "acme-skills" || out.Catalog != s.Snapshot().ID().String() || len(out.Bundles) != 2 ||
			out.Skills != 13 || out.Listed != 12 || out.Hidden != 1 || out.Libraries != 4 || out.Files != 23 ||
			out.Lint.FlaggedSkills != 1 || out.Lint.Findings != 1 || out.Lint.Rules["pipe-to-shell"] != 1 || out.Refresh != "" {
			t.Errorf("status %+v", out)
		}
		if len(out.Withheld) != 1 || out.Withheld[0].Library != "bad" || !slices.Contains(out.Withheld[0].Rules, "name-mismatch") {
			t.Errorf("withheld %+v", out.Withheld)
		}
		for _, bs := range out.Bundles {
			if bs.Signatures != 0 || (bs.ID == withBad.ID().String()) != slices.Equal(bs.VerifiedBy, []string{"release-key"}) {
				t.Errorf("bundle %+v", bs)
			}
		}
		if !json.Valid([]byte(text)) {
			t.Errorf("catalog_status text is not the JSON: %s", text)
		}
		if out.Warnings != nil {
			t.Errorf("warnings without include_warnings: %v", out.Warnings)
		}
		tc.call(p+"_catalog_status", map[string]any{"include_warnings": true}, &out)
		if len(out.Warnings) != out.WarningCount {
			t.Errorf("%d warnings, count %d", len(out.Warnings), out.WarningCount)
		}

		before := refreshes.Load()
		refreshErr = nil
		tc.call(p+"_catalog_status", map[string]any{"refresh": true}, &out)
		if out.Refresh != "done" || refreshes.Load() != before+1 {
			t.Errorf("refresh: %q, %d calls", out.Refresh, refreshes.Load()-before)
		}
		refreshErr = errors.New("open /secret/library/path: denied")
		text = tc.call(p+"_catalog_status", map[string]any{"refresh": true}, &out)
		if !strings.HasPrefix(out.Refresh, "failed") || strings.Contains(text, "/secret") {
			t.Errorf("failed refresh: %q", out.Refresh)
		}
		tc.fail(p+"_catalog_status", map[string]any{"refresh": "yes"}, "refresh")
	})
	// Without a Refresh hook the catalog is fixed.
	tc := newToolClient(t, connectMem(t, newServer(t, Options{}, exampleBuilt(t)), "", nil))
	var out CatalogStatusOutput
	tc.call("skills_mcp_catalog_status", map[string]any{"refresh": true}, &out)
	if !strings.HasPrefix(out.Refresh, "not available") || out.Bundles[0].VerifiedBy != nil {
		t.Errorf("fixed catalog refresh: %+v", out)
	}
}

// TestToolsFollowSwap shows that every tool answers from the snapshot
// current at call time.
func TestToolsFollowSwap(t *testing.T) {
	first := buildTree(t, map[string]string{"lib/alpha/SKILL.md": skillFile("alpha", "Alpha handles invoices.", "Alpha body.\n")})
	second := buildTree(t, map[string]string{"lib/beta/SKILL.md": skillFile("beta", "Beta handles invoices.", "Beta body.\n")})
	s := newServer(t, Options{Name: "acme-skills", DescribeSkills: true}, first)
	// 2025-11-25: a 2026-07-28 client would answer tools/list from its cache.
	cs := connectMem(t, s, "2025-11-25", nil)
	tc := newToolClient(t, cs)
	var out SearchOutput
	tc.call(p+"_search_skills", map[string]any{"query": "invoices"}, &out)
	if len(out.Results) != 1 || out.Results[0].Name != "alpha" {
		t.Fatalf("before swap %+v", out.Results)
	}
	var page ListSkillsOutput
	tc.call(p+"_list_skills", map[string]any{"limit": 1}, &page)
	if err := s.Swap([]*manifest.Bundle{second}); err != nil {
		t.Fatal(err)
	}
	tc.call(p+"_search_skills", map[string]any{"query": "invoices"}, &out)
	if len(out.Results) != 1 || out.Results[0].Name != "beta" {
		t.Errorf("after swap %+v", out.Results)
	}
	var got GetSkillOutput
	tc.call(p+"_get_skill", map[string]any{"skill": "beta"}, &got)
	tc.fail(p+"_get_skill", map[string]any{"skill": "alpha"}, "no skill")
	var st CatalogStatusOutput
	tc.call(p+"_catalog_status", map[string]any{}, &st)
	if st.Bundles[0].ID != second.ID().String() {
		t.Errorf("status after swap names %s", st.Bundles[0].ID)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == p+"_get_skill" && (!strings.Contains(tool.Description, "<name>lib/beta</name>") || strings.Contains(tool.Description, "alpha")) {
			t.Errorf("get_skill description after swap:\n%s", tool.Description)
		}
	}
}

func TestDescribeSkills(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills", DescribeSkills: true}, exampleBuilt(t))
	res, err := connectMem(t, s, "", nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, tool := range res.Tools {
		if tool.Name == p+"_get_skill" {
			desc = tool.Description
		}
	}
	if !strings.Contains(desc, "<available_skills>\n<skill><name>acme/billing/refunds</name><description>Issue full refunds") ||
		strings.Contains(desc, "deploy-production") || strings.Contains(desc, "more:") {
		t.Errorf("description:\n%s", desc)
	}
	if n := strings.Count(desc, "<skill>"); n != 10 {
		t.Errorf("%d skills described, want the 10 listed", n)
	}
	// The catalog is capped.
	skills, _ := qualityFixture(t)
	big := newServer(t, Options{Name: "acme-skills", DescribeSkills: true}, buildSkills(t, skills))
	res, err = connectMem(t, big, "", nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == p+"_get_skill" {
			desc = tool.Description
		}
	}
	extra := len(getSkillDescription(p))
	if len(desc)-extra > MaxDescribeBytes || !strings.Contains(desc, "more: find them with "+p+"_search_skills") {
		t.Errorf("capped description is %d bytes:\n%s", len(desc)-extra, desc[len(desc)-300:])
	}
}

func TestInstructions(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills", Title: "Acme"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		text := cs.InitializeResult().Instructions
		for _, want := range []string{
			"Acme: 10 Agent Skills",
			"- acme: Acme engineering skills, from acme/skills, version 2026.11, channel=stable (6 skills)",
			"- community: Community skills (4 skills)",
			"1. " + p + "_search_skills(query)",
			"2. " + p + "_get_skill(skill)",
			"3. " + p + "_read_skill_file(skill, path)",
			"skills-mcp pull --sync --keep-path --to ~/.cache/skills-mcp-client/acme-skills <skill-path>",
			"through its interpreter",
			"SEP-2640",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("instructions lack %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "testdata") || strings.Contains(text, "/tmp") {
			t.Errorf("instructions hold a local path:\n%s", text)
		}
	})
	given := newServer(t, Options{Instructions: "Use these skills."}, exampleBuilt(t))
	if got := connectMem(t, given, "2025-11-25", nil).InitializeResult().Instructions; got != "Use these skills." {
		t.Errorf("given instructions replaced by %q", got)
	}
}

// FuzzToolArguments feeds arbitrary skill arguments, file paths, cursors
// and SKILL.md texts to their parsers: no panic; a resolved skill is one the
// argument names; an accepted path stays inside the skill; a body is a
// suffix of its SKILL.md.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{"pdf-processing", "acme/refunds", "skill://acme/pdf-processing/SKILL.md", "refunds", "/acme/pdf-processing/",
		"../x", "a/./b", "templates/", `a\b`, "/etc/passwd", "skill://x", "\x00", "%2e%2e/x", "---\nname: x\n---\nbody", "\uFEFF---\r\n---\r\nb"} {
		f.Add(s, s, s)
	}
	s := newServer(f, Options{Name: "acme-skills"}, exampleBuilt(f))
	d := &discovery{srv: s, name: "acme-skills", prefix: "p"}
	c := d.current(context.Background())
	f.Fuzz(func(t *testing.T, skill, path, cursor string) {
		if k, err := d.resolve(c, skill); err == nil {
			doc := c.docs[k]
			arg := strings.TrimSuffix(strings.Trim(strings.TrimSpace(skill), "/"), "/SKILL.md")
			if !strings.Contains(skill, doc.name) && arg != doc.library+"/"+doc.name && !strings.Contains(doc.uri, arg) {
				t.Errorf("resolve(%q) = %s", skill, doc.path)
			}
		}
		if rel, err := checkRelPath(path); err == nil {
			for seg := range strings.SplitSeq(rel, "/") {
				if seg == "" || seg == "." || seg == ".." {
					t.Errorf("checkRelPath(%q) = %q", path, rel)
				}
			}
			if strings.ContainsAny(rel, "\\\x00") || strings.HasPrefix(rel, "/") {
				t.Errorf("checkRelPath(%q) = %q", path, rel)
			}
		}
		if i, err := decodeListCursor(cursor, c.snap, 0, 10); err == nil && (i < 0 || i > 10) {
			t.Errorf("cursor %q gives %d", cursor, i)
		}
	})
}

// TestStdioDiscoveryFlags runs the command with --prefix and
// --describe-skills over stdio.
func TestStdioDiscoveryFlags(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	cs := connectStdio(t, "2025-11-25", bundle, "--prefix", "bob", "--describe-skills")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var get *mcp.Tool
	for _, tool := range res.Tools {
		if tool.Name == "bob_get_skill" {
			get = tool
		}
	}
	if get == nil || !strings.Contains(get.Description, "<name>acme/pdf-processing</name>") {
		t.Fatalf("tools %v", res.Tools)
	}
	tc := newToolClient(t, cs)
	var out SearchOutput
	tc.call("bob_search_skills", map[string]any{"query": "pdf"}, &out)
	if len(out.Results) == 0 || out.Results[0].Path != "acme/pdf-processing" {
		t.Errorf("search over stdio: %+v", out.Results)
	}
	out2, err := exec.Command(servetest.Binary(t), "serve", "--prefix", "bad prefix", bundle).CombinedOutput()
	if err == nil || !strings.Contains(string(out2), "tool prefix") {
		t.Errorf("bad --prefix: %v\n%s", err, out2)
	}
}

// TestNoListChangedAtStart checks that a client connecting right after the
// server starts is not told that the tools or prompts changed: they are
// registered on its first tools/list, and a server of fixed bundles declares
// its lists fixed (they were once registered in the background, and every
// new session got four list_changed notifications).
func TestNoListChangedAtStart(t *testing.T) {
	var changes atomic.Int32
	opts := &mcp.ClientOptions{
		ToolListChangedHandler:   func(context.Context, *mcp.ToolListChangedRequest) { changes.Add(1) },
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { changes.Add(1) },
	}
	cs := connectMem(t, newServer(t, Options{}, exampleBuilt(t)), "2025-11-25", opts)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 7 {
		t.Fatalf("tools/list: %d tools, %v", len(res.Tools), err)
	}
	time.Sleep(100 * time.Millisecond) // the SDK sends list_changed 10 ms after a change
	if n := changes.Load(); n != 0 {
		t.Errorf("got %d list_changed notifications at start", n)
	}
}

// TestToolsRegisteredOnFirstNeed: a fresh server's first tools and prompts
// requests, arriving at once from several sessions, all see every tool
// with its schemas and the prompt (go test -race checks the registration).
func TestToolsRegisteredOnFirstNeed(t *testing.T) {
	s := newServer(t, Options{}, exampleBuilt(t))
	var wg sync.WaitGroup
	for i := range 4 {
		cs := connectMem(t, s, "2025-11-25", nil)
		wg.Go(func() {
			ctx := context.Background()
			if i%2 == 1 {
				res, err := cs.ListPrompts(ctx, nil)
				if err != nil || !slices.ContainsFunc(res.Prompts, func(p *mcp.Prompt) bool { return p.Name == PromptUseSkill }) {
					t.Errorf("prompts/list: %v, %v", res, err)
				}
				return
			}
			res, err := cs.ListTools(ctx, nil)
			if err != nil || len(res.Tools) != 7 {
				t.Errorf("tools/list: %v, %v", res, err)
				return
			}
			for _, tool := range res.Tools {
				if tool.InputSchema == nil || tool.OutputSchema == nil {
					t.Errorf("%s: input or output schema missing", tool.Name)
				}
			}
		})
	}
	wg.Wait()
}

// TestDescribeDiffers: get_skill's description changes with a skill's name
// or description, or a skill added or removed, and not with a file's bytes.
func TestDescribeDiffers(t *testing.T) {
	base := exampleFixture()
	snap := func(edit func(fixture)) *Snapshot {
		fx := exampleFixture()
		edit(fx)
		b, _ := memBundle(t, fx)
		s, err := newSnapshot([]*manifest.Bundle{b}, false)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	b, _ := memBundle(t, base)
	s := newServer(t, Options{DescribeSkills: true}, b)
	d := &discovery{srv: s, prefix: "p", describe: true}
	old := s.Snapshot()
	for _, tc := range []struct {
		name string
		edit func(fixture)
		want bool
	}{
		{"nothing", func(fixture) {}, false},
		{"a file's bytes", func(fx fixture) { fx["acme/pdf-processing"]["references/FORMS.md"] = "# Forms, v2\n" }, false},
		{"a body", func(fx fixture) {
			fx["community/git-workflow"]["SKILL.md"] = "---\nname: git-workflow\ndescription: Follow this team's Git conventions\n---\nOther body.\n"
		}, false},
		{"a description", func(fx fixture) {
			fx["community/git-workflow"]["SKILL.md"] = "---\nname: git-workflow\ndescription: New conventions\n---\nGit.\n"
		}, true},
		{"a new skill", func(fx fixture) {
			fx["community/new"] = map[string]string{"SKILL.md": "---\nname: new\ndescription: New\n---\n"}
		}, true},
		{"a removed skill", func(fx fixture) { delete(fx, "community/git-workflow") }, true},
	} {
		if got := d.describeDiffers(old, snap(tc.edit)); got != tc.want {
			t.Errorf("%s: describeDiffers = %v, want %v", tc.name, got, tc.want)
		}
	}
}
