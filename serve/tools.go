package serve

// Discovery tools, for hosts that do not speak SEP-2640 and reach skills
// through tools: search → get_skill → read_skill_file, so that only the
// chosen skill enters the model's context.
//
// Decisions:
//   - Every tool reads the snapshot current at call time, so a Swap (new
//     bundles, a live-library reload) is seen by the next call. What a tool
//     derives from a snapshot (its catalog: one record per skill, the
//     library list, the search index) is built on first use and kept until
//     the next snapshot.
//   - Hidden skills (disable-model-invocation) are left out of search,
//     list_skills and list_categories, as out of skills/list, unless the
//     server shows disabled skills. get_skill, read_skill_file and the
//     use-skill prompt answer them when named, as skills/get and
//     resources/read do: a user who names a skill may use it. Their output
//     says the skill is meant for explicit use only.
//   - A skill argument is the skill:// URI (with or without /SKILL.md), the
//     skill path, "namespace/name", or a bare name when only one skill has
//     it; an ambiguous name is refused with every candidate path.
//   - A category is the frontmatter "category" if set, else
//     "metadata.category", else the folders between the library namespace
//     and the skill folder ("billing" for acme/billing/refunds), else
//     "uncategorized".
//   - Bad arguments and unknown skills come back as tool results with
//     isError set and a message that says what to do, never as protocol
//     errors: the model reads them and can correct itself.
//   - Nothing a tool returns holds a local path: a bundle has none.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Limits of the discovery tools.
const (
	// MaxReadBytes caps the file bytes one read_skill_file answer carries
	// (a folder read sums its files). 1 MiB of text is some 250,000 tokens,
	// more than most models' whole context, so a larger answer could not be
	// used and would only crowd out the conversation; base64 and the JSON
	// copy in structuredContent make the message at most about 2.7 times as
	// large, far below the 16 MiB stdio line limit. Larger files are read
	// with resources/read or copied with `skills-mcp pull`, which write them
	// to disk and check their digests.
	MaxReadBytes = 1 << 20
	// MaxDescribeBytes caps the <available_skills> catalog that
	// --describe-skills puts in the get_skill tool's description (each
	// description cut at 200 characters). A tool description is sent to the
	// model with every request: 8 KiB is about 2,000 tokens and 35 to 50
	// skills, about half of what the seven tools' own definitions cost
	// (14 KiB with their schemas). A larger catalog costs more context on
	// every turn than searching it does, so the rest is left to search.
	MaxDescribeBytes = 8 << 10
	// searchDefaultLimit and searchMaxLimit bound search_skills' limit.
	searchDefaultLimit = 10
	searchMaxLimit     = 50
	// listDefaultLimit and listMaxLimit bound list_skills' limit.
	listDefaultLimit = 50
	listMaxLimit     = 200
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
		showDisabled: opt.ShowDisabled, instructions: opt.Instructions, refresh: newRefreshGate(opt.Refresh, s.log), liveStatus: opt.LiveStatus, signedBy: opt.SignedBy,
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

// addTool registers a typed discovery tool with the schemas of toolSchemas
// (toolschemas.go): what jsonschema infers from In and Out, encoded once
// and for all. mcp.AddTool would infer, resolve and re-encode the input
// schema as the tool is added, and tools/list encode both schemas again:
// 10 ms of a fresh process's first tools/list, which hosts without
// SEP-2640 ask for first. The handler checks the arguments against the
// input schema, resolved on the tool's first call, and sends the result as
// structuredContent and text, as mcp.AddTool's would. The output schema is
// not checked (resolving the output schemas cost 15 ms of CPU); the tests
// check every result against it. A tool missing from toolschemas.go
// (TestToolSchemas fails) is added with mcp.AddTool.
func addTool[In, Out any](d *discovery, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	name := strings.TrimPrefix(t.Name, d.prefix+"_")
	if _, ok := d.toolTypes[name]; !ok { // get_skill is re-added by describeChanged
		d.toolTypes[name] = [2]reflect.Type{reflect.TypeFor[In](), reflect.TypeFor[Out]()}
	}
	s, ok := toolSchemas[name]
	if !ok { // TestToolSchemas fails; the SDK infers both schemas
		mcp.AddTool(d.srv.mcp, t, h)
		return
	}
	tt := *t
	tt.InputSchema = json.RawMessage(s.input)
	d.srv.mcp.AddTool(&tt, toolHandler(t.Name, s.input, h))
}

// toolHandler returns the handler of a tool with the input schema given as
// JSON: it checks the arguments against the schema and applies its
// defaults, decodes them into In, calls h, and sends Out as structured
// content and as its text. A handler's error is the tool's error result,
// unless it is a JSON-RPC error.
func toolHandler[In, Out any](name, schema string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandler {
	resolve := sync.OnceValues(func() (*jsonschema.Resolved, error) {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			return nil, err
		}
		return s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	})
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rs, err := resolve()
		if err != nil {
			return nil, fmt.Errorf("tool %s: input schema in toolschemas.go: %w", name, err)
		}
		var in In
		if err := decodeArguments(req.Params.Arguments, rs, &in); err != nil {
			return errorResult(err), nil
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			if werr, ok := err.(*jsonrpc.Error); ok {
				return nil, werr
			}
			return errorResult(err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		res.StructuredContent = json.RawMessage(data)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		}
		return res, nil
	}
}

// decodeArguments checks a tool call's arguments against rs, with its
// defaults applied, and decodes them into in.
func decodeArguments(args json.RawMessage, rs *jsonschema.Resolved, in any) error {
	m := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &m); err != nil {
			return fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
	}
	var v any = m
	if err := rs.ApplyDefaults(&v); err != nil {
		return fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
	}
	if err := rs.Validate(&v); err != nil {
		return fmt.Errorf("validating \"arguments\": %w", err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, in)
}

// errorResult is a tool result for err: the error's text, flagged.
func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

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

// toolError is a refusal of a tool's arguments: it becomes a result with
// isError set.
func toolError(format string, args ...any) error { return fmt.Errorf(format, args...) }

// resolve finds the skill named by arg (see the package decisions).
func (d *discovery) resolve(c *catalog, arg string) (int, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return 0, toolError("the skill argument is empty: pass a name, namespace/name, skill path or skill:// URI (find one with %s_search_skills)", d.prefix)
	}
	if strings.HasPrefix(arg, manifest.URIScheme) {
		root := strings.TrimSuffix(strings.TrimSuffix(arg, "/"), "/"+manifest.SkillFile)
		if k, ok := c.snap.Find(root + "/" + manifest.SkillFile); ok {
			return k, nil
		}
		return 0, toolError("no skill is served at %s; find one with %s_search_skills", arg, d.prefix)
	}
	p := strings.TrimSuffix(strings.Trim(arg, "/"), "/"+manifest.SkillFile)
	if strings.Contains(p, "/") {
		if k, ok := c.snap.Find(manifest.SkillURI(p)); ok {
			return k, nil
		}
	}
	docs, err := c.skills()
	if err != nil {
		return 0, err
	}
	if k, ok := c.byPath[p]; ok {
		return k, nil
	}
	var cands []int
	if lib, name, ok := strings.Cut(p, "/"); ok && !strings.Contains(name, "/") {
		cands = c.byLibName[lib+"/"+name]
	} else if !ok {
		cands = c.byName[p]
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		msg := fmt.Sprintf("no skill %q is served", arg)
		if hits := d.suggest(c, p); len(hits) > 0 {
			msg += "; did you mean " + strings.Join(hits, ", ") + "?"
		}
		return 0, toolError("%s; find skills with %s_search_skills", msg, d.prefix)
	}
	paths := make([]string, len(cands))
	for i, k := range cands {
		paths[i] = docs[k].path
	}
	return 0, toolError("skill name %q is ambiguous: %s; pass one of these paths", arg, strings.Join(paths, ", "))
}

// suggest returns the paths of up to three skills that search finds for q.
func (d *discovery) suggest(c *catalog, q string) []string {
	ix, idocs, err := c.searchable()
	if err != nil {
		return nil
	}
	var out []string
	for _, h := range ix.Search(q, 3, nil) {
		out = append(out, c.docs[idocs[h.Doc]].path)
	}
	return out
}

// checkLibrary refuses a library filter that names no served library. "" is
// no filter; "(root)" names an un-namespaced library.
func (d *discovery) checkLibrary(c *catalog, lib string) (string, error) {
	if lib == "" {
		return "", nil
	}
	libs, err := c.libraries()
	if err != nil {
		return "", err
	}
	var names []string
	for _, l := range libs {
		ns := l.Namespace
		if ns == "" {
			ns = "(root)"
		}
		if ns == lib {
			return l.Namespace, nil
		}
		names = append(names, ns)
	}
	return "", toolError("unknown library %q; served: %s", lib, strings.Join(names, ", "))
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
		if s, ok := toolSchemas[name]; ok { // else the SDK inferred it (TestToolSchemas fails)
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
