package live

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// refreshStatus calls catalog_status (with refresh=true if refresh) and
// decodes its result.
func refreshStatus(ctx context.Context, cs *mcp.ClientSession, refresh bool) (serve.CatalogStatusOutput, string, error) {
	var out serve.CatalogStatusOutput
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_mcp_catalog_status", Arguments: map[string]any{"refresh": refresh}})
	if err != nil {
		return out, "", err
	}
	data, _ := json.Marshal(res.StructuredContent)
	err = json.Unmarshal(data, &out)
	return out, string(data), err
}

// TestCatalogStatusRefreshScoped: refresh=true tells a token restricted to
// some namespaces nothing of another library's failure, and no number of
// calls makes the server rescan at will: calls that come together share
// one rescan, and rescans for refresh=true start refreshInterval apart. The
// real binary over HTTP, with the Go SDK client; neither watch nor periodic
// rescans, so every scan counted is one refresh=true asked for.
func TestCatalogStatusRefreshScoped(t *testing.T) {
	tmp := t.TempDir()
	libA, libB := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	servetest.WriteFiles(t, libA, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "Alpha")})
	servetest.WriteFiles(t, libB, map[string]string{"beta/SKILL.md": servetest.SkillMD("beta", "Beta")})
	tokens := servetest.WriteTokens(t, filepath.Join(tmp, "tokens"), map[string]string{"onlya": "a", "root": "*"})
	base, _, _ := servetest.StartHTTP(t, endpoint, "--auth-tokens", tokens, "--no-watch", "--rescan-seconds", "0",
		"--lib", "a="+libA, "--lib", "b="+libB)
	ctx := context.Background()
	connect := func(tok string) *mcp.ClientSession { return connectBearer(t, base, "tok-"+tok) }
	alice, root := connect("onlya"), connect("root")
	scans := func() int {
		t.Helper()
		st, _, err := refreshStatus(ctx, root, false)
		if err != nil || st.Live == nil {
			t.Fatalf("catalog_status: %v, %+v", err, st)
		}
		return st.Live.Scans
	}

	// b's root disappears: its rebuild fails and it serves its last build.
	if err := os.RemoveAll(libB); err != nil {
		t.Fatal(err)
	}
	st, raw, err := refreshStatus(ctx, alice, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.Refresh != "done" || strings.Contains(raw, `"b"`) || strings.Contains(raw, "library b") {
		t.Errorf("a token that reads only a was told: %s", raw)
	}
	if st, _, err := refreshStatus(ctx, root, true); err != nil || !strings.HasPrefix(st.Refresh, "failed") {
		t.Errorf("a token that reads all: refresh %q, %v", st.Refresh, err)
	}

	// 20 calls at once: one rescan (two if one was due at the start).
	before := scans()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			if st, _, err := refreshStatus(ctx, alice, true); err != nil || st.Refresh != "done" {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a refresh call: %v", err)
	}
	took := time.Since(start)
	if n := scans() - before; n < 1 || n > 2 {
		t.Errorf("20 refresh=true calls at once made %d rescans, want 1 or 2", n)
	}
	// One after another: each waits for the next round.
	before, start = scans(), time.Now()
	for range 3 {
		if _, _, err := refreshStatus(ctx, alice, true); err != nil {
			t.Fatal(err)
		}
	}
	if n, d := scans()-before, time.Since(start); n != 3 || d < 2*refreshInterval-100*time.Millisecond {
		t.Errorf("3 calls in a row: %d rescans in %v, want 3 at least %v apart", n, d, refreshInterval)
	}
	t.Logf("20 concurrent calls answered in %v", took)
}
