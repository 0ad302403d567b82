package usage

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// TestUsageLogUnwritable: a usage log on a full disk (/dev/full) reports
// its failure once; one on a FIFO nobody reads never blocks the uses
// handed to it (100,000 in well under a second), counts and reports the
// uses it dropped, and Close gives up on its blocked writer.
func TestUsageLogUnwritable(t *testing.T) {
	use := &Use{Skill: "acme/pdf", Kind: Read, Method: "resources/read"}
	t.Run("full", func(t *testing.T) {
		f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip(err)
		}
		defer f.Close()
		var out servetest.Buffer
		l := NewLog(f, slog.New(slog.NewTextHandler(&out, nil)), "skills-mcp", "test")
		for range 1000 {
			l.SkillUsed(use)
		}
		l.Close(time.Second)
		if n := strings.Count(out.String(), "usage log: cannot write"); n != 1 {
			t.Errorf("%d reports of a full disk:\n%s", n, out.String())
		}
	})
	t.Run("fifo", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip(err)
		}
		r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close() // open, never read
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		var out servetest.Buffer
		l := NewLog(w, slog.New(slog.NewTextHandler(&out, nil)), "skills-mcp", "test")
		start := time.Now()
		for range 100_000 {
			l.SkillUsed(use)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("100,000 uses took %v: the log blocks", took)
		}
		if l.Dropped() == 0 || !strings.Contains(out.String(), "uses dropped") {
			t.Errorf("%d dropped; log:\n%s", l.Dropped(), out.String())
		}
		start = time.Now()
		l.Close(100 * time.Millisecond)
		if took := time.Since(start); took > time.Second || !strings.Contains(out.String(), "not flushed") {
			t.Errorf("Close took %v; log:\n%s", took, out.String())
		}
	})
}
