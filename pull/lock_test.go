package pull_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// lockedPull pulls the named skills (all if none) of the bundle at path
// into dir with the lock kept, and returns the lock's bytes.
func lockedPull(t testing.TB, path, dir string, names ...string) []byte {
	t.Helper()
	src, err := pull.OpenBundle(path, nil)
	must(t, err)
	defer src.Close()
	skills, err := src.Select(context.Background(), names, len(names) == 0)
	must(t, err)
	ls, err := pull.LockedSource(src, "release.skb", pull.KindBundle)
	must(t, err)
	if _, err := pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: true, Lock: &ls}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, pull.LockFile))
	must(t, err)
	return data
}

// TestLockDeterministic: the lock is a function of what was pulled alone:
// byte-identical in two folders, whatever order the skills were named in,
// and Marshal of the parsed file gives back its bytes.
func TestLockDeterministic(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	a := lockedPull(t, path, t.TempDir())
	b := lockedPull(t, path, t.TempDir())
	if !bytes.Equal(a, b) {
		t.Fatalf("two pulls of one bundle wrote different locks:\n%s\n%s", a, b)
	}
	c := lockedPull(t, path, t.TempDir(), "csv-cleaner", "acme/pdf-processing")
	d := lockedPull(t, path, t.TempDir(), "acme/pdf-processing", "csv-cleaner")
	if !bytes.Equal(c, d) {
		t.Fatalf("the order of the names changed the lock:\n%s\n%s", c, d)
	}
	l, err := pull.ParseLock("a", a)
	must(t, err)
	again, err := l.Marshal()
	must(t, err)
	if !bytes.Equal(again, a) {
		t.Fatalf("Marshal(ParseLock(lock)) differs:\n%s\n%s", again, a)
	}
	if len(l.Sources) != 1 || len(l.Sources[0].Skills) != 11 || l.Sources[0].Signer != nil {
		t.Fatalf("lock: %d sources, want one with 11 skills and no signer", len(l.Sources))
	}
	for _, sk := range l.Sources[0].Skills {
		if sk.Dest != sk.Path || sk.Tree != pull.TreeDigest(sk.Files) {
			t.Errorf("%s: dest %s, tree %s", sk.Path, sk.Dest, sk.Tree)
		}
	}
}

// TestLockUnchangedNotRewritten: a re-pull that changes nothing leaves the
// lock file as it was (same inode, same modification time).
func TestLockUnchangedNotRewritten(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	dir := t.TempDir()
	lockedPull(t, path, dir)
	before, err := os.Stat(filepath.Join(dir, pull.LockFile))
	must(t, err)
	lockedPull(t, path, dir)
	after, err := os.Stat(filepath.Join(dir, pull.LockFile))
	must(t, err)
	if !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Fatal("an unchanged pull rewrote the lock")
	}
}

// TestLockLocalEdit: a folder the lock names whose files changed is not
// overwritten by a --sync pull without Force; with it, it is.
func TestLockLocalEdit(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	dir := t.TempDir()
	lockedPull(t, path, dir)
	victim := filepath.Join(dir, "acme", "pdf-processing", "SKILL.md")
	must(t, os.WriteFile(victim, []byte("mine"), 0o644))
	src, err := pull.OpenBundle(path, nil)
	must(t, err)
	defer src.Close()
	skills, err := src.Select(context.Background(), []string{"acme/pdf-processing"}, false)
	must(t, err)
	ls, err := pull.LockedSource(src, "release.skb", pull.KindBundle)
	must(t, err)
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: true, Lock: &ls})
	if !errors.Is(err, pull.ErrFailed) || !strings.Contains(err.Error(), "modified locally") {
		t.Fatalf("sync over a local edit: %v", err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "mine" {
		t.Fatal("the local edit was overwritten")
	}
	_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir, KeepPath: true, Sync: true, Force: true, Lock: &ls})
	must(t, err)
	if got, _ := os.ReadFile(victim); string(got) == "mine" {
		t.Fatal("--force left the local edit")
	}
}

