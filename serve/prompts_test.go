package serve

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// validPromptName is the rule every prompt name must meet: an MCP name and
// a slash command in every host (no "__", the hosts' separator).
var validPromptName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

func promptNamed(ps []*mcp.Prompt, name string) *mcp.Prompt {
	for _, p := range ps {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func TestSkillPrompts(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := context.Background()
		res, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range res.Prompts {
			names = append(names, p.Name)
		}
		want := []string{"acme_billing_refunds", "acme_billing_refunds_partial-refunds", "acme_deploy-production", "acme_git-workflow",
			"acme_ops_incident-response", "acme_pdf-processing", "acme_release-notes", "community_changelog-writer",
			"community_csv-cleaner", "community_meeting-notes", "community_refunds", PromptUseSkill}
		if !slices.Equal(names, want) {
			t.Errorf("prompts %v\nwant %v", names, want)
		}
		if res.NextCursor != "" {
			t.Errorf("prompts/list has a next page: %q", res.NextCursor)
		}
		pdf := promptNamed(res.Prompts, "acme_pdf-processing")
		if pdf == nil || pdf.Title != "pdf-processing" || !strings.HasPrefix(pdf.Description, "Extract text and form fields from PDF files") ||
			len(pdf.Arguments) != 1 || pdf.Arguments[0].Name != "task" || pdf.Arguments[0].Required ||
			pdf.Meta[manifest.MetaPrefix+"uri"] != "skill://acme/pdf-processing/SKILL.md" {
			t.Errorf("pdf prompt %+v", pdf)
		}
		// A hidden skill has a prompt, marked as for explicit use.
		dep := promptNamed(res.Prompts, "acme_deploy-production")
		if dep == nil || !strings.HasSuffix(dep.Title, "(explicit use only)") || !strings.HasPrefix(dep.Description, "Explicit use only") ||
			dep.Meta[manifest.MetaPrefix+"disable-model-invocation"] != true {
			t.Errorf("hidden skill's prompt %+v", dep)
		}

		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "acme_pdf-processing", Arguments: map[string]string{"task": "Read invoice.pdf"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Messages) != 2 || !strings.HasPrefix(got.Description, "Extract text") {
			t.Fatalf("prompts/get: %+v", got)
		}
		er, ok := got.Messages[0].Content.(*mcp.EmbeddedResource)
		if !ok || got.Messages[0].Role != "user" {
			t.Fatalf("first message %+v, want an embedded resource", got.Messages[0].Content)
		}
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://acme/pdf-processing/SKILL.md"})
		if err != nil {
			t.Fatal(err)
		}
		if er.Resource.URI != "skill://acme/pdf-processing/SKILL.md" || er.Resource.MIMEType != "text/markdown" ||
			er.Resource.Text != read.Contents[0].Text || er.Annotations == nil || !slices.Equal(er.Annotations.Audience, []mcp.Role{"assistant"}) {
			t.Errorf("embedded SKILL.md %+v (annotations %+v)", er.Resource, er.Annotations)
		}
		text := got.Messages[1].Content.(*mcp.TextContent).Text
		for _, want := range []string{
			`Apply the skill "pdf-processing" (uncategorized) above.`,
			"Source: acme-skills (MCP-served skill, not installed locally)",
			"Provenance: ",
			"Task: Read invoice.pdf",
			"- scripts/extract.py (",
			"skills-mcp pull --sync --keep-path",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("prompt text lacks %q:\n%s", want, text)
			}
		}
		// The same provenance line as use-skill.
		use, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: PromptUseSkill, Arguments: map[string]string{"skill": "acme/pdf-processing"}})
		if err != nil {
			t.Fatal(err)
		}
		prov := regexp.MustCompile(`(?m)^Provenance: .*$`)
		if a, b := prov.FindString(text), prov.FindString(use.Messages[0].Content.(*mcp.TextContent).Text); a == "" || a != b {
			t.Errorf("provenance %q, use-skill's %q", a, b)
		}

		got, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "acme_deploy-production"})
		if err != nil {
			t.Fatal(err)
		}
		if text := got.Messages[1].Content.(*mcp.TextContent).Text; !strings.Contains(text, "Explicit use only") || strings.Contains(text, "Task:") {
			t.Errorf("hidden skill's prompt text:\n%s", text)
		}
		_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "acme_nope"})
		wantRPCError(t, err, jsonrpc.CodeInvalidParams, "acme_nope")
		_, err = cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: "abc"})
		wantRPCError(t, err, jsonrpc.CodeInvalidParams, "cursor")
	})
}

