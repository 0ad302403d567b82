package bundletest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Fixture maps a skill path to its files (path → content). A skill's files
// include those of the skills nested in it, as a build would list them.
type Fixture map[string]map[string]string

// Example is the catalog most tests serve: namespaced and nested
// skills, a binary file, a script, a sub-folder two levels deep and a hidden
// skill.
func Example() Fixture {
	return Fixture{
		"acme/pdf-processing": {
			"SKILL.md":                          "---\nname: pdf-processing\ndescription: >\n  Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nmetadata:\n  version: \"2.1.0\"\n---\n# PDF\n\nRead references/FORMS.md.\n",
			"references/FORMS.md":               "# Forms\n",
			"scripts/extract.py":                "print('extract')\n",
			"templates/invoice.md":              "Invoice <&> template\n",
			"templates/regional/eu-invoice.md":  "EU invoice\n",
			"assets/logo.png":                   "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			"templates/purchase order.md":       "PO\n",
			"templates/regional/us-invoice.md":  "US invoice\n",
			"templates/regional/ca/invoice.md":  "CA invoice\n",
			"templates/regional/ca/bilingue.md": "CA bilingue\n",
		},
		"acme/billing/refunds": {
			"SKILL.md":          "---\nname: refunds\ndescription: Process customer refund requests per company policy\n---\nRefunds.\n",
			"examples/email.md": "Dear customer,\n",
		},
		"acme/billing/refunds/partial": {
			"SKILL.md": "---\nname: partial\ndescription: Partial refunds\n---\nPartial.\n",
		},
		"community/git-workflow": {
			"SKILL.md": "---\nname: git-workflow\ndescription: Follow this team's Git conventions\n---\nGit.\n",
		},
		"tools/secret-helper": {
			"SKILL.md":   "---\nname: secret-helper\ndescription: Only the user may invoke this\ndisable-model-invocation: true\n---\nHidden.\n",
			"run.sh":     "echo hidden\n",
			"notes/a.md": "a\n",
		},
	}
}

