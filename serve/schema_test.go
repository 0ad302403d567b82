package serve

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official MCP JSON schemas in testdata/mcp-schema/REVISION/schema.json
// are copied verbatim from modelcontextprotocol/modelcontextprotocol
// (schema/REVISION/schema.json at commit b0f60ba5); sep-2640.json adds the
// Skills extension's result types on top of them.

// resultDefs names the schema definition of each method's result. A method
// the schema test sees without an entry here fails the test, so a new
// method cannot go unchecked.
var resultDefs = map[string]string{
	"initialize":               "InitializeResult",
	"server/discover":          "DiscoverResult",
	"ping":                     "EmptyResult",
	"resources/subscribe":      "EmptyResult",
	"resources/list":           "ListResourcesResult",
	"resources/templates/list": "ListResourceTemplatesResult",
	"resources/read":           "ReadResourceResult",
	"tools/list":               "ListToolsResult",
	"tools/call":               "CallToolResult",
	"prompts/list":             "ListPromptsResult",
	"prompts/get":              "GetPromptResult",
	"completion/complete":      "CompleteResult",
	MethodListSkills:           "ListSkillsResult",
	MethodGetSkill:             "GetSkillResult",
	MethodReadDirectory:        "ReadDirectoryResult",
}

// mcpSchema returns, for a protocol revision, a validator for each
// definition of the official schema and of sep-2640.json.
func mcpSchema(t *testing.T, revision string) func(def string) *jsonschema.Resolved {
	t.Helper()
	var base map[string]any
	readJSON(t, "testdata/mcp-schema/"+revision+"/schema.json", &base)
	var sep struct {
		Comment   string                    `json:"$comment"`
		Defs      map[string]any            `json:"$defs"`
		Revisions map[string]map[string]any `json:"revisions"`
	}
	readJSON(t, "testdata/mcp-schema/sep-2640.json", &sep)
	defs := base["$defs"].(map[string]any)
	maps.Copy(defs, sep.Defs)
	maps.Copy(defs, sep.Revisions[revision])
	cache := map[string]*jsonschema.Resolved{}
	return func(def string) *jsonschema.Resolved {
		t.Helper()
		if rs, ok := cache[def]; ok {
			return rs
		}
		if defs[def] == nil {
			t.Fatalf("schema %s has no definition %s", revision, def)
		}
		base["$ref"] = "#/$defs/" + def
		data, err := json.Marshal(base)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("schema %s: %v", revision, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("schema %s, %s: %v", revision, def, err)
		}
		cache[def] = rs
		return rs
	}
}

// wireMessage is one response the client received, as it was on the wire,
// with the method of the request it answers.
type wireMessage struct {
	method string
	data   []byte // the whole JSON-RPC message
	result json.RawMessage
	isErr  bool
}

// recorder is a client transport that keeps every response it reads.
type recorder struct {
	mcp.Transport
	mu      sync.Mutex
	methods map[any]string // request id → method
	got     []wireMessage
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

type recordingConn struct {
	mcp.Connection
	r *recorder
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		c.r.mu.Lock()
		c.r.methods[req.ID.Raw()] = req.Method
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		data, eerr := jsonrpc.EncodeMessage(resp)
		c.r.mu.Lock()
		if eerr != nil {
			data = []byte(eerr.Error())
		}
		c.r.got = append(c.r.got, wireMessage{method: c.r.methods[resp.ID.Raw()], data: data, result: resp.Result, isErr: resp.Error != nil})
		c.r.mu.Unlock()
	}
	return msg, err
}

// schemaLibrary is a library with an empty text file (a Python package's
// __init__.py), a binary file, nested folders and a nested skill.
var schemaLibrary = map[string]string{
	"py/py-tools/SKILL.md":                skillFile("py-tools", "Python helpers with an empty package file", "Run scripts/run.py.\n"),
	"py/py-tools/scripts/__init__.py":     "",
	"py/py-tools/scripts/run.py":          "print('run')\n",
	"py/py-tools/assets/logo.png":         "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\xff",
	"py/py-tools/references/deep/a.md":    "# A\n",
	"py/py-tools/inner/SKILL.md":          skillFile("inner", "A skill nested in py-tools", "Inner.\n"),
	"docs/writing/style-guide/SKILL.md":   skillFile("style-guide", "House style for documents", "Write plainly.\n"),
	"docs/writing/style-guide/empty.md":   "",
	"docs/writing/style-guide/LICENSE.md": "MIT\n",
}