func TestPromptNames(t *testing.T) {
	long := strings.Repeat("very-long-folder-name/", 4) + "the-skill-with-a-rather-long-name"
	paths := []string{
		"acme/pdf", "Acme/pdf", "ACME/PDF", // collide: acme/pdf is in normal form and keeps the name
		"a.b/c", "a_b/c", "a%20b/c", // collide, none in normal form
		"use-skill",                        // reserved
		"x/数据", "x/données", "x/--weird--", // Unicode and punctuation
		long, long + "-2",
		"root-skill",
	}
	names := promptNames(paths, []string{PromptUseSkill})
	seen := map[string]string{}
	for i, n := range names {
		if !validPromptName.MatchString(n) || strings.Contains(n, "__") {
			t.Errorf("%s → %q: not a valid prompt name", paths[i], n)
		}
		if p, dup := seen[n]; dup {
			t.Errorf("%s and %s both → %q", p, paths[i], n)
		}
		seen[n] = paths[i]
	}
	if seen[PromptUseSkill] != "" {
		t.Errorf("%s took the reserved name %s", seen[PromptUseSkill], PromptUseSkill)
	}
	for p, want := range map[string]string{"acme/pdf": "acme_pdf", "root-skill": "root-skill", "x/--weird--": "x_weird"} {
		if got := names[slices.Index(paths, p)]; got != want {
			t.Errorf("%s → %q, want %q", p, got, want)
		}
	}
	hashed := regexp.MustCompile(`-[0-9a-f]{6}$`)
	for _, p := range []string{"Acme/pdf", "ACME/PDF", "a.b/c", "a_b/c", "use-skill", long, long + "-2", "x/数据"} {
		if n := names[slices.Index(paths, p)]; !hashed.MatchString(n) {
			t.Errorf("%s → %q, want a hash suffix", p, n)
		}
	}
	if n := names[slices.Index(paths, long)]; !strings.Contains(n, "the-skill-with") {
		t.Errorf("long path → %q: the skill's own name is lost", n)
	}
	// A name depends on the set of paths, never on their order.
	shuffled := slices.Clone(paths)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	again := promptNames(shuffled, []string{PromptUseSkill})
	for i, p := range shuffled {
		if want := names[slices.Index(paths, p)]; again[i] != want {
			t.Errorf("%s → %q after a shuffle, %q before", p, again[i], want)
		}
	}
}

// FuzzPromptNames gives promptNames arbitrary sets of skill paths (one a
// line): every path gets a name, each a valid prompt name and slash
// command, no two alike, none reserved, and the same whatever the order of
// the paths.
func FuzzPromptNames(f *testing.F) {
	long := strings.Repeat("very-long-folder-name/", 4) + "the-skill-with-a-rather-long-name"
	for _, seed := range []string{
		"acme/pdf\nAcme/pdf\nACME/PDF",
		"a.b/c\na_b/c\na%20b/c\nuse-skill",
		"x/数据\nx/données\nx/--weird--\n%\n%zz/a",
		long + "\n" + long + "-2\nx/" + long,
		"skill\nskill-" + strings.Repeat("a", 6) + "\n数据",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var paths []string
		for p := range strings.SplitSeq(in, "\n") {
			if !slices.Contains(paths, p) { // a catalog's paths are distinct
				paths = append(paths, p)
			}
		}
		names := promptNames(paths, []string{PromptUseSkill})
		if len(names) != len(paths) {
			t.Fatalf("%d names for %d paths", len(names), len(paths))
		}
		seen := map[string]string{PromptUseSkill: "(reserved)"}
		for i, n := range names {
			if !validPromptName.MatchString(n) || strings.Contains(n, "__") {
				t.Errorf("%q → %q: not a valid prompt name", paths[i], n)
			}
			if p, dup := seen[n]; dup {
				t.Errorf("%q and %q both → %q", p, paths[i], n)
			}
			seen[n] = paths[i]
		}
		rev := slices.Clone(paths)
		slices.Reverse(rev)
		again := promptNames(rev, []string{PromptUseSkill})
		for i, p := range rev {
			if want := names[len(paths)-1-i]; again[i] != want {
				t.Errorf("%q → %q with the paths reversed, %q before", p, again[i], want)
			}
		}
	})
}

