package serve

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// BenchmarkWellKnownSite makes the site of a 1,000-skill bundle: what the
// first well-known request after start-up or a swap costs.
func BenchmarkWellKnownSite(b *testing.B) {
	bu := servetest.OpenBench(b, tempDir, 1000)
	for b.Loop() {
		if _, err := wellknown.NewSite([]*manifest.Bundle{bu}, wellknown.SiteOptions{KeepBytes: siteKeepBytes}); err != nil {
			b.Fatal(err)
		}
	}
}
