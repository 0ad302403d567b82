package search

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDocsQualityFixture wants the search-quality table of docs/serving.md
// to count the fixture's skills as TestSearchQuality prints them, the skills
// served (it said 239, the entries of the fixture file, where CI printed 237).
func TestDocsQualityFixture(t *testing.T) {
	doc, err := os.ReadFile("../docs/serving.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range qualityScenarios {
		if sc.name != libFixture {
			continue
		}
		r := newQualityRun(t, sc.libs)
		want := fmt.Sprintf("| quality fixture (%d skills) |", len(r.refDocs))
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/serving.md has no %q row", want)
		}
		return
	}
	t.Fatal("no fixture scenario")
}
