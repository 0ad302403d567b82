package release

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// twoReleases returns serve's 10k-skill benchmark catalog (bundletest.Big)
// and a copy in which one skill's SKILL.md changed.
func twoReleases(n int) (bundletest.Fixture, bundletest.Fixture) {
	old := bundletest.Big(n)
	new := maps.Clone(old)
	k := n/2 + 7
	changed := fmt.Sprintf("ns%d/skill-%05d", k%10, k)
	files := maps.Clone(old[changed])
	files["SKILL.md"] += "A second paragraph of the body.\n"
	new[changed] = files
	return old, new
}

// TestDiffReadsOnlyChanged: comparing two 2,000-skill bundles that
// differ in one skill reads no blob, and its patch reads the two versions
// of the changed file and nothing else; only the two differing records
// are parsed (the diff lists one changed skill and counts the rest).
func TestDiffReadsOnlyChanged(t *testing.T) {
	fo, fn := twoReleases(2000)
	bo, co := bundletest.Mem(t, fo)
	bn, cn := bundletest.Mem(t, fn)
	ro, err := FromBundle(bo, "old")
	if err != nil {
		t.Fatal(err)
	}
	rn, err := FromBundle(bn, "new")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Compare(context.Background(), ro, rn)
	if err != nil {
		t.Fatal(err)
	}
	if n := co.Reads.Load() + cn.Reads.Load(); n != 0 {
		t.Fatalf("Compare read the bundles %d times", n)
	}
	if len(d.Changed) != 1 || d.Unchanged != 1999 || len(d.Changed[0].Files) != 1 {
		t.Fatalf("changed %+v, unchanged %d", d.Changed, d.Unchanged)
	}
	var buf bytes.Buffer
	if err := d.WriteText(context.Background(), &buf, true); err != nil {
		t.Fatal(err)
	}
	if co.Reads.Load() != 1 || cn.Reads.Load() != 1 {
		t.Fatalf("the patch read the old bundle %d times and the new %d, want 1 and 1", co.Reads.Load(), cn.Reads.Load())
	}
	if !bytes.Contains(buf.Bytes(), []byte("+A second paragraph of the body.\n")) {
		t.Fatalf("patch:\n%s", buf.String())
	}
}

// BenchmarkDiff10k is the whole of `skills-mcp diff --patch OLD NEW` but
// the process: open two mapped 10,000-skill bundle files (warm in the page
// cache) that differ in one skill, compare them and write the report with
// the changed file's patch. "self" is a bundle against itself.
func BenchmarkDiff10k(b *testing.B) {
	fo, fn := twoReleases(10000)
	_, po := bundletest.File(b, fo)
	_, pn := bundletest.File(b, fn)
	run := func(b *testing.B, pa, pb string) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			oa, err := manifest.OpenFile(pa)
			if err != nil {
				b.Fatal(err)
			}
			ob, err := manifest.OpenFile(pb)
			if err != nil {
				b.Fatal(err)
			}
			ra, err := FromBundle(oa, "old")
			if err != nil {
				b.Fatal(err)
			}
			rb, err := FromBundle(ob, "new")
			if err != nil {
				b.Fatal(err)
			}
			d, err := Compare(context.Background(), ra, rb)
			if err != nil {
				b.Fatal(err)
			}
			if err := d.WriteText(context.Background(), io.Discard, true); err != nil {
				b.Fatal(err)
			}
			oa.Close()
			ob.Close()
		}
		// On a shared machine wall time swings with the load; the CPU
		// time the process used per diff does not.
		if cpu := cpuTime() - start; cpu > 0 {
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
	b.Run("one-changed", func(b *testing.B) { run(b, po, pn) })
	b.Run("self", func(b *testing.B) { run(b, po, po) })
}
