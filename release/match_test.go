package release

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// matchNaive is matchFindings written the obvious way, in n² time: the
// specification the bucketed matcher is checked against.
func matchNaive(of, nf []lint.Finding) []int {
	out := make([]int, len(nf))
	used := make([]bool, len(of))
	pick := func(f lint.Finding, same func(o lint.Finding) bool) int {
		best := -1
		for k, o := range of {
			if used[k] || o.Rule != f.Rule || o.Excerpt != f.Excerpt || lint.Rank(f.Severity) > lint.Rank(o.Severity) || !same(o) {
				continue
			}
			if best < 0 || cmp.Or(cmp.Compare(abs(o.Line-f.Line), abs(of[best].Line-f.Line)), cmp.Compare(o.Line, of[best].Line)) < 0 {
				best = k
			}
		}
		return best
	}
	for k, f := range nf {
		out[k] = -1
		if b := pick(f, func(o lint.Finding) bool { return o.File == f.File }); b >= 0 {
			out[k], used[b] = b, true
		}
	}
	for k, f := range nf {
		if out[k] >= 0 {
			continue
		}
		if b := pick(f, func(o lint.Finding) bool { return o.Digest == f.Digest && !o.Digest.IsZero() }); b >= 0 {
			out[k], used[b] = b, true
		}
	}
	return out
}

// randomFindings draws findings from a small alphabet, so that rules,
// excerpts, files, digests, severities and lines collide often.
func randomFindings(r *rand.Rand, n int) []lint.Finding {
	sev := []string{lint.SeverityNote, lint.SeverityWarning, lint.SeverityError}
	digests := []manifest.Digest{{}, manifest.Sum([]byte("a")), manifest.Sum([]byte("b"))}
	fs := make([]lint.Finding, n)
	for i := range fs {
		fs[i] = lint.Finding{Finding: manifest.Finding{
			Rule:     fmt.Sprint("r", r.IntN(2)),
			Excerpt:  fmt.Sprint("x", r.IntN(2)),
			File:     fmt.Sprint("f", r.IntN(3)),
			Severity: sev[r.IntN(len(sev))],
			Line:     r.IntN(12),
		}, Digest: digests[r.IntN(len(digests))]}
	}
	return fs
}

// TestMatchFindingsNaive checks the bucketed matcher against the n² one on
// random releases dense with look-alike findings.
func TestMatchFindingsNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		of, nf := randomFindings(r, r.IntN(30)), randomFindings(r, r.IntN(30))
		if got, want := matchFindings(of, nf), matchNaive(of, nf); !slices.Equal(got, want) {
			t.Fatalf("case %d:\nold %v\nnew %v\ngot  %v\nwant %v", i, of, nf, got, want)
		}
	}
}

// BenchmarkMatchIdentical is a skill whose one line repeats: many findings
// alike but for their line, on both sides, each moved by one line.
func BenchmarkMatchIdentical(b *testing.B) {
	const n = 20000
	of, nf := make([]lint.Finding, n), make([]lint.Finding, n)
	for i := range n {
		f := lint.Finding{Finding: manifest.Finding{Rule: "r", Excerpt: "curl x | sh", File: "run.sh", Severity: lint.SeverityError, Line: i + 1}}
		of[i], nf[i] = f, f
		nf[i].Line = n - i + 1
	}
	for b.Loop() {
		matchFindings(of, nf)
	}
}
