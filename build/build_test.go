package build

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func exampleOptions(t testing.TB) Options {
	t.Helper()
	c, err := LoadConfig("../testdata/example/skills.json")
	if err != nil {
		t.Fatal(err)
	}
	return Options{Libraries: c.Libraries}
}

func buildBytes(t testing.TB, opt Options) ([]byte, *Result) {
	t.Helper()
	var buf bytes.Buffer
	res, err := Build(opt, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), res
}

func TestBuildExample(t *testing.T) {
	data, res := buildBytes(t, exampleOptions(t))
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	var uris []string
	for i := range b.NumSkills() {
		uris = append(uris, b.SkillURI(i))
	}
	want := []string{
		"skill://acme/billing/refunds/SKILL.md",
		"skill://acme/billing/refunds/partial-refunds/SKILL.md",
		"skill://acme/deploy-production/SKILL.md",
		"skill://acme/git-workflow/SKILL.md",
		"skill://acme/ops/incident-response/SKILL.md",
		"skill://acme/pdf-processing/SKILL.md",
		"skill://acme/release-notes/SKILL.md",
		"skill://community/changelog-writer/SKILL.md",
		"skill://community/csv-cleaner/SKILL.md",
		"skill://community/meeting-notes/SKILL.md",
		"skill://community/refunds/SKILL.md",
	}
	if !slices.Equal(uris, want) {
		t.Fatalf("skills:\n%s\nwant:\n%s", strings.Join(uris, "\n"), strings.Join(want, "\n"))
	}
	m := res.Manifest
	if len(m.Withheld) != 0 {
		t.Errorf("withheld: %+v", m.Withheld)
	}
	// The enclosing skill also lists the nested skill's files.
	refunds, _ := b.Skill(0)
	if !slices.ContainsFunc(refunds.Files, func(f manifest.File) bool { return f.Path == "partial-refunds/SKILL.md" }) {
		t.Errorf("refunds does not include its nested skill's files: %+v", refunds.Files)
	}
	for i := range m.Skills {
		s := &m.Skills[i]
		if s.Name() == "deploy-production" != s.Hidden {
			t.Errorf("%s hidden=%v", s.Entry.URI, s.Hidden)
		}
		for j, f := range s.Files {
			switch f.Path {
			case "notes/legacy-latin1.txt", "assets/logo.png":
				if f.Text {
					t.Errorf("%s served as text", f.Path)
				}
			case "SKILL.md":
				if j != 0 || !f.Text || f.MimeType != "text/markdown" {
					t.Errorf("SKILL.md file entry %+v at %d", f, j)
				}
			}
		}
	}
	// No local path enters a bundle.
	abs, _ := filepath.Abs("../testdata")
	if bytes.Contains(data, []byte(abs)) || bytes.Contains(data, []byte("testdata/example")) {
		t.Error("bundle holds a local path")
	}
	if res.Stats.FlaggedSkills == 0 {
		t.Error("no lint findings in the example (incident-response has a curl | sh line)")
	}
}

