package main

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
	"github.com/skills-mcp/skills-mcp/serve"
)

// The writer/reader property: every bundle build writes is opened by every
// reader, and everything serve lists pull writes back byte for byte.
// FuzzRoundTrip generates a library from its input (any bytes and any
// Unicode in names, NFC/NFD pairs, %, #, ?, spaces, 255-byte segments, deep
// nesting, case pairs, empty files, CRLF and BOM frontmatter), as a folder or
// as a zip, and checks that build succeeds or refuses with a rule; that the
// bundle opens and verifies; that a server over it, read through the Go SDK
// client by pull, lists every published skill, that pull refuses none of
// them, and that the files pulled (from the server and from the bundle file)
// equal the source.

// genPalette are names that broke a reader once, or could.
var genPalette = []string{
	"é", "e\u0301", "%", "%41", "%2F", "#", "?", "a b", " lead", "trail ", "Docs", "docs", "DOCS", "ß", "SS",
	"K", "\u212a", "C:x", "x:y", `a\b`, "\xff", "caf\xe9", "\x01", ".hidden", "..", ".", "",
	strings.Repeat("a", 255), strings.Repeat("b", 256), "日本語", "\u202e", "\ufeff", "con", "nul.txt",
	"SKILL.md", "skill.md", "x.pyc", "node_modules", "-", "—", "a\u0085b", "\U0001F600", "\ud7ff",
}

var genNames = []string{"alpha", "beta-2", "c", "x-y-z", "pdf", "d0"}

// gen reads choices from fuzz input; past its end every choice is 0.
type gen struct{ b []byte }

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) n(k int) int { return int(g.byte()) % k }

// seg returns one path segment: from the palette, raw bytes, or runes.
func (g *gen) seg() string {
	switch g.n(4) {
	case 0, 1:
		return genPalette[g.n(len(genPalette))]
	case 2:
		b := make([]byte, 1+g.n(12))
		for i := range b {
			b[i] = g.byte()
		}
		return string(b)
	}
	var sb strings.Builder
	for range 1 + g.n(6) {
		sb.WriteRune(rune(g.byte())<<8 | rune(g.byte()))
	}
	return sb.String()
}

func (g *gen) content() []byte {
	switch g.n(6) {
	case 0:
		return nil
	case 1:
		return []byte("line one\r\nline two\r\n")
	case 2:
		return []byte("\x89PNG\r\n\x1a\n\x00\x00binary")
	case 3:
		return []byte("caf\xe9 is not UTF-8\n")
	case 4:
		return []byte(g.seg())
	}
	return []byte("# text\n")
}

// genFile is one file of a generated library: its slash-separated path
// below the library root and its bytes.
type genFile struct {
	path string
	data []byte
}

// generate turns fuzz input into a library: skills in category folders, each
// with a SKILL.md and files at generated paths.
func generate(input []byte) (files []genFile, asZip bool) {
	g := &gen{b: input}
	asZip = g.n(4) == 0
	for i := range 1 + g.n(3) {
		var dir []string
		for range g.n(3) {
			dir = append(dir, g.seg())
		}
		name := genNames[i]
		if g.n(8) == 0 {
			name = g.seg()
		}
		dir = append(dir, name)
		skill := strings.Join(dir, "/")
		fm := fmt.Sprintf("---\nname: %s\ndescription: Generated skill %d.\n---\nBody.\n", name, i)
		switch g.n(4) {
		case 1:
			fm = strings.ReplaceAll(fm, "\n", "\r\n")
		case 2:
			fm = "\ufeff" + fm
		case 3:
			fm = "\ufeff" + strings.ReplaceAll(fm, "\n", "\r\n")
		}
		files = append(files, genFile{skill + "/SKILL.md", []byte(fm)})
		for range g.n(5) {
			var p []string
			depth := 1 + g.n(3)
			if g.n(8) == 0 {
				depth = 10 + g.n(10)
			}
			for range depth {
				p = append(p, g.seg())
			}
			files = append(files, genFile{skill + "/" + strings.Join(p, "/"), g.content()})
		}
	}
	return files, asZip
}

