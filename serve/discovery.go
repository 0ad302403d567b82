package serve

// The discovery tools, prompts, completion and default instructions wired
// into the SDK server: registration (registerDiscovery), the middleware that
// answers what they announce, and what a swap changes in them. The tools
// themselves are tools.go, browse.go, skilltools.go and statustool.go; the
// prompts prompt.go and prompts.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// validToolPrefix reports whether p may prefix tool names: MCP tool names
// are letters, digits, _, - and ., at most 128 characters (the longest
// suffix is 17).
func validToolPrefix(p string) bool {
	if len(p) == 0 || len(p) > 100 {
		return false
	}
	for _, c := range []byte(p) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// registerDiscovery adds the discovery tools, the use-skill prompt, argument
// completion and default instructions to s.
func registerDiscovery(s *Server, opt Options, impl *mcp.Implementation) error {
	d := &discovery{srv: s, name: impl.Name, title: impl.Title, prefix: opt.Prefix, describe: opt.DescribeSkills,
		showDisabled: opt.ShowDisabled, instructions: opt.Instructions, refresh: opt.Refresh, liveStatus: opt.LiveStatus, signedBy: opt.SignedBy,
		promptLimit: opt.PromptLimit, promptsMove: promptsChange(opt), catalogMode: opt.Catalog,
		toolTypes: map[string][2]reflect.Type{}}
	if d.promptLimit == 0 {
		d.promptLimit = DefaultPromptLimit
	}
	if d.catalogMode == "" {
		d.catalogMode = CatalogAuto
	}
	if !slices.Contains([]CatalogMode{CatalogAuto, CatalogAlways, CatalogNever}, d.catalogMode) {
		return fmt.Errorf("serve: catalog mode %q: use auto, always or never", d.catalogMode)
	}
	if d.prefix == "" {
		d.prefix = strings.ReplaceAll(d.name, "-", "_")
	}
	if !validToolPrefix(d.prefix) {
		return fmt.Errorf("serve: tool prefix %q: use letters, digits, _, - and . only, at most 100", d.prefix)
	}
	s.discovery = d
	s.mcp.AddReceivingMiddleware(d.middleware)
	s.afterSwap = append(s.afterSwap, d.describeChanged, d.promptsChanged) // live.go, prompts.go
	d.registerPrompt = sync.OnceFunc(d.addPrompt)
	d.register = sync.OnceFunc(func() {
		d.addTools()
		d.registerPrompt()
	})
	if toolsChange(opt) {
		d.register()
	}
	if d.promptsMove {
		d.registerPrompt() // re-added when the prompts change, which notifies
	}
	return nil
}

// toolsChange reports whether the discovery tools of a server with opt can
// change: only get_skill's description can, on a live server with
// --describe-skills. Such a server declares tools listChanged and registers
// its tools at once; any other registers them on first need, which then
// notifies no one.
func toolsChange(opt Options) bool { return opt.Refresh != nil && opt.DescribeSkills }

// addTools registers the seven discovery tools.
func (d *discovery) addTools() {
	// Reads of a catalog never change it; catalog_status refresh=true may
	// swap the snapshot, but does not change the server's state otherwise.
	ro := func(idempotent bool) *mcp.ToolAnnotations {
		f := false
		return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: idempotent, OpenWorldHint: &f, DestructiveHint: &f}
	}
	p := d.prefix
	addTool(d, &mcp.Tool{Name: p + "_search_skills", Title: "Search skills", Annotations: ro(true),
		Description: "Find skills for a task: ranked full-text search over skill names, descriptions, tags and instructions. " +
			"Returns name, path, description, score, provenance and risk flags. Then load the best match with " + p + "_get_skill."},
		d.searchSkills)
	addTool(d, &mcp.Tool{Name: p + "_list_skills", Title: "List skills", Annotations: ro(true),
		Description: "Browse skills in path order, optionally in one library or category, a page at a time (pass nextCursor back as cursor)."},
		d.listSkills)
	addTool(d, &mcp.Tool{Name: p + "_list_libraries", Title: "List libraries", Annotations: ro(true),
		Description: "The skill libraries served: namespace, title, source, version and skill counts. Pass a namespace as library to scope search and listing."},
		d.listLibraries)
	addTool(d, &mcp.Tool{Name: p + "_list_categories", Title: "List categories", Annotations: ro(true),
		Description: "Skill categories with their skill counts, optionally in one library. A category is the skill's frontmatter category " +
			"(or metadata.category), else the folders between the library and the skill folder, else \"uncategorized\"."},
		d.listCategories)
	d.getSkillTool = &mcp.Tool{Name: p + "_get_skill", Title: "Get skill", Annotations: ro(true), Description: getSkillDescription(p)}
	addTool(d, d.getSkillTool, d.getSkill)
	addTool(d, &mcp.Tool{Name: p + "_read_skill_file", Title: "Read skill file", Annotations: ro(true),
		Description: fmt.Sprintf("Read a file of a skill (references/, templates/, scripts/, assets/) by its path relative to the skill folder: "+
			"text as is, binary as base64, always with its sha256 digest. A folder path returns every file in it; an empty path lists "+
			"the skill's files. One answer carries at most %d KiB of files.", MaxReadBytes>>10)},
		d.readSkillFile)
	addTool(d, &mcp.Tool{Name: p + "_catalog_status", Title: "Catalog status", Annotations: ro(false),
		Description: "What is being served: bundle ids, signatures, counts, skills withheld at build time with the reason, lint findings " +
			"and build warnings (include_warnings). refresh=true reloads live libraries first, when the server has any."},
		d.catalogStatus)
}