// TestReproducible builds the example and a shuffled, re-timestamped,
// re-permissioned copy under another umask, and wants identical bytes.
func TestReproducible(t *testing.T) {
	a, _ := buildBytes(t, exampleOptions(t))
	dir := t.TempDir()
	copyTree(t, "../testdata/example", dir, true)
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	c, err := LoadConfig(filepath.Join(dir, "skills.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := buildBytes(t, Options{Libraries: c.Libraries})
	if !bytes.Equal(a, b) {
		t.Fatal("a shuffled, re-timestamped copy built different bytes")
	}
	opt := exampleOptions(t)
	opt.Created = time.Unix(1700000000, 0)
	c1, _ := buildBytes(t, opt)
	c2, _ := buildBytes(t, opt)
	if !bytes.Equal(c1, c2) || bytes.Equal(c1, a) || !bytes.Contains(c1, []byte(`"created":"2023-11-14T22:13:20Z"`)) {
		t.Fatal("created time not applied reproducibly")
	}
}

// copyTree copies a folder, creating entries in random order with random
// times and modes when shuffle is set.
func copyTree(t testing.TB, src, dst string, shuffle bool) {
	t.Helper()
	var paths []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if shuffle {
		rand.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(out), 0o755)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if shuffle {
			mode = os.FileMode(0o600 + rand.IntN(0o177))
		}
		if err := os.WriteFile(out, data, mode); err != nil {
			t.Fatal(err)
		}
		if shuffle {
			tm := time.Unix(rand.Int64N(2e9), 0)
			os.Chtimes(out, tm, tm)
		}
	}
}

// TestBadSkills builds each library under testdata/bad and checks that the
// bad skill alone is withheld, for the rule the folder is named after.
func TestBadSkills(t *testing.T) {
	ents, err := os.ReadDir("../testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{
		"no-frontmatter": "no-frontmatter", "unterminated-frontmatter": "unterminated-frontmatter",
		"invalid-yaml": "invalid-yaml", "frontmatter-not-mapping": "frontmatter-not-mapping",
		"name-missing": RuleNameMissing, "name-mismatch": RuleNameMismatch, "name-invalid": RuleNameInvalid,
		"name-too-long": RuleNameTooLong, "name-hyphens": RuleNameInvalid, "description-missing": RuleDescMissing,
		"description-too-long": RuleDescTooLong, "compatibility-too-long": RuleCompatTooLong,
		"too-many-files": RuleTooManyFiles, "archive": RuleArchive,
	}
	for _, e := range ents {
		if !e.IsDir() || e.Name() == "lint" {
			continue
		}
		rule, ok := rules[e.Name()]
		if !ok {
			t.Errorf("no expectation for testdata/bad/%s", e.Name())
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			_, res := buildBytes(t, Options{Libraries: []Library{{Root: "../testdata/bad/" + e.Name()}}})
			checkWithheld(t, res, rule)
		})
	}
}

func checkWithheld(t *testing.T, res *Result, rule string) {
	t.Helper()
	m := res.Manifest
	if len(m.Withheld) != 1 || !slices.Contains(m.Withheld[0].Rules, rule) {
		t.Fatalf("withheld = %+v, want one skill withheld by rule %s", m.Withheld, rule)
	}
	if w := m.Withheld[0]; !strings.Contains(w.Reason, "(rule "+rule+")") {
		t.Errorf("reason %q does not name the rule", w.Reason)
	}
	for _, s := range m.Skills {
		if s.Name() != "ok-skill" {
			t.Errorf("published %s, want only ok-skill", s.Entry.URI)
		}
	}
}

// writeSkill creates a skill folder with the given files below root.
func writeSkill(t testing.TB, root, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if _, ok := files["SKILL.md"]; !ok {
		files["SKILL.md"] = fmt.Sprintf("---\nname: %s\ndescription: A test skill.\n---\nBody.\n", filepath.Base(name))
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRuntimeRules covers the rules whose fixtures cannot be committed:
// symlinks, FIFOs, case-fold collisions, control characters, size limits.
func TestRuntimeRules(t *testing.T) {
	cases := []struct {
		rule  string
		setup func(t *testing.T, dir string)
		opt   func(*Options)
	}{
		{RuleSymlink, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(t.TempDir(), "secret"), []byte("x"), 0o644)
			os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.md"))
		}, nil},
		{RuleSymlink, func(t *testing.T, dir string) { os.Symlink(t.TempDir(), filepath.Join(dir, "linked-folder")) }, nil},
		{RuleIrregularFile, func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
				t.Skip(err)
			}
		}, nil},
		{RuleCaseCollision, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "Notes.md"), []byte("a"), 0o644)
			os.WriteFile(filepath.Join(dir, "notes.md"), []byte("b"), 0o644)
		}, nil},
		{RulePathInvalid, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "ctl\x01name.md"), []byte("a"), 0o644)
		}, nil},
		{RulePathInvalid, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "bad\xffname.md"), []byte("a"), 0o644)
		}, nil},
		{RuleFileTooLarge, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 2000), 0o644)
		}, func(o *Options) { o.MaxFileBytes = 1000 }},
		{RuleTooLarge, func(t *testing.T, dir string) {
			for i := range 5 {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("part%d.bin", i)), make([]byte, 4<<20-1), 0o644)
			}
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			root := t.TempDir()
			writeSkill(t, root, "ok-skill", map[string]string{})
			dir := writeSkill(t, root, "bad-skill", map[string]string{})
			c.setup(t, dir)
			opt := Options{Libraries: []Library{{Root: root}}}
			if c.opt != nil {
				c.opt(&opt)
			}
			_, res := buildBytes(t, opt)
			checkWithheld(t, res, c.rule)
		})
	}
}