// writeFolder creates what it can of files below root (a path a file system
// cannot hold is left out) and returns the files it created.
func writeFolder(t *testing.T, root string, files []genFile) map[string][]byte {
	made := map[string][]byte{}
	for _, f := range files {
		segs := strings.Split(f.path, "/")
		if slices.ContainsFunc(segs, func(s string) bool {
			return s == "" || s == "." || s == ".." || len(s) > 255 || strings.ContainsRune(s, 0)
		}) {
			continue
		}
		full := filepath.Join(root, filepath.FromSlash(f.path))
		if os.MkdirAll(filepath.Dir(full), 0o755) != nil {
			continue
		}
		if _, err := os.Lstat(full); err == nil {
			continue
		}
		if os.WriteFile(full, f.data, 0o644) == nil {
			made[f.path] = f.data
		}
	}
	return made
}

// zipWrapper is the folder writeZip puts every entry in, as GitHub's
// "Download ZIP" does; build strips it.
const zipWrapper = "wrap"

// writeZip writes files, each once, into a zip below zipWrapper, and
// returns them by entry name.
func writeZip(t *testing.T, dst string, files []genFile) map[string][]byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	made := map[string][]byte{}
	for _, f := range files {
		name := zipWrapper + "/" + f.path
		if _, dup := made[name]; dup {
			continue
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.data)
		if !strings.HasSuffix(name, "/") { // a folder entry, not a file
			made[name] = f.data
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return made
}

// enc writes the choices generate reads, to spell out seeds.
type enc []byte

func (e *enc) choose(v int) { *e = append(*e, byte(v)) }
func (e *enc) pal(s string) { e.choose(0); e.choose(slices.Index(genPalette, s)) }
func (e *enc) raw(s string) { e.choose(2); e.choose(len(s) - 1); *e = append(*e, s...) }
func (e *enc) file(segs ...func()) {
	e.choose(len(segs) - 1)
	e.choose(1) // not deep
	for _, s := range segs {
		s()
	}
}

// skill spells one skill: categories, the default name, frontmatter
// variant fm (0 LF, 1 CRLF, 2 BOM, 3 BOM and CRLF), then its files, each a
// list of segments and a content kind.
func (e *enc) skill(cats []func(), fm int, files ...func()) {
	e.choose(len(cats))
	for _, c := range cats {
		c()
	}
	e.choose(1) // the default name
	e.choose(fm)
	e.choose(len(files))
	for _, f := range files {
		f()
	}
}

// roundTripSeeds are libraries that exercise each kind of name.
func roundTripSeeds() map[string][]byte {
	seeds := map[string][]byte{}
	spell := func(name string, zip bool, skills int, body func(e *enc)) {
		e := &enc{}
		if zip {
			e.choose(0)
		} else {
			e.choose(1)
		}
		e.choose(skills - 1)
		body(e)
		seeds[name] = *e
	}
	seg := func(e *enc, s string) func() { return func() { e.pal(s) } }
	raw := func(e *enc, s string) func() { return func() { e.raw(s) } }
	with := func(e *enc, content int, segs ...func()) func() {
		return func() { e.file(segs...); e.choose(content) }
	}
	spell("nfc-nfd", false, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 5, seg(e, "é")), with(e, 5, seg(e, "e\u0301")))
	})
	spell("case-pairs", false, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 5, seg(e, "Docs")), with(e, 5, seg(e, "docs"), seg(e, "a b")))
	})
	spell("kelvin", false, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 1, seg(e, "K")), with(e, 1, seg(e, "\u212a")), with(e, 1, seg(e, "ß")), with(e, 1, seg(e, "SS")))
	})
	spell("uri-chars", false, 2, func(e *enc) {
		e.skill([]func(){seg(e, "%"), seg(e, "#")}, 1, with(e, 0, seg(e, "?")), with(e, 5, seg(e, "%41")), with(e, 2, seg(e, " lead"), seg(e, "trail ")))
		e.skill([]func(){seg(e, "日本語")}, 2, with(e, 3, seg(e, "%2F")), with(e, 0, seg(e, "\U0001F600")))
	})
	spell("long-segments", false, 1, func(e *enc) {
		e.skill(nil, 3, with(e, 5, seg(e, strings.Repeat("a", 255))), with(e, 5, seg(e, strings.Repeat("b", 256))))
	})
	spell("deep", false, 1, func(e *enc) {
		e.choose(0) // no categories
		e.choose(1)
		e.choose(0)
		e.choose(1) // one file
		e.choose(0) // depth 1, then deep:
		e.choose(0)
		e.choose(9) // 19 segments
		for range 19 {
			e.raw("d")
		}
		e.choose(0) // empty
	})
	spell("not-utf8", false, 1, func(e *enc) {
		e.skill([]func(){raw(e, "\xff")}, 0)
	})
	spell("not-utf8-file", false, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 5, seg(e, ".hidden")), with(e, 5, raw(e, ".\xff")), with(e, 5, raw(e, "caf\xe9.md")))
	})
	spell("skipped", false, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 5, seg(e, ".hidden")), with(e, 5, seg(e, "node_modules"), raw(e, "x")), with(e, 5, seg(e, "x.pyc")), with(e, 5, seg(e, "a b")))
	})
	spell("drive", false, 1, func(e *enc) {
		e.skill([]func(){seg(e, "x:y")}, 0, with(e, 5, seg(e, "C:x")))
	})
	spell("zip-long", true, 1, func(e *enc) {
		e.skill(nil, 0, with(e, 5, seg(e, strings.Repeat("b", 256))))
	})
	spell("zip-ok", true, 2, func(e *enc) {
		e.skill(nil, 1, with(e, 0, seg(e, "a b")), with(e, 2, seg(e, "é"), raw(e, "x")))
		e.skill([]func(){seg(e, "—")}, 2, with(e, 0, seg(e, "SS")))
	})
	return seeds
}

