package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// testBundle builds a small bundle with a nested skill, a shared blob and a
// hidden skill, and returns its bytes and manifest.
func testBundle(t testing.TB) ([]byte, *Manifest) {
	t.Helper()
	files := map[string]map[string]string{
		"acme/billing/refunds": {
			"SKILL.md":          "---\nname: refunds\ndescription: Refunds.\n---\nbody\n",
			"examples/email.md": "Dear customer",
			"partial/SKILL.md":  "---\nname: partial\ndescription: Partial.\n---\n",
			"shared.txt":        "same bytes",
		},
		"acme/billing/refunds/partial": {
			"SKILL.md": "---\nname: partial\ndescription: Partial.\n---\n",
		},
		"acme/git-workflow": {
			"SKILL.md":   "---\nname: git-workflow\ndescription: Git.\n---\n",
			"shared.txt": "same bytes",
			"logo.bin":   "\x89PNG\x00\x01",
		},
		"tools/hidden": {
			"SKILL.md": "---\nname: hidden\ndescription: Hidden.\n---\n",
		},
	}
	return buildFrom(t, files)
}

func buildFrom(t testing.TB, files map[string]map[string]string) ([]byte, *Manifest) {
	t.Helper()
	m := &Manifest{MediaType: MediaType, Generator: Generator,
		Libraries: []Library{{Namespace: "acme", Kind: "directory"}, {Namespace: "tools", Kind: "directory"}}}
	blobs := map[Digest][]byte{}
	for sp, fm := range files {
		name := sp[strings.LastIndexByte(sp, '/')+1:]
		s := Skill{Library: sp[:strings.IndexByte(sp, '/')], Path: sp, Hidden: name == "hidden"}
		s.Entry.URI = URIScheme + sp + "/" + SkillFile
		s.Entry.Frontmatter = json.RawMessage(fmt.Sprintf(`{"name":%q,"description":"d <&> } ] \\\" {"}`, name))
		paths := []string{SkillFile}
		for p := range fm {
			if p != SkillFile {
				paths = append(paths, p)
			}
		}
		sortStrings(paths[1:])
		for _, p := range paths {
			d := Sum([]byte(fm[p]))
			blobs[d] = []byte(fm[p])
			s.Entry.Resources = append(s.Entry.Resources, Resource{URI: URIScheme + sp + "/" + p, Digest: d, Size: int64(len(fm[p]))})
			s.Files = append(s.Files, File{Path: p, MimeType: "text/plain", Text: true})
		}
		m.Skills = append(m.Skills, s)
	}
	sortSkills(m.Skills)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			if err := w.AddBlob(r.Digest, blobs[r.Digest]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := w.Finish(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), m
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func sortSkills(s []Skill) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j].Entry.URI < s[i].Entry.URI {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	data, m := testBundle(t)
	b, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := Marshal(m)
	if b.ID() != Sum(mb) {
		t.Fatalf("id %s, want digest of manifest", b.ID())
	}
	if b.NumSkills() != 4 || b.NumBlobs() != 7 {
		t.Fatalf("skills %d blobs %d, want 4 and 7 (shared blobs stored once)", b.NumSkills(), b.NumBlobs())
	}
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	for i := range b.NumSkills() {
		s, err := b.Skill(i)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(&s.Entry)
		entry, err := b.EntryJSON(i)
		if err != nil {
			t.Fatal(err)
		}
		var got, exp any
		json.Unmarshal(entry, &got)
		json.Unmarshal(want, &exp)
		if fmt.Sprint(got) != fmt.Sprint(exp) {
			t.Errorf("entry %d: %s\nwant %s", i, entry, want)
		}
		if !bytes.Contains(entry, []byte(`"d <&> } ] \\\" {"`)) {
			t.Errorf("entry %d is HTML-escaped: %s", i, entry)
		}
		if b.Hidden(i) != strings.Contains(b.SkillURI(i), "hidden") {
			t.Errorf("skill %s hidden=%v", b.SkillURI(i), b.Hidden(i))
		}
	}
	if uris := b.SkillURIs(); len(uris) != b.NumSkills() {
		t.Errorf("SkillURIs has %d URIs for %d skills", len(uris), b.NumSkills())
	} else {
		for i, u := range uris {
			if u != b.SkillURI(i) {
				t.Errorf("SkillURIs()[%d] = %q, SkillURI = %q", i, u, b.SkillURI(i))
			}
		}
	}
	if i, ok := b.FindSkill("skill://acme/git-workflow/SKILL.md"); !ok || b.SkillURI(i) != "skill://acme/git-workflow/SKILL.md" {
		t.Fatal("FindSkill failed")
	}
	if _, ok := b.FindSkill("skill://acme/nope/SKILL.md"); ok {
		t.Fatal("FindSkill found a missing skill")
	}
	for uri, want := range map[string]string{
		"skill://acme/billing/refunds/partial/SKILL.md":  "skill://acme/billing/refunds/partial/SKILL.md",
		"skill://acme/billing/refunds/examples/email.md": "skill://acme/billing/refunds/SKILL.md",
		"skill://acme/billing/refunds":                   "skill://acme/billing/refunds/SKILL.md",
	} {
		i, ok := b.SkillFor(uri)
		if !ok || b.SkillURI(i) != want {
			t.Errorf("SkillFor(%s) = %v %v, want %s", uri, ok, i, want)
		}
	}
	if _, ok := b.SkillFor("skill://acme/billing"); ok {
		t.Error("SkillFor found a skill for a folder above every skill")
	}
}

func TestMarshalParseCanonical(t *testing.T) {
	_, m := testBundle(t)
	mb, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Parse(mb)
	if err != nil {
		t.Fatal(err)
	}
	mb2, _ := Marshal(m2)
	if !bytes.Equal(mb, mb2) {
		t.Fatal("round trip changed bytes")
	}
	if got := bytes.Count(mb, []byte("\n")); got != len(m.Skills)+2 {
		t.Errorf("%d lines, want one per skill plus two", got)
	}
	for _, bad := range [][]byte{
		bytes.Replace(mb, []byte(`{"mediaType"`), []byte(`{ "mediaType"`), 1),
		append(bytes.Clone(mb), ' '),
		bytes.Replace(mb, []byte(`"generator":"skills-mcp",`), nil, 1)[:0],
		bytes.Replace(mb, []byte(`"libraries"`), []byte(`"unknown":1,"libraries"`), 1),
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse accepted non-canonical %.60q", bad)
		}
	}
	unsorted := *m
	unsorted.Skills = []Skill{m.Skills[1], m.Skills[0]}
	if err := Check(&unsorted); err == nil || !strings.Contains(err.Error(), "sorted") {
		t.Errorf("Check(unsorted) = %v", err)
	}
}

