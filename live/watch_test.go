package live

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// TestWatchNewTrees creates folder chains in a watched tree as fast as it
// can, while the watch handles the events, and then checks that every
// folder is watched: a folder created just after its parent's Create event
// is handled must not be missed.
func TestWatchNewTrees(t *testing.T) {
	root := t.TempDir()
	w, err := newWatcher(1<<20, servetest.Logger(t))
	if err != nil {
		t.Skip(err)
	}
	defer w.w.Close()
	w.sync([]watchTarget{{ns: "lib", path: root, tree: true}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.w.Events {
			w.handle(ev)
		}
	}()
	var want []string
	for i := range 300 {
		p := root
		for j := range 6 {
			p = filepath.Join(p, fmt.Sprintf("d%d_%d", i, j))
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			want = append(want, p)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.mu.Lock()
		var missing []string
		for _, d := range want {
			if _, ok := w.dirs[d]; !ok {
				missing = append(missing, d)
			}
		}
		w.mu.Unlock()
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d folders not watched, first %s", len(missing), len(want), missing[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.w.Close()
	<-done
}
