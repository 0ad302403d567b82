package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// heavyDeps are packages whose initialisation is costly and which the
// command must not link: package init runs at every start, the stdio
// serve a host spawns per session included, whether the code is used or
// not. Keyless Sigstore checks are in the helper skills-mcp-sigstore.
var heavyDeps = []string{
	"github.com/sigstore/sigstore-go/",
	"github.com/sigstore/rekor",
	"github.com/sigstore/sigstore/",
	"github.com/asaskevich/govalidator",
	"github.com/go-openapi/",
	"google.golang.org/grpc",
	"google.golang.org/genproto",
	"github.com/ProtonMail/go-crypto",
	"github.com/google/certificate-transparency-go",
	"go.opentelemetry.io/",
	"github.com/prometheus/", // /metrics is internal/promtext
	"google.golang.org/protobuf",
}

// TestStartupDeps fails when a heavy dependency returns to the command.
func TestStartupDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps gave %d packages", len(deps))
	}
	for _, d := range deps {
		for _, h := range heavyDeps {
			if strings.HasPrefix(d, h) {
				t.Errorf("skills-mcp links %s (%s): its package init would run at every start; keep it in a helper program", d, h)
			}
		}
	}
}

// TestNoPackageInit builds the command and wants none of this module's
// packages to run anything at initialisation (GODEBUG=inittrace=1 names
// every package whose init does work): a package-level table built by a
// call, sync.OnceValue(...) included, runs at every start, and touches the
// package's code, which the kernel maps 64 KiB at a time. Declare tables
// as lazy.Value, lazyre.RE or static literals instead (main's own start-up
// is main's).
func TestNoPackageInit(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "skills-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace strings.Builder
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("--version: %v\n%s", err, trace.String())
	}
	if !strings.Contains(trace.String(), "init runtime @") {
		t.Fatalf("no init trace in\n%s", trace.String())
	}
	for _, line := range strings.Split(trace.String(), "\n") {
		if strings.HasPrefix(line, "init github.com/skills-mcp/skills-mcp/") {
			t.Errorf("package initialisation does work: %s", line)
		}
	}
}
