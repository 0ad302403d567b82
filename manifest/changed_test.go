package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestChanged: a bundle file truncated or overwritten in place is reported
// changed at once, without reading the bundle; one renamed over the path
// is not (the bundle reads the file it opened); an in-memory bundle never
// changes.
func TestChanged(t *testing.T) {
	data, _ := testBundle(t)
	for _, tc := range []struct {
		name    string
		change  func(path string) error
		changed bool
	}{
		{"untouched", func(string) error { return nil }, false},
		{"truncated", func(p string) error { return os.Truncate(p, int64(len(data)/2)) }, true},
		{"overwritten in place, same size", func(p string) error {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteAt([]byte("x"), int64(len(data)-1))
			return err
		}, true},
		{"another file renamed over it", func(p string) error {
			q := p + ".new"
			if err := os.WriteFile(q, bytes.Repeat([]byte{0}, 10), 0o644); err != nil {
				return err
			}
			return os.Rename(q, p)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "b.skb")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := OpenFile(p)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := b.Changed(); err != nil {
				t.Fatalf("just opened: %v", err)
			}
			time.Sleep(20 * time.Millisecond) // past the file system's clock tick
			if err := tc.change(p); err != nil {
				t.Fatal(err)
			}
			err = b.Changed()
			if tc.changed != (err != nil) {
				t.Fatalf("Changed() = %v, want changed %v", err, tc.changed)
			}
			if err != nil && (!strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "changed since it was opened")) {
				t.Errorf("Changed() = %v, want the path and what changed", err)
			}
			if b.Fault() != nil {
				t.Errorf("Changed read the bundle: %v", b.Fault())
			}
		})
	}
	mem, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.Changed(); err != nil {
		t.Errorf("an in-memory bundle: %v", err)
	}
}
