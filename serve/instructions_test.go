package serve

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/skilltext"
)

// TestCatalogSummaryCategoryKeys: the instructions' category summary reads
// only the two category keys of a frontmatter, and counts every skill as
// skilltext.Category does on the whole frontmatter decoded into a map: the
// keys are exact ("Category" is not one), a value that is not a string (or
// is blank) does not count, nor does a metadata that is not an object.
func TestCatalogSummaryCategoryKeys(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"category: science\n", "science"},
		{"category: '  padded  '\n", "padded"},
		{"Category: upper\n", "uncategorized"},
		{"CATEGORY: upper\n", "uncategorized"},
		{"category: 5\n", "uncategorized"},
		{"category: [a, b]\n", "uncategorized"},
		{"category: {x: y}\n", "uncategorized"},
		{"category: null\n", "uncategorized"},
		{"category: '   '\nmetadata:\n  category: ops\n", "ops"},
		{"category: 7\nmetadata:\n  category: ops\n", "ops"},
		{"metadata:\n  category: ops\n", "ops"},
		{"metadata:\n  Category: ops\n", "uncategorized"},
		{"metadata:\n  category: 3\n", "uncategorized"},
		{"metadata:\n  category: [ops]\n", "uncategorized"},
		{"metadata: ops\n", "uncategorized"},
		{"metadata: [category, ops]\n", "uncategorized"},
		{"metadata: null\n", "uncategorized"},
		{"Metadata:\n  category: ops\n", "uncategorized"},
		{"category: science\nmetadata:\n  category: ops\n", "science"},
	}
	// 300 skills, more than the catalog lists one by one: case i%len(cases)
	// goes into skill i's frontmatter.
	fx := bigFixture(300)
	want := map[string]int{}
	for i, sp := range slices.Sorted(maps.Keys(fx)) {
		tc := cases[i%len(cases)]
		fx[sp]["SKILL.md"] = strings.Replace(fx[sp]["SKILL.md"], "---\n", "---\n"+tc.yaml, 1)
		want[tc.want]++
	}
	b, _ := fileBundle(t, fx)
	s := newServer(t, Options{}, b)
	c := &catalog{snap: s.Snapshot()}

	// Skill by skill, against the whole frontmatter decoded into a map.
	for k := range c.snap.Len() {
		e, err := c.snap.EntryJSON(k)
		if err != nil {
			t.Fatal(err)
		}
		full, err := entryFrontmatter(e)
		if err != nil {
			t.Fatal(err)
		}
		lib, path := c.libraryOf(k), c.skillPath(k)
		tc := cases[k%len(cases)]
		if got, ref := skilltext.Category(categoryKeys(e), lib, path), skilltext.Category(full, lib, path); got != ref || got != tc.want {
			t.Errorf("%s (%q): category %q, from the whole frontmatter %q, want %q", path, tc.yaml, got, ref, tc.want)
		}
	}

	// And in the summary, with the counts sorted as it sorts them.
	cats := slices.SortedFunc(maps.Keys(want), func(a, b string) int {
		if want[a] != want[b] {
			return want[b] - want[a]
		}
		return strings.Compare(a, b)
	})
	var line []string
	for _, cat := range cats {
		line = append(line, cat+" ("+strconv.Itoa(want[cat])+")")
	}
	got := s.discovery.buildInstructions(c)
	if w := "Categories (skills): " + strings.Join(line, ", "); !strings.HasSuffix(got, w) {
		t.Errorf("summary does not end with %q:\n%s", w, got[strings.LastIndex(got, "\n\n"):])
	}
}
