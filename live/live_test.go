package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/livetest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// startLive builds a Live server and runs it until the test ends.
func startLive(t testing.TB, opt Options) *Live {
	t.Helper()
	if opt.Server.Logger == nil {
		opt.Server.Logger = servetest.Logger(t)
	}
	if opt.Debounce == 0 {
		opt.Debounce = livetest.Debounce
	}
	return livetest.Start(t, func() (*Live, error) { return New(opt) })
}

// digestOf returns the digest skills/get reports for the file uri of the
// skill skillURI, or "" when the skill or the file is not served.
func digestOf(t testing.TB, cs *mcp.ClientSession, skillURI, uri string) string {
	t.Helper()
	res, err := getSkill(context.Background(), cs, skillURI)
	if err != nil {
		return ""
	}
	var e entry
	if err := json.Unmarshal(res.Skill, &e); err != nil {
		t.Fatal(err)
	}
	for _, r := range e.Resources {
		if r.URI == uri {
			return r.Digest
		}
	}
	return ""
}

// TestLiveEdits edits, adds and removes skill files under a watched folder
// and sees each change reach a client, with a list_changed notification,
// over both protocol revisions. Rescans are off: the watch alone does it.
func TestLiveEdits(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			servetest.WriteFiles(t, dir, map[string]string{
				"alpha/SKILL.md":       servetest.SkillMD("alpha", "First."),
				"alpha/notes/guide.md": "Guide v1\n",
				"beta/SKILL.md":        servetest.SkillMD("beta", "Second."),
			})
			l := startLive(t, Options{Build: build.Options{Libraries: []build.Library{{Namespace: "lib", Root: dir}}}})
			var ev servetest.Events
			cs := connectMem(t, l.Server(), p.version, ev.Options())
			const alpha, guide = "skill://lib/alpha/SKILL.md", "skill://lib/alpha/notes/guide.md"

			// The notification stream may open after Connect returns
			// (2026-07-28): change a probe file until one arrives.
			for i := 0; ev.Count("list_changed") == 0; i++ {
				servetest.WriteFiles(t, dir, map[string]string{"beta/probe.md": fmt.Sprint("probe ", i, "\n")})
				wait := time.Now().Add(500 * time.Millisecond)
				for ev.Count("list_changed") == 0 && time.Now().Before(wait) {
					time.Sleep(10 * time.Millisecond)
				}
				if i > 20 {
					t.Fatal("no list_changed notification")
				}
			}

			step := func(what string, change func(), done func() bool) {
				t.Helper()
				n := ev.Count("list_changed")
				change()
				servetest.Eventually(t, what, done)
				servetest.Eventually(t, what+": list_changed", func() bool { return ev.Count("list_changed") > n })
			}
			before := digestOf(t, cs, alpha, guide)
			if before == "" {
				t.Fatal("guide.md not served")
			}
			step("an edited file", func() {
				servetest.WriteFiles(t, dir, map[string]string{"alpha/notes/guide.md": "Guide v2, longer\n"})
			}, func() bool { d := digestOf(t, cs, alpha, guide); return d != "" && d != before })
			step("a new skill", func() {
				servetest.WriteFiles(t, dir, map[string]string{"gamma/deep/SKILL.md": servetest.SkillMD("deep", "Third.")})
			}, func() bool { return slices.Contains(served(t, cs), "skill://lib/gamma/deep/SKILL.md") })
			// gamma/deep was created after the watch started: it is watched.
			deep := "skill://lib/gamma/deep/SKILL.md"
			old := digestOf(t, cs, deep, deep)
			step("an edit in a new folder", func() {
				servetest.WriteFiles(t, dir, map[string]string{"gamma/deep/SKILL.md": servetest.SkillMD("deep", "Third, edited.")})
			}, func() bool { d := digestOf(t, cs, deep, deep); return d != "" && d != old })
			step("a removed file", func() {
				if err := os.Remove(filepath.Join(dir, "alpha/notes/guide.md")); err != nil {
					t.Fatal(err)
				}
			}, func() bool { return digestOf(t, cs, alpha, guide) == "" })
			step("a removed skill", func() {
				if err := os.RemoveAll(filepath.Join(dir, "beta")); err != nil {
					t.Fatal(err)
				}
			}, func() bool { return !slices.Contains(served(t, cs), "skill://lib/beta/SKILL.md") })
			if st := l.Status(); st.Watch != "on" || st.WatchedFolders == 0 || len(st.Warnings) != 0 {
				t.Errorf("status %+v", st)
			}
		})
	}
}