// TestPromptNamesServed serves skills whose paths collide after
// normalisation, or are too long for a prompt name: every one gets a prompt
// of its own, which loads it.
func TestPromptNamesServed(t *testing.T) {
	fx := fixture{}
	// Two long paths that keep the same tail when cut to a host's length.
	long := strings.Repeat("deeply-nested-folder/", 4) + "a-skill-whose-name-alone-runs-past-what-a-host-accepts"
	paths := []string{"team/pdf", "Team/pdf", "team.x/pdf", "team_x/pdf", long, "other/" + long}
	for _, p := range paths {
		fx[p] = map[string]string{"SKILL.md": servetest.SkillMD("pdf", "PDF for "+p+".")}
	}
	b, _ := memBundle(t, fx)
	cs := connectMem(t, newServer(t, Options{}, b), "", nil)
	ctx := context.Background()
	res, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, p := range res.Prompts {
		if p.Name == PromptUseSkill {
			continue
		}
		if !validPromptName.MatchString(p.Name) {
			t.Errorf("invalid name %q", p.Name)
		}
		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name})
		if err != nil {
			t.Fatal(err)
		}
		uri := got.Messages[0].Content.(*mcp.EmbeddedResource).Resource.URI
		if uri != p.Meta[manifest.MetaPrefix+"uri"] || uris[uri] {
			t.Errorf("%s loads %s (listed for %v)", p.Name, uri, p.Meta[manifest.MetaPrefix+"uri"])
		}
		uris[uri] = true
	}
	if len(uris) != len(paths) || promptNamed(res.Prompts, "team_pdf").Meta[manifest.MetaPrefix+"uri"] != "skill://team/pdf/SKILL.md" {
		t.Errorf("prompts %d, team_pdf %+v", len(uris), promptNamed(res.Prompts, "team_pdf"))
	}
}

// TestPromptText: control characters and very long titles and
// descriptions are handled by rule: one line of printable text, cut at 100
// and 1,024 characters, a hidden skill's marks included.
func TestPromptText(t *testing.T) {
	desc := "Line one\u0007\u001b[31m red \u202Eevil\u2028next " + strings.Repeat("long ", 1000)
	b, _ := memBundle(t, fixture{"ns/odd": {"SKILL.md": "---\nname: odd\ndescription: " + fmt.Sprintf("%q", desc) + "\ntitle: \"A\\ttitle\\nhere\"\n---\nBody.\n"}})
	res, err := connectMem(t, newServer(t, Options{}, b), "", nil).ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := promptNamed(res.Prompts, "ns_odd")
	if p == nil {
		t.Fatalf("no prompt ns_odd in %+v", res.Prompts)
	}
	if p.Title != "A title here" {
		t.Errorf("title %q", p.Title)
	}
	if strings.ContainsFunc(p.Description, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x202E || r == 0x2028 }) ||
		!strings.HasPrefix(p.Description, "Line one [31m red evil next long") || len([]rune(p.Description)) != maxPromptDescription ||
		!strings.HasSuffix(p.Description, "…") {
		t.Errorf("description (%d characters) %q", len([]rune(p.Description)), p.Description[:80])
	}
	// A hidden skill's marks fit within the same limits, and are kept.
	b, _ = memBundle(t, fixture{"ns/hid": {"SKILL.md": "---\nname: hid\ndescription: " + fmt.Sprintf("%q", desc) +
		"\ntitle: " + strings.Repeat("Title ", 100) + "\ndisable-model-invocation: true\n---\nBody.\n"}})
	res, err = connectMem(t, newServer(t, Options{}, b), "", nil).ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p = promptNamed(res.Prompts, "ns_hid"); p == nil {
		t.Fatalf("no prompt ns_hid in %+v", res.Prompts)
	}
	if n := len([]rune(p.Title)); n != maxPromptTitle || !strings.HasPrefix(p.Title, "Title Title") || !strings.HasSuffix(p.Title, "… (explicit use only)") {
		t.Errorf("hidden skill's title (%d characters) %q", n, p.Title)
	}
	if n := len([]rune(p.Description)); n != maxPromptDescription || !strings.HasPrefix(p.Description, "Explicit use only") ||
		!strings.HasSuffix(p.Description, "…") {
		t.Errorf("hidden skill's description (%d characters) %q", n, p.Description[:80])
	}
}

