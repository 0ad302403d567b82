package pull_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/teamserver"
)

func TestPullBundleReproducesLibrary(t *testing.T) {
	src, err := pull.OpenBundle(writeBundle(t, exampleBundle(t)), nil)
	must(t, err)
	defer src.Close()
	if src.Signed || src.Kind != "bundle" || len(src.Warnings) != 0 {
		t.Fatalf("source: %+v", src)
	}
	dir := t.TempDir()
	res := pullAll(t, src, dir, true)
	if res.Failed != 0 || res.Written != 20 {
		t.Fatalf("result: %+v", res)
	}
	sameTree(t, readTree(t, dir), expectedTree(t))
	noTempFiles(t, dir)
	for p := range readTree(t, dir) {
		if fi, _ := os.Stat(filepath.Join(dir, p)); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644 (never executable)", p, fi.Mode())
		}
	}
}

// TestSyncIdempotent proves that re-pulling an unchanged library writes
// nothing: every file and folder keeps its inode and mtime.
func TestSyncIdempotent(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	dir := t.TempDir()
	src, err := pull.OpenBundle(path, nil)
	must(t, err)
	pullAll(t, src, dir, true)
	src.Close()
	before := stamps(t, dir)

	for _, sync := range []bool{true, false} {
		src, err := pull.OpenBundle(path, nil)
		must(t, err)
		res := pullAll(t, src, dir, sync)
		src.Close()
		if res.Written != 0 || res.Deleted != 0 || res.Kept != 21 {
			t.Fatalf("sync=%v: second run: %+v", sync, res)
		}
		for _, s := range res.Skills {
			if s.Status != "unchanged" {
				t.Errorf("sync=%v: %s: %s", sync, s.Path, s.Status)
			}
		}
		after := stamps(t, dir)
		if len(after) != len(before) {
			t.Fatalf("sync=%v: %d entries, want %d", sync, len(after), len(before))
		}
		for p, b := range before {
			if after[p] != b {
				t.Errorf("sync=%v: %s changed: %+v → %+v", sync, p, b, after[p])
			}
		}
	}
}

// TestSyncUpdates changes, adds and removes local files: --sync restores
// the skill exactly, touching only what differs.
func TestSyncUpdates(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	dir := t.TempDir()
	src, err := pull.OpenBundle(path, nil)
	must(t, err)
	defer src.Close()
	pullAll(t, src, dir, true)
	pdf := filepath.Join(dir, "acme", "pdf-processing")
	must(t, os.WriteFile(filepath.Join(pdf, "references", "FORMS.md"), []byte("changed\n"), 0o644))
	must(t, os.Remove(filepath.Join(pdf, "templates", "invoice.md")))
	must(t, os.MkdirAll(filepath.Join(pdf, "old", "deep"), 0o755))
	must(t, os.WriteFile(filepath.Join(pdf, "old", "deep", "stale.md"), []byte("stale\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(pdf, "notes.txt"), []byte("mine\n"), 0o644))
	before := stamps(t, dir)

	skills, err := src.Select(context.Background(), []string{"acme/pdf-processing"}, false)
	must(t, err)

	// Without --sync or --force, a folder that differs is an error, untouched.
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true})
	if !errors.Is(err, pull.ErrFailed) || !strings.Contains(err.Error(), "exists and differs") {
		t.Fatalf("err = %v", err)
	}
	// A dry run reads and verifies what it would fetch, and writes nothing.
	res, err := pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: true, DryRun: true})
	must(t, err)
	if res.Written != 2 || res.Deleted != 2 || !res.DryRun {
		t.Fatalf("dry run: %+v", res)
	}
	for p, b := range before {
		if stamps(t, dir)[p] != b {
			t.Fatalf("dry run changed %s", p)
		}
	}

	res, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: true})
	must(t, err)
	if s := res.Skills[0]; s.Status != "updated" || s.Written != 2 || s.Kept != 4 || s.Deleted != 2 {
		t.Fatalf("sync: %+v", s)
	}
	sameTree(t, readTree(t, dir), expectedTree(t))
	after := stamps(t, dir)
	for _, unchanged := range []string{"SKILL.md", "assets/logo.png", "scripts/extract.py", "templates/regional/eu-invoice.md"} {
		p := filepath.Join(pdf, filepath.FromSlash(unchanged))
		if after[p] != before[p] {
			t.Errorf("%s was rewritten", unchanged)
		}
	}
	if _, err := os.Stat(filepath.Join(pdf, "old")); !os.IsNotExist(err) {
		t.Errorf("emptied folder old/ not removed: %v", err)
	}
	noTempFiles(t, dir)
}

