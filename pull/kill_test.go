package pull_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/pull"
)

// killLibrary is a library of about 2,000 files in version v (1 or 2).
// Version 2 changes, adds and removes files in most skills, leaves some
// alone, adds a skill, and has a nested skill whose folder sorts before
// SKILL.md.
func killLibrary(v int) map[string]string { return killLibraryN(v, 100) }

// killLibraryN is killLibrary with n files (rather than 100) in each skill.
func killLibraryN(v, n int) map[string]string {
	lib := map[string]string{}
	for s := range 20 {
		name := fmt.Sprintf("s%02d", s)
		if s == 19 && v == 1 {
			continue // new in version 2
		}
		content := func(f int) string {
			ver := 1
			if v == 2 && s%5 != 0 && f%3 == 0 {
				ver = 2
			}
			return fmt.Sprintf("skill %s file %d version %d\n%s", name, f, ver, strings.Repeat("x", 50+f*7%400))
		}
		lib[name+"/SKILL.md"] = fmt.Sprintf("---\nname: %s\ndescription: skill %s, version %d\n---\nbody\n", name, name, map[bool]int{true: v, false: 1}[s%5 != 0])
		for f := range n {
			if v == 2 && s%5 != 0 && f%10 == 1 {
				continue // removed in version 2
			}
			lib[fmt.Sprintf("%s/d%d/e%d/f%03d.md", name, f%4, f%3, f)] = content(f)
		}
		if v == 2 && s%5 != 0 {
			for f := n; f < n+5; f++ {
				lib[fmt.Sprintf("%s/new/f%03d.md", name, f)] = content(f)
			}
		}
	}
	lib["s07/2fa/SKILL.md"] = fmt.Sprintf("---\nname: 2fa\ndescription: nested, version %d\n---\nbody\n", v)
	for f := range 20 {
		lib[fmt.Sprintf("s07/2fa/g%02d.md", f)] = fmt.Sprintf("nested file %d version %d\n", f, v)
	}
	return lib
}

// skillFolders are the skill folders of killLibrary below the destination
// (--keep-path, namespace ns).
func skillFolders() []string {
	var out []string
	for s := range 20 {
		out = append(out, fmt.Sprintf("ns/s%02d", s))
	}
	return append(out, "ns/s07/2fa")
}

// expectFolder is what the folder of skill dir holds in lib: its files, and
// the folders they imply (as "path/"). nil if the skill is absent.
func expectFolder(lib map[string]string, dir string) map[string]string {
	rel := strings.TrimPrefix(dir, "ns/")
	if _, ok := lib[rel+"/SKILL.md"]; !ok {
		return nil
	}
	out := map[string]string{}
	for p, data := range lib {
		sub, ok := strings.CutPrefix(p, rel+"/")
		if !ok {
			continue
		}
		out[sub] = data
		for d := filepath.Dir(sub); d != "."; d = filepath.Dir(d) {
			out[d+"/"] = ""
		}
	}
	return out
}

// folderState reads a folder as expectFolder describes one; nil if absent.
func folderState(t testing.TB, dir string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			out[rel+"/"] = ""
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(data)
		default:
			out[rel] = "not a regular file"
		}
		return nil
	})
	must(t, err)
	return out
}

func sameFolder(a, b map[string]string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// litter lists pull's own names (.skills-mcp-*) anywhere below dir.
func litter(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".skills-mcp-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// buildCLI builds the skills-mcp binary into a temporary folder.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "skills-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/skills-mcp/skills-mcp/cmd/skills-mcp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// skillStates reads every skill folder of killLibrary below dest.
func skillStates(t testing.TB, dest string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, dir := range skillFolders() {
		out[dir] = folderState(t, filepath.Join(dest, dir))
	}
	return out
}

// pullClean runs cmd, a pull of lib into dest that nothing interrupts, and
// checks what it left as checkPulled does; it returns how long the run
// took. when names the run for the messages.
func pullClean(t testing.TB, cmd *exec.Cmd, dest string, lib map[string]string, when string) time.Duration {
	t.Helper()
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", when, err, cmd.Stderr)
	}
	d := time.Since(start)
	checkPulled(t, dest, lib, when)
	return d
}

// checkPulled fails the test unless every skill of lib is below dest as
// lib has it (a skill lib lacks may be anything), and dest holds no litter;
// when names the moment for the message.
func checkPulled(t testing.TB, dest string, lib map[string]string, when string) {
	t.Helper()
	for _, dir := range skillFolders() {
		want := expectFolder(lib, dir)
		if want == nil {
			continue // not in this version: left as it was
		}
		if !sameFolder(folderState(t, filepath.Join(dest, dir)), want) {
			t.Fatalf("%s: %s is not that version", when, dir)
		}
	}
	if l := litter(dest); len(l) != 0 {
		t.Fatalf("%s: left %v", when, l)
	}
}

// killWithin starts cmd, SIGKILLs it after a random time below max, and
// waits for it.
func killWithin(t testing.TB, cmd *exec.Cmd, rng *rand.Rand, max time.Duration) {
	t.Helper()
	must(t, cmd.Start())
	time.Sleep(time.Duration(rng.Int64N(int64(max))))
	cmd.Process.Kill()
	cmd.Wait()
}

// checkKilled fails the test unless every skill folder below dest, after a
// killed pull of lib, is as it was before or as lib has it (as it was, for
// a skill lib lacks); it returns how many are new. when names the kill for
// the message.
func checkKilled(t testing.TB, dest string, before map[string]map[string]string, lib map[string]string, when string) (n int) {
	t.Helper()
	for _, dir := range skillFolders() {
		got := folderState(t, filepath.Join(dest, dir))
		oldV, newV := before[dir], expectFolder(lib, dir)
		if newV == nil {
			newV = oldV // not in the version pulled: left as it was
		}
		switch {
		case sameFolder(got, newV):
			n++
		case sameFolder(got, oldV):
		default:
			t.Fatalf("%s: %s is neither as it was nor new: %d entries, old %d, new %d", when, dir, len(got), len(oldV), len(newV))
		}
	}
	return n
}

// lockCheck runs pull --check on dest and returns its exit status.
func lockCheck(t testing.TB, bin, dest string) int {
	t.Helper()
	cmd := exec.Command(bin, "pull", "--check", "--to", dest)
	out, err := cmd.CombinedOutput()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		t.Fatalf("pull --check --to %s: exit %d\n%s", dest, code, out)
	}
	return cmd.ProcessState.ExitCode()
}

