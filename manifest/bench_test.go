package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// synthetic writes a bundle of n skills with three small files each.
func synthetic(tb testing.TB, n int) []byte {
	tb.Helper()
	m := &Manifest{MediaType: MediaType, Libraries: []Library{{Namespace: "gen", Kind: "directory", Skills: n}}}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range n {
		name := fmt.Sprintf("skill-%06d", i)
		s := Skill{Library: "gen", Path: "gen/" + name}
		s.Entry.URI = "skill://gen/" + name + "/SKILL.md"
		s.Entry.Frontmatter = json.RawMessage(fmt.Sprintf(`{"name":%q,"description":"Synthetic skill number %d for benchmarks."}`, name, i))
		for _, p := range []string{SkillFile, "references/guide.md", "scripts/run.py"} {
			body := []byte(fmt.Sprintf("%s of %s\n", p, name))
			d := Sum(body)
			w.AddBlob(d, body)
			s.Entry.Resources = append(s.Entry.Resources, Resource{URI: "skill://gen/" + name + "/" + p, Digest: d, Size: int64(len(body))})
			s.Files = append(s.Files, File{Path: p, MimeType: "text/plain", Text: true})
		}
		m.Skills = append(m.Skills, s)
	}
	if _, err := w.Finish(m); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// writeTemp writes bundle bytes to a file in a fresh folder.
func writeTemp(tb testing.TB, data []byte) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "b.skb")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestOpenAllocsDoNotGrowWithSkills proves Open makes no per-skill
// allocation: opening 10,000 skills allocates as often as opening 10.
func TestOpenAllocsDoNotGrowWithSkills(t *testing.T) {
	small, large := synthetic(t, 10), synthetic(t, 10000)
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Open(bytes.NewReader(data), int64(len(data))); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := allocs(small), allocs(large); a != b {
		t.Fatalf("Open allocates %v times for 10 skills and %v for 10,000", a, b)
	}
}

func BenchmarkOpenFile10k(b *testing.B) {
	path := writeTemp(b, synthetic(b, 10000))
	b.ReportAllocs()
	for b.Loop() {
		bu, err := OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		bu.Close()
	}
}

func BenchmarkFindSkill10k(b *testing.B) {
	data := synthetic(b, 10000)
	bu, _ := Open(bytes.NewReader(data), int64(len(data)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, ok := bu.FindSkill(fmt.Sprintf("skill://gen/skill-%06d/SKILL.md", i%10000)); !ok {
			b.Fatal("not found")
		}
	}
}
