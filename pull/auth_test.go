package pull_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/teamserver"
)

// TestPullProtectedServer: pull reads a server behind bearer-token
// authorization with the token in ConnectOptions.Header, is refused without
// it, and never repeats the token in an error.
func TestPullProtectedServer(t *testing.T) {
	srv, err := serve.New([]*manifest.Bundle{openBundle(t, exampleBundle(t))}, serve.Options{})
	must(t, err)
	const token = "s3cret-token-value"
	h := sha256.Sum256([]byte(token))
	tokens := filepath.Join(t.TempDir(), "tokens")
	must(t, os.WriteFile(tokens, []byte("ci sha256:"+hex.EncodeToString(h[:])+" *\n"), 0o600))
	a, err := teamserver.NewAuthorizer(context.Background(), teamserver.AuthOptions{TokenFile: tokens})
	must(t, err)
	ts := httptest.NewServer(teamserver.Handler(srv, teamserver.Options{Auth: a}))
	defer ts.Close()
	for _, bad := range []string{"", "Bearer wrong-" + token} {
		hdr := http.Header{}
		if bad != "" {
			hdr.Set("Authorization", bad)
		}
		_, err := pull.ConnectHTTP(context.Background(), ts.URL+teamserver.Endpoint, pull.ConnectOptions{Name: ts.URL, Header: hdr})
		if err == nil || !strings.Contains(err.Error(), "Unauthorized") || strings.Contains(err.Error(), token) {
			t.Errorf("Authorization %q: %v, want an Unauthorized error without the token", bad, err)
		}
	}
	src, err := pull.ConnectHTTP(context.Background(), ts.URL+teamserver.Endpoint,
		pull.ConnectOptions{Name: ts.URL, Header: http.Header{"Authorization": {"Bearer " + token}}})
	must(t, err)
	defer src.Close()
	dir := t.TempDir()
	pullAll(t, src, dir, true)
	if len(readTree(t, dir)) == 0 {
		t.Error("nothing pulled")
	}
}