func getSkillDescription(p string) string {
	return "Load a skill: its SKILL.md instructions, its files with sizes and sha256 digests, its source and provenance, " +
		"risk flags, and how to run bundled scripts safely. The skill argument is the path from " + p + "_search_skills, " +
		"namespace/name, a bare name when unique, or the skill:// URI. Read bundled files with " + p + "_read_skill_file."
}

// middleware answers completion requests, holds requests for tools and
// prompts until they are registered, and completes what the server
// announces: the default instructions and the completions capability on
// initialize and server/discover, and with --describe-skills the skill
// catalog in get_skill's description on tools/list. Each is built from the
// snapshot current at the time, so a Swap shows in the next one.
func (d *discovery) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.CompleteRequest:
			return d.complete(ctx, r)
		case *mcp.ListPromptsRequest:
			d.register()
			return d.listPrompts(ctx, method, r, next)
		case *mcp.GetPromptRequest:
			d.register()
			if res, ok, err := d.getSkillPrompt(ctx, r); ok {
				return res, err
			}
		case *mcp.ListToolsRequest, *mcp.CallToolRequest:
			d.register()
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			r.Instructions = d.instructionsFor(ctx, r.Instructions)
			if r.Capabilities != nil {
				r.Capabilities.Completions = &mcp.CompletionCapabilities{}
			}
		case *mcp.DiscoverResult:
			r.Instructions = d.instructionsFor(ctx, r.Instructions)
			if r.Capabilities != nil {
				r.Capabilities.Completions = &mcp.CompletionCapabilities{}
			}
		case *mcp.ListToolsResult:
			r.Tools = d.completeTools(ctx, r.Tools)
		}
		return res, err
	}
}

// completeTools returns tools with their output schemas (see addTool) and,
// with --describe-skills, get_skill's description extended by the catalog.
// The registered tools are shared, so the changed ones are copies.
func (d *discovery) completeTools(ctx context.Context, tools []*mcp.Tool) []*mcp.Tool {
	out := slices.Clone(tools)
	for i, t := range out {
		name, ours := strings.CutPrefix(t.Name, d.prefix+"_")
		if _, ok := d.toolTypes[name]; !ours || !ok {
			continue // a tool added through MCP
		}
		c := *t
		if s, ok := toolSchemas.Get()[name]; ok { // else the SDK inferred it (TestToolSchemas fails)
			c.OutputSchema = json.RawMessage(s.output)
		}
		if d.describe && name == "get_skill" {
			c.Description = getSkillDescription(d.prefix) + d.current(ctx).availableSkills(d.prefix)
		}
		out[i] = &c
	}
	return out
}

// availableSkills is the <available_skills> catalog of listed skills,
// names and descriptions, cut at MaxDescribeBytes.
func (c *catalog) availableSkills(prefix string) string {
	c.describeOnce.Do(func() {
		docs, err := c.skills()
		if err != nil {
			return
		}
		var b strings.Builder
		b.WriteString("\n\n# Skills\n\nWhen a task matches a skill below, load it with this tool and follow its instructions.\n\n<available_skills>\n")
		listed := 0
		for i := range docs {
			if docs[i].listed {
				listed++
			}
		}
		shown := 0
		for i := range docs {
			doc := &docs[i]
			if !doc.listed {
				continue
			}
			e := fmt.Sprintf("<skill><name>%s</name><description>%s</description></skill>\n", xmlText(doc.path), xmlText(oneLine(doc.description, 200)))
			if b.Len()+len(e) > MaxDescribeBytes-200 {
				break
			}
			b.WriteString(e)
			shown++
		}
		b.WriteString("</available_skills>")
		if shown < listed {
			fmt.Fprintf(&b, "\n…and %d more: find them with %s_search_skills.", listed-shown, prefix)
		}
		c.describe = b.String()
	})
	return c.describe
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// describeChanged tells clients that the tool list changed when a swap
// changed get_skill's description, which with --describe-skills lists the
// skills; tool descriptions change in no other way, so no other swap sends
// notifications/tools/list_changed. Re-adding the registered tool is how
// the SDK is asked to send it. Only a live server declares that its tools
// change (a server of fixed bundles swapped through Swap sends nothing, and
// its tools/list computes the description anyway).
func (d *discovery) describeChanged(old, next *Snapshot) {
	if d.describe && d.refresh != nil && d.describeDiffers(old, next) { // toolsChange
		addTool(d, d.getSkillTool, d.getSkill)
	}
}

// describeDiffers reports whether get_skill's description differs between
// two snapshots.
func (d *discovery) describeDiffers(old, next *Snapshot) bool {
	return d.catalogFor(old).availableSkills(d.prefix) != d.catalogFor(next).availableSkills(d.prefix)
}
