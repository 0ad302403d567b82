package serve

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestUseSkillPrompt(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := context.Background()
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: PromptUseSkill,
			Arguments: map[string]string{"skill": "pdf-processing", "task": "Read the attached invoice.pdf"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" || !strings.HasPrefix(res.Description, "Extract text and form fields") {
			t.Fatalf("prompt %+v", res)
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		for _, want := range []string{
			`Apply the skill "pdf-processing" (uncategorized) below.`,
			"Source: acme-skills (MCP-served skill, not installed locally)",
			"Provenance: license=Apache-2.0",
			"Task: Read the attached invoice.pdf",
			"<skill name=\"pdf-processing\" source=\"acme-skills\">\n# PDF processing",
			"</skill>",
			p + `_read_skill_file(skill="acme/pdf-processing"`,
			"- scripts/extract.py (",
			"skills-mcp pull --sync --keep-path --to ~/.cache/skills-mcp-client/acme-skills acme/pdf-processing",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("prompt lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "name: pdf-processing") {
			t.Error("the prompt carries the frontmatter")
		}

		res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: PromptUseSkill, Arguments: map[string]string{"skill": "incident-response"}})
		if err != nil {
			t.Fatal(err)
		}
		text = res.Messages[0].Content.(*mcp.TextContent).Text
		if !strings.Contains(text, "⚠ Risk flags") || strings.Contains(text, "Task:") || !strings.Contains(text, "(ops)") {
			t.Errorf("incident-response prompt:\n%s", text)
		}
		// A hidden skill is the user's explicit choice here.
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: PromptUseSkill, Arguments: map[string]string{"skill": "deploy-production"}}); err != nil {
			t.Errorf("hidden skill: %v", err)
		}
		for _, args := range []map[string]string{{"skill": "refunds"}, {"skill": "nope"}, {}} {
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: PromptUseSkill, Arguments: args})
			wantRPCError(t, err, jsonrpc.CodeInvalidParams, PromptUseSkill)
		}
	})
}

func TestCompletion(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		complete := func(ref *mcp.CompleteReference, arg, value string) *mcp.CompleteResult {
			t.Helper()
			res, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
			if err != nil {
				t.Fatalf("complete %s=%q: %v", arg, value, err)
			}
			return res
		}
		prompt := &mcp.CompleteReference{Type: "ref/prompt", Name: PromptUseSkill}
		for value, want := range map[string][]string{
			"pdf":       {"pdf-processing"},
			"PDF":       {"pdf-processing"},
			"ref":       {"acme/billing/refunds", "community/refunds"}, // ambiguous names complete to paths
			"part":      {"partial-refunds"},
			"dep":       {"deploy-production"}, // the prompt is the user's explicit choice
			"acme/bil":  {"acme/billing/refunds", "acme/billing/refunds/partial-refunds"},
			"community": {"community/changelog-writer", "community/csv-cleaner", "community/meeting-notes", "community/refunds"},
			"zzz":       {},
		} {
			got := complete(prompt, "skill", value).Completion
			if !slices.Equal(got.Values, want) || got.Total != len(want) || got.HasMore {
				t.Errorf("complete skill=%q: %+v, want %v", value, got, want)
			}
		}
		if got := complete(prompt, "skill", "").Completion; got.Total != 11 || len(got.Values) != 11 {
			t.Errorf("empty prefix: %+v", got)
		}
		if got := complete(prompt, "task", "x").Completion; len(got.Values) != 0 {
			t.Errorf("task completion %+v", got)
		}
		tmpl := &mcp.CompleteReference{Type: "ref/resource", URI: skillTemplate.URITemplate}
		if got := complete(tmpl, "skillPath", "acme/").Completion; !slices.Equal(got.Values, []string{"acme/billing/refunds",
			"acme/billing/refunds/partial-refunds", "acme/git-workflow", "acme/ops/incident-response", "acme/pdf-processing", "acme/release-notes"}) {
			t.Errorf("template completion (without the hidden skill): %+v", got)
		}
		if got := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "other"}, "skill", "p").Completion; len(got.Values) != 0 {
			t.Errorf("other prompt: %+v", got)
		}
	})
}

func TestCompletionCapped(t *testing.T) {
	skills, _ := qualityFixture(t)
	s := newServer(t, Options{}, buildSkills(t, skills))
	res, err := connectMem(t, s, "", nil).Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: PromptUseSkill},
		Argument: mcp.CompleteParamsArgument{Name: "skill"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Completion; len(c.Values) != maxCompletions || !c.HasMore || c.Total != len(skills) {
		t.Errorf("completion of %d skills: %d values, total %d, hasMore %v", len(skills), len(c.Values), c.Total, c.HasMore)
	}
}
