package teamserver

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// TestAuthTwoHeadersAndMetrics: the real binary behind --auth-tokens
// answers a request carrying two Authorization headers 400, whichever of
// them is valid, rather than take the first; and serves /metrics (the
// catalog id, every token's requests) only to a token that may read every
// namespace: a token restricted to some gets 403 with the scope challenge.
func TestAuthTwoHeadersAndMetrics(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	p := servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "acme", "ops": "*"})
	base, _, stderr := servetest.StartHTTP(t, Endpoint, "--auth-tokens", p, bundle)
	do := func(method, path string, auths ...string) (*http.Response, string) {
		t.Helper()
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(listBody)
		}
		req, _ := http.NewRequest(method, base+path, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for _, a := range auths {
			req.Header.Add("Authorization", a)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(data)
	}
	for _, tc := range []struct {
		name  string
		auths []string
		want  int
	}{
		{"one", []string{"Bearer tok-alice"}, 200},
		{"two valid", []string{"Bearer tok-alice", "Bearer tok-ops"}, 400},
		{"valid then unknown", []string{"Bearer tok-ops", "Bearer tok-mallory"}, 400},
		{"unknown then valid", []string{"Bearer tok-mallory", "Bearer tok-ops"}, 400},
		{"the same twice", []string{"Bearer tok-alice", "Bearer tok-alice"}, 400},
	} {
		resp, body := do("POST", Endpoint, tc.auths...)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %s, want %d: %s", tc.name, resp.Status, tc.want, body)
		}
		if tc.want == 400 && challenge(t, resp)["error"] != "invalid_request" {
			t.Errorf("%s: challenge %q", tc.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
	if !strings.Contains(stderr.String(), "reason=two_authorizations") {
		t.Errorf("the refusal is not logged with its reason:\n%s", stderr.String())
	}

	if resp, _ := do("GET", MetricsPath); resp.StatusCode != 401 {
		t.Errorf("/metrics without a token: %s", resp.Status)
	}
	resp, body := do("GET", MetricsPath, "Bearer tok-alice")
	if c := challenge(t, resp); resp.StatusCode != 403 || c["error"] != "insufficient_scope" || strings.Contains(body, "skills_mcp_") {
		t.Errorf("/metrics for a token that reads acme alone: %s, challenge %v", resp.Status, c)
	}
	resp, body = do("GET", MetricsPath, "Bearer tok-ops")
	if resp.StatusCode != 200 || !strings.Contains(body, "skills_mcp_catalog_info{") || !strings.Contains(body, `reason="not_all_namespaces"`) {
		t.Errorf("/metrics for a token that reads all: %s\n%.300s", resp.Status, body)
	}
}