// TestLiveSubscriptions: a subscribed file gets notifications/resources/
// updated when its digest changes, and only then; after unsubscribing, no
// more; a subscribed file that disappears is reported too.
func TestLiveSubscriptions(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			servetest.WriteFiles(t, dir, map[string]string{
				"alpha/SKILL.md":  servetest.SkillMD("alpha", "First."),
				"alpha/notes.md":  "notes 0\n",
				"alpha/other.md":  "other 0\n",
				"beta/SKILL.md":   servetest.SkillMD("beta", "Second."),
				"beta/refs/a.txt": "a\n",
			})
			l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
			var ev servetest.Events
			cs := connectMem(t, l.Server(), p.version, ev.Options())
			ctx := context.Background()
			const notes, beta = "skill://alpha/notes.md", "skill://beta/SKILL.md"
			for _, u := range []string{notes, beta} {
				if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: u}); err != nil {
					t.Fatal(err)
				}
			}
			version := 0
			edit := func(rel string) {
				t.Helper()
				version++
				content := fmt.Sprintf("version %d\n", version)
				if rel == "beta/SKILL.md" {
					content = servetest.SkillMD("beta", fmt.Sprintf("Second, version %d.", version))
				}
				servetest.WriteFiles(t, dir, map[string]string{rel: content})
				if err := l.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// Under 2026-07-28 the subscription streams open in the
			// background: edit both until each has reported once.
			for i := 0; ev.Count("updated "+notes) == 0 || ev.Count("updated "+beta) == 0; i++ {
				if i > 50 {
					t.Fatalf("subscriptions never reported: %v", ev.List())
				}
				edit("alpha/notes.md")
				edit("beta/SKILL.md")
				time.Sleep(20 * time.Millisecond)
			}
			// A barrier: the update for beta, which comes after everything
			// sent before it on the same session.
			barrier := func() []string {
				t.Helper()
				n := ev.Count("updated " + beta)
				start := len(ev.List())
				edit("beta/SKILL.md")
				servetest.Eventually(t, "the barrier update", func() bool { return ev.Count("updated "+beta) > n })
				return ev.List()[start:]
			}
			barrier()

			mark := len(ev.List())
			edit("alpha/other.md") // not subscribed, same skill
			edit("alpha/notes.md")
			servetest.Eventually(t, "the update of notes.md", func() bool { return ev.Count("updated "+notes) > 0 && len(ev.List()) > mark })
			got := barrier()
			var updates []string
			for _, e := range append(ev.List()[mark:len(ev.List())-len(got)], got...) {
				if strings.HasPrefix(e, "updated ") {
					updates = append(updates, e)
				}
			}
			if want := []string{"updated " + notes, "updated " + beta}; !slices.Equal(updates, want) {
				t.Errorf("updates %q, want %q", updates, want)
			}

			if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: notes}); err != nil {
				t.Fatal(err)
			}
			// Under 2026-07-28 Unsubscribe cancels the stream in the
			// background: an update may still slip through at first. Two
			// clean rounds in a row show the subscription is gone.
			clean := 0
			for i := 0; clean < 2; i++ {
				if i > 20 {
					t.Fatalf("updates of %s keep coming after unsubscribing", notes)
				}
				mark = len(ev.List())
				edit("alpha/notes.md")
				barrier()
				if slices.Contains(ev.List()[mark:], "updated "+notes) {
					if p.version != "" {
						t.Fatalf("update of %s after unsubscribing (2025-11-25 unsubscribes synchronously)", notes)
					}
					clean = 0
				} else {
					clean++
				}
			}

			// A subscribed file that disappears is reported.
			const a = "skill://beta/refs/a.txt"
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: a}); err != nil {
				t.Fatal(err)
			}
			for i := 0; ev.Count("updated "+a) == 0; i++ {
				if i > 50 {
					t.Fatalf("the subscription to %s never reported", a)
				}
				edit("beta/refs/a.txt")
				time.Sleep(20 * time.Millisecond)
			}
			n := ev.Count("updated " + a)
			if err := os.Remove(filepath.Join(dir, "beta/refs/a.txt")); err != nil {
				t.Fatal(err)
			}
			if err := l.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			servetest.Eventually(t, "the update of a removed file", func() bool { return ev.Count("updated "+a) > n })
		})
	}
}