func TestForceKeepsExtraFiles(t *testing.T) {
	src, err := pull.OpenBundle(writeBundle(t, exampleBundle(t)), nil)
	must(t, err)
	defer src.Close()
	dir := t.TempDir()
	skills, err := src.Select(context.Background(), []string{"csv-cleaner"}, false)
	must(t, err)
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir})
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "csv-cleaner", "SKILL.md"), []byte("local edit"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "csv-cleaner", "extra.md"), []byte("mine"), 0o644))
	res, err := pull.Pull(context.Background(), src, skills, pull.Options{To: dir, Force: true})
	must(t, err)
	if res.Written != 1 || res.Kept != 1 || res.Deleted != 0 {
		t.Fatalf("force: %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "csv-cleaner", "SKILL.md")); bytes.Equal(data, []byte("local edit")) {
		t.Error("--force did not overwrite SKILL.md")
	}
	if _, err := os.Stat(filepath.Join(dir, "csv-cleaner", "extra.md")); err != nil {
		t.Errorf("--force deleted an extra file: %v", err)
	}
}

func TestSelect(t *testing.T) {
	src, err := pull.OpenBundle(writeBundle(t, exampleBundle(t)), nil)
	must(t, err)
	defer src.Close()
	ctx := context.Background()
	for _, c := range []struct {
		names []string
		want  []string
		err   string
	}{
		{names: []string{"pdf-processing"}, want: []string{"acme/pdf-processing"}},
		{names: []string{"acme/refunds"}, want: []string{"acme/billing/refunds"}},
		{names: []string{"community/refunds"}, want: []string{"community/refunds"}},
		{names: []string{"acme/billing/refunds"}, want: []string{"acme/billing/refunds"}},
		{names: []string{"skill://acme/billing/refunds/partial-refunds/SKILL.md"}, want: []string{"acme/billing/refunds/partial-refunds"}},
		{names: []string{"git-workflow", "acme/git-workflow"}, want: []string{"acme/git-workflow"}},
		{names: []string{"refunds"}, err: `skill "refunds" is ambiguous: acme/billing/refunds, community/refunds`},
		{names: []string{"nope"}, err: `skill "nope": not found`},
		{names: nil, err: "nothing selected"},
	} {
		got, err := src.Select(ctx, c.names, false)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err = %v, want %q", c.names, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(skillPaths(got), c.want) {
			t.Errorf("%v: got %v, %v; want %v", c.names, skillPaths(got), err, c.want)
		}
	}
	all, _ := src.Select(ctx, []string{"ignored"}, true)
	if len(all) != 11 {
		t.Errorf("--all selected %d skills", len(all))
	}
}

// Two skills with one destination folder are refused before anything is
// written.
func TestDestinationClash(t *testing.T) {
	src, err := pull.OpenBundle(writeBundle(t, exampleBundle(t)), nil)
	must(t, err)
	defer src.Close()
	dir := filepath.Join(t.TempDir(), "out")
	skills, err := src.Select(context.Background(), []string{"acme/refunds", "community/refunds"}, false)
	must(t, err)
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir})
	if err == nil || !strings.Contains(err.Error(), "would both go to") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("destination created: %v", err)
	}
}

// flipBlobByte flips one byte of the blob holding the file uri.
func flipBlobByte(t testing.TB, data []byte, uri string) []byte {
	t.Helper()
	b := openBundle(t, data)
	m, err := b.Manifest()
	must(t, err)
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			if r.URI == uri {
				sr, err := b.BlobReader(r.Digest)
				must(t, err)
				_, off, _ := sr.Outer()
				out := bytes.Clone(data)
				out[off] ^= 0x20
				return out
			}
		}
	}
	t.Fatalf("no resource %s", uri)
	return nil
}

