package lint

import (
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestWaiverImportedRule: a waiver may name an imported rule (tool/rule),
// and no rule that is neither one of Rules nor imported.
func TestWaiverImportedRule(t *testing.T) {
	w := Waiver{Skill: "acme/x", Rule: "semgrep/python.x", Digest: manifest.Sum(nil), Reason: "reviewed"}
	if err := w.Check(); err != nil {
		t.Errorf("waiver of an imported rule: %v", err)
	}
	w.Rule = "no-such-rule"
	if err := w.Check(); err == nil || !strings.Contains(err.Error(), "tool/rule") {
		t.Errorf("waiver of an unknown rule: %v", err)
	}
}