func TestDiscovery(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "a/b/c/deep", map[string]string{})
	writeSkill(t, root, "a/b/c/d/too-deep", map[string]string{})
	writeSkill(t, root, "skills/from-skills-dir", map[string]string{})
	writeSkill(t, root, ".claude/skills/from-claude", map[string]string{})
	writeSkill(t, root, "_archive/old", map[string]string{})
	writeSkill(t, root, "x/__pycache__/cached", map[string]string{})
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "linked"))
	_, res := buildBytes(t, Options{Libraries: []Library{{Namespace: "ns", Root: root}}})
	var got []string
	for _, s := range res.Manifest.Skills {
		got = append(got, s.Path)
	}
	want := []string{"ns/a/b/c/deep", "ns/from-claude", "ns/from-skills-dir"}
	if !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	if !slices.ContainsFunc(res.Manifest.Warnings, func(s string) bool { return strings.Contains(s, "linked: symlink not followed") }) {
		t.Errorf("no warning for the symlinked folder: %v", res.Manifest.Warnings)
	}

	// A root that is itself a skill is published under its folder name.
	one := writeSkill(t, t.TempDir(), "solo", map[string]string{"refs/x.md": "x"})
	_, res = buildBytes(t, Options{Libraries: []Library{{Root: one}}})
	if len(res.Manifest.Skills) != 1 || res.Manifest.Skills[0].Entry.URI != "skill://solo/SKILL.md" {
		t.Fatalf("root skill: %+v", res.Manifest.Skills)
	}

	// Two skills with one URI are an error.
	dup := t.TempDir()
	writeSkill(t, dup, "same", map[string]string{})
	writeSkill(t, dup, "skills/same", map[string]string{})
	if _, err := Build(Options{Libraries: []Library{{Root: dup}}}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "two skills have the uri skill://same/SKILL.md") {
		t.Fatalf("duplicate uri: %v", err)
	}
}

func TestNoScriptsAndProvenance(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "tool", map[string]string{
		"SKILL.md":        "---\nname: tool\ndescription: d\norigin: internal\nrisk: high\nlicense: MIT\nunrelated: x\n---\n",
		"scripts/run.sh":  "echo hi\n",
		"scripts/run.py":  "print(1)\n",
		"references/a.md": "a\n",
	})
	_, res := buildBytes(t, Options{Libraries: []Library{{Root: root}}, NoScripts: true})
	s := res.Manifest.Skills[0]
	if s.ScriptsWithheld != 2 || len(s.Files) != 2 {
		t.Fatalf("scripts withheld %d, files %+v", s.ScriptsWithheld, s.Files)
	}
	want := map[string]any{"origin": "internal", "risk": "high", "license": "MIT"}
	if fmt.Sprint(s.Provenance) != fmt.Sprint(want) {
		t.Fatalf("provenance %v, want %v", s.Provenance, want)
	}
	var fm map[string]any
	json.Unmarshal(s.Entry.Frontmatter, &fm)
	if fm["unrelated"] != "x" {
		t.Fatalf("frontmatter not verbatim: %s", s.Entry.Frontmatter)
	}
}

func TestGoldenManifest(t *testing.T) {
	_, res := buildBytes(t, exampleOptions(t))
	got, err := manifest.Marshal(res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/example.manifest.json"
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./build -run Golden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("manifest differs from %s (run with -update after checking the diff)", golden)
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"missing libraries": `{}`,
		"unknown field":     `{"libraries":[{"namespace":"a","root":"x","typo":1}]}`,
		"bad namespace":     `{"libraries":[{"namespace":"-a","root":"x"}]}`,
		"duplicate":         `{"libraries":[{"namespace":"a","root":"x"},{"namespace":"a","root":"y"}]}`,
		"root and url":      `{"libraries":[{"namespace":"a","root":"x","url":"https://h/x.zip"}]}`,
		"plain http":        `{"libraries":[{"namespace":"a","url":"http://h/x.zip"}]}`,
		"root mixed":        `{"libraries":[{"namespace":"","root":"x"},{"namespace":"b","root":"y"}]}`,
	} {
		p := filepath.Join(dir, "c.json")
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: LoadConfig = %v, want an error naming the file", name, err)
		}
	}
}

