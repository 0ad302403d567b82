//go:build unix

package manifest

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenFileRefusesFIFO: a FIFO named like a bundle is refused at once,
// not waited on for a writer.
func TestOpenFileRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.skb")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		b, err := OpenFile(path)
		if err == nil {
			b.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("OpenFile(FIFO) = %v, want not a regular file", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OpenFile blocked on a FIFO")
	}
}
