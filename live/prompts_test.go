package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// listedPrompts lists the names of the prompts cs is offered, in order.
func listedPrompts(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range res.Prompts {
		out = append(out, p.Name)
	}
	return out
}

// TestLivePrompts: a skill added to a live library gets a prompt, with
// notifications/prompts/list_changed; one removed loses it; an edit of a
// skill's body changes no prompt and notifies no one; an edit of its
// description changes its prompt's and notifies.
func TestLivePrompts(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
			l := startLive(t, Options{NoWatch: true, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
			var ev servetest.Events
			cs := connectMem(t, l.Server(), p.version, ev.Options())
			ctx := context.Background()
			names := func() []string { t.Helper(); return listedPrompts(t, cs) }
			if got := names(); !slices.Equal(got, []string{"alpha", serve.PromptUseSkill}) {
				t.Fatalf("prompts %v", got)
			}
			refresh := func() {
				t.Helper()
				if err := l.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// Under 2026-07-28 notifications travel through
			// subscriptions/listen, which the client opens in the
			// background: add skills until one is reported.
			var added []string
			for ev.Count("prompts_changed") == 0 {
				if len(added) > 50 {
					t.Fatal("no prompts/list_changed")
				}
				name := fmt.Sprintf("beta%d", len(added))
				servetest.WriteFiles(t, dir, map[string]string{name + "/SKILL.md": servetest.SkillMD(name, "Second.")})
				added = append(added, name)
				refresh()
				time.Sleep(20 * time.Millisecond)
			}
			if got := names(); !slices.Equal(got, append(append([]string{"alpha"}, added...), serve.PromptUseSkill)) {
				t.Errorf("prompts after adding %v: %v", added, got)
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: added[0]}); err != nil {
				t.Errorf("the new prompt: %v", err)
			}

			mark, resources := ev.Count("prompts_changed"), ev.Count("list_changed")
			servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.") + "More body.\n"})
			refresh()
			servetest.Eventually(t, "resources/list_changed", func() bool { return ev.Count("list_changed") > resources })
			time.Sleep(50 * time.Millisecond) // the SDK sends list_changed 10 ms after a change
			if n := ev.Count("prompts_changed"); n != mark {
				t.Errorf("an edit of a body sent prompts/list_changed (%d, then %d)", mark, n)
			}

			// A new description is a new prompt description: the list changed.
			mark = ev.Count("prompts_changed")
			servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First, reworded.") + "More body.\n"})
			refresh()
			servetest.Eventually(t, "prompts/list_changed for a description", func() bool { return ev.Count("prompts_changed") > mark })
			mark = ev.Count("prompts_changed")

			for _, name := range added {
				if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			refresh()
			servetest.Eventually(t, "prompts/list_changed", func() bool { return ev.Count("prompts_changed") > mark })
			if got := names(); !slices.Equal(got, []string{"alpha", serve.PromptUseSkill}) {
				t.Errorf("prompts after removing %v: %v", added, got)
			}
		})
	}
}

// TestLivePromptLimit: a live library that grows past the prompt limit
// loses its per-skill prompts, with one notifications/prompts/list_changed,
// and catalog_status says why; back under the limit they return, with
// another.
func TestLivePromptLimit(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First."), "beta/SKILL.md": servetest.SkillMD("beta", "Second.")})
	l := startLive(t, Options{NoWatch: true, Server: serve.Options{PromptLimit: 2}, Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
	var ev servetest.Events
	cs := connectMem(t, l.Server(), "2025-11-25", ev.Options())
	ctx := context.Background()
	names := func() []string { t.Helper(); return listedPrompts(t, cs) }
	refresh := func() {
		t.Helper()
		if err := l.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// notified waits for the n-th prompts/list_changed, then long enough
	// for a second one the SDK would send (10 ms after a change) to arrive.
	notified := func(what string, n int) {
		t.Helper()
		servetest.Eventually(t, what+": prompts/list_changed", func() bool { return ev.Count("prompts_changed") >= n })
		time.Sleep(100 * time.Millisecond)
		if got := ev.Count("prompts_changed"); got != n {
			t.Errorf("%s: %d prompts/list_changed in all, want %d", what, got, n)
		}
	}
	if got := names(); !slices.Equal(got, []string{"alpha", "beta", serve.PromptUseSkill}) {
		t.Fatalf("at the limit: prompts %v", got)
	}
	if st := promptStatus(t, cs); !st.Enabled || st.Prompts != 2 || st.Limit != 2 || st.Reason != "" {
		t.Errorf("at the limit: catalog_status %+v", st)
	}

	servetest.WriteFiles(t, dir, map[string]string{"gamma/SKILL.md": servetest.SkillMD("gamma", "Third.")})
	refresh()
	notified("past the limit", 1)
	if got := names(); !slices.Equal(got, []string{serve.PromptUseSkill}) {
		t.Errorf("past the limit: prompts %v", got)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "alpha"}); err == nil {
		t.Error("past the limit: alpha's prompt still answers")
	}
	st := promptStatus(t, cs)
	if st.Enabled || st.Prompts != 0 || st.Skills != 3 || st.Limit != 2 || !strings.Contains(st.Reason, "3 skills, more than the prompt limit of 2") {
		t.Errorf("past the limit: catalog_status %+v", st)
	}

	if err := os.RemoveAll(filepath.Join(dir, "alpha")); err != nil {
		t.Fatal(err)
	}
	refresh()
	notified("back at the limit", 2)
	if got := names(); !slices.Equal(got, []string{"beta", "gamma", serve.PromptUseSkill}) {
		t.Errorf("back at the limit: prompts %v", got)
	}
	if st := promptStatus(t, cs); !st.Enabled || st.Prompts != 2 || st.Reason != "" {
		t.Errorf("back at the limit: catalog_status %+v", st)
	}
}

// promptStatus is catalog_status's prompts section for cs.
func promptStatus(t *testing.T, cs *mcp.ClientSession) serve.PromptStatus {
	t.Helper()
	out, _, err := refreshStatus(context.Background(), cs, false)
	if err != nil {
		t.Fatal(err)
	}
	return out.Prompts
}
