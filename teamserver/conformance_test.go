package teamserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// conformanceSummary is the last line interop/conformance.sh prints.
var conformanceSummary = regexp.MustCompile(`(?m)^conformance: (\d+) passed, (\d+) failed$`)

// TestConformanceEndpoint runs the official MCP conformance suite's scenarios
// about the HTTP endpoint, host and origin policy and header validation,
// against the real binary's `serve --http`: the policy is the endpoint's
// (this package's), not the MCP surface's, so serve's TestConformance, which
// serves the bare MCP handler, leaves them to this test. The rest of the
// suite runs there.
func TestConformanceEndpoint(t *testing.T) {
	dir := servetest.InteropDir(t, "conformance.sh", "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("the conformance suite starts a Node process a scenario; it always runs under CI")
	}
	_, bundle := testdataBundle(t)
	base, _, _ := servetest.StartHTTP(t, Endpoint, bundle)
	runs := []struct{ spec, scenario string }{
		{"", "dns-rebinding-protection"},
		{"2025-11-25", "dns-rebinding-protection"},
		{"", "http-header-validation"},
	}
	for _, r := range runs {
		name := r.spec
		if name == "" {
			name = "default"
		}
		t.Run(name+"/"+r.scenario, func(t *testing.T) {
			args := []string{filepath.Join(dir, "conformance.sh")}
			if r.spec != "" {
				args = append(args, "--spec-version", r.spec)
			}
			args = append(args, base+Endpoint, r.scenario)
			out, err := exec.Command("bash", args...).CombinedOutput()
			t.Logf("%s", out)
			m := conformanceSummary.FindSubmatch(out)
			if m == nil {
				t.Fatalf("conformance.sh: %v, no summary line", err)
			}
			if string(m[2]) != "0" || err != nil {
				t.Errorf("%s passed, %s failed (%v)", m[1], m[2], err)
			}
			if string(m[1]) == "0" {
				t.Errorf("no check passed")
			}
		})
	}
}