// TestLiveNoChange: a rescan that finds nothing new swaps nothing.
func TestLiveNoChange(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
	l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
	snap := l.Server().Snapshot()
	for range 3 {
		if err := l.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if l.Server().Snapshot() != snap {
		t.Error("an unchanged rescan swapped the catalog")
	}
	// Touching a file (new time, same bytes) rebuilds the same bundle.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "alpha/SKILL.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l.Server().Snapshot() != snap {
		t.Error("a touched file swapped the catalog")
	}
	if st := l.Status(); st.Scans != 5 || st.Watch != "off" {
		t.Errorf("status %+v", st)
	}
}

// TestLiveHammer swaps catalogs under readers: every skills/list answer
// comes from one catalog (all its descriptions carry the same generation).
// Run it with -race.
func TestLiveHammer(t *testing.T) {
	dir := t.TempDir()
	const n = 12
	write := func(gen int) {
		files := map[string]string{}
		for i := range n {
			name := fmt.Sprintf("s%02d", i)
			files[name+"/SKILL.md"] = servetest.SkillMD(name, fmt.Sprintf("Generation %d.", gen))
			files[name+"/data.txt"] = strings.Repeat(fmt.Sprint(gen), gen%7+1)
		}
		servetest.WriteFiles(t, dir, files)
	}
	write(0)
	l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
	sessions := []*mcp.ClientSession{
		connectMem(t, l.Server(), "2025-11-25", nil),
		connectMem(t, l.Server(), "", nil),
		connectHTTP(t, l.Server(), "", nil),
	}
	// The readers run while the catalog is swapped for at least a second,
	// and on until there were 3 swaps and 20 reads (a loaded machine may
	// need longer), at most 30 s.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	var reads, mixed atomic.Int64
	var firstErr atomic.Value
	for i := range 4 {
		cs := sessions[i%len(sessions)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				res, err := listSkills(context.Background(), cs, "")
				if err != nil {
					firstErr.CompareAndSwap(nil, err.Error())
					return
				}
				gens := map[string]bool{}
				for _, raw := range res.Skills {
					var e entry
					if err := json.Unmarshal(raw, &e); err != nil {
						firstErr.CompareAndSwap(nil, err.Error())
						return
					}
					gens[fmt.Sprint(e.Frontmatter["description"])] = true
				}
				if len(res.Skills) != n || len(gens) != 1 {
					mixed.Add(1)
				}
				rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://s03/data.txt"})
				if err != nil || len(rr.Contents) != 1 {
					firstErr.CompareAndSwap(nil, fmt.Sprint("read: ", err))
					return
				}
				reads.Add(1)
			}
		}()
	}
	swaps := 0
	for gen := 1; ; gen++ {
		took := time.Since(start)
		if took > 30*time.Second || took > time.Second && swaps >= 3 && reads.Load() >= 20 || firstErr.Load() != nil {
			break
		}
		write(gen)
		if err := l.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		swaps++
	}
	cancel()
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		t.Fatal(e)
	}
	if mixed.Load() != 0 {
		t.Errorf("%d of %d answers mixed two catalogs", mixed.Load(), reads.Load())
	}
	if reads.Load() < 20 || swaps < 3 {
		t.Errorf("%d reads, %d swaps: the test did not exercise anything", reads.Load(), swaps)
	}
	t.Logf("%d reads during %d swaps", reads.Load(), swaps)
}

// TestLiveCatalogStatusRefresh: catalog_status refresh=true rescans the
// libraries (here neither watched nor rescanned).
func TestLiveCatalogStatusRefresh(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
	l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			cs := connectMem(t, l.Server(), p.version, nil)
			name := fmt.Sprintf("skill-%s", strings.ReplaceAll(p.name, "-", ""))
			servetest.WriteFiles(t, dir, map[string]string{name + "/SKILL.md": servetest.SkillMD(name, "New.")})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
				Name: "skills_mcp_catalog_status", Arguments: map[string]any{"refresh": true}})
			if err != nil || res.IsError {
				t.Fatalf("catalog_status: %v %+v", err, res)
			}
			out, _ := json.Marshal(res.StructuredContent)
			if !strings.Contains(string(out), `"refresh":"done"`) {
				t.Errorf("catalog_status said %s", out)
			}
			if !slices.Contains(served(t, cs), "skill://"+name+"/SKILL.md") {
				t.Error("refresh=true did not rescan")
			}
		})
	}
}

