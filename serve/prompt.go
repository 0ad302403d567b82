package serve

// The use-skill prompt, and argument completion for it and for the skill
// resource templates.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/skilltext"
)

// PromptUseSkill is the name of the prompt that puts a skill's instructions
// into the conversation.
const PromptUseSkill = "use-skill"

// maxCompletions is the most values a completion answer holds (the MCP
// limit).
const maxCompletions = 100

func (d *discovery) addPrompt() {
	d.srv.mcp.AddPrompt(&mcp.Prompt{
		Name:  PromptUseSkill,
		Title: "Use a skill",
		Description: "Put a skill's instructions into the conversation, labelled with the server they come from, " +
			"optionally with the task to apply them to.",
		Arguments: []*mcp.PromptArgument{
			{Name: "skill", Title: "Skill", Required: true,
				Description: "The skill: its path, namespace/name, a bare name when unique, or its skill:// URI"},
			{Name: "task", Title: "Task", Description: "What to apply the skill to (optional)"},
		},
	}, d.useSkill)
}

// useSkill answers prompts/get for use-skill. Prompts have no error result,
// so an unknown or ambiguous skill is the protocol error -32602.
func (d *discovery) useSkill(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	l, err := d.load(d.current(ctx), args["skill"])
	if err != nil {
		return nil, invalidParams("%s: %v", PromptUseSkill, err)
	}
	doc := &l.doc
	var t strings.Builder
	fmt.Fprintf(&t, "Apply the skill %q (%s) below.\n%s", doc.name, doc.category, d.skillHead(l))
	if task := strings.TrimSpace(args["task"]); task != "" {
		t.WriteString("\n\nTask: " + task)
	}
	fmt.Fprintf(&t, "\n\n<skill name=%q source=%q>\n%s\n</skill>\n", doc.name, d.name, strings.TrimSpace(string(skilltext.Body(l.md))))
	t.WriteString(d.skillTail(l, req.Extra))
	return &mcp.GetPromptResult{
		Description: doc.description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: t.String()}}},
	}, nil
}

// skillHead is what both kinds of prompt say about a skill before its
// instructions: where it comes from, its provenance, whether it is for
// explicit use only, and its risk flags.
func (d *discovery) skillHead(l *loaded) string {
	t := d.sourceLine()
	if p := provenanceLine(l.doc.trust); p != "" {
		t += "\n" + p
	}
	if l.doc.hidden {
		t += "\nExplicit use only (disable-model-invocation): the user asked for it by invoking this prompt."
	}
	if b := riskBanner(l.sk.Findings); b != "" {
		t += "\n\n" + b
	}
	if c := capsLine(l.sk); c != "" {
		t += "\n" + c
	}
	return t
}

// skillTail is what both kinds of prompt say after a skill's instructions:
// its bundled files, and how to run its scripts safely.
func (d *discovery) skillTail(l *loaded, extra *mcp.RequestExtra) string {
	var t strings.Builder
	var files []SkillFile
	for i, f := range l.sk.Files {
		r := l.sk.Entry.Resources[i]
		files = append(files, SkillFile{Path: f.Path, Size: r.Size, Digest: r.Digest.String(), Script: f.Script, Interpreter: interpreter(f)})
	}
	if len(files) > 1 {
		fmt.Fprintf(&t, "\nBundled files, read with %s_read_skill_file(skill=%q, path=\"<path>\"):\n", d.prefix, l.doc.path)
		for _, f := range files[1:] {
			fmt.Fprintf(&t, "- %s (%d B, %s)\n", f.Path, f.Size, f.Digest)
		}
	}
	if steps := d.scriptSteps(l.doc.path, files, extra); len(steps) > 0 {
		t.WriteString("\n" + strings.Join(steps, "\n") + "\n")
	}
	return t.String()
}

// complete answers completion/complete: the skill argument of use-skill,
// and the skillPath variable of the skill resource templates. Anything else
// gets no values.
func (d *discovery) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	if p == nil || p.Ref == nil {
		return nil, invalidParams("completion/complete: params.ref is required")
	}
	if p.Argument.Name == "" {
		return nil, invalidParams("completion/complete: params.argument.name is required")
	}
	var values []string
	switch {
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == PromptUseSkill && p.Argument.Name == "skill":
		values = d.completeSkill(ctx, p.Argument.Value, true)
	case p.Ref.Type == "ref/resource" && p.Argument.Name == "skillPath" &&
		(p.Ref.URI == skillTemplate.URITemplate || p.Ref.URI == fileTemplate.URITemplate):
		values = d.completeSkill(ctx, p.Argument.Value, false)
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}
	if len(values) > maxCompletions {
		res.Completion.Values, res.Completion.HasMore = values[:maxCompletions], true
	}
	if res.Completion.Values == nil {
		res.Completion.Values = []string{}
	}
	return res, nil
}

// completeSkill returns the skills whose name or path starts with prefix,
// ignoring case. For the prompt (names true) a skill is offered by its name
// when the name is unique, else by its path, and hidden skills are offered
// too: a prompt is the user's explicit choice. For resource templates it is
// the listed skills' paths.
func (d *discovery) completeSkill(ctx context.Context, prefix string, names bool) []string {
	c := d.current(ctx)
	docs, err := c.skills()
	if err != nil {
		return nil
	}
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	var byName, byPath []string
	for i := range docs {
		doc := &docs[i]
		if !names && !doc.listed {
			continue
		}
		switch {
		case names && strings.HasPrefix(strings.ToLower(doc.name), prefix):
			if len(c.byName[doc.name]) == 1 {
				byName = append(byName, doc.name)
			} else {
				byName = append(byName, doc.path)
			}
		case strings.HasPrefix(strings.ToLower(doc.path), prefix):
			byPath = append(byPath, doc.path)
		}
	}
	slices.Sort(byName)
	return slices.Compact(append(byName, byPath...))
}