func TestOpenFileFS(t *testing.T) {
	data, _ := testBundle(t)
	b, err := OpenFile(writeTemp(t, data))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := fstest.TestFS(b, "acme/billing/refunds/SKILL.md", "acme/billing/refunds/partial/SKILL.md",
		"acme/git-workflow/logo.bin", "tools/hidden/SKILL.md", "acme/billing/refunds/examples/email.md"); err != nil {
		t.Fatal(err)
	}
	got, err := b.ReadFile("acme/git-workflow/logo.bin")
	if err != nil || string(got) != "\x89PNG\x00\x01" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
}

// TestTruncatedWhileMapped shows that a bundle truncated under a mapping gives
// an error (or nothing found) on every later read, not a crash (SIGBUS): the
// blobs and the metadata are both read from the map.
func TestTruncatedWhileMapped(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	data, m := buildFrom(t, map[string]map[string]string{"a/big": {"SKILL.md": "---\nname: big\n---\n", "big.txt": big}})
	b, path := openMapped(t, data)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, err := b.ReadBlob(m.Skills[0].Entry.Resources[1].Digest)
	if err == nil {
		t.Fatal("read of a truncated mapped bundle succeeded")
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("read of a truncated mapped bundle: %v, want ErrCorrupt naming the file", err)
	}
	checkChanged(t, b, m)
}

