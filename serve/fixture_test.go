package serve

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// The hand-built fixture bundles of internal/bundletest, under the names
// these tests use.
type (
	fixture        = bundletest.Fixture
	countingReader = bundletest.CountingReader
)

func exampleFixture() fixture  { return bundletest.Example() }
func bigFixture(n int) fixture { return bundletest.Big(n) }

func memBundle(t testing.TB, fx fixture) (*manifest.Bundle, *countingReader) {
	t.Helper()
	return bundletest.Mem(t, fx)
}

func fileBundle(t testing.TB, fx fixture) (*manifest.Bundle, string) {
	t.Helper()
	return bundletest.File(t, fx)
}
