package serve

// A caller's view over HTTP: requests that come with a verified token
// whose TokenInfo carries an Access (AccessExtra) are answered from the
// view of the snapshot that access grants, in every method. The token
// file and OAuth verifiers that make such a TokenInfo are teamserver's,
// tested there; here a test verifier maps "tok-NAME" to the namespaces
// given for NAME.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// tokenHandler is s's MCP handler at Endpoint behind the SDK's bearer
// token check, with a verifier that grants the token "tok-NAME" the
// namespaces tokens[NAME] (comma-separated), as teamserver's token file
// does.
func tokenHandler(s *Server, tokens map[string]string) http.Handler {
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		name, ok := strings.CutPrefix(tok, "tok-")
		ns, known := tokens[name]
		if !ok || !known {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "token:" + name, Extra: map[string]any{AccessExtra: NewAccess(strings.Split(ns, ",")...)}}, nil
	}
	mux := http.NewServeMux()
	mux.Handle(Endpoint, auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(s.MCPHandler(1<<20)))
	return mux
}

// tokenServer serves exampleFixture (two entries a page, the skills in
// get_skill's description) through tokenHandler on a loopback listener.
func tokenServer(t *testing.T, tokens map[string]string) *httptest.Server {
	t.Helper()
	b, _ := memBundle(t, exampleFixture())
	ts := httptest.NewServer(tokenHandler(newServer(t, Options{PageSize: 2, DescribeSkills: true}, b), tokens))
	t.Cleanup(ts.Close)
	return ts
}

// listenBody is a 2026-07-28 request body with the given id, method and
// params members (each followed by a comma; the _meta triple is added).
func listenBody(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, method, params)
}

