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
	s, ok := toolSchemas.Get()[name]
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