// zipFolder writes the tree at src into a zip at dst, below prefix.
func zipFolder(t testing.TB, src, dst, prefix string) {
	t.Helper()
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		w, err := zw.Create(prefix + filepath.ToSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		w.Write(data)
		return nil
	})
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestZipLibrary builds the example library from a zip with a wrapper folder
// and from a folder, and wants the same skills with the same digests.
func TestZipLibrary(t *testing.T) {
	zipPath := filepath.Join(t.TempDir(), "acme-skills.zip")
	zipFolder(t, "../testdata/example/acme", zipPath, "acme-skills-main/")
	_, fromDir := buildBytes(t, Options{Libraries: []Library{{Namespace: "acme", Root: "../testdata/example/acme"}}})
	_, fromZip := buildBytes(t, Options{Libraries: []Library{{Namespace: "acme", Root: zipPath}}})
	a, _ := json.Marshal(fromDir.Manifest.Skills)
	b, _ := json.Marshal(fromZip.Manifest.Skills)
	if !bytes.Equal(a, b) {
		t.Fatalf("zip and folder builds differ:\n%s\n%s", a, b)
	}
	lib := fromZip.Manifest.Libraries[0]
	if lib.Kind != "archive" || lib.Digest == nil {
		t.Fatalf("library %+v, want kind archive with the zip's digest", lib)
	}
	data, _ := os.ReadFile(zipPath)
	if *lib.Digest != manifest.Sum(data) {
		t.Fatal("library digest is not the zip's sha256")
	}
}

// TestZipLibraryHostile shows a hostile archive refused, naming the rule,
// and, with several libraries, only that library dropped with a warning.
func TestZipLibraryHostile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.zip")
	f, _ := os.Create(bad)
	zw := zip.NewWriter(f)
	w, _ := zw.Create("../../escape/SKILL.md")
	w.Write([]byte("---\nname: escape\ndescription: x\n---\n"))
	zw.Close()
	f.Close()
	_, err := Build(Options{Libraries: []Library{{Namespace: "x", Root: bad}}}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "zip-slip") || !strings.Contains(err.Error(), "bad.zip") {
		t.Fatalf("Build = %v, want a zip-slip refusal naming the archive", err)
	}
	_, res := buildBytes(t, Options{Libraries: []Library{{Namespace: "x", Root: bad}, {Namespace: "ok", Root: "../testdata/example/community"}}})
	if len(res.Manifest.Skills) != 4 || !slices.ContainsFunc(res.Manifest.Warnings, func(s string) bool { return strings.Contains(s, "library x:") && strings.Contains(s, "zip-slip") }) {
		t.Fatalf("skills %d, warnings %v", len(res.Manifest.Skills), res.Manifest.Warnings)
	}
	for _, s := range res.Manifest.Warnings {
		if strings.Contains(s, dir) {
			t.Errorf("warning leaks a local path: %s", s)
		}
	}
}

// TestURLLibrary builds from a pinned https zip served by a local TLS
// server, then again from the cache without a request.
func TestURLLibrary(t *testing.T) {
	zipPath := filepath.Join(t.TempDir(), "community.zip")
	zipFolder(t, "../testdata/example/community", zipPath, "")
	data, _ := os.ReadFile(zipPath)
	requests := 0
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		w.Write(data)
	}))
	defer srv.Close()
	pin := manifest.Sum(data).Hex()
	opt := Options{
		Libraries: []Library{{Namespace: "community", URL: srv.URL + "/community.zip?token=secret#sha256=" + pin}},
		Fetch:     FetchOptions{CacheDir: t.TempDir(), Client: srv.Client()},
	}
	out, res := buildBytes(t, opt)
	if len(res.Manifest.Skills) != 4 || res.Manifest.Libraries[0].Kind != "url" {
		t.Fatalf("skills %d, library %+v", len(res.Manifest.Skills), res.Manifest.Libraries[0])
	}
	if bytes.Contains(out, []byte(srv.URL)) || bytes.Contains(out, []byte("secret")) {
		t.Fatal("the URL entered the bundle")
	}
	before := requests
	buildBytes(t, opt)
	if requests != before {
		t.Fatalf("a pinned, cached library was fetched again (%d requests)", requests-before)
	}
	opt.Libraries[0].URL = srv.URL + "/community.zip#sha256=" + strings.Repeat("0", 64)
	if _, err := Build(opt, &bytes.Buffer{}); err == nil {
		t.Fatal("a wrong pin was accepted")
	}
}