// TestOverwrittenWhileMapped overwrites a mapped bundle's metadata in place
// with bytes that break every invariant Open checked: the accessors fail or
// find nothing, and nothing panics.
func TestOverwrittenWhileMapped(t *testing.T) {
	data, m := testBundle(t)
	b, path := openMapped(t, data)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := bytes.Repeat([]byte{0xff}, int(b.t.sigOff-b.t.manifestOff))
	if _, err := f.WriteAt(junk, b.t.manifestOff); err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkChanged(t, b, m)
}

// openMapped writes data to a file and opens it memory-mapped; it skips the
// test where bundles are not mapped. The bundle is closed when the test ends.
func openMapped(t *testing.T, data []byte) (*Bundle, string) {
	t.Helper()
	path := writeTemp(t, data)
	b, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if !b.mapped {
		t.Skip("the bundle is not memory-mapped here")
	}
	return b, path
}

// checkChanged calls every accessor of b, whose file changed under its map.
func checkChanged(t *testing.T, b *Bundle, m *Manifest) {
	t.Helper()
	sk := m.Skills[0]
	if p, err := b.EntryJSON(0); p != nil || !errors.Is(err, ErrCorrupt) {
		t.Errorf("EntryJSON = %.40q, %v", p, err)
	}
	if _, ok := b.FindSkill(sk.Entry.URI); ok {
		t.Error("FindSkill found a skill")
	}
	if _, ok := b.SkillFor(sk.Entry.Resources[0].URI); ok {
		t.Error("SkillFor found a skill")
	}
	if u := b.SkillURI(0); u != "" {
		t.Errorf("SkillURI = %q", u)
	}
	if u := b.SkillURIs(); len(u) != len(m.Skills) || u[0] != "" {
		t.Errorf("SkillURIs = %.3q", u)
	}
	b.Hidden(0)
	if b.HasBlob(sk.Entry.Resources[0].Digest) {
		t.Error("HasBlob found a blob")
	}
	if _, err := b.Skill(0); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Skill: %v", err)
	}
	if _, err := b.Manifest(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Manifest: %v", err)
	}
	if _, err := b.ManifestBytes(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ManifestBytes: %v", err)
	} else {
		t.Log(err)
	}
	if _, err := io.ReadAll(b.ManifestReader()); err == nil {
		t.Error("ManifestReader read the manifest")
	}
	if err := b.Verify(); err == nil {
		t.Error("Verify passed")
	}
	if err := b.Fault(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Fault() = %v", err)
	}
	if _, err := b.ReadFile(strings.TrimPrefix(sk.Entry.URI, URIScheme)); err == nil {
		t.Error("ReadFile read SKILL.md")
	}
}

func TestCorruptionRefused(t *testing.T) {
	data, _ := testBundle(t)
	// Every truncation is refused by Open.
	for n := 0; n < len(data); n += 1 + n/7 {
		if _, err := Open(bytes.NewReader(data[:n]), int64(n)); err == nil {
			t.Fatalf("Open accepted a bundle truncated to %d bytes", n)
		}
	}
	// Every single-byte change outside the signature area is refused: in the
	// header, its padding included, by Open; elsewhere by Open or Verify
	// (which also checks the padding between blobs).
	b0, _ := Open(bytes.NewReader(data), int64(len(data)))
	for i := 0; i < len(data); i++ {
		mut := bytes.Clone(data)
		mut[i] ^= 0x40
		b, err := Open(bytes.NewReader(mut), int64(len(mut)))
		if err != nil {
			continue
		}
		if i < int(b0.t.blobsOff) {
			t.Fatalf("flipped header byte %d: Open accepted", i)
		}
		if err := b.Verify(); err == nil && i < int(b0.t.sigOff) {
			t.Fatalf("flipped byte %d: Open and Verify both accepted", i)
		}
	}
}

// inPadding reports whether offset i is alignment padding between blobs,
// which no digest covers.
func inPadding(b *Bundle, i int) bool {
	if int64(i) < b.t.blobsOff || int64(i) >= b.t.manifestOff {
		return false
	}
	for k := range b.NumBlobs() {
		e := b.blobIdx[k*blobIndexEntry:]
		off := int64(leU64(e[32:]))
		n := int64(leU64(e[40:]))
		if int64(i) >= off && int64(i) < off+n {
			return false
		}
	}
	return true
}

