package wellknown_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// buildBundle builds the libraries of a config file into an open bundle.
func buildBundle(t testing.TB, config string) *manifest.Bundle {
	t.Helper()
	return bundletest.Open(t, bundletest.Config(t, config))
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		paths, want []string
	}{
		{[]string{"acme/pdf", "community/csv"}, []string{"pdf", "csv"}},
		{[]string{"acme/billing/refunds", "community/refunds", "acme/git"}, []string{"acme-billing-refunds", "community-refunds", "git"}},
		// Slugs that collide (a-b/x and a/b/x), or that equal a unique
		// bare name, fall back to the hashed form.
		{[]string{"a-b/x", "a/b/x"}, []string{"x-" + hash8("a-b/x"), "x-" + hash8("a/b/x")}},
		{[]string{"acme-refunds", "acme/refunds", "beta/refunds"}, []string{"acme-refunds", "refunds-" + hash8("acme/refunds"), "beta-refunds"}},
		// A slug of a path with segments outside [a-z0-9] still makes a
		// valid name.
		{[]string{"Ünïcode Team/x", "b/x"}, []string{"n-code-team-x", "b-x"}},
		{[]string{strings.Repeat("n", 40) + "/" + strings.Repeat("s", 30), "b/" + strings.Repeat("s", 30)},
			[]string{strings.Repeat("s", 30) + "-" + hash8(strings.Repeat("n", 40)+"/"+strings.Repeat("s", 30)), "b-" + strings.Repeat("s", 30)}},
	} {
		got, err := wellknown.Names(tc.paths)
		if err != nil {
			t.Fatalf("Names(%q): %v", tc.paths, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Names(%q) = %q, want %q", tc.paths, got, tc.want)
		}
		for _, n := range got {
			if err := wellknown.CheckName(n); err != nil {
				t.Errorf("Names(%q): %v", tc.paths, err)
			}
		}
		// The order of the paths does not change any name.
		rev := slices.Clone(tc.paths)
		slices.Reverse(rev)
		got2, _ := wellknown.Names(rev)
		slices.Reverse(got2)
		if !slices.Equal(got, got2) {
			t.Errorf("Names depends on order: %q vs %q", got, got2)
		}
	}
}

func hash8(p string) string {
	return manifest.Sum([]byte(p)).Hex()[:8]
}