// TestGolden builds each skill tree in testdata/golden/*.txtar and compares
// the manifest with the archive's want.manifest.json section. The comment
// header sets namespace=NS. -update rewrites the want sections.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ns := ""
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if v, ok := strings.CutPrefix(line, "namespace="); ok {
					ns = v
				}
			}
			root := t.TempDir()
			var want []byte
			kept := ar.Files[:0]
			for _, f := range ar.Files {
				if f.Name == "want.manifest.json" {
					want = f.Data
					continue
				}
				kept = append(kept, f)
				p := filepath.Join(root, f.Name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, res := buildBytes(t, Options{Libraries: []Library{{Namespace: ns, Root: root}}})
			got, err := manifest.Marshal(res.Manifest)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				ar.Files = append(kept, txtar.File{Name: "want.manifest.json", Data: got})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("manifest differs from %s (rerun with -update and check the diff):\n%s", file, got)
			}
		})
	}
}

// TestLoadAll checks that loadAll emits every skill once and in order,
// whatever order the loads finish in, never holds more than its window
// ahead of emit, and stops on emit's first error and on a cancelled
// context.
func TestLoadAll(t *testing.T) {
	for _, n := range []int{0, 1, 7, 500} {
		var mu sync.Mutex
		started, emittedN, maxAhead := 0, 0, 0
		load := func(i int) *loaded {
			mu.Lock()
			started++
			maxAhead = max(maxAhead, started-emittedN)
			mu.Unlock()
			time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			return &loaded{warnings: []string{fmt.Sprint(i)}}
		}
		var got []int
		emit := func(i int, l *loaded) error {
			if l.warnings[0] != fmt.Sprint(i) {
				t.Errorf("emit(%d) got the skill %s", i, l.warnings[0])
			}
			mu.Lock()
			emittedN++
			mu.Unlock()
			got = append(got, i)
			return nil
		}
		if err := loadAll(context.Background(), n, load, emit); err != nil {
			t.Fatal(err)
		}
		if len(got) != n || !slices.IsSorted(got) || n > 0 && got[n-1] != n-1 {
			t.Fatalf("n=%d: emitted %v", n, got)
		}
		if limit := 4 * min(runtime.GOMAXPROCS(0), 8); maxAhead > limit {
			t.Errorf("n=%d: %d skills loaded ahead of emit, the window is %d", n, maxAhead, limit)
		}
	}

	boom := errors.New("boom")
	emits := 0
	err := loadAll(context.Background(), 1000, func(i int) *loaded { return &loaded{} }, func(i int, l *loaded) error {
		emits++
		if i == 10 {
			return boom
		}
		return nil
	})
	if err != boom || emits != 11 {
		t.Fatalf("loadAll = %v after %d emits, want boom after 11", err, emits)
	}

	ctx, cancel := context.WithCancel(context.Background())
	loads := atomic.Int64{}
	err = loadAll(ctx, 1000, func(i int) *loaded {
		if loads.Add(1) == 20 {
			cancel()
		}
		return &loaded{}
	}, func(int, *loaded) error { return nil })
	if !errors.Is(err, context.Canceled) || loads.Load() >= 1000 {
		t.Fatalf("loadAll = %v after %d loads, want a cancellation", err, loads.Load())
	}
}

// TestBytecodeWithSource proves build grades a file's findings beside the
// skill's other files (lint.InSkill): WebAssembly shipped with its .wat
// source is a note, alone a warning with the opaque-files capability, and a
// cached rebuild grades them the same.
func TestBytecodeWithSource(t *testing.T) {
	root := t.TempDir()
	wasm := "\x00asm\x01\x00\x00\x00"
	writeSkill(t, root, "with-source", map[string]string{"wasm/adler32.wasm": wasm, "wasm/adler32.wat": "(module)\n"})
	writeSkill(t, root, "alone", map[string]string{"wasm/adler32.wasm": wasm})
	opt := Options{Libraries: []Library{{Namespace: "x", Root: root}}, Cache: NewCache()}
	for round := range 2 {
		_, res := buildBytes(t, opt)
		got := map[string]string{}
		caps := map[string][]string{}
		for _, s := range res.Manifest.Skills {
			for _, f := range s.Findings {
				if f.Rule == "opaque-file" {
					got[s.Path] = f.Severity
				}
			}
			caps[s.Path] = s.Capabilities
		}
		if got["x/with-source"] != lint.SeverityNote || got["x/alone"] != lint.SeverityWarning {
			t.Errorf("round %d: opaque-file %v, want a note with the source and a warning alone", round, got)
		}
		if len(caps["x/with-source"]) != 0 || !slices.Contains(caps["x/alone"], lint.CapOpaqueFiles) {
			t.Errorf("round %d: capabilities %v", round, caps)
		}
	}
}