type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectBearer connects an SDK client over streamable HTTP to url with a
// bearer token.
func connectBearer(t testing.TB, url, token, version string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: bearerTransport{token, http.DefaultTransport}}
	cs, err := newClient(t, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + Endpoint, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// TestAuthNamespaces: a token sees only its namespaces, in every list and
// tool; anything else answers as a URI that does not exist; cursors of one
// view are refused by another.
func TestAuthNamespaces(t *testing.T) {
	ts := tokenServer(t, map[string]string{
		"alice": "acme", "bob": "community,tools", "root": "*", "ghost": "nosuch"})
	ctx := context.Background()
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			sess := map[string]*mcp.ClientSession{}
			for _, n := range []string{"alice", "bob", "root", "ghost"} {
				cs, err := connectBearer(t, ts.URL, "tok-"+n, p.version)
				if err != nil {
					t.Fatalf("%s: %v", n, err)
				}
				sess[n] = cs
			}
			for name, want := range map[string][]string{
				"alice": {"skill://acme/billing/refunds/SKILL.md", "skill://acme/billing/refunds/partial/SKILL.md", "skill://acme/pdf-processing/SKILL.md"},
				"bob":   {"skill://community/git-workflow/SKILL.md"},
				"root":  {"skill://acme/billing/refunds/SKILL.md", "skill://acme/billing/refunds/partial/SKILL.md", "skill://acme/pdf-processing/SKILL.md", "skill://community/git-workflow/SKILL.md"},
				"ghost": nil,
			} {
				cs := sess[name]
				if got := entryURIs(t, allSkills(t, cs)); !slices.Equal(got, want) {
					t.Errorf("%s: skills/list %v, want %v", name, got, want)
				}
				var res []string
				for r, err := range cs.Resources(ctx, nil) {
					if err != nil {
						t.Fatal(err)
					}
					res = append(res, r.URI)
				}
				if !slices.Equal(res, want) {
					t.Errorf("%s: resources/list %v, want %v", name, res, want)
				}
			}
			// No oracle: another namespace's skill, file and folder answer
			// exactly as ones that do not exist.
			alice := sess["alice"]
			same := func(what string, real, none string, call func(uri string) error) {
				t.Helper()
				e1, e2 := call(real), call(none)
				var j1, j2 *jsonrpc.Error
				if !errors.As(e1, &j1) || !errors.As(e2, &j2) {
					t.Fatalf("%s: %v / %v, want JSON-RPC errors", what, e1, e2)
				}
				if j1.Code != j2.Code || strings.ReplaceAll(j1.Message, real, "URI") != strings.ReplaceAll(j2.Message, none, "URI") {
					t.Errorf("%s: %d %q differs from %d %q", what, j1.Code, j1.Message, j2.Code, j2.Message)
				}
			}
			same("skills/get", "skill://community/git-workflow/SKILL.md", "skill://community/nope/SKILL.md", func(u string) error {
				_, err := getSkill(ctx, alice, u)
				return err
			})
			same("resources/read", "skill://tools/secret-helper/run.sh", "skill://tools/secret-helper/nope.sh", func(u string) error {
				_, err := alice.ReadResource(ctx, &mcp.ReadResourceParams{URI: u})
				return err
			})
			same("resources/read of a folder", "skill://tools/secret-helper/notes", "skill://tools/secret-helperx/notes", func(u string) error {
				_, err := alice.ReadResource(ctx, &mcp.ReadResourceParams{URI: u})
				return err
			})
			same("directory/read", "skill://community", "skill://nosuch", func(u string) error {
				_, err := readDir(ctx, alice, u, "")
				return err
			})
			if _, err := getSkill(ctx, sess["bob"], "skill://tools/secret-helper/SKILL.md"); err != nil {
				t.Errorf("bob cannot get his hidden skill: %v", err)
			}
			// Cursors belong to one view.
			page, err := listSkills(ctx, alice, "")
			if err != nil || page.NextCursor == "" {
				t.Fatalf("alice's first page: %v %+v", err, page)
			}
			if page.CacheScope != "private" {
				t.Errorf("cacheScope %q with a token, want private", page.CacheScope)
			}
			if _, err := listSkills(ctx, sess["root"], page.NextCursor); err == nil {
				t.Errorf("root took alice's cursor")
			}
			// The discovery tools, the prompt's completions and the
			// instructions know only alice's namespaces.
			tc := newToolClient(t, alice)
			var so SearchOutput
			tc.call("skills_mcp_search_skills", map[string]any{"query": "git conventions workflow"}, &so)
			for _, h := range so.Results {
				if h.Library != "acme" {
					t.Errorf("search gave %s", h.URI)
				}
			}
			var lo ListLibrariesOutput
			tc.call("skills_mcp_list_libraries", map[string]any{}, &lo)
			if len(lo.Libraries) != 1 || lo.Libraries[0].Namespace != "acme" {
				t.Errorf("list_libraries: %+v", lo.Libraries)
			}
			var st CatalogStatusOutput
			tc.call("skills_mcp_catalog_status", map[string]any{"include_warnings": true}, &st)
			if st.Skills != 3 || st.Libraries != 1 || len(st.Warnings) != 0 || st.Live != nil {
				t.Errorf("catalog_status: %+v", st)
			}
			if res := tc.raw("skills_mcp_get_skill", map[string]any{"skill": "community/git-workflow"}); !res.IsError {
				t.Errorf("get_skill of another namespace: %s", resultText(res))
			}
			if res := tc.raw("skills_mcp_read_skill_file", map[string]any{"skill": "tools/secret-helper", "path": "run.sh"}); !res.IsError {
				t.Errorf("read_skill_file of another namespace: %s", resultText(res))
			}
			cr, err := alice.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: PromptUseSkill},
				Argument: mcp.CompleteParamsArgument{Name: "skill", Value: ""}})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range cr.Completion.Values {
				if strings.Contains(v, "git") || strings.Contains(v, "secret") {
					t.Errorf("completion offers %s", v)
				}
			}
			tools, err := alice.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools.Tools {
				if tool.Name == "skills_mcp_get_skill" && (strings.Contains(tool.Description, "git-workflow") || !strings.Contains(tool.Description, "pdf-processing")) {
					t.Errorf("get_skill's description with --describe-skills:\n%s", tool.Description)
				}
			}
			if in := alice.InitializeResult().Instructions; strings.Contains(in, "community") || !strings.Contains(in, ": 3 Agent Skills") {
				t.Errorf("instructions:\n%s", in)
			}
		})
	}
}

