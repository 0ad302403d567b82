package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestConsoleFail: a command's final error, written while a progress line
// is shown, is the last thing on the terminal: the line is blanked and not
// drawn again under the error.
func TestConsoleFail(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &console{f: f, tty: true}
	p := c.progress("pulling", "skills")
	p(3, 10)
	c.fail(errors.New("boom"))
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	want := "\rpulling: 3/10 skills (30%)" + "\r                          \r" + "skills-mcp: error: boom\n"
	if string(got) != want {
		t.Errorf("stderr %q\nwant %q", got, want)
	}
	// A later update draws the line again below the error.
	p(4, 10)
	got, _ = os.ReadFile(f.Name())
	if string(got) != want+"\rpulling: 4/10 skills (40%)" {
		t.Errorf("after an update: %q", got)
	}
}