// FileURI is how the fixture builder names a file: each path segment
// percent-encoded as a URI path segment.
func FileURI(skillPath, file string) string {
	segs := strings.Split(file, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return manifest.URIScheme + skillPath + "/" + strings.Join(segs, "/")
}

func mimeOf(p string) string {
	switch path.Ext(p) {
	case ".md":
		return "text/markdown"
	case ".py":
		return "text/x-python"
	case ".sh":
		return "text/x-shellscript"
	case ".png":
		return "image/png"
	}
	return "text/plain"
}

// Manifest turns a fixture into a manifest and its blobs, the way the
// build package lays them out: frontmatter as JSON, SKILL.md first, files
// sorted, nested skills' files listed in the enclosing skill too, skills with
// disable-model-invocation hidden, a finding on every script.
func Manifest(t testing.TB, fx Fixture) (*manifest.Manifest, map[manifest.Digest][]byte) {
	t.Helper()
	m := &manifest.Manifest{MediaType: manifest.MediaType, Generator: manifest.Generator}
	libs := map[string]*manifest.Library{}
	blobs := map[manifest.Digest][]byte{}
	keys := slices.Sorted(maps.Keys(fx))
	for _, sp := range keys {
		files := maps.Clone(fx[sp])
		i, _ := slices.BinarySearch(keys, sp+"/")
		for ; i < len(keys) && strings.HasPrefix(keys[i], sp+"/"); i++ {
			for p, c := range fx[keys[i]] {
				files[keys[i][len(sp)+1:]+"/"+p] = c
			}
		}
		md := files[manifest.SkillFile]
		parts := strings.SplitN(md, "---\n", 3)
		if len(parts) != 3 {
			t.Fatalf("fixture %s: SKILL.md has no frontmatter", sp)
		}
		var fm map[string]any
		if err := yaml.Unmarshal([]byte(parts[1]), &fm); err != nil {
			t.Fatalf("fixture %s: %v", sp, err)
		}
		fmJSON, err := json.Marshal(fm)
		if err != nil {
			t.Fatal(err)
		}
		lib, _, _ := strings.Cut(sp, "/")
		l := libs[lib]
		if l == nil {
			l = &manifest.Library{Namespace: lib, Kind: manifest.LibraryKindDir}
			libs[lib] = l
		}
		l.Skills++
		if fm["disable-model-invocation"] == true {
			l.Hidden++
		}
		s := manifest.Skill{Library: lib, Path: sp, Hidden: fm["disable-model-invocation"] == true,
			Provenance: map[string]any{"source": "fixture"}}
		s.Entry.URI = manifest.URIScheme + sp + "/" + manifest.SkillFile
		s.Entry.Frontmatter = fmJSON
		paths := []string{}
		for p := range files {
			if p != manifest.SkillFile {
				paths = append(paths, p)
			}
		}
		slices.Sort(paths)
		for _, p := range append([]string{manifest.SkillFile}, paths...) {
			data := []byte(files[p])
			d := manifest.Sum(data)
			blobs[d] = data
			s.Entry.Resources = append(s.Entry.Resources, manifest.Resource{URI: FileURI(sp, p), Digest: d, Size: int64(len(data))})
			f := manifest.File{Path: p, MimeType: mimeOf(p), Text: utf8.Valid(data) && !bytes.ContainsRune(data, 0)}
			if ext := path.Ext(p); ext == ".py" || ext == ".sh" {
				f.Script = true
				s.Findings = append(s.Findings, manifest.Finding{Rule: "script", File: p, Line: 1, Severity: "note", Excerpt: "x"})
			}
			s.Files = append(s.Files, f)
		}
		m.Skills = append(m.Skills, s)
	}
	for _, l := range libs {
		m.Libraries = append(m.Libraries, *l)
	}
	slices.SortFunc(m.Libraries, func(a, b manifest.Library) int { return strings.Compare(a.Namespace, b.Namespace) })
	slices.SortFunc(m.Skills, func(a, b manifest.Skill) int { return strings.Compare(a.Entry.URI, b.Entry.URI) })
	return m, blobs
}

// Write writes the bundle of fx to w.
func Write(t testing.TB, w io.Writer, fx Fixture) {
	t.Helper()
	m, blobs := Manifest(t, fx)
	bw := manifest.NewWriter(w)
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			if err := bw.AddBlob(r.Digest, blobs[r.Digest]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := bw.Finish(m); err != nil {
		t.Fatal(err)
	}
}

// CountingReader is a bundle in memory that counts reads after Open, to
// prove that refused requests read nothing.
type CountingReader struct {
	r *bytes.Reader
	// Reads counts the ReadAt calls since Mem opened the bundle.
	Reads atomic.Int64
}

// ReadAt reads from the bundle and counts the read.
func (c *CountingReader) ReadAt(p []byte, off int64) (int, error) {
	c.Reads.Add(1)
	return c.r.ReadAt(p, off)
}

// Mem builds fx into memory and opens it.
func Mem(t testing.TB, fx Fixture) (*manifest.Bundle, *CountingReader) {
	t.Helper()
	var buf bytes.Buffer
	Write(t, &buf, fx)
	cr := &CountingReader{r: bytes.NewReader(buf.Bytes())}
	b, err := manifest.Open(cr, int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	cr.Reads.Store(0)
	return b, cr
}

// File writes fx to a .skb file in a temporary folder, opens it with
// manifest.OpenFile (memory-mapped) and returns it with its path.
func File(t testing.TB, fx Fixture) (*manifest.Bundle, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skills.skb")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	Write(t, f, fx)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, p
}

// Big has n skills of three small files each, under 10 namespaces.
func Big(n int) Fixture {
	fx := Fixture{}
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		fx[fmt.Sprintf("ns%d/%s", i%10, name)] = map[string]string{
			"SKILL.md":            fmt.Sprintf("---\nname: %s\ndescription: Skill number %d of the benchmark catalog.\n---\nBody of %s.\n", name, i, name),
			"references/guide.md": "Guide for " + name + ".\n",
			"scripts/run.py":      fmt.Sprintf("print(%d)\n", i),
		}
	}
	return fx
}