// TestTamperedBlob: one flipped byte abandons that skill, with nothing
// half-written, neither in a new folder nor in an existing one; the other
// skills are pulled.
func TestTamperedBlob(t *testing.T) {
	good := exampleBundle(t)
	bad := flipBlobByte(t, good, "skill://acme/pdf-processing/templates/invoice.md")
	src, err := pull.OpenBundle(writeBundle(t, bad), nil)
	must(t, err)
	defer src.Close()
	ctx := context.Background()
	all, _ := src.Select(ctx, nil, true)

	dir := t.TempDir()
	res, err := pull.Pull(ctx, src, all, pull.Options{To: dir, KeepPath: true})
	// The bundle reader refuses the blob (naming the bundle file) before
	// pull's own check of what it wrote would.
	if !errors.Is(err, pull.ErrFailed) || !strings.Contains(err.Error(), "templates/invoice.md: ") || !strings.Contains(err.Error(), "digest mismatch") {
		t.Fatalf("err = %v", err)
	}
	if res.Failed != 1 || len(res.Skills) != 11 {
		t.Fatalf("result: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "acme", "pdf-processing")); !os.IsNotExist(err) {
		t.Errorf("abandoned skill left a folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "acme", "git-workflow", "SKILL.md")); err != nil {
		t.Errorf("other skills not pulled: %v", err)
	}
	noTempFiles(t, dir)

	// An existing folder with two changed files: the first fetches fine,
	// the second is tampered; neither is replaced.
	pdf := filepath.Join(t.TempDir(), "pdf-processing")
	must(t, os.MkdirAll(filepath.Join(pdf, "references"), 0o755))
	must(t, os.MkdirAll(filepath.Join(pdf, "templates"), 0o755))
	must(t, os.WriteFile(filepath.Join(pdf, "references", "FORMS.md"), []byte("old forms"), 0o644))
	must(t, os.WriteFile(filepath.Join(pdf, "templates", "invoice.md"), []byte("old invoice"), 0o644))
	before := stamps(t, filepath.Dir(pdf))
	skills, _ := src.Select(ctx, []string{"pdf-processing"}, false)
	_, err = pull.Pull(ctx, src, skills, pull.Options{To: filepath.Dir(pdf), Sync: true})
	if !errors.Is(err, pull.ErrFailed) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(pdf, "references", "FORMS.md")); string(got) != "old forms" {
		t.Errorf("FORMS.md replaced by a skill that failed: %q", got)
	}
	after := stamps(t, filepath.Dir(pdf))
	for p, b := range before {
		if after[p].ino != b.ino || after[p].size != b.size {
			t.Errorf("%s changed", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d entries after a failed sync, %d before", len(after), len(before))
	}
}

// TestUnsafeManifestPaths crafts manifests with paths that leave the skill
// folder. The manifest's own check (manifest.Check, which every writer and
// reader calls) refuses them, with the path rule pull applies to a live
// server's listing: no bundle or export holding one can be written or
// opened.
func TestUnsafeManifestPaths(t *testing.T) {
	for _, c := range []struct {
		name, uri, path, want string
	}{
		{"dotdot", "skill://acme/evil/../../x", "../../x", "segment .. is a parent-folder reference"},
		{"encoded dotdot", "skill://acme/evil/%2e%2e/%2E%2E/x", "../../x", "segment .. is a parent-folder reference"},
		{"encoded slash", "skill://acme/evil/a%2F..%2F..%2Fx", "a/../../x", "segment .. is a parent-folder reference"},
		{"backslash", `skill://acme/evil/..%5C..%5Cx`, `..\..\x`, "backslash"},
		{"nul", "skill://acme/evil/x%00.md", "x\x00.md", "control character"},
		{"absolute", "skill://acme/evil//etc/x", "/etc/x", "empty"},
		{"drive letter", "skill://acme/evil/C:x", "C:x", "drive letter"},
		{"long segment", "skill://acme/evil/" + strings.Repeat("a", 256), strings.Repeat("a", 256), "longer than 255"},
		{"file and folder", "skill://acme/evil/Skill.md/x", "Skill.md/x", "except for case"},
		{"path differs from uri", "skill://acme/evil/x.md", "y.md", "not the uri of file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := writeCrafted("skill://acme/evil/SKILL.md", "evil", []crafted{{c.uri, c.path, "payload"}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("writing the bundle: %v, want a refusal with %q", err, c.want)
			}
		})
	}
}

type crafted struct{ uri, path, content string }

// craftBundle writes a one-skill bundle with manifest.NewWriter directly,
// so that it may hold what build would never write.
func craftBundle(t testing.TB, uri, name string, files []crafted) []byte {
	t.Helper()
	b, err := writeCrafted(uri, name, files)
	must(t, err)
	return b
}

func writeCrafted(uri, name string, files []crafted) ([]byte, error) {
	skill := []byte("---\nname: " + name + "\ndescription: crafted\n---\n")
	all := append([]crafted{{uri, "SKILL.md", string(skill)}}, files...)
	s := manifest.Skill{Library: "acme", Path: "acme/" + name,
		Entry: manifest.Entry{URI: uri, Frontmatter: []byte(`{"name":"` + name + `","description":"crafted"}`)}}
	var buf bytes.Buffer
	w := manifest.NewWriter(&buf)
	for _, f := range all {
		d := manifest.Sum([]byte(f.content))
		if err := w.AddBlob(d, []byte(f.content)); err != nil {
			return nil, err
		}
		s.Entry.Resources = append(s.Entry.Resources, manifest.Resource{URI: f.uri, Digest: d, Size: int64(len(f.content))})
		s.Files = append(s.Files, manifest.File{Path: f.path, MimeType: "text/plain", Text: true})
	}
	m := &manifest.Manifest{MediaType: manifest.MediaType, Libraries: []manifest.Library{{Namespace: "acme", Kind: "directory", Skills: 1}},
		Skills: []manifest.Skill{s}}
	if _, err := w.Finish(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestSymlinkInDestination: a symlink at or inside a skill folder is
// refused, and nothing is written through it.
func TestSymlinkInDestination(t *testing.T) {
	src, err := pull.OpenBundle(writeBundle(t, exampleBundle(t)), nil)
	must(t, err)
	defer src.Close()
	ctx := context.Background()
	outside := t.TempDir()
	skills, _ := src.Select(ctx, []string{"pdf-processing"}, false)

	for _, c := range []struct {
		name  string
		setup func(dest string)
		opt   pull.Options
	}{
		{"skill folder", func(dest string) { must(t, os.Symlink(outside, filepath.Join(dest, "pdf-processing"))) }, pull.Options{}},
		{"sub-folder", func(dest string) {
			must(t, os.MkdirAll(filepath.Join(dest, "pdf-processing"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(dest, "pdf-processing", "templates")))
		}, pull.Options{Sync: true}},
		{"file", func(dest string) {
			must(t, os.MkdirAll(filepath.Join(dest, "pdf-processing"), 0o755))
			must(t, os.Symlink(filepath.Join(outside, "target"), filepath.Join(dest, "pdf-processing", "SKILL.md")))
		}, pull.Options{Force: true}},
		{"parent with keep-path", func(dest string) { must(t, os.Symlink(outside, filepath.Join(dest, "acme"))) }, pull.Options{KeepPath: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dest := t.TempDir()
			c.setup(dest)
			c.opt.To = dest
			_, err := pull.Pull(ctx, src, skills, c.opt)
			if err == nil || !strings.Contains(err.Error(), "refusing symlink in the destination") {
				t.Fatalf("err = %v", err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("written through the symlink: %v", ents)
			}
		})
	}
	// A symlinked --to itself is fine (macOS /tmp, symlinked homes).
	link := filepath.Join(t.TempDir(), "to")
	must(t, os.Symlink(outside, link))
	if _, err := pull.Pull(ctx, src, skills, pull.Options{To: link}); err != nil {
		t.Fatalf("symlinked --to: %v", err)
	}
	os.RemoveAll(filepath.Join(outside, "pdf-processing"))
}

func TestTrust(t *testing.T) {
	key, trusted := newKey(t)
	_, other := newKey(t)
	data := exampleBundle(t)
	signed := writeBundle(t, signBundle(t, data, key))

	src, err := pull.OpenBundle(signed, trusted)
	must(t, err)
	if !src.Signed || !strings.HasPrefix(src.SignedBy, "test (SHA256:") {
		t.Errorf("signed by %q", src.SignedBy)
	}
	src.Close()

	if _, err := pull.OpenBundle(signed, other); !errors.Is(err, manifest.ErrUntrusted) {
		t.Errorf("other key: err = %v", err)
	}
	if _, err := pull.OpenBundle(writeBundle(t, data), trusted); !errors.Is(err, manifest.ErrUnsigned) {
		t.Errorf("unsigned: err = %v", err)
	}
	// A manifest changed after signing (trailer digest fixed up by
	// re-writing the bundle) fails the signature.
	b := openBundle(t, signBundle(t, data, key))
	craft := craftBundle(t, "skill://acme/evil/SKILL.md", "evil", nil)
	var forged bytes.Buffer
	must(t, openBundle(t, craft).WriteSigned(&forged, b.Signatures()))
	if _, err := pull.OpenBundle(writeBundle(t, forged.Bytes()), trusted); !errors.Is(err, manifest.ErrBadSignature) {
		t.Errorf("forged: err = %v", err)
	}

	// An export folder: signatures from its files.
	exp := writeExport(t, signBundle(t, data, key))
	src, err = pull.OpenExport(exp, trusted)
	must(t, err)
	src.Close()
	if _, err := pull.OpenExport(exp, other); !errors.Is(err, manifest.ErrUntrusted) {
		t.Errorf("export, other key: err = %v", err)
	}
	manifestPath := filepath.Join(exp, pull.ExportManifest)
	mb, _ := os.ReadFile(manifestPath)
	must(t, os.WriteFile(manifestPath, bytes.Replace(mb, []byte("refunds"), []byte("refundz"), 1), 0o644))
	if _, err := pull.OpenExport(exp, trusted); !errors.Is(err, manifest.ErrBadSignature) {
		t.Errorf("export, tampered manifest: err = %v", err)
	}
}

func TestPullExport(t *testing.T) {
	exp := writeExport(t, exampleBundle(t))
	src, err := pull.OpenExport(exp, nil)
	must(t, err)
	dir := t.TempDir()
	pullAll(t, src, dir, true)
	src.Close()
	sameTree(t, readTree(t, dir), expectedTree(t))

	// A blob one byte too long: a wrong size abandons the skill.
	b := openBundle(t, exampleBundle(t))
	m, _ := b.Manifest()
	var logo manifest.Resource
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			if strings.HasSuffix(r.URI, "logo.png") {
				logo = r
			}
		}
	}
	blob := filepath.Join(exp, "blobs", "sha256", logo.Digest.Hex())
	f, err := os.OpenFile(blob, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	f.Write([]byte{0})
	f.Close()
	src, err = pull.OpenExport(exp, nil)
	must(t, err)
	defer src.Close()
	skills, _ := src.Select(context.Background(), []string{"pdf-processing"}, false)
	dir = t.TempDir()
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir})
	if err == nil || !strings.Contains(err.Error(), "assets/logo.png: size mismatch: the listing says 188 bytes, the source sent more than 188") {
		t.Fatalf("err = %v", err)
	}
	if tree := readTree(t, dir); len(tree) != 0 {
		t.Fatalf("written: %v", tree)
	}
	noTempFiles(t, dir)
}

func TestPullHTTPS(t *testing.T) {
	data := exampleBundle(t)
	pin := manifest.Sum(data).Hex()
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/x.skb":
			w.Write(data)
		case "/redirect.skb":
			http.Redirect(w, r, "http://"+r.Host+"/x.skb", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer ts.Close()
	ctx := context.Background()
	tmp := t.TempDir()
	opt := pull.DownloadOptions{Client: ts.Client(), TempDir: tmp}

	src, err := pull.Download(ctx, ts.URL+"/x.skb#sha256="+pin, opt, nil)
	must(t, err)
	if src.Name != ts.URL+"/x.skb" {
		t.Errorf("name %q", src.Name)
	}
	dir := t.TempDir()
	pullAll(t, src, dir, true)
	must(t, src.Close())
	sameTree(t, readTree(t, dir), expectedTree(t))
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("download not removed: %v", ents)
	}

	for _, c := range []struct {
		url, want string
		opt       pull.DownloadOptions
	}{
		{ts.URL + "/x.skb#sha256=" + strings.Repeat("0", 64), "sha256 mismatch: pinned 0000", opt},
		{ts.URL + "/x.skb", "give its digest as #sha256=<hex>", opt},
		{ts.URL + "/x.skb#sha256=ABC", "fragment must be #sha256=", opt},
		{strings.Replace(ts.URL, "https", "http", 1) + "/x.skb#sha256=" + pin, "only https is allowed", opt},
		{ts.URL + "/redirect.skb#sha256=" + pin, "redirect to http://", opt},
		{ts.URL + "/missing.skb#sha256=" + pin, "404", opt},
		{ts.URL + "/x.skb?token=secret#sha256=" + pin, "larger than the 1000-byte limit", pull.DownloadOptions{Client: ts.Client(), TempDir: tmp, MaxBytes: 1000}},
	} {
		_, err := pull.Download(ctx, c.url, c.opt, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.url, err, c.want)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("error repeats the query: %v", err)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: temporary file left: %v", c.url, ents)
		}
	}
	// Without a pin, a trusted signature is enough.
	key, trusted := newKey(t)
	data = signBundle(t, data, key)
	src, err = pull.Download(ctx, ts.URL+"/x.skb", opt, trusted)
	if err != nil || !src.Signed {
		t.Fatalf("unpinned, signed: %v", err)
	}
	src.Close()
}

// counter counts the methods a server receives.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		c.mu.Lock()
		c.n[method]++
		c.mu.Unlock()
		return next(ctx, method, req)
	}
}