// TestLiveStdioSIGHUP: the built command, serving a configuration file with
// the watch and rescans off, reloads it on SIGHUP.
func TestLiveStdioSIGHUP(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGHUP on Windows")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "skills.json")
	one := `{"libraries": [{"namespace": "one", "root": "one"}]}`
	servetest.WriteFiles(t, dir, map[string]string{
		"one/alpha/SKILL.md": servetest.SkillMD("alpha", "In one."),
		"two/beta/SKILL.md":  servetest.SkillMD("beta", "In two."),
		"skills.json":        one,
	})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			servetest.WriteFiles(t, dir, map[string]string{"skills.json": one})
			cs, cmd := connectCommand(t, p.version, nil, "serve", "--config", cfg, "--no-watch", "--rescan-seconds", "0")
			if got := served(t, cs); !slices.Equal(got, []string{"skill://one/alpha/SKILL.md"}) {
				t.Fatalf("served %q", got)
			}
			servetest.WriteFiles(t, dir, map[string]string{"skills.json": `{"libraries": [{"namespace": "one", "root": "one"}, {"namespace": "two", "root": "two"}]}`})
			if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			servetest.Eventually(t, "the library added before SIGHUP", func() bool {
				return slices.Contains(served(t, cs), "skill://two/beta/SKILL.md")
			})
		})
	}
}

