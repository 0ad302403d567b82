package main

import (
	"os/exec"
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