func (c *counter) reset() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

func newServer(t testing.TB, data []byte) (*serve.Server, *counter) {
	t.Helper()
	srv, err := serve.New([]*manifest.Bundle{openBundle(t, data)}, serve.Options{ShowDisabled: true})
	must(t, err)
	c := &counter{n: map[string]int{}}
	srv.MCP().AddReceivingMiddleware(c.middleware)
	return srv, c
}

func connectInMemory(t testing.TB, srv *serve.Server, version string) *pull.Source {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	must(t, err)
	t.Cleanup(func() { ss.Close() })
	src, err := pull.Connect(context.Background(), ct, pull.ConnectOptions{Name: "memory", ProtocolVersion: version})
	must(t, err)
	return src
}

var protocols = []string{"", pull.LegacyProtocol}

// TestLiveServer pulls the example library from our server over in-memory,
// HTTP and stdio transports, with both protocol revisions, and reproduces
// it byte for byte; a --sync re-run costs one skills/list and no reads.
func TestLiveServer(t *testing.T) {
	data := exampleBundle(t)
	bundlePath := writeBundle(t, data)
	for _, proto := range protocols {
		name := proto
		if name == "" {
			name = "negotiated"
		}
		t.Run("memory/"+name, func(t *testing.T) {
			srv, count := newServer(t, data)
			src := connectInMemory(t, srv, proto)
			if src.Signed || src.Kind != "server" || len(src.Skills) != 11 {
				t.Fatalf("source: signed %v, kind %s, %d skills", src.Signed, src.Kind, len(src.Skills))
			}
			dir := t.TempDir()
			pullAll(t, src, dir, true)
			src.Close()
			sameTree(t, readTree(t, dir), expectedTree(t))
			if n := count.reset(); n["resources/read"] != 20 {
				t.Errorf("first pull: %v", n)
			}
			before := stamps(t, dir)
			src = connectInMemory(t, srv, proto)
			res := pullAll(t, src, dir, true)
			src.Close()
			n := count.reset()
			if res.Written != 0 || n["skills/list"] != 1 || n["resources/read"] != 0 || n["skills/get"] != 0 {
				t.Errorf("re-run: %+v, requests %v", res, n)
			}
			for p, s := range stamps(t, dir) {
				if before[p] != s {
					t.Errorf("%s changed", p)
				}
			}
		})
		t.Run("http/"+name, func(t *testing.T) {
			srv, _ := newServer(t, data)
			ts := httptest.NewServer(teamserver.Handler(srv, teamserver.Options{}))
			defer ts.Close()
			src, err := pull.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + teamserver.Endpoint},
				pull.ConnectOptions{Name: ts.URL, ProtocolVersion: proto})
			must(t, err)
			defer src.Close()
			dir := t.TempDir()
			pullAll(t, src, dir, true)
			sameTree(t, readTree(t, dir), expectedTree(t))
		})
		t.Run("stdio/"+name, func(t *testing.T) {
			exe, err := os.Executable()
			must(t, err)
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "PULL_TEST_SERVE="+bundlePath)
			src, err := pull.Connect(context.Background(), &mcp.CommandTransport{Command: cmd},
				pull.ConnectOptions{Name: "stdio", ProtocolVersion: proto})
			must(t, err)
			dir := t.TempDir()
			pullAll(t, src, dir, true)
			must(t, src.Close())
			sameTree(t, readTree(t, dir), expectedTree(t))
		})
	}
}

