package pull

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
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

// TestCommitRollback makes the second rename of a commit fail: the first
// file, already replaced, is put back.
func TestCommitRollback(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	os.MkdirAll(filepath.Join(dir, "s"), 0o755)
	os.WriteFile(filepath.Join(dir, "s", "a"), []byte("old a"), 0o644)
	os.WriteFile(filepath.Join(dir, "s", ".a.pull-1"), []byte("new a"), 0o644)
	os.WriteFile(filepath.Join(dir, "s", ".b.pull-1"), []byte("new b"), 0o644)
	tx := &txn{root: root, staged: []staged{{"s/.a.pull-1", "s/a"}, {"s/.b.pull-1", "s/b"}, {"s/.c.pull-1", "s/c"}}}
	if err := tx.commit(); err == nil {
		t.Fatal("commit of a missing temporary file succeeded")
	}
	tx.rollback()
	ents, _ := os.ReadDir(filepath.Join(dir, "s"))
	if len(ents) != 1 || ents[0].Name() != "a" {
		t.Fatalf("after rollback: %v", ents)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "s", "a")); string(data) != "old a" {
		t.Fatalf("a = %q, want the old content back", data)
	}
}
