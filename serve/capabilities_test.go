package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestCapabilitiesShown: a real MCP client sees each skill's capabilities
// (what the analysis saw it do) in the instructions' catalog, the search,
// list and get_skill tools (structured and text) and the resources' _meta;
// a skill without any shows none.
func TestCapabilitiesShown(t *testing.T) {
	s := newServer(t, Options{Name: "acme-skills"}, exampleBuilt(t))
	want := []string{"exec-remote", "network"}
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		instr := cs.InitializeResult().Instructions
		if !strings.Contains(instr, "[capabilities: exec-remote, network]") || !strings.Contains(instr, "each skill's capabilities") {
			t.Errorf("instructions lack the capabilities:\n%s", instr)
		}
		for _, line := range strings.Split(instr, "\n") {
			if strings.Contains(line, "[capabilities:") && !strings.HasPrefix(line, "- acme/ops/incident-response") {
				t.Errorf("a skill without capabilities shows some: %s", line)
			}
		}
		tc := newToolClient(t, cs)
		var found SearchOutput
		text := tc.call(p+"_search_skills", map[string]any{"query": "incident outage"}, &found)
		if len(found.Results) == 0 || !slices.Equal(found.Results[0].Capabilities, want) ||
			!strings.Contains(text, "(capabilities: exec-remote, network)") {
			t.Errorf("search: %+v\n%s", found.Results, text)
		}
		var list ListSkillsOutput
		text = tc.call(p+"_list_skills", map[string]any{}, &list)
		n := 0
		for _, sk := range list.Skills {
			if sk.Path == "acme/ops/incident-response" {
				n++
				if !slices.Equal(sk.Capabilities, want) {
					t.Errorf("list_skills: %s capabilities %v", sk.Path, sk.Capabilities)
				}
			} else if sk.Capabilities != nil {
				t.Errorf("list_skills: %s capabilities %v, want none", sk.Path, sk.Capabilities)
			}
		}
		if n != 1 || !strings.Contains(text, "acme/ops/incident-response  [ops]  ⚠ pipe-to-shell  (capabilities: exec-remote, network)") {
			t.Errorf("list_skills text:\n%s", text)
		}
		var got GetSkillOutput
		text = tc.call(p+"_get_skill", map[string]any{"skill": "incident-response"}, &got)
		if !slices.Equal(got.Capabilities, want) || !strings.Contains(text, "Capabilities (what the analysis saw this skill do): exec-remote, network") {
			t.Errorf("get_skill: %v\n%s", got.Capabilities, text)
		}
		text = tc.call(p+"_get_skill", map[string]any{"skill": "meeting-notes"}, &got)
		if got.Capabilities != nil || strings.Contains(text, "Capabilities") {
			t.Errorf("get_skill of a plain skill: %v\n%s", got.Capabilities, text)
		}
		pr, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: PromptUseSkill, Arguments: map[string]string{"skill": "acme/ops/incident-response", "task": "an outage"}})
		if err != nil {
			t.Fatal(err)
		}
		var ptext strings.Builder
		for _, m := range pr.Messages {
			if tc, ok := m.Content.(*mcp.TextContent); ok {
				ptext.WriteString(tc.Text)
			}
		}
		if !strings.Contains(ptext.String(), "Capabilities (what the analysis saw this skill do): exec-remote, network") {
			t.Errorf("use-skill prompt lacks the capabilities:\n%s", ptext.String())
		}
		var st CatalogStatusOutput
		tc.call(p+"_catalog_status", map[string]any{}, &st)
		if fmt.Sprint(st.Lint.Capabilities) != "map[exec-remote:1 network:1]" {
			t.Errorf("catalog_status capabilities %v", st.Lint.Capabilities)
		}
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			caps := fmt.Sprint(r.Meta[manifest.MetaPrefix+"capabilities"])
			wantCaps := "[]"
			if r.URI == "skill://acme/ops/incident-response/SKILL.md" {
				wantCaps = "[exec-remote network]"
			}
			if caps != wantCaps {
				t.Errorf("resource %s: _meta capabilities %s, want %s", r.URI, caps, wantCaps)
			}
		}
	})
}