// validLock is a lock of two sources for the refusal cases.
func validLock(t testing.TB) []byte {
	t.Helper()
	sig := "release@example.com (SHA256:abc)"
	files := []pull.LockedFile{{Path: "SKILL.md", Digest: manifest.Sum([]byte("a")), Size: 1}, {Path: "scripts/x.py", Digest: manifest.Sum([]byte("bb")), Size: 2}}
	l := &pull.Lock{Sources: []pull.LockSource{
		{Ref: "oci://127.0.0.1:5000/acme/skills:v1", Kind: pull.KindOCI, Resolved: manifest.Sum([]byte("artifact")), Signer: &sig, Skills: []pull.LockSkill{
			{Path: "acme/refunds", URI: "skill://acme/refunds/SKILL.md", Dest: "refunds", Tree: pull.TreeDigest(files), Files: files},
			{Path: "acme/csv", URI: "skill://acme/csv/SKILL.md", Dest: "csv", Tree: pull.TreeDigest(files[:1]), Files: files[:1]},
		}},
		{Ref: "../release.skb", Kind: pull.KindBundle, Resolved: manifest.Sum([]byte("bundle")), Skills: []pull.LockSkill{
			{Path: "community/notes", URI: "skill://community/notes/SKILL.md", Dest: "notes", Tree: pull.TreeDigest(files[:1]), Files: files[:1]},
		}},
	}}
	data, err := l.Marshal()
	must(t, err)
	return data
}

// TestParseLockRefusals: each hand edit is refused with the file, the line
// of the offending value and the rule.
func TestParseLockRefusals(t *testing.T) {
	good := string(validLock(t))
	if _, err := pull.ParseLock("skills.lock.json", []byte(good)); err != nil {
		t.Fatal(err)
	}
	firstDigest := good[strings.Index(good, `"tree": "`)+9 : strings.Index(good, `"tree": "`)+9+71]
	cases := []struct {
		name, old, new, rule string
		line                 int // 0: the line of new in the edited file
	}{
		{"not hex", firstDigest, strings.ToUpper(firstDigest[:10]) + firstDigest[10:], "lock-digest", 0},
		{"short digest", firstDigest, firstDigest[:20], "lock-digest", 0},
		{"unknown field", `"kind": "oci",`, `"kind": "oci", "pinned": true,`, "lock-unknown-field", 0},
		{"duplicate field", `"kind": "oci",`, `"kind": "oci", "kind": "oci",`, "lock-duplicate-field", 0},
		{"missing field", `"signer": null,`, ``, "lock-missing-field", 0},
		{"duplicate skill", "\"path\": \"acme/csv\",\n          \"uri\": \"skill://acme/csv/SKILL.md\"", "\"path\": \"acme/refunds\",\n          \"uri\": \"skill://acme/refunds/SKILL.md\"", "lock-duplicate-skill", -3},
		{"duplicate dest", `"dest": "notes"`, `"dest": "csv"`, "lock-duplicate-dest", -3},
		{"duplicate source", `"ref": "../release.skb"`, `"ref": "oci://127.0.0.1:5000/acme/skills:v1"`, "lock-duplicate-source", -3},
		{"unsafe dest", `"dest": "notes"`, `"dest": "../notes"`, "lock-path", 0},
		{"unsafe file", `"path": "scripts/x.py"`, `"path": "scripts/../../x.py"`, "lock-path", 0},
		{"edited size", `"size": 2`, `"size": 3`, "lock-tree", -1},
		{"negative size", `"size": 2`, `"size": -2`, "lock-size", 0},
		{"wrong kind", `"kind": "bundle"`, `"kind": "tarball"`, "lock-kind", 0},
		{"version", `"lockVersion": 1`, `"lockVersion": 2`, "lock-version", 0},
		{"syntax", `"kind": "oci",`, `"kind": "oci"`, "lock-syntax", -1},
		{"trailing", "\n}\n", "\n}\n}\n", "lock-trailing", -2},
		{"type", `"size": 2`, `"size": "2"`, "lock-type", 0},
		{"empty signer", `"signer": null,`, `"signer": "",`, "lock-signer", 0},
		{"uri", `"uri": "skill://acme/csv/SKILL.md"`, `"uri": "skill://acme/other/SKILL.md"`, "lock-uri", 0},
		{"no SKILL.md", `"path": "SKILL.md"`, `"path": "README.md"`, "lock-skill-file", -1},
		{"etag of a registry", `"kind": "oci",`, `"kind": "oci", "etag": "\"abc\"",`, "lock-etag", 0},
		{"weak etag", `"kind": "bundle",`, `"kind": "https", "etag": "W/\"abc\"",`, "lock-etag", 0},
		{"unquoted etag", `"kind": "bundle",`, `"kind": "https", "etag": "abc",`, "lock-etag", 0},
	}
	for _, c := range cases {
		if !strings.Contains(good, c.old) {
			t.Fatalf("%s: %q not in the lock", c.name, c.old)
		}
		bad := strings.Replace(good, c.old, c.new, 1)
		_, err := pull.ParseLock("skills.lock.json", []byte(bad))
		var le *pull.LockError
		if !errors.As(err, &le) || !errors.Is(err, pull.ErrLock) {
			t.Errorf("%s: ParseLock = %v, want a LockError", c.name, err)
			continue
		}
		if le.Rule != c.rule || le.File != "skills.lock.json" {
			t.Errorf("%s: %v, want rule %s", c.name, err, c.rule)
		}
		want := c.line
		switch {
		case want == 0 && c.new != "":
			want = strings.Count(good[:strings.Index(good, c.old)], "\n") + 1
		case want == -2:
			want = strings.Count(bad, "\n")
		case want == -3: // the second of the two
			at := map[string]string{"lock-duplicate-skill": `"path": "acme/refunds"`, "lock-duplicate-dest": `"dest": "csv"`, "lock-duplicate-source": `"ref": "oci://`}[c.rule]
			want = strings.Count(bad[:strings.LastIndex(bad, at)], "\n") + 1
		}
		if want > 0 && le.Line != want {
			t.Errorf("%s: %v: line %d, want %d", c.name, err, le.Line, want)
		}
		if le.Line == 0 || !strings.Contains(err.Error(), fmt.Sprintf("skills.lock.json:%d:", le.Line)) {
			t.Errorf("%s: %v names no line", c.name, err)
		}
	}
}

