package release

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// patchCases are pairs of texts a release changes a file by.
var patchCases = []struct{ name, old, new string }{
	{"one line", "a\nb\nc\n", "a\nB\nc\n"},
	{"added at end", "a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\ng\nh\n"},
	{"added at start", "a\nb\nc\nd\ne\n", "0\na\nb\nc\nd\ne\n"},
	{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n", "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\nfourteen\n15\n16\n"},
	{"no final newline", "a\nb\nc", "a\nb\nC"},
	{"newline added", "a\nb", "a\nb\n"},
	{"emptied", "a\nb\n", ""},
	{"from empty", "", "x\ny\n"},
	{"frontmatter", "---\nname: x\ndescription: Old words.\n---\n# X\n\nDo it.\n", "---\nname: x\ndescription: New words.\nallowed-tools: Bash(git:*)\n---\n# X\n\nDo it.\n"},
}

// TestPatchGit checks Patch against git diff --no-index, the oracle: the
// same "---"/"+++" lines and the same hunks (git's function-name context
// after a hunk header is left out), and git apply of Patch's output turns
// the old file into the new.
func TestPatchGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	for _, c := range patchCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []struct{ p, s string }{{"a/f.txt", c.old}, {"b/f.txt", c.new}} {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(f.p)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, f.p), []byte(f.s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(git, "diff", "--no-index", "--no-color", "--no-ext-diff", "a/f.txt", "b/f.txt")
			cmd.Dir = dir
			out, err := cmd.Output()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("git diff: %v", err)
			}
			var want strings.Builder
			for _, line := range strings.SplitAfter(string(out), "\n") {
				switch {
				case strings.HasPrefix(line, "diff --git"), strings.HasPrefix(line, "index "),
					strings.HasPrefix(line, "new file mode"), strings.HasPrefix(line, "deleted file mode"):
				case strings.HasPrefix(line, "@@ "):
					end := strings.Index(line[3:], " @@")
					want.WriteString(line[:3+end+3] + "\n")
				default:
					want.WriteString(line)
				}
			}
			got := Patch("a/a/f.txt", []byte(c.old), "b/b/f.txt", []byte(c.new))
			if string(got) != want.String() {
				t.Fatalf("Patch:\n%s\ngit diff --no-index:\n%s", got, want.String())
			}
			// git apply turns a copy of the old file into the new one.
			if err := os.WriteFile(filepath.Join(dir, "patch"), got, 0o644); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(dir, "w"), 0o755)
			os.WriteFile(filepath.Join(dir, "w", "f.txt"), []byte(c.old), 0o644)
			apply := exec.Command(git, "apply", "--unsafe-paths", "-p2", "--directory=w", "patch")
			apply.Dir = dir
			if out, err := apply.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s", err, out)
			}
			if data, _ := os.ReadFile(filepath.Join(dir, "w", "f.txt")); string(data) != c.new {
				t.Fatalf("git apply gave %q, want %q", data, c.new)
			}
		})
	}
	if Patch("a", []byte("same\n"), "b", []byte("same\n")) != nil {
		t.Error("a patch of equal texts")
	}
}

// TestPatchReadsChangedBlobsOnly: the text report with patches reads the
// bytes of the changed text files and of no other.
func TestPatchReadsChangedBlobsOnly(t *testing.T) {
	lib := exampleLibrary(t)
	old := lib.build()
	lib.edit("acme/pdf-processing/SKILL.md", "# PDF processing", "# PDF processing, revised")
	new := lib.build()
	ro, _ := FromBundle(old, "old")
	rn, _ := FromBundle(new, "new")
	var reads []string
	count := func(r *Release) {
		read := r.read
		r.read = func(ctx context.Context, d manifest.Digest, size int64, path string) ([]byte, error) {
			reads = append(reads, r.Name+":"+path)
			return read(ctx, d, size, path)
		}
	}
	count(ro)
	count(rn)
	d, err := Compare(context.Background(), ro, rn)
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 0 {
		t.Fatalf("Compare read %v", reads)
	}
	var buf bytes.Buffer
	if err := d.WriteText(context.Background(), &buf, true); err != nil {
		t.Fatal(err)
	}
	if strings.Join(reads, " ") != "old:SKILL.md new:SKILL.md" {
		t.Fatalf("reads: %v", reads)
	}
	if !strings.Contains(buf.String(), "-# PDF processing\n+# PDF processing, revised\n") {
		t.Fatalf("patch:\n%s", buf.String())
	}
}