// TestArtifactsReproducible builds the example library twice, once from a
// copy with other times and permissions, and checks that both sites are
// byte-identical, and that every archive unpacks to the bundle's bytes.
func TestArtifactsReproducible(t *testing.T) {
	a := buildBundle(t, "../testdata/example/skills.json")
	cp := t.TempDir()
	if err := os.CopyFS(cp, os.DirFS("../testdata/example")); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	filepath.WalkDir(cp, func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() {
			os.Chmod(p, 0o600)
		}
		return os.Chtimes(p, old, old)
	})
	b := buildBundle(t, filepath.Join(cp, "skills.json"))
	sa, err := wellknown.NewSite([]*manifest.Bundle{a}, wellknown.SiteOptions{ShowHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := wellknown.NewSite([]*manifest.Bundle{b}, wellknown.SiteOptions{ShowHidden: true, KeepBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(sa.Files) != len(sb.Files) {
		t.Fatalf("%d files vs %d", len(sa.Files), len(sb.Files))
	}
	// Each entry carries its library's version (acme's is 2026.11,
	// community has none), and an index reader gets it back.
	idx, err := sa.Index().Bytes()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := wellknown.ParseIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range parsed.Entries {
		want := ""
		if strings.HasPrefix(e.SkillsMCP.Path, "acme/") {
			want = "2026.11"
		}
		if e.Version != want {
			t.Errorf("entry %s: version %q, want %q", e.Name, e.Version, want)
		}
	}
	m, _ := a.Manifest()
	archives := 0
	for i, fa := range sa.Files {
		fb := sb.Files[i]
		da, _ := fa.Bytes()
		db, err := fb.Bytes()
		if err != nil || fa.Path != fb.Path || !bytes.Equal(da, db) {
			t.Fatalf("file %d: %s vs %s differ (%v)", i, fa.Path, fb.Path, err)
		}
		if fa.ContentType != wellknown.ArchiveMIME {
			continue
		}
		archives++
		files, err := wellknown.Unpack(da, wellknown.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", fa.Path, err)
		}
		var sk *manifest.Skill
		for j := range m.Skills {
			if m.Skills[j].Library == fa.Library && strings.Contains(fa.Path, "/") && len(files) == len(m.Skills[j].Files) && files[0].Path == manifest.SkillFile && manifest.Sum(files[0].Data) == m.Skills[j].Entry.Resources[0].Digest {
				sk = &m.Skills[j]
			}
		}
		if sk == nil {
			t.Fatalf("%s: no skill of the bundle has these files", fa.Path)
		}
		for j, f := range files {
			if f.Path != sk.Files[j].Path || manifest.Sum(f.Data) != sk.Entry.Resources[j].Digest {
				t.Errorf("%s: file %d is %s, want %s with the bundle's bytes", fa.Path, j, f.Path, sk.Files[j].Path)
			}
		}
	}
	if archives == 0 {
		t.Fatal("no archive in the example site")
	}
	idx, _ = sa.Index().Bytes()
	p, err := wellknown.ParseIndex(idx)
	if err != nil || len(p.Refused) > 0 {
		t.Fatalf("our own index: %v %v", err, p.Refused)
	}
}

// tarGz makes a .tar.gz of headers, each followed by its body.
func tarGz(t testing.TB, entries ...any) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for i := 0; i < len(entries); i += 2 {
		h := entries[i].(*tar.Header)
		body := entries[i+1].(string)
		if h.Typeflag == tar.TypeReg && h.Size == 0 {
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func reg(name string) *tar.Header { return &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644} }

const skillMD = "---\nname: x\ndescription: d\n---\nbody\n"

func TestUnpackRefuses(t *testing.T) {
	bomb := func() []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		tw := tar.NewWriter(zw)
		tw.WriteHeader(reg("SKILL.md"))
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "zeros", Mode: 0o644, Size: 64 << 20})
		tw.Write(make([]byte, 64<<20))
		tw.Close()
		zw.Close()
		return buf.Bytes()
	}()
	zipOf := func(name string, mode os.FileMode) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("SKILL.md")
		w.Write([]byte(skillMD))
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(mode)
		w, _ = zw.CreateHeader(h)
		w.Write([]byte("x"))
		zw.Close()
		return buf.Bytes()
	}
	many := []any{reg("SKILL.md"), skillMD}
	for i := range 20 {
		many = append(many, reg("f"+strings.Repeat("x", i)), "x")
	}
	for _, tc := range []struct {
		name string
		data []byte
		lim  wellknown.Limits
		rule string
	}{
		{"dotdot", tarGz(t, reg("SKILL.md"), skillMD, reg("../evil"), "x"), wellknown.Limits{}, wellknown.RuleTraversal},
		{"inner dotdot", tarGz(t, reg("SKILL.md"), skillMD, reg("a/../../evil"), "x"), wellknown.Limits{}, wellknown.RuleTraversal},
		{"absolute", tarGz(t, reg("SKILL.md"), skillMD, reg("/etc/passwd"), "x"), wellknown.Limits{}, wellknown.RuleTraversal},
		{"backslash", tarGz(t, reg("SKILL.md"), skillMD, reg(`a\..\evil`), "x"), wellknown.Limits{}, wellknown.RuleTraversal},
		{"symlink", tarGz(t, reg("SKILL.md"), skillMD, &tar.Header{Typeflag: tar.TypeSymlink, Name: "l", Linkname: "/etc/passwd"}, ""), wellknown.Limits{}, wellknown.RuleLink},
		{"hard link", tarGz(t, reg("SKILL.md"), skillMD, &tar.Header{Typeflag: tar.TypeLink, Name: "l", Linkname: "SKILL.md"}, ""), wellknown.Limits{}, wellknown.RuleLink},
		{"device", tarGz(t, reg("SKILL.md"), skillMD, &tar.Header{Typeflag: tar.TypeChar, Name: "null", Devmajor: 1, Devminor: 3}, ""), wellknown.Limits{}, wellknown.RuleIrregular},
		{"fifo", tarGz(t, reg("SKILL.md"), skillMD, &tar.Header{Typeflag: tar.TypeFifo, Name: "p"}, ""), wellknown.Limits{}, wellknown.RuleIrregular},
		{"duplicate", tarGz(t, reg("SKILL.md"), skillMD, reg("skill.md"), "x"), wellknown.Limits{}, wellknown.RuleDuplicatePt},
		{"no SKILL.md", tarGz(t, reg("README.md"), "x"), wellknown.Limits{}, wellknown.RuleNoSkillFile},
		{"nested SKILL.md only", tarGz(t, reg("wrap/SKILL.md"), skillMD), wellknown.Limits{}, wellknown.RuleNoSkillFile},
		{"bomb", bomb, wellknown.Limits{Bytes: 16 << 20}, wellknown.RuleTooLarge},
		{"too many files", tarGz(t, many...), wellknown.Limits{Files: 10}, wellknown.RuleTooLarge},
		{"zip symlink", zipOf("l", os.ModeSymlink|0o777), wellknown.Limits{}, wellknown.RuleLink},
		{"zip slip", zipOf("../x", 0o644), wellknown.Limits{}, wellknown.RuleTraversal},
		{"zip device", zipOf("d", os.ModeDevice|0o644), wellknown.Limits{}, wellknown.RuleIrregular},
		{"not an archive", []byte("plain text"), wellknown.Limits{}, wellknown.RuleArchive},
		{"truncated", tarGz(t, reg("SKILL.md"), skillMD)[:30], wellknown.Limits{}, wellknown.RuleArchive},
	} {
		_, err := wellknown.Unpack(tc.data, tc.lim)
		if got := wellknown.RuleOf(err); got != tc.rule {
			t.Errorf("%s: rule %q (%v), want %q", tc.name, got, err, tc.rule)
		}
	}
	// A well-formed zip and tar.gz are read, folders and "./" skipped.
	ok := tarGz(t, &tar.Header{Typeflag: tar.TypeDir, Name: "./"}, "", reg("./SKILL.md"), skillMD, reg("a/b.txt"), "b")
	files, err := wellknown.Unpack(ok, wellknown.Limits{})
	if err != nil || len(files) != 2 || files[0].Path != "SKILL.md" || files[1].Path != "a/b.txt" {
		t.Fatalf("good tar.gz: %v %v", files, err)
	}
	files, err = wellknown.Unpack(zipOf("a/b.txt", 0o644), wellknown.Limits{})
	if err != nil || len(files) != 2 || files[1].Path != "a/b.txt" || string(files[1].Data) != "x" {
		t.Fatalf("good zip: %v %v", files, err)
	}
}

