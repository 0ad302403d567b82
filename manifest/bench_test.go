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

// BenchmarkReadBlob reads one blob of a mapped bundle file, by size: "first"
// is a blob's first read, which hashes it (the checked bits are cleared
// before every read), "again" every later one.
func BenchmarkReadBlob(b *testing.B) {
	for _, size := range []int{100, 4 << 10, 64 << 10, 1 << 20} {
		body := bytes.Repeat([]byte("x"), size)
		d := Sum(body)
		m := &Manifest{MediaType: MediaType, Libraries: []Library{{Namespace: "gen", Kind: "directory", Skills: 1}}}
		s := Skill{Library: "gen", Path: "gen/big"}
		s.Entry.URI = "skill://gen/big/SKILL.md"
		s.Entry.Frontmatter = json.RawMessage(`{"name":"big","description":"d"}`)
		s.Entry.Resources = []Resource{{URI: s.Entry.URI, Digest: d, Size: int64(size)}}
		s.Files = []File{{Path: SkillFile, MimeType: "text/markdown", Text: true}}
		m.Skills = []Skill{s}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.AddBlob(d, body)
		if _, err := w.Finish(m); err != nil {
			b.Fatal(err)
		}
		bu, err := OpenFile(writeTemp(b, buf.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		defer bu.Close()
		for _, first := range []bool{true, false} {
			name := fmt.Sprintf("%dB/again", size)
			if first {
				name = fmt.Sprintf("%dB/first", size)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if first {
						bu.checked[0].Store(0)
					}
					if _, err := bu.ReadBlob(d); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkParse10k parses and checks a 10,000-skill manifest, as Verify
// and every reader of the whole manifest do.
func BenchmarkParse10k(b *testing.B) {
	data := synthetic(b, 10000)
	bu, _ := Open(bytes.NewReader(data), int64(len(data)))
	mb, _ := bu.ManifestBytes()
	b.SetBytes(int64(len(mb)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(mb); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck10k is Check alone on 10,000 skills: the UTF-8 and path
// rules every writer and reader apply.
func BenchmarkCheck10k(b *testing.B) {
	data := synthetic(b, 10000)
	bu, _ := Open(bytes.NewReader(data), int64(len(data)))
	m, err := bu.Manifest()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(m); err != nil {
			b.Fatal(err)
		}
	}
}