// checkLock fails the test unless the lock of dest (with the next-lock a
// killed run left, reconciled) names every skill folder of the pulled
// bundle as its files are: each folder as the lock says, never "modified
// locally", whatever moment the run was killed at.
func checkLock(t testing.TB, bin, dest, when string) {
	t.Helper()
	lock, err := pull.ReadLock(dest)
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	if len(lock.Sources) == 0 {
		t.Fatalf("%s: the lock names no source", when)
	}
	for _, ls := range lock.Sources {
		for i := range ls.Skills {
			st, err := pull.CompareLocal(dest, &ls.Skills[i])
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if st.Modified {
				t.Fatalf("%s: %s does not match its lock entry: %s", when, ls.Skills[i].Dest, st)
			}
		}
	}
	lockCheck(t, bin, dest) // exits 0 or 1, never 3 (modified) or 2
}

// TestPullSyncKill runs the real binary doing pull --sync between two
// versions of a 2,000-file library and SIGKILLs it at random points. After
// every kill each skill folder must equal exactly its old or its new
// version; the next run must leave no litter and everything new.
func TestPullSyncKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it some 30 times")
	}
	tmp := t.TempDir()
	bin := buildCLI(t)
	libs := map[int]map[string]string{1: killLibrary(1), 2: killLibrary(2)}
	bundles := map[int]string{1: writeLibrary(t, libs[1]), 2: writeLibrary(t, libs[2])}
	dest := filepath.Join(tmp, "dest")
	run := func(v int) *exec.Cmd {
		cmd := exec.Command(bin, "pull", "--from", bundles[v], "--all", "--keep-path", "--sync", "--to", dest)
		cmd.Stderr = &strings.Builder{}
		return cmd
	}
	clean := func(v int) time.Duration {
		t.Helper()
		when := fmt.Sprintf("clean run to version %d", v)
		d := pullClean(t, run(v), dest, libs[v], when)
		checkLock(t, bin, dest, when)
		if code := lockCheck(t, bin, dest); code != 0 {
			t.Fatalf("%s: pull --check exits %d, want 0 (every skill as locked)", when, code)
		}
		if _, err := os.Stat(filepath.Join(dest, ".skills-mcp-lock-next.json")); err == nil {
			t.Fatalf("%s: left the next-lock", when)
		}
		return d
	}
	clean(1)
	full := clean(2)
	clean(1)

	// Four rounds of five kills. Each killed run goes towards the other
	// version than the one before it, so that it has work to do, and
	// starts from what killed runs left; the clean run that ends a round
	// must leave no litter.
	const rounds, perRound = 4, 5
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	var mixed, withLitter, noneNew, allNew int
	next := 1
	for round := range rounds {
		for i := range perRound {
			next = 3 - next
			before := skillStates(t, dest)
			killWithin(t, run(next), rng, full)
			when := fmt.Sprintf("round %d kill %d (to version %d)", round, i, next)
			n := checkKilled(t, dest, before, libs[next], when)
			checkLock(t, bin, dest, when)
			if l := litter(dest); len(l) > 0 {
				withLitter++
			}
			switch n {
			case 0:
				noneNew++
			case len(skillFolders()):
				allNew++
			default:
				mixed++
			}
		}
		clean(next)
	}
	kills := rounds * perRound
	t.Logf("%d kills over a %v run: %d mid-run (some skills new, some old), %d before any skill was replaced, %d after all were; %d left litter, all of it cleaned by the next runs",
		kills, full.Round(time.Millisecond), mixed, noneNew, allNew, withLitter)
}

// BenchmarkSyncOneChange measures pull --sync of the 2,000-file library
// when one file of one skill changed on disk: that skill's folder is
// staged (about 100 hard links and one fetched file) and exchanged, the
// other skills are hashed and left alone.
func BenchmarkSyncOneChange(b *testing.B) {
	src, err := pull.OpenBundle(writeLibrary(b, killLibrary(2)), nil)
	must(b, err)
	defer src.Close()
	dir := b.TempDir()
	pullAll(b, src, dir, true)
	victim := filepath.Join(dir, "ns", "s03", "SKILL.md")
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		must(b, os.WriteFile(victim, []byte("changed"), 0o644))
		b.StartTimer()
		res := pullAll(b, src, dir, true)
		if res.Written != 1 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkSyncUnchanged measures a pull --sync that finds everything up
// to date: hashing only, no writes.
func BenchmarkSyncUnchanged(b *testing.B) {
	src, err := pull.OpenBundle(writeLibrary(b, killLibrary(2)), nil)
	must(b, err)
	defer src.Close()
	dir := b.TempDir()
	pullAll(b, src, dir, true)
	for b.Loop() {
		if res := pullAll(b, src, dir, true); res.Written != 0 {
			b.Fatalf("%+v", res)
		}
	}
}