func TestParseIndex(t *testing.T) {
	d := "sha256:" + strings.Repeat("ab", 32)
	entry := func(name, typ, url, digest string) string {
		return `{"name":"` + name + `","type":"` + typ + `","description":"d","url":"` + url + `","digest":"` + digest + `","future":1}`
	}
	for _, tc := range []struct {
		name, index string
		rule        string   // of the whole index
		refused     []string // rules of refused entries
		entries     int
	}{
		{"rfc example", `{"$schema":"` + wellknown.Schema + `","skills":[` + entry("code-review", "skill-md", "/.well-known/agent-skills/code-review/SKILL.md", d) + `,` + entry("wrangler", "archive", "/.well-known/agent-skills/wrangler.tar.gz", d) + `]}`, "", nil, 2},
		{"legacy", `{"skills":[{"name":"x","description":"d","files":["SKILL.md"]}]}`, wellknown.RuleLegacy, nil, 0},
		{"other schema", `{"$schema":"https://example.com/s.json","skills":[]}`, wellknown.RuleSchema, nil, 0},
		{"not json", `{"$schema":`, wellknown.RuleSchema, nil, 0},
		{"no skills", `{"$schema":"` + wellknown.Schema + `"}`, wellknown.RuleSchema, nil, 0},
		{"bad entries", `{"$schema":"` + wellknown.Schema + `","skills":[` +
			entry("Bad_Name", "skill-md", "a", d) + `,` +
			entry("../x", "skill-md", "a", d) + `,` +
			entry("ok", "mcp-resource", "a", d) + `,` +
			entry("ok", "skill-md", "a", "sha256:short") + `,` +
			entry("ok", "skill-md", "", d) + `,` +
			`42,` +
			entry("ok", "skill-md", "a", d) + `,` +
			entry("ok", "archive", "b", d) + `]}`, "",
			[]string{wellknown.RuleName, wellknown.RuleName, wellknown.RuleType, wellknown.RuleEntry, wellknown.RuleEntry, wellknown.RuleEntry, wellknown.RuleDuplicate}, 1},
	} {
		p, err := wellknown.ParseIndex([]byte(tc.index))
		if got := wellknown.RuleOf(err); got != tc.rule {
			t.Errorf("%s: rule %q (%v), want %q", tc.name, got, err, tc.rule)
			continue
		}
		if err != nil {
			continue
		}
		var rules []string
		for _, r := range p.Refused {
			rules = append(rules, wellknown.RuleOf(r))
		}
		if !slices.Equal(rules, tc.refused) || len(p.Entries) != tc.entries {
			t.Errorf("%s: refused %q, %d entries; want %q, %d", tc.name, rules, len(p.Entries), tc.refused, tc.entries)
		}
	}
}

