//go:build unix

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestBuildKilled runs the real command building a library of some 50 MB
// and kills it with SIGKILL at random points. After every kill the output is
// the previous bundle, byte for byte, or a complete bundle of the new
// library that verifies; and the next build leaves no temporary file behind,
// whatever the killed ones left.
func TestBuildKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 50 MB library some 15 times")
	}
	bin, err := exec.LookPath("skills-mcp") // this test binary, as testscript.Main links it
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	root := t.TempDir()
	chunk := make([]byte, 64<<10)
	for i := range 400 {
		dir := filepath.Join(root, fmt.Sprintf("s%03d", i))
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "SKILL.md"), fmt.Appendf(nil, "---\nname: s%03d\ndescription: Skill %d.\n---\nBody.\n", i, i), 0o644))
		for j := range 2 {
			for k := range chunk {
				chunk[k] = byte(rng.Uint32())
			}
			must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("data%d.bin", j)), chunk, 0o644))
		}
	}
	outDir := t.TempDir()
	out := filepath.Join(outDir, "lib.skb")
	build := func() *exec.Cmd {
		cmd := exec.Command(bin, "build", "--root", root, "-o", out, "--no-lint")
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=")
		return cmd
	}
	var took time.Duration
	for range 2 { // the second build, with the library in the page cache, is timed
		start := time.Now()
		if b, err := build().CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, b)
		}
		took = time.Since(start)
	}
	old, err := os.ReadFile(out)
	must(t, err)

	// Kill 12 builds, and more (up to 20) until at least 3 kills left a
	// temporary file, so that the last check can fail.
	kills, litter, renewed := 0, 0, 0
	for i := 0; i < 20 && (i < 12 || litter < 3); i++ {
		// Change the library, so that a new bundle differs from the old one.
		must(t, os.WriteFile(filepath.Join(root, "s000", "SKILL.md"), fmt.Appendf(nil, "---\nname: s000\ndescription: Run %d.\n---\n", i), 0o644))
		cmd := build()
		must(t, cmd.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(took))))
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		cmd.Wait()
		now, err := os.ReadFile(out)
		must(t, err)
		if !bytes.Equal(now, old) {
			b, err := manifest.Open(bytes.NewReader(now), int64(len(now)))
			if err == nil {
				err = b.Verify()
			}
			if err != nil {
				t.Fatalf("kill %d: the output is neither the old bundle nor a complete new one: %v", i, err)
			}
			old = now
			renewed++
		}
		litter += len(temps(t, outDir))
	}
	t.Logf("%d kills of a %v build: %d left a temporary file, %d came after the rename", kills, took, litter, renewed)
	if litter == 0 {
		t.Fatal("no kill left a temporary file: the test proves nothing")
	}
	if b, err := build().CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	if left := temps(t, outDir); len(left) > 0 {
		t.Fatalf("the build after the kills left %d temporary file(s): %v", len(left), left)
	}
}

// temps lists the temporary files WriteFileAtomic leaves in dir when killed.
func temps(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	must(t, err)
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}