// TestPromptListWire: the prompts/list result with per-skill prompts is,
// byte for byte, what the SDK sends when the same prompts are registered
// with it, under both revisions: hidden skills, HTML and control
// characters (the control ones made spaces by rule), a title, and a prompt
// added through MCP() that sorts among the skills'.
func TestPromptListWire(t *testing.T) {
	fx := exampleFixture()
	fx["web/html-kit"] = map[string]string{"SKILL.md": "---\nname: html-kit\ntitle: \"<Kit> & \\\"co\\\"\"\n" +
		"description: \"Escape <b>&</b>, \\u2028 and \\u0007 (bell); \\\"quoted\\\" é ✓ \\U0001F600\"\n---\nKit.\n"}
	b, _ := memBundle(t, fx)
	added := []*mcp.Prompt{{Name: "b-added", Description: "Added through MCP() <&>"}}
	noop := func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	}
	s := newServer(t, Options{}, b)
	// The reference: per-skill prompts off, so prompts/list is the SDK's
	// alone, with the per-skill prompts registered with the SDK.
	ref := newServer(t, Options{PromptLimit: -1}, b)
	sps, st, err := s.discovery.promptsFor(s.discovery.catalogFor(s.Snapshot()))
	if err != nil || !st.Enabled || len(sps) != 6 {
		t.Fatalf("%d prompts, %+v, %v", len(sps), st, err)
	}
	for _, p := range sps {
		ref.MCP().AddPrompt(p.prompt, noop)
	}
	for _, p := range added {
		s.MCP().AddPrompt(p, noop)
		ref.MCP().AddPrompt(p, noop)
	}
	list := func(t *testing.T, s *Server, revision string) []byte {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.MCP().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{Transport: ct, methods: map[any]string{}}
		cs, err := newClient(t, nil).Connect(context.Background(), rec, &mcp.ClientSessionOptions{ProtocolVersion: revision})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { cs.Close(); ss.Wait() }()
		if _, err := cs.ListPrompts(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		for _, m := range rec.got {
			if m.method == "prompts/list" {
				return m.result
			}
		}
		t.Fatal("no prompts/list result recorded")
		return nil
	}
	for _, revision := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(revision, func(t *testing.T) {
			got, want := list(t, s, revision), list(t, ref, revision)
			if !bytes.Equal(got, want) {
				t.Errorf("prompts/list result\n%s\nthe SDK's\n%s", got, want)
			}
			for _, w := range []string{`"name":"b-added"`, `"name":"web_html-kit"`, `<b>&</b>, and (bell); \"quoted\" é ✓ 😀`, "disable-model-invocation"} {
				if !bytes.Contains(got, []byte(w)) {
					t.Errorf("result lacks %s:\n%s", w, got)
				}
			}
		})
	}
}

func TestPromptLimit(t *testing.T) {
	for _, tc := range []struct {
		limit, want int
		reason      string
	}{
		{0, 11, ""}, // the default, 200
		{11, 11, ""},
		{10, 0, "11 skills, more than the prompt limit of 10"},
		{-1, 0, "off"},
	} {
		t.Run(fmt.Sprint(tc.limit), func(t *testing.T) {
			cs := connectMem(t, newServer(t, Options{PromptLimit: tc.limit}, exampleBuilt(t)), "2025-11-25", nil)
			ctx := context.Background()
			res, err := cs.ListPrompts(ctx, nil)
			if err != nil || len(res.Prompts) != tc.want+1 || promptNamed(res.Prompts, PromptUseSkill) == nil {
				t.Fatalf("prompts/list: %d prompts, %v", len(res.Prompts), err)
			}
			if tc.want == 0 {
				_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "acme_pdf-processing"})
				wantRPCError(t, err, jsonrpc.CodeInvalidParams, "acme_pdf-processing")
			}
			st := catalogStatus(t, cs)
			if st.Prompts.Enabled != (tc.want > 0) || st.Prompts.Prompts != tc.want || !strings.Contains(st.Prompts.Reason, tc.reason) ||
				(tc.reason == "") != (st.Prompts.Reason == "") {
				t.Errorf("catalog_status prompts %+v", st.Prompts)
			}
		})
	}
}