func FuzzParseIndex(f *testing.F) {
	d := "sha256:" + strings.Repeat("ab", 32)
	f.Add([]byte(`{"$schema":"` + wellknown.Schema + `","skills":[{"name":"a","type":"skill-md","description":"d","url":"a/SKILL.md","digest":"` + d + `"}]}`))
	f.Add([]byte(`{"skills":[{"name":"x","files":["SKILL.md"]}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"$schema":"` + wellknown.Schema + `","skills":[{"name":"a","type":"archive","description":"d","url":"a.tar.gz","digest":"` + d + `","version":"1.2.0"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if lp, err := wellknown.ParseLegacyIndex(data); err == nil {
			for _, e := range lp.Entries {
				for _, p := range e.Files {
					if manifest.CheckPath(p) != nil || wellknown.CheckName(e.Name) != nil {
						t.Fatalf("legacy entry %q accepted with file %q", e.Name, p)
					}
				}
			}
		} else if wellknown.RuleOf(err) == "" {
			t.Fatalf("legacy: error without a rule: %v", err)
		}
		p, err := wellknown.ParseIndex(data)
		if err != nil {
			if wellknown.RuleOf(err) == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range p.Entries {
			if wellknown.CheckName(e.Name) != nil || seen[e.Name] {
				t.Fatalf("accepted entry %q", e.Name)
			}
			seen[e.Name] = true
			if _, err := manifest.ParseDigest(e.Digest); err != nil {
				t.Fatal(err)
			}
			if len(e.Version) > wellknown.MaxVersion || !utf8.ValidString(e.Version) {
				t.Fatalf("accepted version %q", e.Version)
			}
		}
	})
}

// TestParseIndexVersion: the optional per-entry version of the newer
// draft is read when it is a string, refused (rule entry-invalid) when it
// is anything else or too long, and absent is fine.
func TestParseIndexVersion(t *testing.T) {
	d := "sha256:" + strings.Repeat("ab", 32)
	index := func(version string) []byte {
		v := ""
		if version != "" {
			v = `,"version":` + version
		}
		return []byte(`{"$schema":"` + wellknown.Schema + `","skills":[{"name":"a","type":"skill-md","description":"d","url":"a/SKILL.md","digest":"` + d + `"` + v + `}]}`)
	}
	for _, tc := range []struct {
		version, want string
		ok            bool
	}{
		{"", "", true}, {`null`, "", true}, {`"2026.12"`, "2026.12", true},
		{`12`, "", false}, {`{"v":1}`, "", false}, {`"` + strings.Repeat("9", wellknown.MaxVersion+1) + `"`, "", false},
	} {
		p, err := wellknown.ParseIndex(index(tc.version))
		if err != nil {
			t.Fatal(err)
		}
		if tc.ok && (len(p.Entries) != 1 || p.Entries[0].Version != tc.want) || !tc.ok && (len(p.Entries) != 0 || wellknown.RuleOf(p.Refused[0]) != wellknown.RuleEntry) {
			t.Errorf("version %s: entries %+v, refused %v", tc.version, p.Entries, p.Refused)
		}
	}
}

func FuzzUnpack(f *testing.F) {
	f.Add(tarGz(f, reg("SKILL.md"), skillMD, reg("a/b"), "b"))
	f.Add(tarGz(f, reg("SKILL.md"), skillMD, reg("../b"), "b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := wellknown.Unpack(data, wellknown.Limits{Files: 64, Bytes: 1 << 20})
		if err != nil {
			if wellknown.RuleOf(err) == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		for _, f := range files {
			if f.Path == "" || strings.HasPrefix(f.Path, "/") || slices.Contains(strings.Split(f.Path, "/"), "..") || strings.Contains(f.Path, `\`) {
				t.Fatalf("unsafe path accepted: %q", f.Path)
			}
		}
	})
}