// TestLiveStdioArguments: folders and zips given as arguments (or in
// SKILLS_DIR) are served live: one like --root, several under their folder
// names, mixed with bundle files and library flags.
func TestLiveStdioArguments(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "alpha-lib"), filepath.Join(dir, "beta-lib")
	servetest.WriteFiles(t, a, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "A.")})
	servetest.WriteFiles(t, b, map[string]string{"beta/SKILL.md": servetest.SkillMD("beta", "B.")})
	xdir := filepath.Join(dir, "x")
	servetest.WriteFiles(t, xdir, map[string]string{"x/SKILL.md": servetest.SkillMD("x", "X.")})
	bundle := bundleFile(t, xdir, build.Library{Namespace: "acme"})
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"one folder", nil, []string{a}, []string{"skill://alpha/SKILL.md"}},
		{"two folders and a bundle", nil, []string{a, bundle, b},
			[]string{"skill://acme/x/SKILL.md", "skill://alpha-lib/alpha/SKILL.md", "skill://beta-lib/beta/SKILL.md"}},
		{"comma list", nil, []string{a + "," + b}, []string{"skill://alpha-lib/alpha/SKILL.md", "skill://beta-lib/beta/SKILL.md"}},
		{"SKILLS_DIR", []string{"SKILLS_DIR=" + a + "," + b}, nil,
			[]string{"skill://alpha-lib/alpha/SKILL.md", "skill://beta-lib/beta/SKILL.md"}},
		{"with --lib", nil, []string{"--lib", "x=" + a, b}, []string{"skill://beta-lib/beta/SKILL.md", "skill://x/alpha/SKILL.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, _ := connectCommand(t, "", tc.env, append([]string{"serve"}, tc.args...)...)
			if got := served(t, cs); !slices.Equal(got, tc.want) {
				t.Errorf("served %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("live edit", func(t *testing.T) {
		cs, _ := connectCommand(t, "", nil, "serve", a)
		servetest.WriteFiles(t, a, map[string]string{"gamma/SKILL.md": servetest.SkillMD("gamma", "G.")})
		servetest.Eventually(t, "the new skill over stdio", func() bool {
			return slices.Contains(served(t, cs), "skill://gamma/SKILL.md")
		})
	})
}

// TestLiveDescribeSkills: with --describe-skills, a change to a skill's
// description changes get_skill's description and sends
// notifications/tools/list_changed. (That other changes send none is
// TestDescribeDiffers: a notification that does not come cannot be waited
// for.)
func TestLiveDescribeSkills(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			servetest.WriteFiles(t, dir, map[string]string{
				"alpha/SKILL.md":  servetest.SkillMD("alpha", "Version 0."),
				"alpha/notes.txt": "notes 0\n",
			})
			l := startLive(t, Options{NoWatch: true, Server: serve.Options{DescribeSkills: true},
				Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
			var ev servetest.Events
			cs := connectMem(t, l.Server(), p.version, ev.Options())
			ctx := context.Background()
			version := 0
			describe := func() {
				t.Helper()
				version++
				servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", fmt.Sprintf("Version %d.", version))})
				if err := l.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; ev.Count("tools_changed") == 0; i++ {
				if i > 50 {
					t.Fatal("no tools/list_changed")
				}
				describe()
				time.Sleep(20 * time.Millisecond)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var desc string
			for _, tool := range tools.Tools {
				if tool.Name == "skills_mcp_get_skill" {
					desc = tool.Description
				}
			}
			if want := fmt.Sprintf("Version %d.", version); !strings.Contains(desc, want) {
				t.Errorf("get_skill description lacks %q:\n%s", want, desc)
			}
		})
	}
}

// TestLiveSettledRescan: on a tree old enough for the cache to trust, a
// rescan that finds nothing changed rebuilds nothing, and an edit in place
// (same size, new time) is still found.
func TestLiveSettledRescan(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{
		"alpha/SKILL.md":  servetest.SkillMD("alpha", "First."),
		"alpha/notes.txt": "version 1\n",
	})
	settle := func(tm time.Time) {
		t.Helper()
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(p, tm, tm)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	settle(time.Now().Add(-time.Hour))
	// A build that finds the same bundle swaps nothing either, so whether
	// one ran shows only in the log: it logs "library built" or "library
	// unchanged", the Unchanged shortcut nothing.
	var logged builds
	l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}},
		Server: serve.Options{Logger: slog.New(&logged)}})
	cs := connectMem(t, l.Server(), "", nil)
	const alpha, notes = "skill://alpha/SKILL.md", "skill://alpha/notes.txt"
	before := digestOf(t, cs, alpha, notes)
	snap := l.Server().Snapshot()
	n := logged.count()
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l.Server().Snapshot() != snap {
		t.Error("a rescan of an unchanged tree swapped the catalog")
	}
	if logged.count() != n {
		t.Error("a rescan of an unchanged tree built the library")
	}
	f, err := os.OpenFile(filepath.Join(dir, "alpha/notes.txt"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("VERSION 2\n"), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	later := time.Now().Add(-30 * time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "alpha/notes.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := digestOf(t, cs, alpha, notes); after == before || after == "" {
		t.Errorf("an edit in place was missed: digest %s, before %s", after, before)
	}
}

// builds is a slog.Handler that counts the records of library builds.
type builds struct{ n atomic.Int32 }

func (b *builds) Enabled(context.Context, slog.Level) bool { return true }
func (b *builds) WithAttrs([]slog.Attr) slog.Handler       { return b }
func (b *builds) WithGroup(string) slog.Handler            { return b }
func (b *builds) count() int32                             { return b.n.Load() }

func (b *builds) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "library built" || r.Message == "library unchanged" {
		b.n.Add(1)
	}
	return nil
}

// TestLiveToolCapabilities: a live server declares its tool list changing
// only with DescribeSkills (get_skill's description follows the catalog),
// and its prompt list changing unless per-skill prompts are off (the
// library's skills are its prompts).
func TestLiveToolCapabilities(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
	for _, describe := range []bool{false, true} {
		for _, limit := range []int{0, -1} {
			l := startLive(t, Options{NoWatch: true, Server: serve.Options{DescribeSkills: describe, PromptLimit: limit},
				Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
			caps := connectMem(t, l.Server(), "2025-11-25", nil).InitializeResult().Capabilities
			// Per-skill prompts change with the library unless they are off.
			if caps.Tools == nil || caps.Tools.ListChanged != describe || caps.Prompts == nil || caps.Prompts.ListChanged != (limit >= 0) {
				t.Errorf("describe=%v limit=%d: tools %+v prompts %+v", describe, limit, caps.Tools, caps.Prompts)
			}
		}
	}
}
