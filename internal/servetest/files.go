package servetest

// Skill folders written for a test, waiting for a change to show, and the
// notifications a client received: what the tests of serve, live and
// teamserver each need around a catalog that changes.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SkillMD is a SKILL.md for a skill folder named name.
func SkillMD(name, desc string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n# %s\n", name, desc, name)
}

// WriteFiles writes path → content under dir, making folders as needed.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Eventually polls cond until it holds, failing the test after 10 s.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Events records the notifications a client receives, in arrival order:
// "list_changed", "tools_changed", "prompts_changed" and "updated URI".
type Events struct {
	mu  sync.Mutex
	got []string
}

func (e *Events) add(s string) { e.mu.Lock(); e.got = append(e.got, s); e.mu.Unlock() }

// List returns the notifications so far.
func (e *Events) List() []string { e.mu.Lock(); defer e.mu.Unlock(); return slices.Clone(e.got) }

// Count returns how many notifications s came.
func (e *Events) Count(s string) int {
	n := 0
	for _, g := range e.List() {
		if g == s {
			n++
		}
	}
	return n
}

// Options are client options whose handlers record into e.
func (e *Events) Options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { e.add("list_changed") },
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { e.add("tools_changed") },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { e.add("prompts_changed") },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			e.add("updated " + r.Params.URI)
		},
	}
}