// FuzzParseLock: ParseLock never panics, and a lock it accepts comes back
// from Marshal as a lock it accepts again with the same bytes (canonical).
func FuzzParseLock(f *testing.F) {
	good := validLock(f)
	f.Add(good)
	f.Add([]byte(`{"lockVersion":1,"sources":[]}`))
	f.Add(bytes.ReplaceAll(good, []byte("\n"), nil))
	f.Add(bytes.Replace(good, []byte(`"kind"`), []byte(`"kind":1,"kind"`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := pull.ParseLock("f", data)
		if err != nil {
			var le *pull.LockError
			if !errors.As(err, &le) || le.Rule == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		out, err := l.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		l2, err := pull.ParseLock("f", out)
		if err != nil {
			t.Fatalf("Marshal wrote a lock ParseLock refuses: %v\n%s", err, out)
		}
		out2, _ := l2.Marshal()
		if !bytes.Equal(out, out2) {
			t.Fatalf("not canonical:\n%s\n%s", out, out2)
		}
	})
}

// FuzzLockRoundTrip: write then read gives the same lock, for locks made
// from arbitrary names, sizes and digests (sorted, as Marshal writes them).
func FuzzLockRoundTrip(f *testing.F) {
	f.Add("acme/refunds", "refunds", "SKILL.md scripts/a.py", int64(12), []byte("x"), true, "oci://h/r:t")
	f.Add("a/b/c", "a/b/c", "SKILL.md d/e f", int64(0), []byte{}, false, "../x.skb")
	f.Add("ns/ü-名前", "dir with space", "SKILL.md ñ.md", int64(1<<40), []byte{0, 1}, true, "https://h/x.skb#sha256=00")
	f.Fuzz(func(t *testing.T, skillPath, dest, names string, size int64, seed []byte, signed bool, ref string) {
		if manifest.CheckPath(skillPath) != nil || manifest.CheckPath(dest) != nil || size < 0 || ref == "" ||
			strings.ContainsFunc(ref, func(r rune) bool { return r < 0x20 || r == 0x7f }) ||
			dest == pull.LockFile || strings.HasPrefix(dest, ".skills-mcp-") {
			t.Skip()
		}
		var files []pull.LockedFile
		var set manifest.PathSet
		for i, n := range strings.Fields(names) {
			if manifest.CheckPath(n) != nil || set.Add(n, false) != nil {
				t.Skip()
			}
			files = append(files, pull.LockedFile{Path: n, Digest: manifest.Sum(append(seed, byte(i))), Size: size + int64(i)})
		}
		if !slices.ContainsFunc(files, func(f pull.LockedFile) bool { return f.Path == manifest.SkillFile }) {
			t.Skip()
		}
		slices.SortFunc(files, func(a, b pull.LockedFile) int { return strings.Compare(a.Path, b.Path) })
		var signer *string
		if signed {
			s := "key " + skillPath
			signer = &s
		}
		uri := manifest.SkillURI(skillPath)
		want := &pull.Lock{Version: pull.LockVersion, Sources: []pull.LockSource{{Ref: ref, Kind: pull.KindBundle, Resolved: manifest.Sum(seed), Signer: signer,
			Skills: []pull.LockSkill{{Path: skillPath, URI: uri, Dest: dest, Tree: pull.TreeDigest(files), Files: files}}}}}
		data, err := want.Marshal()
		if !utf8.ValidString(ref) {
			if err == nil {
				t.Fatalf("Marshal wrote the ref %q, which is not UTF-8", ref)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := pull.ParseLock("f", data)
		if err != nil {
			if strings.Contains(err.Error(), "lock-uri") {
				t.Skip() // a path whose URI does not decode back to it (percent signs)
			}
			t.Fatalf("%v\n%s", err, data)
		}
		again, _ := got.Marshal()
		if !bytes.Equal(again, data) || !reflect.DeepEqual(got.Sources, want.Sources) {
			t.Fatalf("write then read changed the lock:\n%s\n%s", data, again)
		}
	})
}

// TestLockHTTPS: a bundle over https is locked as the URL without its query
// and with the sha256 of the downloaded file as the resolved digest.
func TestLockHTTPS(t *testing.T) {
	data := exampleBundle(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(data) }))
	defer srv.Close()
	sum := manifest.Sum(data)
	src, err := pull.Download(context.Background(), srv.URL+"/x.skb?sig=secret#sha256="+sum.Hex(), pull.DownloadOptions{Client: srv.Client()}, nil)
	must(t, err)
	defer src.Close()
	ls, err := pull.LockedSource(src, srv.URL+"/x.skb#sha256="+sum.Hex(), pull.KindHTTPS)
	must(t, err)
	if ls.Resolved != sum || ls.Signer != nil {
		t.Fatalf("resolved %s, want %s (the file's sha256)", ls.Resolved, sum)
	}
	b, err := pull.OpenBundle(writeBundle(t, data), nil)
	must(t, err)
	defer b.Close()
	if lb, _ := pull.LockedSource(b, "x.skb", pull.KindBundle); lb.Resolved == sum || lb.Resolved.String() != b.ID {
		t.Fatalf("a bundle file resolves to its bundle id %s, got %s", b.ID, lb.Resolved)
	}
}

// TestLockHTTPSETag: a bundle over https whose server gives a strong ETag
// is locked with it, and Unchanged asks with one HEAD and no download
// whether the file is still that one; a weak ETag is not recorded.
func TestLockHTTPSETag(t *testing.T) {
	data := exampleBundle(t)
	var mu sync.Mutex
	etag, methods := `"v1"`, []string{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		methods = append(methods, r.Method)
		w.Header().Set("ETag", etag)
		switch {
		case etag == "fail":
			w.WriteHeader(http.StatusInternalServerError)
		case r.Header.Get("If-None-Match") == etag && etag != `"no-304"`:
			w.WriteHeader(http.StatusNotModified)
		case r.Method == http.MethodGet:
			w.Write(data)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	set := func(e string) {
		mu.Lock()
		etag, methods = e, nil
		mu.Unlock()
	}
	requests := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(methods, " ")
	}
	opt := pull.DownloadOptions{Client: srv.Client()}
	url := srv.URL + "/x.skb#sha256=" + manifest.Sum(data).Hex()
	lockOf := func() pull.LockSource {
		src, err := pull.Download(ctx, url, opt, nil)
		must(t, err)
		defer src.Close()
		ls, err := pull.LockedSource(src, url, pull.KindHTTPS)
		must(t, err)
		return ls
	}
	if ls := lockOf(); ls.ETag != `"v1"` {
		t.Fatalf("locked etag %q, want the server's", ls.ETag)
	}
	for _, c := range []struct {
		etag      string
		unchanged bool
	}{{`"v1"`, true}, {`"no-304"`, true}, {`"v2"`, false}} {
		set(c.etag)
		locked := `"v1"`
		if c.etag == `"no-304"` {
			locked = c.etag // a server that ignores If-None-Match but sends the same tag
		}
		same, err := pull.Unchanged(ctx, url, locked, opt)
		must(t, err)
		if same != c.unchanged || requests() != "HEAD" {
			t.Errorf("server tag %s: unchanged %v after %q, want %v after one HEAD", c.etag, same, requests(), c.unchanged)
		}
	}
	set("fail")
	if _, err := pull.Unchanged(ctx, url, `"v1"`, opt); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("a failing server: %v", err)
	}
	set(`W/"v1"`)
	if ls := lockOf(); ls.ETag != "" {
		t.Errorf("a weak etag was locked: %q", ls.ETag)
	}
	set(`"v3"`)
	l := &pull.Lock{Sources: []pull.LockSource{lockOf()}}
	b, err := l.Marshal()
	must(t, err)
	back, err := pull.ParseLock("skills.lock.json", b)
	must(t, err)
	if back.Sources[0].ETag != `"v3"` || !strings.Contains(string(b), `"etag": "\"v3\""`) {
		t.Errorf("the etag did not round-trip:\n%s", b)
	}
}

// TestLockMovesBetweenSources: a folder pulled from another source leaves
// the first source's entry, and a source left with no skills leaves the
// lock.
func TestLockMovesBetweenSources(t *testing.T) {
	path := writeBundle(t, exampleBundle(t))
	dir := t.TempDir()
	pullAs := func(ref string, names ...string) *pull.Lock {
		src, err := pull.OpenBundle(path, nil)
		must(t, err)
		defer src.Close()
		skills, err := src.Select(context.Background(), names, false)
		must(t, err)
		ls, err := pull.LockedSource(src, ref, pull.KindBundle)
		must(t, err)
		_, err = pull.Pull(context.Background(), src, skills, pull.Options{To: dir, Lock: &ls, Sync: true})
		must(t, err)
		l, err := pull.ReadLock(dir)
		must(t, err)
		return l
	}
	pullAs("one.skb", "csv-cleaner", "acme/pdf-processing")
	l := pullAs("two.skb", "csv-cleaner")
	if len(l.Sources) != 2 || len(l.Source("one.skb").Skills) != 1 || l.Source("two.skb").Skills[0].Dest != "csv-cleaner" {
		t.Fatalf("after moving csv-cleaner: %+v", l.Sources)
	}
	l = pullAs("two.skb", "acme/pdf-processing")
	if len(l.Sources) != 1 || len(l.Source("two.skb").Skills) != 2 {
		t.Fatalf("after moving pdf-processing: %+v", l.Sources)
	}
}

// BenchmarkSyncUnchangedLocked is BenchmarkSyncUnchanged with the lock
// kept: the lock is read, compared and not rewritten.
func BenchmarkSyncUnchangedLocked(b *testing.B) {
	src, err := pull.OpenBundle(writeLibrary(b, killLibrary(2)), nil)
	must(b, err)
	defer src.Close()
	dir := b.TempDir()
	skills, err := src.Select(context.Background(), nil, true)
	must(b, err)
	ls, err := pull.LockedSource(src, "lib.skb", pull.KindBundle)
	must(b, err)
	opt := pull.Options{To: dir, KeepPath: true, Sync: true, Lock: &ls}
	_, err = pull.Pull(context.Background(), src, skills, opt)
	must(b, err)
	for b.Loop() {
		if res, err := pull.Pull(context.Background(), src, skills, opt); err != nil || res.Written != 0 {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkParseLock parses the lock of the 2,000-file library.
func BenchmarkParseLock(b *testing.B) {
	dir := b.TempDir()
	data := lockedPull(b, writeLibrary(b, killLibrary(2)), dir)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := pull.ParseLock("l", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareLocal hashes the folders of the 2,000-file library
// against their lock entries, as pull --check does.
func BenchmarkCompareLocal(b *testing.B) {
	dir := b.TempDir()
	data := lockedPull(b, writeLibrary(b, killLibrary(2)), dir)
	l, err := pull.ParseLock("l", data)
	must(b, err)
	for b.Loop() {
		for i := range l.Sources[0].Skills {
			if st, err := pull.CompareLocal(dir, &l.Sources[0].Skills[i]); err != nil || st.Modified {
				b.Fatal(st, err)
			}
		}
	}
}