// TestAuthRootLibrary: a restricted token sees an un-namespaced library
// (--root) through the skills it may read: listed, counted as those alone,
// and its withheld skills filtered by their top folder.
func TestAuthRootLibrary(t *testing.T) {
	dir := t.TempDir()
	for p, content := range map[string]string{
		"acme/pdf/SKILL.md":         skillFile("pdf", "Fill PDF forms", "PDF."),
		"acme/notes/SKILL.md":       "---\nname: notes\ndescription: Meeting notes\ndisable-model-invocation: true\n---\nNotes.\n",
		"acme/broken/SKILL.md":      "---\nname: broken\n---\nNo description.\n",
		"community/git/SKILL.md":    skillFile("git", "Git conventions", "Git."),
		"community/broken/SKILL.md": "no frontmatter\n",
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: []build.Library{{Root: dir}}}, &buf); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(tokenHandler(newServer(t, Options{}, b), map[string]string{"alice": "acme", "root": "*", "ghost": "nosuch"}))
	t.Cleanup(ts.Close)
	type seen struct {
		libs     []LibraryInfo
		status   CatalogStatusOutput
		skills   int
		withheld []string
	}
	look := func(name string) seen {
		cs, err := connectBearer(t, ts.URL, "tok-"+name, "")
		if err != nil {
			t.Fatal(err)
		}
		tc := newToolClient(t, cs)
		var s seen
		var lo ListLibrariesOutput
		tc.call("skills_mcp_list_libraries", map[string]any{}, &lo)
		s.libs = lo.Libraries
		tc.call("skills_mcp_catalog_status", map[string]any{}, &s.status)
		s.skills = len(allSkills(t, cs))
		for _, w := range s.status.Withheld {
			s.withheld = append(s.withheld, w.Path)
		}
		return s
	}
	alice, root, ghost := look("alice"), look("root"), look("ghost")
	if len(root.libs) != 1 || root.libs[0].Namespace != "" || root.libs[0].Skills <= alice.skills || len(root.withheld) == 0 {
		t.Fatalf("root sees %+v, %d skills, withheld %v", root.libs, root.skills, root.withheld)
	}
	if len(alice.libs) != 1 || alice.libs[0].Namespace != "" || alice.libs[0].Skills != 2 || alice.libs[0].Hidden != 1 || alice.status.Skills != 2 {
		t.Errorf("alice sees libraries %+v and %d skills (catalog_status %d)", alice.libs, alice.skills, alice.status.Skills)
	}
	if alice.status.Libraries != 1 || len(alice.status.Bundles) != 1 || !slices.Equal(alice.status.Bundles[0].Libraries, []string{"(root)"}) {
		t.Errorf("alice's catalog_status: %d libraries, bundles %+v", alice.status.Libraries, alice.status.Bundles)
	}
	var mine int
	for _, w := range root.withheld {
		if strings.HasPrefix(w, "acme/") {
			mine++
		}
	}
	if len(alice.withheld) != mine || mine != 1 || slices.ContainsFunc(alice.withheld, func(w string) bool { return !strings.HasPrefix(w, "acme/") }) {
		t.Errorf("alice sees withheld %v of %v", alice.withheld, root.withheld)
	}
	if len(ghost.libs) != 0 || ghost.status.Libraries != 0 || ghost.skills != 0 || len(ghost.withheld) != 0 {
		t.Errorf("ghost sees %+v, %+v", ghost.libs, ghost.status)
	}
}