// TestLiveHiddenSkill: a server that does not list a hidden skill still
// serves it to skills/get, which Select uses for a path or URI.
func TestLiveHiddenSkill(t *testing.T) {
	srv, err := serve.New([]*manifest.Bundle{openBundle(t, exampleBundle(t))}, serve.Options{})
	must(t, err)
	src := connectInMemory(t, srv, "")
	defer src.Close()
	if len(src.Skills) != 10 {
		t.Fatalf("%d skills listed", len(src.Skills))
	}
	if _, err := src.Select(context.Background(), []string{"deploy-production"}, false); !errors.Is(err, pull.ErrNotFound) {
		t.Errorf("bare name of a hidden skill: %v", err)
	}
	for _, name := range []string{"acme/deploy-production", "skill://acme/deploy-production/SKILL.md"} {
		skills, err := src.Select(context.Background(), []string{name}, false)
		if err != nil || len(skills) != 1 || skills[0].Path != "acme/deploy-production" {
			t.Fatalf("%s: %v %v", name, skillPaths(skills), err)
		}
	}
	if _, err := src.Select(context.Background(), []string{"acme/nope"}, false); !errors.Is(err, pull.ErrNotFound) {
		t.Errorf("unknown path: %v", err)
	}
}

// writeLibrary lays files out below a fresh folder and builds it as
// namespace ns into a bundle file.
func writeLibrary(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, data := range files {
		must(t, os.MkdirAll(filepath.Join(dir, "lib", filepath.Dir(p)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "lib", p), []byte(data), 0o644))
	}
	f, err := os.Create(filepath.Join(dir, "lib.skb"))
	must(t, err)
	defer f.Close()
	if _, err := build.Build(build.Options{Libraries: []build.Library{{Namespace: "ns", Root: filepath.Join(dir, "lib")}}, NoLint: true}, f); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// TestNestedSkillFreshPull: a nested skill whose folder sorts before
// SKILL.md (outer/2fa/) comes first in the listing, and its files are
// also the outer skill's. A fresh --all --keep-path writes both.
func TestNestedSkillFreshPull(t *testing.T) {
	lib := map[string]string{
		"outer/SKILL.md":     "---\nname: outer\ndescription: the outer skill\n---\nbody\n",
		"outer/2fa/SKILL.md": "---\nname: 2fa\ndescription: the inner skill\n---\nbody\n",
		"outer/z/notes.md":   "notes\n",
	}
	src, err := pull.OpenBundle(writeLibrary(t, lib), nil)
	must(t, err)
	defer src.Close()
	if got := skillPaths(src.Skills); !slices.Equal(got, []string{"ns/outer", "ns/outer/2fa"}) || src.Skills[0].Path != "ns/outer/2fa" {
		t.Fatalf("listing order: %v", got)
	}
	dir := t.TempDir()
	for _, sync := range []bool{false, true} {
		all, err := src.Select(context.Background(), nil, true)
		must(t, err)
		res, err := pull.Pull(context.Background(), src, all, pull.Options{To: dir, KeepPath: true, Sync: sync})
		if err != nil {
			t.Fatalf("sync=%v: %v", sync, err)
		}
		if res.Skills[0].Path != "ns/outer/2fa" {
			t.Errorf("results not in the order asked for: %+v", res.Skills)
		}
		want := map[string][]byte{}
		for p, data := range lib {
			want["ns/"+p] = []byte(data)
		}
		sameTree(t, readTree(t, dir), want)
	}
}
