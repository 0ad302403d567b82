package main

// Progress on stderr. When stderr is a terminal, a command that takes a
// while (build, pull, push, a fetch from a registry) keeps one line at the
// bottom of it saying how far it is, redrawn in place with a carriage
// return; when stderr is anything else it writes no progress at all. Every
// other write to stderr goes through stderr (the console below), which
// blanks the progress line first and draws it again after, so that notes
// and logs scroll above the line instead of landing inside it.

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// stderr is where the command writes notes, warnings, errors and logs.
var stderr = newConsole(os.Stderr)

// console is stderr with at most one progress line drawn at its bottom.
// It is safe for concurrent use.
type console struct {
	f   *os.File
	tty bool

	mu   sync.Mutex
	line string // the unfinished progress line on screen, "" if none
}

// newConsole returns the console of f. f counts as a terminal when it is a
// character device: a terminal, or a pseudo-terminal as terminal emulators,
// ssh and tmux give.
func newConsole(f *os.File) *console {
	fi, err := f.Stat()
	return &console{f: f, tty: err == nil && fi.Mode()&os.ModeCharDevice != 0}
}

// Write writes p above the progress line, if one is shown. p should hold
// whole lines.
func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.line == "" {
		return c.f.Write(p)
	}
	c.clear()
	n, err := c.f.Write(p)
	if len(p) > 0 && p[len(p)-1] == '\n' {
		c.f.WriteString("\r" + c.line)
	} else {
		c.line = "" // the next update draws it again
	}
	return n, err
}

// end blanks the progress line, if one is shown, and forgets it: what is
// written next (a command's final error) is the last thing on screen.
func (c *console) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.line != "" {
		c.clear()
		c.line = ""
	}
}

// fail ends the progress line and writes the command's final error.
func (c *console) fail(err error) {
	c.end()
	fmt.Fprintf(c, "skills-mcp: error: %v\n", err)
}

// clear blanks the progress line and returns to its start: spaces rather
// than an escape sequence, which every terminal understands.
func (c *console) clear() {
	c.f.WriteString("\r" + strings.Repeat(" ", len(c.line)) + "\r")
}

// progress returns a callback that draws "VERB: DONE/TOTAL UNIT (P%)" as
// the progress line, or nil (no progress) when stderr is not a terminal.
// The line is redrawn when the percentage changes, and ended with a newline
// when done reaches total; an update that is not past the last one drawn is
// dropped. The callback may be called from several goroutines.
func (c *console) progress(verb, unit string) func(done, total int) {
	if !c.tty {
		return nil
	}
	lastDone, lastPct := 0, -1
	return func(done, total int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if done <= lastDone {
			return
		}
		pct := done * 100 / max(total, 1)
		if pct == lastPct && done < total {
			return
		}
		lastDone, lastPct = done, pct
		line := fmt.Sprintf("%s: %d/%d %s (%d%%)", verb, done, total, unit, pct)
		if done >= total {
			c.f.WriteString("\r" + line + "\n")
			c.line = ""
			return
		}
		c.f.WriteString("\r" + line)
		c.line = line
	}
}

// progress is the progress callback of a command counting skills.
func progress(verb string) func(done, total int) { return stderr.progress(verb, "skills") }

// progressOf is progress counting units other than skills.
func progressOf(verb, unit string) func(done, total int) { return stderr.progress(verb, unit) }