// TestAuthNamespacesSubscribeCompleteList: resources/subscribe, the
// resource templates' completions and the list tools know only the token's
// namespaces; subscribing to another namespace's resource answers as for
// one that does not exist.
func TestAuthNamespacesSubscribeCompleteList(t *testing.T) {
	ts := tokenServer(t, map[string]string{
		"alice": "acme", "root": "*"})
	ctx := context.Background()
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			alice, err := connectBearer(t, ts.URL, "tok-alice", p.version)
			if err != nil {
				t.Fatal(err)
			}
			root, err := connectBearer(t, ts.URL, "tok-root", p.version)
			if err != nil {
				t.Fatal(err)
			}
			// Under 2026-07-28 the SDK client opens subscriptions/listen in
			// the background and never returns its error: post it.
			subscribe := func(cs *mcp.ClientSession, tok, uri string) error {
				if p.version != "" {
					return cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
				}
				return listenRaw(t, ts.URL, tok, uri)
			}
			if err := subscribe(alice, "tok-alice", "skill://acme/pdf-processing/references/FORMS.md"); err != nil {
				t.Errorf("alice cannot subscribe to her own resource: %v", err)
			}
			if err := subscribe(root, "tok-root", "skill://community/git-workflow/SKILL.md"); err != nil {
				t.Errorf("root cannot subscribe to community: %v", err)
			}
			for _, tc := range []struct{ real, none string }{
				{"skill://community/git-workflow/SKILL.md", "skill://community/nope/SKILL.md"},
				{"skill://tools/secret-helper/run.sh", "skill://tools/secret-helper/nope.sh"},
			} {
				e1, e2 := subscribe(alice, "tok-alice", tc.real), subscribe(alice, "tok-alice", tc.none)
				var j1, j2 *jsonrpc.Error
				if !errors.As(e1, &j1) || !errors.As(e2, &j2) {
					t.Fatalf("subscribe %s: %v / %v, want JSON-RPC errors", tc.real, e1, e2)
				}
				if j1.Code != j2.Code || strings.ReplaceAll(j1.Message, tc.real, "URI") != strings.ReplaceAll(j2.Message, tc.none, "URI") ||
					strings.ReplaceAll(string(j1.Data), tc.real, "URI") != strings.ReplaceAll(string(j2.Data), tc.none, "URI") {
					t.Errorf("subscribe: %d %q %s differs from %d %q %s", j1.Code, j1.Message, j1.Data, j2.Code, j2.Message, j2.Data)
				}
			}

			// The resource templates' completions.
			complete := func(cs *mcp.ClientSession, tmpl *mcp.ResourceTemplate, prefix string) []string {
				t.Helper()
				cr, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: tmpl.URITemplate},
					Argument: mcp.CompleteParamsArgument{Name: "skillPath", Value: prefix}})
				if err != nil {
					t.Fatal(err)
				}
				return cr.Completion.Values
			}
			for _, tmpl := range []*mcp.ResourceTemplate{skillTemplate, fileTemplate} {
				if got, want := complete(alice, tmpl, ""), []string{"acme/billing/refunds", "acme/billing/refunds/partial", "acme/pdf-processing"}; !slices.Equal(got, want) {
					t.Errorf("alice: completions of %s: %v, want %v", tmpl.URITemplate, got, want)
				}
				if got := complete(alice, tmpl, "comm"); len(got) != 0 {
					t.Errorf("alice: completions of %s for comm: %v", tmpl.URITemplate, got)
				}
				if got := complete(root, tmpl, "comm"); !slices.Equal(got, []string{"community/git-workflow"}) {
					t.Errorf("root: completions of %s for comm: %v", tmpl.URITemplate, got)
				}
			}

			// list_skills and list_categories.
			type lists struct {
				skills     []string
				categories []CategoryCount
				total      int
			}
			look := func(cs *mcp.ClientSession) lists {
				tc := newToolClient(t, cs)
				var l lists
				var ls ListSkillsOutput
				tc.call("skills_mcp_list_skills", map[string]any{}, &ls)
				for _, s := range ls.Skills {
					l.skills = append(l.skills, s.Library+" "+s.Path)
				}
				if ls.Total != len(ls.Skills) {
					t.Errorf("list_skills: total %d of %d", ls.Total, len(ls.Skills))
				}
				var lc ListCategoriesOutput
				tc.call("skills_mcp_list_categories", map[string]any{}, &lc)
				l.categories, l.total = lc.Categories, lc.TotalSkills
				return l
			}
			a, r := look(alice), look(root)
			if want := []string{"acme acme/billing/refunds", "acme acme/billing/refunds/partial", "acme acme/pdf-processing"}; !slices.Equal(a.skills, want) {
				t.Errorf("alice: list_skills %v, want %v", a.skills, want)
			}
			if !slices.Contains(r.skills, "community community/git-workflow") {
				t.Errorf("root: list_skills %v", r.skills)
			}
			if a.total != 3 || r.total != 4 {
				t.Errorf("list_categories counts %d skills for alice, %d for root", a.total, r.total)
			}
			sum := 0
			for _, c := range a.categories {
				sum += c.Skills
				if !slices.ContainsFunc(r.categories, func(rc CategoryCount) bool { return rc.Category == c.Category }) {
					t.Errorf("alice has a category root has not: %+v", c)
				}
			}
			if sum != 3 || slices.Equal(a.categories, r.categories) {
				t.Errorf("alice's categories %+v, root's %+v", a.categories, r.categories)
			}
			// Filtering by another namespace answers as for one that does
			// not exist.
			tc := newToolClient(t, alice)
			for _, tool := range []string{"skills_mcp_list_skills", "skills_mcp_list_categories"} {
				e1 := resultText(tc.raw(tool, map[string]any{"library": "community"}))
				e2 := resultText(tc.raw(tool, map[string]any{"library": "nosuch"}))
				if strings.ReplaceAll(e1, "community", "X") != strings.ReplaceAll(e2, "nosuch", "X") || strings.Contains(e1, "tools") {
					t.Errorf("%s of another library: %q, of none: %q", tool, e1, e2)
				}
			}
		})
	}
}

