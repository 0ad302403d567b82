package lint_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/build/frontmatter"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// The adversarial corpus lives in testdata/adversarial/<split>/<family>/<case>.txtar.
// Each case is one skill written by someone who did not read the rules: a
// header comment of three lines,
//
//	family: <the folder's name>
//	expect: attack | honest
//	technique: <one line>
//
// (blank lines and lines starting with # may come between them), then the
// skill's files as txtar sections, SKILL.md first, whose frontmatter name is
// the case file's base name. A section named <path>.base64 holds a binary
// file (an image, bytecode, an office document) as standard base64, line
// breaks and spaces ignored; the harness decodes it and writes it as <path>.
// The split is tune (default) or heldout, chosen with
// SKILLS_ADVERSARIAL_SPLIT; `just adversarial split=heldout`.

// adversarialSplits are the corpus's halves: tune is what the rules may be
// tuned against, heldout what measures them afterwards.
var adversarialSplits = []string{"tune", "heldout"}

// base64Suffix ends the name of a section that holds a binary file.
const base64Suffix = ".base64"

// caseNameRE is the Agent Skills name form a case file's base name must have.
var caseNameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// advCase is one parsed case file.
type advCase struct {
	family, name, expect, technique string
	files                           []txtar.File
}

// parseAdvCase reads one case file and checks its form: the header, the
// sections, and SKILL.md's frontmatter name. It never looks at what the
// analyser makes of it.
func parseAdvCase(file, family string) (*advCase, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(file), ".txtar")
	if !caseNameRE.MatchString(name) || len(name) > 64 {
		return nil, fmt.Errorf("%s: case name %q is not lowercase-hyphen (at most 64 characters)", file, name)
	}
	ar := txtar.Parse(data)
	c := &advCase{family: family, name: name, files: ar.Files}
	for i, f := range c.files {
		if bin, ok := strings.CutSuffix(f.Name, base64Suffix); ok {
			raw, err := base64.StdEncoding.DecodeString(string(bytes.Join(bytes.Fields(f.Data), nil)))
			if err != nil {
				return nil, fmt.Errorf("%s: section %q is not base64: %w", file, f.Name, err)
			}
			c.files[i] = txtar.File{Name: bin, Data: raw}
		}
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(ar.Comment))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || val == "" {
			return nil, fmt.Errorf("%s:%d: header line is not \"key: value\"", file, n)
		}
		if seen[key] {
			return nil, fmt.Errorf("%s:%d: header key %q given twice", file, n, key)
		}
		seen[key] = true
		switch key {
		case "family":
			if val != family {
				return nil, fmt.Errorf("%s:%d: family %q, but the case is in folder %q", file, n, val, family)
			}
		case "expect":
			if val != "attack" && val != "honest" {
				return nil, fmt.Errorf("%s:%d: expect %q: want attack or honest", file, n, val)
			}
			c.expect = val
		case "technique":
			c.technique = val
		default:
			return nil, fmt.Errorf("%s:%d: unknown header key %q (family, expect, technique)", file, n, key)
		}
	}
	for _, k := range []string{"family", "expect", "technique"} {
		if !seen[k] {
			return nil, fmt.Errorf("%s: header has no %q line", file, k)
		}
	}
	if len(c.files) == 0 || c.files[0].Name != manifest.SkillFile {
		return nil, fmt.Errorf("%s: the first section must be %s", file, manifest.SkillFile)
	}
	paths := map[string]bool{}
	for _, f := range c.files {
		if f.Name == "" || !validRel(f.Name) {
			return nil, fmt.Errorf("%s: section %q is not a clean relative path", file, f.Name)
		}
		if paths[f.Name] {
			return nil, fmt.Errorf("%s: section %q given twice", file, f.Name)
		}
		paths[f.Name] = true
	}
	fm, err := frontmatter.Parse(c.files[0].Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", file, manifest.SkillFile, err)
	}
	if got, _ := fm.Fields["name"].(string); got != name {
		return nil, fmt.Errorf("%s: frontmatter name %q, want the case name %q", file, got, name)
	}
	if d, _ := fm.Fields["description"].(string); strings.TrimSpace(d) == "" {
		return nil, fmt.Errorf("%s: frontmatter has no description", file)
	}
	return c, nil
}

