package pull

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// FuzzParseEntry feeds skill entries from an untrusted server to the
// parser: it must never panic, and every entry it accepts must only name
// clean relative paths inside the skill folder.
func FuzzParseEntry(f *testing.F) {
	for _, s := range []string{
		`{"uri":"skill://acme/billing/refunds/SKILL.md","frontmatter":{"name":"refunds","description":"d"},"resources":[{"uri":"skill://acme/billing/refunds/SKILL.md","digest":"sha256:7bf132292922e68d20327a053936e393c153cda0c4c7965ae79e0d2fb3b671d1","size":1106},{"uri":"skill://acme/billing/refunds/examples/email.md","digest":"sha256:839d9fa67e67523648e227b2ec20a08611ad89c963ffec12693c203ce827c682","size":415}]}`,
		`{"uri":"skill://x/SKILL.md","frontmatter":{"name":"x"},"resources":"dynamic"}`,
		`{"uri":"skill://x/SKILL.md","frontmatter":{"name":"x"},"resources":[{"uri":"skill://x/../../y","digest":"sha256:839d9fa67e67523648e227b2ec20a08611ad89c963ffec12693c203ce827c682","size":1}]}`,
		`{"uri":"github://o/r/x/SKILL.md","frontmatter":{"name":"x"},"resources":[{"uri":"github://o/r/x/SKILL.md","digest":"sha256:839d9fa67e67523648e227b2ec20a08611ad89c963ffec12693c203ce827c682","size":0}]}`,
		`{"uri":"skill://x/SKILL.md","frontmatter":{"name":"x"},"resources":[{"uri":"skill://x/a%2Fb","digest":"sha256:839d9fa67e67523648e227b2ec20a08611ad89c963ffec12693c203ce827c682","size":1}]}`,
		`{"uri":"skill://x/SKILL.md","frontmatter":[],"resources":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		sk, err := parseEntry(raw)
		if err != nil {
			return
		}
		for _, p := range append([]string{sk.Path}, filesOf(sk)...) {
			if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") ||
				strings.ContainsAny(p, "\\\x00") || !filepath.IsLocal(filepath.FromSlash(p)) {
				t.Fatalf("accepted unsafe path %q from %s", p, raw)
			}
		}
		if sk.Files[0].URI != sk.URI || sk.Files[0].Path != "SKILL.md" {
			t.Fatalf("SKILL.md not first: %+v", sk.Files[0])
		}
		if _, err := json.Marshal(sk); err != nil {
			t.Fatal(err)
		}
	})
}

func filesOf(sk *Skill) []string {
	var out []string
	for _, f := range sk.Files {
		out = append(out, f.Path)
	}
	return out
}

// TestRecoverLitter lays out each state a run can be killed in during a
// journaled swap, and what an exchange or a staging leaves: the next run
// finishes or undoes each, removes the rest, and leaves other names alone.
func TestRecoverLitter(t *testing.T) {
	dir := t.TempDir()
	put := func(p, data string) {
		t.Helper()
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const a, b, c, d, e = "000000000000000a", "000000000000000b", "000000000000000c", "000000000000000d", "000000000000000e"
	// a: journal written, no rename yet: undone.
	put("ns/sa/SKILL.md", "old a")
	put("ns/.skills-mcp-stage-"+a+"/SKILL.md", "new a")
	put("ns/.skills-mcp-swap-"+a, "sa\n")
	// b: the old folder renamed away, the new one not yet in place: finished.
	put("ns/.skills-mcp-old-"+b+"/SKILL.md", "old b")
	put("ns/.skills-mcp-stage-"+b+"/SKILL.md", "new b")
	put("ns/.skills-mcp-swap-"+b, "sb\n")
	// c: both renames done, the old folder not yet removed.
	put("ns/sc/SKILL.md", "new c")
	put("ns/.skills-mcp-old-"+c+"/SKILL.md", "old c")
	put("ns/.skills-mcp-swap-"+c, "sc\n")
	// d: a staged folder without a journal (being built, or the old folder
	// after an exchange).
	put("ns/sd/SKILL.md", "d")
	put("ns/.skills-mcp-stage-"+d+"/SKILL.md", "either")
	// e: the first rename done and the staged folder lost: the old one back.
	put("ns/.skills-mcp-old-"+e+"/SKILL.md", "old e")
	put("ns/.skills-mcp-swap-"+e, "se\n")
	// Not ours.
	put("ns/.skills-mcp-stage-mine/x", "user")
	put("ns/.skills-mcp-stage-000000000000000G/x", "user")
	put("ns/.sa.pull-1", "user")

	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	n, err := recoverLitter(root, "ns")
	if err != nil || n != 5 {
		t.Fatalf("recover: %d, %v", n, err)
	}
	got := map[string]string{}
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			got[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	want := map[string]string{
		"ns/sa/SKILL.md": "old a", "ns/sb/SKILL.md": "new b", "ns/sc/SKILL.md": "new c", "ns/sd/SKILL.md": "d", "ns/se/SKILL.md": "old e",
		"ns/.skills-mcp-stage-mine/x": "user", "ns/.skills-mcp-stage-000000000000000G/x": "user", "ns/.sa.pull-1": "user",
	}
	if !maps.Equal(got, want) {
		t.Fatalf("after recovery:\n%v\nwant\n%v", got, want)
	}
	if n, err := recoverLitter(root, "ns"); n != 0 || err != nil {
		t.Fatalf("second recovery: %d, %v", n, err)
	}

	// A damaged journal is not guessed at.
	put("ns/.skills-mcp-swap-"+a, "../x\n")
	if _, err := recoverLitter(root, "ns"); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("damaged journal: %v", err)
	}
}

// TestJournaledSwap replaces a skill folder with the two journaled renames
// used where names cannot be exchanged, and checks the result and that
// nothing is left.
func TestJournaledSwap(t *testing.T) {
	journaledOnly = true
	defer func() { journaledOnly = false }()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	os.MkdirAll(filepath.Join(dir, "ns", "s"), 0o755)
	os.WriteFile(filepath.Join(dir, "ns", "s", "keep.md"), []byte("keep"), 0o644)
	os.WriteFile(filepath.Join(dir, "ns", "s", "stale.md"), []byte("stale"), 0o644)
	st, err := newStage(root, "ns/s")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.keep("keep.md"); err != nil {
		t.Fatal(err)
	}
	if err := st.create("sub/new.md", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err == nil {
		t.Fatal("created a file in a folder not made")
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.mkdir("sub/new.md"))
	must(st.create("sub/new.md", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }))
	must(st.commit(true))
	ents, _ := os.ReadDir(filepath.Join(dir, "ns"))
	if len(ents) != 1 || ents[0].Name() != "s" {
		t.Fatalf("left in ns: %v", ents)
	}
	for p, want := range map[string]string{"keep.md": "keep", "sub/new.md": "new"} {
		if data, _ := os.ReadFile(filepath.Join(dir, "ns", "s", p)); string(data) != want {
			t.Errorf("%s = %q", p, data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ns", "s", "stale.md")); !os.IsNotExist(err) {
		t.Errorf("stale.md: %v", err)
	}
}

// TestLockDest: a second pull into a folder another pull is writing to is
// refused, and can go once the first is done.
func TestLockDest(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no folder lock here")
	}
	dir := t.TempDir()
	open := func() *os.Root {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	unlock, err := lockDest(open(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockDest(open(), dir); err == nil || !strings.Contains(err.Error(), "another pull is writing to it") {
		t.Fatalf("second lock: %v", err)
	}
	unlock()
	unlock2, err := lockDest(open(), dir)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock2()
}

// FuzzCounter checks that the message counter of a live connection gives
// the same answer however the stream is split into reads: the same bytes
// delivered, and a refusal exactly when one of them puts a message over
// its budget.
func FuzzCounter(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: {}\r\n\r\n"), uint16(10), uint8(1), uint8(3))
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\n{}\n"), uint16(17), uint8(0), uint8(5))
	f.Add([]byte("0123456789\n"), uint16(10), uint8(0), uint8(11))
	f.Add([]byte("x\r\r\n\ny"), uint16(1), uint8(1), uint8(2))
	f.Add([]byte("plain json body"), uint16(8), uint8(2), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, max uint16, mode, chunk uint8) {
		read := func(step int) (int, bool) {
			c := &counter{r: &stepReader{data: data, step: step}, w: &wire{}, budget: func() int64 { return int64(max) },
				lines: mode%3 == 0, sse: mode%3 == 1}
			n, err := io.Copy(io.Discard, c)
			if err != nil && !errors.Is(err, errTooLarge) {
				t.Fatal(err)
			}
			return int(n), err != nil
		}
		n1, tripped1 := read(1)
		n2, tripped2 := read(int(chunk) + 1)
		if n1 != n2 || tripped1 != tripped2 {
			t.Fatalf("one byte at a time: %d bytes, refused %v; %d at a time: %d bytes, refused %v", n1, tripped1, chunk+1, n2, tripped2)
		}
		if !tripped1 && n1 != len(data) {
			t.Fatalf("delivered %d of %d bytes without a refusal", n1, len(data))
		}
		if mode%3 == 2 && tripped1 != (len(data) > int(max)) {
			t.Fatalf("a body of %d bytes, budget %d: refused %v", len(data), max, tripped1)
		}
	})
}

// stepReader returns at most step bytes per read.
type stepReader struct {
	data []byte
	step int
}

func (r *stepReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.step, len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}