// listenRaw posts a 2026-07-28 subscriptions/listen for uri with a token and
// returns its JSON-RPC error, or nil when the stream's first message
// acknowledges the subscription.
func listenRaw(t testing.TB, base, token, uri string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	params := fmt.Sprintf(`"notifications":{"resourceSubscriptions":[%q]},`, uri)
	req, _ := http.NewRequestWithContext(ctx, "POST", base+Endpoint, strings.NewReader(listenBody(1, "subscriptions/listen", params)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 { // a refusal: the JSON-RPC error, as one JSON body
		body, _ := io.ReadAll(resp.Body)
		var msg struct {
			Error *jsonrpc.Error `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil || msg.Error == nil {
			t.Fatalf("subscriptions/listen %s: %s %s", uri, resp.Status, body)
		}
		return msg.Error
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var msg struct {
			Method string         `json:"method"`
			Error  *jsonrpc.Error `json:"error"`
		}
		if err := json.Unmarshal([]byte(data), &msg); err != nil {
			t.Fatalf("subscriptions/listen %s: %v in %s", uri, err, data)
		}
		switch {
		case msg.Error != nil:
			return msg.Error
		case msg.Method == "notifications/subscriptions/acknowledged":
			return nil
		}
		t.Fatalf("subscriptions/listen %s: first message %s", uri, data)
	}
	t.Fatalf("subscriptions/listen %s: no message: %v", uri, sc.Err())
	return nil
}

// TestPromptsAccess: a token restricted to some namespaces gets the
// prompts, the prompt limit, the catalog in the instructions and the
// catalog_status count of its own view, prompt names included
// (TestNamesOfOwnView).
func TestPromptsAccess(t *testing.T) {
	b, _ := memBundle(t, exampleFixture()) // acme: 3 skills, community: 1, tools: 1 (hidden)
	s := newServer(t, Options{PromptLimit: 3}, b)
	ts := httptest.NewServer(tokenHandler(s, map[string]string{"alice": "acme", "bob": "community,tools", "root": "*"}))
	t.Cleanup(ts.Close)
	ctx := context.Background()
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			for name, want := range map[string][]string{
				"alice": {"acme_billing_refunds", "acme_billing_refunds_partial", "acme_pdf-processing", PromptUseSkill},
				"bob":   {"community_git-workflow", "tools_secret-helper", PromptUseSkill},
				"root":  {PromptUseSkill}, // 5 skills, more than the limit
			} {
				cs, err := connectBearer(t, ts.URL, "tok-"+name, p.version)
				if err != nil {
					t.Fatal(err)
				}
				res, err := cs.ListPrompts(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, p := range res.Prompts {
					got = append(got, p.Name)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: prompts %v, want %v", name, got, want)
				}
				if name == "alice" {
					_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "community_git-workflow"})
					wantRPCError(t, err, jsonrpc.CodeInvalidParams, "community_git-workflow")
					if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "acme_pdf-processing"}); err != nil {
						t.Errorf("alice: her own prompt: %v", err)
					}
					text := cs.InitializeResult().Instructions
					if !strings.Contains(text, "\n- acme/pdf-processing: ") || strings.Contains(text, "community/") {
						t.Errorf("alice's instructions:\n%s", text)
					}
				}
				st := catalogStatus(t, cs)
				if st.Prompts.Skills != map[string]int{"alice": 3, "bob": 2, "root": 5}[name] || st.Prompts.Enabled != (name != "root") {
					t.Errorf("%s: catalog_status prompts %+v", name, st.Prompts)
				}
			}
		})
	}
}