// TestResultsMatchSchema checks every result the server sends, and every
// error, against the official MCP schema of the negotiated revision (plus
// the SEP-2640 types): the whole catalog is read file by file, every
// listing is paged through, and every tool and prompt is called.
func TestResultsMatchSchema(t *testing.T) {
	b := buildTree(t, schemaLibrary)
	s := newServer(t, Options{}, b)
	for _, revision := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(revision, func(t *testing.T) {
			schema := mcpSchema(t, revision)
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.MCP().Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{Transport: ct, methods: map[any]string{}}
			cs, err := newClient(t, nil).Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: revision})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { cs.Close(); ss.Wait() }()
			if got := cs.InitializeResult().ProtocolVersion; got != revision {
				t.Fatalf("negotiated %s, want %s", got, revision)
			}
			driveEverything(t, cs, revision)
			seen := map[string]bool{}
			for _, m := range rec.got {
				if m.isErr {
					if err := schema("JSONRPCErrorResponse").Validate(decodeAny(t, m.data)); err != nil {
						t.Errorf("%s error %s: %v", m.method, m.data, err)
					}
					continue
				}
				def, ok := resultDefs[m.method]
				if !ok {
					t.Errorf("result of %q: no schema definition listed in resultDefs", m.method)
					continue
				}
				seen[m.method] = true
				if err := schema(def).Validate(decodeAny(t, m.result)); err != nil {
					t.Errorf("%s result does not match %s: %v\n%s", m.method, def, err, m.result)
				}
			}
			for m := range resultDefs {
				inRevision := !(revision >= "2026-07-28" && (m == "initialize" || m == "ping" || m == "resources/subscribe")) &&
					!(revision < "2026-07-28" && m == "server/discover")
				if inRevision && !seen[m] {
					t.Errorf("no %s result was checked", m)
				}
			}
		})
	}
}

func decodeAny(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

// driveEverything sends every request the server answers: every page of
// every listing, a read of every file and folder, every tool and prompt,
// and a few requests that fail.
func driveEverything(t *testing.T, cs *mcp.ClientSession, revision string) {
	t.Helper()
	ctx := context.Background()
	if revision < "2026-07-28" {
		if err := cs.Ping(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	var skills []struct {
		URI       string `json:"uri"`
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
	}
	for cursor := ""; ; {
		res, err := listSkills(ctx, cs, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range res.Skills {
			var e struct {
				URI       string `json:"uri"`
				Resources []struct {
					URI string `json:"uri"`
				} `json:"resources"`
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			skills = append(skills, e)
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if len(skills) == 0 {
		t.Fatal("no skills listed")
	}
	dirs := map[string]bool{}
	for _, sk := range skills {
		if _, err := getSkill(ctx, cs, sk.URI); err != nil {
			t.Fatal(err)
		}
		root := strings.TrimSuffix(sk.URI, "/SKILL.md")
		for _, r := range sk.Resources {
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI}); err != nil {
				t.Fatalf("read %s: %v", r.URI, err)
			}
			for d := r.URI[:strings.LastIndexByte(r.URI, '/')]; len(d) >= len(root); d = d[:strings.LastIndexByte(d, '/')] {
				dirs[d] = true
			}
		}
	}
	dirs["skill://docs"] = true // a folder above skill roots
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if _, err := readDir(ctx, cs, d, ""); err != nil {
			t.Fatalf("directory read %s: %v", d, err)
		}
	}
	// Requests that fail: the error responses are checked too.
	if _, err := getSkill(ctx, cs, "skill://nowhere/SKILL.md"); err == nil {
		t.Error("skills/get of an unknown skill succeeded")
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://py/py-tools/missing.md"}); err == nil {
		t.Error("resources/read of a missing file succeeded")
	}
	if _, err := readDir(ctx, cs, skills[0].URI, ""); err == nil {
		t.Error("directory read of a file succeeded")
	}
	for res, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		_ = res
	}
	for res, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		_ = res
	}
	if revision < "2026-07-28" {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: skills[0].URI}); err != nil {
			t.Fatal(err)
		}
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		for _, args := range toolArguments(t, tool) {
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args}); err != nil {
				t.Fatalf("%s(%v): %v", tool.Name, args, err)
			}
		}
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prompts.Prompts {
		args := map[string]string{}
		for _, a := range p.Arguments {
			args[a.Name] = argumentValue(a.Name)
		}
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args}); err != nil {
			t.Fatalf("prompts/get %s: %v", p.Name, err)
		}
		for _, a := range p.Arguments {
			if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: p.Name},
				Argument: mcp.CompleteParamsArgument{Name: a.Name, Value: "p"}}); err != nil {
				t.Fatalf("completion/complete %s %s: %v", p.Name, a.Name, err)
			}
		}
	}
}

// argumentValue is what the schema test passes as a tool or prompt argument
// of this name: it names the skill with the empty file, and that file.
func argumentValue(name string) string {
	switch name {
	case "skill":
		return "py/py-tools"
	case "path":
		return "scripts/__init__.py"
	case "query", "task":
		return "python"
	}
	return ""
}

// toolArguments returns the calls to make of a tool: one with its required
// arguments, one with every string argument it takes (argumentValue), and
// one that fails (an unknown skill) when it takes a skill.
func toolArguments(t *testing.T, tool *mcp.Tool) []map[string]any {
	t.Helper()
	var in struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	data, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	required, all := map[string]any{}, map[string]any{}
	for name, p := range in.Properties {
		v := argumentValue(name)
		if p.Type != "string" || v == "" {
			continue
		}
		all[name] = v
		if slices.Contains(in.Required, name) {
			required[name] = v
		}
	}
	calls := []map[string]any{required, all}
	if _, ok := in.Properties["skill"]; ok {
		bad := maps.Clone(required)
		bad["skill"] = "no-such-skill"
		calls = append(calls, bad)
	}
	return calls
}