func leU64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func TestVerifyNamesTamperedResource(t *testing.T) {
	data, m := testBundle(t)
	i := bytes.Index(data, []byte("Dear customer"))
	data[i] = 'B'
	b, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	err = b.Verify()
	var ve *VerifyError
	if !errors.As(err, &ve) || ve.URI != "skill://acme/billing/refunds/examples/email.md" || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Verify = %v, want a VerifyError naming email.md", err)
	}
	_ = m
}

func TestWriteSignedKeepsID(t *testing.T) {
	data, _ := testBundle(t)
	b, _ := Open(bytes.NewReader(data), int64(len(data)))
	var out bytes.Buffer
	sigs := []Signature{{SignatureSSH, []byte("sig one")}, {SignatureMinisign, []byte("two!")}}
	if err := b.WriteSigned(&out, sigs); err != nil {
		t.Fatal(err)
	}
	b2, err := Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if b2.ID() != b.ID() {
		t.Fatal("signing changed the bundle id")
	}
	got := b2.Signatures()
	if len(got) != 2 || string(got[0].Data) != "sig one" || got[1].Kind != SignatureMinisign || string(got[1].Data) != "two!" {
		t.Fatalf("signatures = %+v", got)
	}
	if err := b2.Verify(); err != nil {
		t.Fatal(err)
	}
	var back bytes.Buffer
	b2.WriteSigned(&back, nil)
	if !bytes.Equal(back.Bytes(), data) {
		t.Fatal("removing the signatures did not restore the unsigned bytes")
	}
}

func TestDigest(t *testing.T) {
	d := Sum([]byte("abc"))
	if d.String() != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal(d)
	}
	if p, err := ParseDigest(d.String()); err != nil || p != d {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "sha256:", strings.ToUpper(d.String()), "sha512:" + d.Hex(), d.Hex(), d.String() + "0", "sha256:" + strings.Repeat("g", 64)} {
		if _, err := ParseDigest(bad); err == nil {
			t.Errorf("ParseDigest(%q) succeeded", bad)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.skb")
	os.WriteFile(path, []byte("old"), 0o644)
	err := WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return errors.New("interrupted")
	})
	if err == nil {
		t.Fatal("want error")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("previous file damaged: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("temporary file left behind: %v", ents)
	}
	if err := WriteFileAtomic(path, 0o644, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Fatalf("got %q", got)
	}
}

func FuzzOpen(f *testing.F) {
	data, _ := testBundle(f)
	f.Add(data)
	f.Add(data[:len(data)-1])
	if seeds, _ := filepath.Glob("testdata/fuzz-seeds/*.skb"); len(seeds) > 0 {
		for _, s := range seeds {
			if b, err := os.ReadFile(s); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for i := range b.NumSkills() {
			b.Skill(i)
			b.EntryJSON(i)
			if caps := b.Capabilities(i); CheckCapabilities(caps) != nil {
				t.Fatalf("Capabilities(%d) = %q breaks the format's rule", i, caps)
			}
		}
		b.Verify()
		fs.WalkDir(b, ".", func(string, fs.DirEntry, error) error { return nil })
	})
}

func FuzzParse(f *testing.F) {
	_, m := testBundle(f)
	mb, _ := Marshal(m)
	f.Add(mb)
	f.Add([]byte(`{"mediaType":"` + MediaType + `","libraries":[],"skills":[]}` + "\n"))
	m.Skills[0].Capabilities = []string{"exec-remote", "network"}
	mb, _ = Marshal(m)
	f.Add(mb)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		out, err := Marshal(m)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("Parse accepted bytes that Marshal does not reproduce: %v", err)
		}
	})
}

func TestSkillURI(t *testing.T) {
	for path, want := range map[string]string{
		"acme/git-workflow": "skill://acme/git-workflow/SKILL.md",
		"acme/a b/été":      "skill://acme/a%20b/%C3%A9t%C3%A9/SKILL.md",
		"x/50%/q?":          "skill://x/50%25/q%3F/SKILL.md",
	} {
		if got := SkillURI(path); got != want {
			t.Errorf("SkillURI(%q) = %q, want %q", path, got, want)
		}
	}
}
