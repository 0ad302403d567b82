package pull_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/oci/ocitest"
)

// TestPullOCIKill runs the real binary doing pull --sync --from oci://…
// from a real registry (docker-registry on loopback), between two versions
// of a 600-file library, and SIGKILLs it at random points: while it
// fetches into the cache, or while it writes the skills. Half the runs
// start with the version's bundle evicted from the cache, so that they
// fetch it. After every kill each skill folder is exactly its old or its
// new version, and the cache holds nothing but complete bundles of the two
// versions (byte for byte what was pushed) and temporary files; the clean
// run that ends each round leaves no litter in either.
func TestPullOCIKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it some 20 times")
	}
	reg := ocitest.StartTest(t, false)
	bin := buildCLI(t)
	tmp := t.TempDir()
	env := append(os.Environ(), "DOCKER_CONFIG="+t.TempDir(), "SKILLS_REGISTRY_USER=", "SKILLS_REGISTRY_PASSWORD=")
	libs := map[int]map[string]string{1: killLibraryN(1, 25), 2: killLibraryN(2, 25)}
	bundles, digests := map[int][]byte{}, map[int]string{}
	for v := 1; v <= 2; v++ {
		path := writeLibrary(t, libs[v])
		data, err := os.ReadFile(path)
		must(t, err)
		bundles[v] = data
		cmd := exec.Command(bin, "push", "--plain-http", path, fmt.Sprintf("oci://%s/kill/skills:v%d", reg.Host, v))
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("push: %v\n%s", err, stderr.String())
		}
		digests[v] = strings.TrimSpace(string(out))
	}
	cache, dest := filepath.Join(tmp, "cache"), filepath.Join(tmp, "dest")
	cacheDir := filepath.Join(cache, "oci", "sha256")
	cached := func(v int) string {
		return filepath.Join(cacheDir, strings.TrimPrefix(digests[v], "sha256:")+".skb")
	}
	runTo := func(v int, to string, sync bool) *exec.Cmd {
		args := []string{"pull", "--plain-http", "--cache-dir", cache,
			"--from", fmt.Sprintf("oci://%s/kill/skills:v%d", reg.Host, v), "--all", "--keep-path", "--to", to}
		if sync {
			args = append(args, "--sync")
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stderr = &strings.Builder{}
		return cmd
	}
	run := func(v int) *exec.Cmd { return runTo(v, dest, true) }
	// cacheState checks the cache holds only complete bundles of the two
	// versions and temporary files, and counts the temporary files.
	cacheState := func(when string) (temps int) {
		t.Helper()
		ents, err := os.ReadDir(cacheDir)
		if os.IsNotExist(err) {
			return 0
		}
		must(t, err)
		for _, e := range ents {
			p := filepath.Join(cacheDir, e.Name())
			switch {
			case strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-"):
				temps++
			case p == cached(1) || p == cached(2):
				v := 1
				if p == cached(2) {
					v = 2
				}
				data, err := os.ReadFile(p)
				must(t, err)
				if !bytes.Equal(data, bundles[v]) {
					t.Fatalf("%s: the cached bundle of version %d is not what was pushed (%d bytes, want %d)", when, v, len(data), len(bundles[v]))
				}
			default:
				t.Fatalf("%s: the cache holds %s", when, e.Name())
			}
		}
		return temps
	}
	clean := func(v int, cold bool) time.Duration {
		t.Helper()
		if cold {
			os.Remove(cached(v))
		}
		d := pullClean(t, run(v), dest, libs[v], fmt.Sprintf("clean run to version %d", v))
		if n := cacheState("after a clean run"); n != 0 {
			t.Fatalf("after a clean run to version %d: %d temporary files in the cache", v, n)
		}
		if _, err := os.Stat(cached(v)); err != nil {
			t.Fatalf("after a clean run to version %d: %v", v, err)
		}
		return d
	}
	clean(1, true)
	cold := clean(2, true)
	warm := clean(1, false)

	// First pulls, without --sync, into a new folder: each killed while it
	// fetches or writes, and the next one goes on from what it left.
	rng := rand.New(rand.NewPCG(3, uint64(time.Now().UnixNano())))
	fresh := filepath.Join(tmp, "fresh")
	for i := range 3 {
		os.Remove(cached(2))
		killWithin(t, runTo(2, fresh, false), rng, cold)
		for _, dir := range skillFolders() {
			got, want := folderState(t, filepath.Join(fresh, dir)), expectFolder(libs[2], dir)
			// ns/s07 holds the nested skill 2fa, written first: it may
			// hold that alone.
			inner := map[string]string{}
			for k, v := range want {
				if strings.HasPrefix(k, "2fa/") {
					inner[k] = v
				}
			}
			if got != nil && !sameFolder(got, want) && !(dir == "ns/s07" && sameFolder(got, inner)) {
				t.Fatalf("first pull, kill %d: %s is neither absent nor new", i, dir)
			}
		}
		cacheState("after a kill")
	}
	pullClean(t, runTo(2, fresh, false), fresh, libs[2], "first pull after kills") // version 2 has every skill
	if n := cacheState("after the first pull"); n != 0 {
		t.Fatalf("first pull after kills: %d temporary files in the cache", n)
	}

	const rounds, perRound = 2, 4
	var kills, fetching, cacheLitter, destLitter, mixed int
	next := 1
	// Two rounds, and up to four more while no kill has landed inside a
	// fetch, which a loaded machine can make rare.
	for round := 0; round < rounds || (cacheLitter == 0 && round < rounds+4); round++ {
		for i := range perRound {
			next = 3 - next
			before := skillStates(t, dest)
			full := warm
			if rng.IntN(2) == 0 {
				os.Remove(cached(next)) // evicted: this run fetches it
				// The fetch comes first; aim the kill inside it.
				full = max(cold-warm, cold/2)
				fetching++
			}
			killWithin(t, run(next), rng, full)
			kills++
			n := checkKilled(t, dest, before, libs[next], fmt.Sprintf("round %d kill %d (to version %d)", round, i, next))
			if n > 0 && n < len(skillFolders()) {
				mixed++
			}
			if len(litter(dest)) > 0 {
				destLitter++
			}
			if cacheState("after a kill") > 0 {
				cacheLitter++
			}
		}
		clean(next, false)
	}
	t.Logf("%d kills (cold run %v, warm %v), %d of runs that fetched; after %d the cache held temporary files, after %d the destination litter, after %d the destination was part old, part new; the next runs cleaned all of it",
		kills, cold.Round(time.Millisecond), warm.Round(time.Millisecond), fetching, cacheLitter, destLitter, mixed)
	if cacheLitter == 0 {
		t.Error("no kill landed while the bundle was fetched into the cache: the test proves nothing about the cache")
	}
}