// validRel reports whether p is a clean, slash-separated relative path
// that stays inside the skill folder.
func validRel(p string) bool {
	return p == path.Clean(p) && !path.IsAbs(p) && p != "." && p != ".." &&
		!strings.HasPrefix(p, "../") && !strings.Contains(p, `\`)
}

// loadAdvSplit parses every case of one split, by family. A malformed case
// fails the test; the others are still returned.
func loadAdvSplit(t *testing.T, root string) map[string][]*advCase {
	t.Helper()
	fams, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*advCase{}
	for _, fam := range fams {
		if !fam.IsDir() {
			t.Errorf("%s: only family folders belong here", filepath.Join(root, fam.Name()))
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, fam.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			p := filepath.Join(root, fam.Name(), f.Name())
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".txtar") {
				t.Errorf("%s: only .txtar case files belong in a family folder", p)
				continue
			}
			c, err := parseAdvCase(p, fam.Name())
			if err != nil {
				t.Error(err)
				continue
			}
			out[fam.Name()] = append(out[fam.Name()], c)
		}
	}
	return out
}

// caseFormRules are build's reasons to withhold a skill that mean the case
// file itself is wrong (its frontmatter or its paths), not a verdict on
// what the skill does: such a case is malformed, never counted as flagged.
var caseFormRules = []string{
	build.RuleNameMissing, build.RuleNameInvalid, build.RuleNameTooLong, build.RuleNameMismatch,
	build.RuleDescMissing, build.RuleDescTooLong, build.RuleCompatTooLong,
	build.RulePathInvalid, build.RuleCaseCollision,
}

// advVerdicts is what build made of a split's cases, keyed by family + "/" +
// case name.
type advVerdicts struct {
	flagged   map[string]bool   // a finding at warning or above, or withheld for what the skill holds
	found     map[string]bool   // published or withheld: build saw the skill
	withheld  map[string]string // build's reason, for a skill withheld for what it holds
	malformed []error           // cases build withheld for their form (caseFormRules)
}

// analyseAdv writes the cases below tmp as one library per family, each case
// a skill folder, and builds them as build does.
func analyseAdv(t *testing.T, tmp string, cases map[string][]*advCase) advVerdicts {
	t.Helper()
	var opt build.Options
	for fam, cs := range cases {
		for _, c := range cs {
			for _, f := range c.files {
				p := filepath.Join(tmp, fam, c.name, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				// Data, never executable: nothing here is meant to run.
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		opt.Libraries = append(opt.Libraries, build.Library{Namespace: fam, Root: filepath.Join(tmp, fam)})
	}
	res, err := build.Build(opt, io.Discard)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	v := advVerdicts{flagged: map[string]bool{}, found: map[string]bool{}, withheld: map[string]string{}}
	// A case is the first folder below its family's root: a skill build
	// finds deeper inside it (a nested SKILL.md) counts towards the case.
	caseKey := func(lib, below string) string {
		dir, _, _ := strings.Cut(res.Folder(lib, below), "/")
		return lib + "/" + dir
	}
	for _, w := range res.Manifest.Withheld {
		key := caseKey(w.Library, w.Path)
		v.found[key] = true
		if i := slices.IndexFunc(w.Rules, func(r string) bool { return slices.Contains(caseFormRules, r) }); i >= 0 {
			v.malformed = append(v.malformed, fmt.Errorf("%s.txtar: build withheld the skill for its form (rule %s): %s", key, w.Rules[i], w.Reason))
			continue
		}
		// Refusing to publish a skill for what it holds (an archive, say)
		// is the strongest verdict build has.
		v.withheld[key] = w.Reason
		v.flagged[key] = true
	}
	for _, s := range res.Manifest.Skills {
		key := caseKey(s.Library, strings.TrimPrefix(strings.TrimPrefix(s.Path, s.Library), "/"))
		v.found[key] = true
		for _, f := range s.Findings {
			if f.Waived == "" && lint.Rank(f.Severity) >= lint.Rank(lint.SeverityWarning) {
				v.flagged[key] = true
			}
		}
	}
	return v
}

// TestAdversarial analyses the adversarial corpus the way build does (one
// library per family, each case a skill folder in it) and prints, per
// family, how many attacks and how many honest look-alikes were flagged: a
// case is flagged when any finding is at warning or above, or when build
// withholds the skill (refuses to publish it: for an attack a catch, for an
// honest skill a false alarm; each is logged with build's reason). Detection
// is reported, not asserted; the test fails only on a malformed case (its
// header, its sections, its frontmatter, a skill build withholds for its
// form: caseFormRules) or one build does not find.
func TestAdversarial(t *testing.T) {
	split := os.Getenv("SKILLS_ADVERSARIAL_SPLIT")
	if split == "" {
		split = "tune"
	}
	if !slices.Contains(adversarialSplits, split) {
		t.Fatalf("SKILLS_ADVERSARIAL_SPLIT=%q: want one of %v", split, adversarialSplits)
	}
	cases := loadAdvSplit(t, filepath.Join("testdata", "adversarial", split))
	if len(cases) == 0 {
		t.Logf("%s: no cases", split)
		return
	}
	v := analyseAdv(t, t.TempDir(), cases)
	for _, err := range v.malformed {
		t.Errorf("%s/%v", split, err)
	}
	flagged, found, withheld := v.flagged, v.found, v.withheld

	fams := make([]string, 0, len(cases))
	for fam := range cases {
		fams = append(fams, fam)
	}
	slices.Sort(fams)
	var sumA, sumAF, sumH, sumHF int
	for _, fam := range fams {
		cs := cases[fam]
		slices.SortFunc(cs, func(a, b *advCase) int { return strings.Compare(a.name, b.name) })
		var attacks, caught, honest, alarms int
		var missed, falseAlarms, notes []string
		for _, c := range cs {
			key := fam + "/" + c.name
			if r, ok := withheld[key]; ok {
				notes = append(notes, fmt.Sprintf("    withheld (%s): %s: %s", c.expect, c.name, r))
			}
			if !found[key] {
				t.Errorf("%s/%s/%s.txtar: build did not find the skill", split, fam, c.name)
			}
			switch c.expect {
			case "attack":
				attacks++
				if flagged[key] {
					caught++
				} else {
					missed = append(missed, c.name)
				}
			case "honest":
				honest++
				if flagged[key] {
					alarms++
					falseAlarms = append(falseAlarms, c.name)
				}
			}
		}
		sumA, sumAF, sumH, sumHF = sumA+attacks, sumAF+caught, sumH+honest, sumHF+alarms
		t.Logf("%-7s %-16s attacks flagged %2d/%-2d  honest flagged %2d/%-2d", split, fam, caught, attacks, alarms, honest)
		if len(missed) > 0 {
			t.Logf("    missed attacks: %s", strings.Join(missed, " "))
		}
		if len(falseAlarms) > 0 {
			t.Logf("    flagged honest: %s", strings.Join(falseAlarms, " "))
		}
		for _, n := range notes {
			t.Log(n)
		}
	}
	t.Logf("%-7s %-16s attacks flagged %2d/%-2d  honest flagged %2d/%-2d", split, "total", sumAF, sumA, sumHF, sumH)
}

// TestAdversarialBase64 proves a <path>.base64 section reaches the skill as
// <path> holding the decoded bytes, line breaks and all.
func TestAdversarialBase64(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\xff")
	enc := base64.StdEncoding.EncodeToString(png)
	text := "family: f\nexpect: attack\ntechnique: t\n-- SKILL.md --\n---\nname: a-case\ndescription: d\n---\n" +
		"-- assets/logo.png.base64 --\n" + enc[:6] + "\n " + enc[6:] + "\n-- run.txt --\nplain\n"
	p := filepath.Join(t.TempDir(), "a-case.txtar")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := parseAdvCase(p, "f")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range c.files {
		got[f.Name] = string(f.Data)
	}
	if got["assets/logo.png"] != string(png) || got["run.txt"] != "plain\n" || len(got) != 3 {
		t.Errorf("files %q", got)
	}
}

// TestAdversarialWithheld proves a skill build withholds for its form is a
// malformed case, one withheld for what it holds (an archive) a flagged one,
// and a skill nested in a case counts towards that case.
func TestAdversarialWithheld(t *testing.T) {
	mk := func(name, desc string, extra ...txtar.File) *advCase {
		md := "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody\n"
		return &advCase{family: "f", name: name, expect: "honest", technique: "t",
			files: append([]txtar.File{{Name: manifest.SkillFile, Data: []byte(md)}}, extra...)}
	}
	cases := map[string][]*advCase{"f": {
		mk("plain-case", "d"),
		mk("long-description", strings.Repeat("d", 2000)),
		mk("holds-archive", "d", txtar.File{Name: "site.zip", Data: []byte("PK\x03\x04")}),
		mk("outer-case", "d", txtar.File{Name: "tools/inner/SKILL.md", Data: []byte("---\nname: inner\ndescription: d\n---\nx\n")},
			txtar.File{Name: "tools/inner/big.zip", Data: []byte("PK\x03\x04")}),
	}}
	v := analyseAdv(t, t.TempDir(), cases)
	if len(v.malformed) != 1 || !strings.Contains(v.malformed[0].Error(), "f/long-description.txtar") ||
		!strings.Contains(v.malformed[0].Error(), build.RuleDescTooLong) {
		t.Errorf("malformed %v, want f/long-description for %s", v.malformed, build.RuleDescTooLong)
	}
	if !v.flagged["f/holds-archive"] || v.withheld["f/holds-archive"] == "" || !v.flagged["f/outer-case"] ||
		v.flagged["f/plain-case"] || v.flagged["f/long-description"] {
		t.Errorf("flagged %v, withheld %v: want f/holds-archive and f/outer-case (its nested archive)", v.flagged, v.withheld)
	}
	for _, k := range []string{"f/plain-case", "f/long-description", "f/holds-archive", "f/outer-case"} {
		if !v.found[k] {
			t.Errorf("%s not found", k)
		}
	}
	if len(v.found) != 4 {
		t.Errorf("found %v: want the four cases alone (a nested skill counts towards its case)", v.found)
	}
}

// TestAdversarialMalformed proves the harness refuses each malformed case
// form, and accepts a well-formed one.
func TestAdversarialMalformed(t *testing.T) {
	const good = "family: split-flow\nexpect: honest\ntechnique: t\n-- SKILL.md --\n---\nname: a-case\ndescription: d\n---\nbody\n"
	for _, tc := range []struct{ why, name, text string }{
		{"ok", "a-case", good},
		{"no family", "a-case", strings.Replace(good, "family: split-flow\n", "", 1)},
		{"wrong family", "a-case", strings.Replace(good, "family: split-flow", "family: injection", 1)},
		{"bad expect", "a-case", strings.Replace(good, "expect: honest", "expect: maybe", 1)},
		{"no technique", "a-case", strings.Replace(good, "technique: t\n", "", 1)},
		{"unknown key", "a-case", strings.Replace(good, "technique: t\n", "technique: t\nnote: n\n", 1)},
		{"twice", "a-case", strings.Replace(good, "technique: t\n", "technique: t\ntechnique: u\n", 1)},
		{"no SKILL.md", "a-case", "family: split-flow\nexpect: honest\ntechnique: t\n-- run.sh --\necho\n"},
		{"SKILL.md not first", "a-case", strings.Replace(good, "-- SKILL.md --", "-- run.sh --\necho\n-- SKILL.md --", 1)},
		{"escaping path", "a-case", good + "-- ../x.sh --\necho\n"},
		{"name mismatch", "b-case", good},
		{"bad case name", "A_case", strings.Replace(good, "name: a-case", "name: A_case", 1)},
		{"no description", "a-case", strings.Replace(good, "description: d\n", "", 1)},
		{"no frontmatter", "a-case", strings.Replace(good, "---\nname: a-case\ndescription: d\n---\n", "name: a-case\n", 1)},
		{"ok", "a-case", good + "-- logo.png.base64 --\niVBORw0K\nGgo=\n"},
		{"bad base64", "a-case", good + "-- logo.png.base64 --\niVBORw0K!\n"},
		{"base64 twice", "a-case", good + "-- logo.png --\nx\n-- logo.png.base64 --\niVBORw0KGgo=\n"},
		{"base64 escaping", "a-case", good + "-- ../logo.png.base64 --\niVBORw0KGgo=\n"},
	} {
		p := filepath.Join(t.TempDir(), tc.name+".txtar")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := parseAdvCase(p, "split-flow")
		if (err == nil) != (tc.why == "ok") {
			t.Errorf("%s: parseAdvCase error %v", tc.why, err)
		}
	}
}
