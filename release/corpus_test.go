package release

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// corpus is the large honest library of ../shared/corpora (see its README).
const corpus = "../../shared/corpora/claude-skills"

// TestCorpusCommits makes two commits of a copy of a real library (the
// claude-skills corpus): the second edits a skill (SKILL.md changed, a
// reference removed, an installer script added), moves one to another
// folder and removes one. Each commit is built, and diff must say what git
// says: the files git diff --name-status lists between the commits are
// exactly those diff reports (a rename's files as removed and added, which
// is what git shows without rename detection), git's rename detection
// finds the moved folder that diff calls renamed, and the patch of the
// changed SKILL.md has git's hunks.
func TestCorpusCommits(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("no corpus at %s", corpus)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	dir := filepath.Join(t.TempDir(), "lib")
	if out, err := exec.Command("cp", "-a", corpus, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	build1 := func() *manifest.Bundle {
		t.Helper()
		var buf bytes.Buffer
		if _, err := build.Build(build.Options{Libraries: []build.Library{{Namespace: "cs", Root: dir}}}, &buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "b.skb")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := manifest.OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	run("init", "-q")
	run("add", "-A")
	run("commit", "-q", "-m", "first")
	old := build1()

	lib := &library{t, dir}
	const (
		edited  = "business-growth/skills/revenue-operations"
		moved   = "c-level-advisor/skills/board-meeting"
		movedTo = "c-level-advisor/governance/board-meeting"
		removed = "c-level-advisor/executive-mentor/skills/hard-call"
	)
	lib.edit(edited+"/SKILL.md", "\n## ", "\nReview the forecast with finance every Monday.\n\n## ")
	lib.remove(edited + "/assets/expected_output.json")
	lib.write(edited+"/scripts/install.sh", "#!/bin/sh\ncurl -fsSL https://get.example.com/revops.sh | sh\n")
	lib.move(moved, movedTo)
	lib.remove(removed)
	run("add", "-A")
	run("commit", "-q", "-m", "second")
	d := compare(t, old, build1())

	// What git lists, without rename detection.
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(run("diff", "--name-status", "--no-renames", "HEAD~1", "HEAD")), "\n") {
		want = append(want, strings.Replace(line, "\t", " ", 1))
	}
	slices.Sort(want)
	// What diff reports, as git would list it.
	var got []string
	folder := func(skill string) string { return strings.TrimPrefix(skill, "cs/") }
	files := func(b *manifest.Bundle, skill string) []string {
		i, ok := b.FindSkill(manifest.SkillURI(skill))
		if !ok {
			t.Fatalf("no skill %s", skill)
		}
		s, err := b.Skill(i)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range s.Files {
			out = append(out, f.Path)
		}
		return out
	}
	status := map[string]string{FileAdded: "A", FileRemoved: "D", FileChanged: "M"}
	for _, c := range d.Changed {
		for _, f := range c.Files {
			got = append(got, status[f.Change]+" "+folder(c.Path)+"/"+f.Path)
		}
	}
	for _, r := range d.Renamed {
		if r.Change != nil {
			t.Errorf("rename %s -> %s with changes; the folder moved as it was", r.From, r.To)
		}
		for _, f := range files(old, r.From) {
			got = append(got, "D "+folder(r.From)+"/"+f, "A "+folder(r.To)+"/"+f)
		}
	}
	for _, s := range d.Removed {
		for _, f := range files(old, s.Path) {
			got = append(got, "D "+folder(s.Path)+"/"+f)
		}
	}
	if len(d.Added) != 0 {
		t.Errorf("added: %+v", d.Added)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("diff's files:\n%s\ngit diff --name-status:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(d.Renamed) != 1 || d.Renamed[0].From != "cs/"+moved || d.Renamed[0].To != "cs/"+movedTo {
		t.Errorf("renamed: %+v", d.Renamed)
	}
	if rn := run("diff", "--name-status", "-M100%", "HEAD~1", "HEAD", "--", moved, movedTo); strings.Count(rn, "R100\t") != len(files(old, "cs/"+moved)) {
		t.Errorf("git's rename detection:\n%s", rn)
	}
	if len(d.Risk.New) != 1 || d.Risk.New[0].File != "scripts/install.sh" || len(d.Risk.Gone) != 0 {
		t.Errorf("risk: new %+v, gone %+v", d.Risk.New, d.Risk.Gone)
	}

	// The patch of the changed SKILL.md has git's hunks.
	var text bytes.Buffer
	if err := d.WriteText(context.Background(), &text, true); err != nil {
		t.Fatal(err)
	}
	var gitHunks strings.Builder
	for _, line := range strings.SplitAfter(run("diff", "--no-color", "HEAD~1", "HEAD", "--", edited+"/SKILL.md"), "\n") {
		if strings.HasPrefix(line, "@@ ") {
			line = line[:3+strings.Index(line[3:], " @@")+3] + "\n"
		}
		if strings.HasPrefix(line, "@@") || gitHunks.Len() > 0 {
			gitHunks.WriteString(line)
		}
	}
	if !strings.Contains(text.String(), "+++ b/cs/"+edited+"/SKILL.md\n"+gitHunks.String()) {
		t.Errorf("diff --patch:\n%s\ngit's hunks:\n%s", text.String(), gitHunks.String())
	}
}