// TestTreeDigest: a skill's tree digest is the one pull's lock file
// records (pull.TreeDigest), and what coreutils computes from its folder.
func TestTreeDigest(t *testing.T) {
	lib := exampleLibrary(t)
	b := lib.build()
	m, err := b.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Skills {
		s := &m.Skills[i]
		var files []pull.LockedFile
		for j, f := range s.Files {
			files = append(files, pull.LockedFile{Path: f.Path, Digest: s.Entry.Resources[j].Digest, Size: s.Entry.Resources[j].Size})
		}
		if got, want := s.TreeDigest(), pull.TreeDigest(files); got != want {
			t.Errorf("%s: TreeDigest %s, the lock file's %s", s.Path, got, want)
		}
	}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("sha256sum not installed")
	}
	for _, skill := range []string{"acme/pdf-processing", "acme/ops/incident-response"} {
		i, _ := b.FindSkill(manifest.SkillURI(skill))
		s, err := b.Skill(i)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", `find . -type f | sed 's|^\./||' | LC_ALL=C sort | while IFS= read -r f; do
	printf '%s %s %s\n' "$(sha256sum < "$f" | cut -c1-64)" "$(stat -c %s "$f")" "$f"
done | sha256sum`)
		cmd.Dir = filepath.Join(lib.dir, filepath.FromSlash(skill))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		want := "sha256:" + strings.Fields(string(out))[0]
		if got := s.TreeDigest().String(); got != want {
			t.Errorf("%s: TreeDigest %s, coreutils %s", skill, got, want)
		}
	}
}

// apply applies a unified diff of one file, as Patch writes it, to old.
func apply(t *testing.T, old []byte, patch []byte) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(old), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	next := 0 // first line of old not yet copied
	pl := strings.SplitAfter(string(patch), "\n")
	inHunk := false
	for k := 0; k < len(pl); k++ {
		l := pl[k]
		switch {
		case l == "", !inHunk && (strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ")):
		case strings.HasPrefix(l, "@@ -"):
			inHunk = true
			var a, n int
			spec := strings.Fields(l)[1][1:]
			start, count, ok := strings.Cut(spec, ",")
			fmt.Sscan(start, &a)
			n = 1
			if ok {
				fmt.Sscan(count, &n)
			}
			if n == 0 {
				a++ // "-0,0" and "-k,0" insert after line k
			}
			for next < a-1 {
				out = append(out, lines[next])
				next++
			}
		case l[0] == ' ' || l[0] == '-':
			if next >= len(lines) || lines[next] != strings.TrimSuffix(l[1:], "\n")+"\n" && lines[next] != l[1:] && !(k+1 < len(pl) && strings.HasPrefix(pl[k+1], `\`)) {
				t.Fatalf("patch line %q does not match old line %d %q", l, next, lines[min(next, len(lines)-1)])
			}
			if l[0] == ' ' {
				out = append(out, lines[next])
			}
			next++
		case l[0] == '+':
			out = append(out, l[1:])
		case l[0] == '\\':
			// The line before has no final newline, in the side it belongs to.
			prev := pl[k-1]
			if prev[0] == '+' || prev[0] == ' ' {
				out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], "\n")
			}
		default:
			t.Fatalf("unexpected patch line %q", l)
		}
	}
	out = append(out, lines[next:]...)
	return []byte(strings.Join(out, ""))
}

// FuzzPatch: applying Patch's output to the old text gives the new one.
func FuzzPatch(f *testing.F) {
	for _, c := range patchCases {
		f.Add(c.old, c.new)
	}
	f.Fuzz(func(t *testing.T, old, new string) {
		p := Patch("a/f", []byte(old), "b/f", []byte(new))
		if (p == nil) != (old == new) {
			t.Fatalf("Patch of %q and %q: %q", old, new, p)
		}
		if p == nil {
			return
		}
		if got := apply(t, []byte(old), p); string(got) != new {
			t.Fatalf("applied %q to %q: got %q, want %q", p, old, got, new)
		}
	})
}