// catalogStatus calls catalog_status and decodes its result.
func catalogStatus(t *testing.T, cs *mcp.ClientSession) CatalogStatusOutput {
	t.Helper()
	var out CatalogStatusOutput
	newToolClient(t, cs).call("skills_mcp_catalog_status", map[string]any{}, &out)
	return out
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Extract PDF text. Use when handling PDFs.":    "Extract PDF text.",
		"Fill forms, e.g. tax forms. Use it for W-2s.": "Fill forms, e.g. tax forms.",
		"No full stop at all":                          "No full stop at all",
		"Line\nbreaks\tand\u0007 bells. Second.":       "Line breaks and bells.",
		"Version 2.1 is out! 3 new things.":            "Version 2.1 is out!",
		"处理 PDF 文件。第二句。":                               "处理 PDF 文件。",
		strings.Repeat("word ", 100) + "end. Next.":    strings.Repeat("word ", 31) + "word…",
		"": "",
		"Ends with a question? yes, lowercase goes on.":   "Ends with a question? yes, lowercase goes on.",
		"Ends with a question? Then a capital. And more.": "Ends with a question?",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCatalogInstructions: the instructions list the visible skills (path
// and first sentence) while they fit MaxCatalogBytes (auto), always
// (always) or never (never); a catalog too large for auto gives the
// categories with counts and says to search. The text is the same for
// every server of the same bundles.
func TestCatalogInstructions(t *testing.T) {
	instr := func(t *testing.T, opt Options, b *manifest.Bundle) string {
		t.Helper()
		return connectMem(t, newServer(t, opt, b), "2025-11-25", nil).InitializeResult().Instructions
	}
	catalog := func(text string) string {
		_, c, _ := strings.Cut(text, "\n\nSkills served")
		return c
	}
	t.Run("auto", func(t *testing.T) {
		text := instr(t, Options{}, exampleBuilt(t))
		c := catalog(text)
		for _, want := range []string{
			" (10; skill path: what it is for). Load one with skills_mcp_get_skill(skill=<path>) when the task matches it:\n",
			"\n- acme/pdf-processing: Extract text and form fields from PDF files, fill PDF forms, and render invoices from Acme's Markdown templates.\n",
			"\n- community/refunds: ",
			"\n- acme/billing/refunds/partial-refunds: ",
		} {
			if !strings.Contains(c, want) {
				t.Errorf("catalog lacks %q:\n%s", want, c)
			}
		}
		if strings.Contains(c, "deploy-production") || strings.Contains(c, "Use when") {
			t.Errorf("catalog shows a hidden skill or a second sentence:\n%s", c)
		}
		if strings.Count(c, "\n- ") != 10 {
			t.Errorf("catalog of %d skills:\n%s", strings.Count(c, "\n- "), c)
		}
		if again := instr(t, Options{}, exampleBuilt(t)); again != text {
			t.Error("the instructions differ between two servers of the same bundle")
		}
		if c := catalog(instr(t, Options{ShowDisabled: true}, exampleBuilt(t))); !strings.Contains(c, "- acme/deploy-production: Deploy a tagged Acme service release to the production Kubernetes cluster and verify it. (explicit use only)\n") {
			t.Errorf("--show-disabled catalog:\n%s", c)
		}
	})
	t.Run("never", func(t *testing.T) {
		if text := instr(t, Options{Catalog: CatalogNever}, exampleBuilt(t)); catalog(text) != "" || !strings.Contains(text, "SEP-2640") {
			t.Errorf("catalog with never:\n%s", text)
		}
	})
	big, _ := memBundle(t, bigFixture(300))
	t.Run("auto-too-large", func(t *testing.T) {
		text := instr(t, Options{}, big)
		c := catalog(text)
		if !strings.HasPrefix(c, ": 300, too many to list here. Find the one for a task with skills_mcp_search_skills(query)") ||
			!strings.Contains(c, "Categories (skills): uncategorized (300)") || strings.Contains(c, "skill-00001") {
			t.Errorf("summary:\n%s", c)
		}
		if n := len("\n\nSkills served") + len(c); n > MaxCatalogBytes {
			t.Errorf("summary of %d bytes", n)
		}
	})
	t.Run("always", func(t *testing.T) {
		c := catalog(instr(t, Options{Catalog: CatalogAlways}, big))
		if strings.Count(c, "\n- ns") != 300 || !strings.Contains(c, "\n- ns3/skill-00003: Skill number 3 of the benchmark catalog.\n") {
			t.Errorf("always: %d lines", strings.Count(c, "\n- ns"))
		}
		if len(c) <= MaxCatalogBytes {
			t.Errorf("always: a catalog of %d bytes, expected more than %d", len(c), MaxCatalogBytes)
		}
	})
	t.Run("auto-at-the-budget", func(t *testing.T) {
		// As many skills as fit: listed; one more: the summary. The
		// budget is measured on the text as sent.
		fits := 0
		for n := 40; n < 300; n++ {
			b, _ := memBundle(t, bigFixture(n))
			c := catalog(instr(t, Options{}, b))
			if strings.Contains(c, "too many to list") {
				break
			}
			if size := len("\n\nSkills served") + len(c); size > MaxCatalogBytes {
				t.Fatalf("%d skills: a catalog of %d bytes", n, size)
			}
			fits = n
		}
		if fits < 60 {
			t.Errorf("only %d skills fit the catalog", fits)
		}
	})
	t.Run("categories", func(t *testing.T) {
		fx := bigFixture(300)
		for i, sp := range slices.Sorted(maps.Keys(fx)) {
			switch i % 6 {
			case 0, 3:
				fx[sp]["SKILL.md"] = strings.Replace(fx[sp]["SKILL.md"], "---\n", "---\ncategory: science\n", 1)
			case 1:
				fx[sp]["SKILL.md"] = strings.Replace(fx[sp]["SKILL.md"], "---\n", "---\nmetadata:\n  category: ops\n", 1)
			case 2:
				md := strings.Replace(fx[sp]["SKILL.md"], "description: Skill", `description: 'Not a "category": key. Skill`, 1)
				fx[sp]["SKILL.md"] = strings.Replace(md, "catalog.\n", "catalog.'\n", 1)
			}
		}
		b, _ := fileBundle(t, fx) // memory-mapped: entries are read in place
		if c := catalog(instr(t, Options{}, b)); !strings.Contains(c, "Categories (skills): uncategorized (150), science (100), ops (50)") {
			t.Errorf("summary:\n%s", c)
		}
	})
	if _, err := New([]*manifest.Bundle{exampleBuilt(t)}, Options{Catalog: "sometimes"}); err == nil || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("catalog mode sometimes: %v", err)
	}
}

// TestStdioPromptFlags runs the command: --prompt-limit and --catalog reach
// the server.
func TestStdioPromptFlags(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture()) // 5 skills, one hidden
	ctx := context.Background()
	for _, tc := range []struct {
		args    []string
		prompts int
		catalog bool
	}{
		{nil, 5, true},
		{[]string{"--prompt-limit", "5", "--catalog", "always"}, 5, true},
		{[]string{"--prompt-limit", "4", "--catalog", "never"}, 0, false},
		{[]string{"--prompt-limit", "0"}, 0, true},
	} {
		cs := connectStdio(t, "2025-11-25", append([]string{bundle}, tc.args...)...)
		res, err := cs.ListPrompts(ctx, nil)
		if err != nil || len(res.Prompts) != tc.prompts+1 {
			t.Errorf("%v: %d prompts, %v", tc.args, len(res.Prompts), err)
		}
		if got := strings.Contains(cs.InitializeResult().Instructions, "\n- acme/pdf-processing: Extract, fill, and assemble PDF documents\n"); got != tc.catalog {
			t.Errorf("%v: catalog in the instructions: %v\n%s", tc.args, got, cs.InitializeResult().Instructions)
		}
	}
}

func TestDecodeFrontmatter(t *testing.T) {
	for entry, want := range map[string]string{
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d","metadata":{"x":1},"resources":[1]},"resources":[{"uri":"skill://a/SKILL.md"}]}`: "d",
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":",\"resources\":"},"resources":"dynamic"}`:                                           `,"resources":`,
		`{"frontmatter":{"description":"first"},"uri":"skill://a/SKILL.md"}`:                                                                                      "first", // another key order
	} {
		fm, err := entryFrontmatter([]byte(entry))
		if err != nil || fm["description"] != want {
			t.Errorf("%s: %v, %v", entry, fm, err)
		}
	}
	if _, err := entryFrontmatter([]byte(`{"uri":"x","frontmatter":`)); err == nil {
		t.Error("a cut entry decoded")
	}
}