var updateRoundTripSeeds = flag.Bool("update-roundtrip-seeds", false, "write the FuzzRoundTrip seeds to testdata/fuzz/FuzzRoundTrip")

func FuzzRoundTrip(f *testing.F) {
	seeds := roundTripSeeds()
	if *updateRoundTripSeeds {
		dir := filepath.Join("testdata", "fuzz", "FuzzRoundTrip")
		os.MkdirAll(dir, 0o755)
		for name, b := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(body), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, input []byte) {
		roundTrip(t, input)
	})
}

// roundTrip checks the property on the library generated from input.
func roundTrip(t *testing.T, input []byte) {
	files, asZip := generate(input)
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	var source map[string][]byte
	lib := build.Library{Namespace: "ns", Root: root}
	if asZip {
		lib.Root = filepath.Join(dir, "lib.zip")
		source = writeZip(t, lib.Root, files)
	} else {
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		source = writeFolder(t, root, files)
	}
	var buf bytes.Buffer
	res, err := build.Build(build.Options{Libraries: []build.Library{lib}, Depth: 8}, &buf)
	if err != nil {
		var ae *build.ArchiveError
		if asZip && errors.As(err, &ae) && ae.Rule != "" {
			return // refused with a rule
		}
		t.Fatalf("build failed without naming a rule: %v", err)
	}
	m := res.Manifest
	for _, w := range m.Withheld {
		if len(w.Rules) == 0 || !strings.Contains(w.Reason, "(rule ") {
			t.Errorf("withheld %s without a rule: %q", w.Path, w.Reason)
		}
	}
	data := buf.Bytes()
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if err := b.Verify(); err != nil {
		t.Fatalf("verify: %v", err)
	}

	// want: each published skill's files, from the source.
	want := map[string]map[string][]byte{}
	for _, s := range m.Skills {
		folder := res.Folder(s.Library, strings.TrimPrefix(s.Path, s.Library+"/"))
		if asZip {
			folder = path.Join(zipWrapper, folder)
		}
		fs := map[string][]byte{}
		for _, f := range s.Files {
			src, ok := source[path.Join(folder, f.Path)]
			if !ok {
				t.Fatalf("skill %s: file %q is not in the source (folder %q)", s.Path, f.Path, folder)
			}
			fs[f.Path] = src
		}
		// And nothing the source holds is left out but what build skips.
		for p := range source {
			rel, ok := strings.CutPrefix(p, folder+"/")
			if folder == "." {
				rel, ok = p, true
			}
			if _, listed := fs[rel]; ok && !listed && !skipped(rel) {
				t.Errorf("skill %s: source file %q is not published", s.Path, rel)
			}
		}
		want[s.Path] = fs
	}

	srv, err := serve.New([]*manifest.Bundle{b}, serve.Options{ShowDisabled: true})
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	live, err := pull.Connect(ctx, ct, pull.ConnectOptions{Name: "memory"})
	if err != nil {
		t.Fatalf("pull: connect: %v", err)
	}
	defer live.Close()
	bundlePath := filepath.Join(dir, "lib.skb")
	if err := os.WriteFile(bundlePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := pull.OpenBundle(bundlePath, nil)
	if err != nil {
		t.Fatalf("pull: open bundle: %v", err)
	}
	defer file.Close()
	for _, src := range []*pull.Source{live, file} {
		if len(src.Warnings) > 0 {
			t.Fatalf("pull from %s refused what build published: %q", src.Kind, src.Warnings)
		}
		if len(src.Skills) != len(m.Skills) {
			t.Fatalf("pull from %s lists %d skills, the bundle has %d", src.Kind, len(src.Skills), len(m.Skills))
		}
		for i, sk := range src.Skills {
			to := filepath.Join(dir, fmt.Sprintf("out-%s-%d", src.Kind, i))
			if _, err := pull.Pull(ctx, src, []*pull.Skill{sk}, pull.Options{To: to}); err != nil {
				t.Fatalf("pull %s from %s: %v", sk.Path, src.Kind, err)
			}
			got := readPulled(t, filepath.Join(to, sk.Name))
			w, ok := want[sk.Path]
			if !ok {
				t.Fatalf("pull from %s: skill %s is not in the manifest", src.Kind, sk.Path)
			}
			if len(got) != len(w) {
				t.Errorf("pull %s from %s: %d files, want %d", sk.Path, src.Kind, len(got), len(w))
			}
			for p, data := range w {
				if g, ok := got[p]; !ok || !bytes.Equal(g, data) {
					t.Errorf("pull %s from %s: file %q differs from the source (pulled %v)", sk.Path, src.Kind, p, ok)
				}
			}
		}
	}
}

// skipped reports whether build leaves the file at rel (in a published
// skill) out, as the README says: dotfiles and dot-folders, the folders of
// tool caches and installed dependencies, and compiled artefacts.
func skipped(rel string) bool {
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, ".") {
			return true
		}
		if i < len(segs)-1 && (slices.Contains([]string{"venv", "node_modules", "__pycache__", "site-packages"}, seg) ||
			strings.HasSuffix(seg, ".dist-info") || strings.HasSuffix(seg, ".egg-info")) {
			return true
		}
	}
	switch strings.ToLower(path.Ext(rel)) {
	case ".pyc", ".pyo", ".so", ".dylib", ".dll", ".whl", ".o", ".class":
		return true
	}
	return false
}

// readPulled returns every file below dir by slash-separated relative path.
func readPulled(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
