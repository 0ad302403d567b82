package release

import (
	"bytes"
	"context"
	"fmt"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"io"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/skills-mcp/skills-mcp/lint"
)

// MaxPatchBytes is the largest file WriteText shows a patch of; a bigger
// one is listed with its sizes only.
const MaxPatchBytes = 1 << 20

// WriteText writes d for a person, nothing when the releases are
// identical: a line per library, skill and file
// that changed, then the risk changes, then a summary line. With patch, each
// changed text file of a changed skill is followed by a unified diff of it
// (git's format, paths a/<skill path>/<file> and b/…), reading the bytes of
// those files and no others.
func (d *Diff) WriteText(ctx context.Context, w io.Writer, patch bool) error {
	if d.Identical {
		return nil // as diff(1), nothing for identical releases
	}
	bw := &errWriter{w: w}
	p := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	p("--- %s (%s, %s)", d.Old.Name, d.Old.ID, plural(d.Old.Skills, "skill"))
	p("+++ %s (%s, %s)", d.New.Name, d.New.ID, plural(d.New.Skills, "skill"))
	for _, f := range d.Head {
		p("manifest %s: %s", f.Field, change(f))
	}
	for _, l := range d.Libraries {
		p("library %s %s", label(l.Namespace), l.Change)
		for _, f := range l.Fields {
			p("    %s: %s", f.Field, change(f))
		}
	}
	for _, s := range d.Added {
		p("added    %s (%s, %s)", s.Path, plural(s.Files, "file"), plural(s.Bytes, "byte"))
	}
	for _, s := range d.Removed {
		p("removed  %s (%s, %s)", s.Path, plural(s.Files, "file"), plural(s.Bytes, "byte"))
	}
	for _, r := range d.Renamed {
		if r.Change == nil {
			p("renamed  %s -> %s (same files)", r.From, r.To)
		} else {
			p("renamed  %s -> %s (changed)", r.From, r.To)
		}
		for _, f := range r.Fields {
			p("    %s: %s", f.Field, change(f))
		}
		if r.Change != nil {
			if err := d.writeChange(ctx, bw, *r.Change, patch); err != nil {
				return err
			}
		}
	}
	for _, c := range d.Changed {
		p("changed  %s", c.Path)
		if err := d.writeChange(ctx, bw, c, patch); err != nil {
			return err
		}
	}
	for _, w := range d.Withheld.New {
		p("withheld %s:%s: %s", label(w.Library), w.Path, w.Reason)
	}
	for _, w := range d.Withheld.Gone {
		p("no longer withheld %s:%s", label(w.Library), w.Path)
	}
	r := &d.Risk
	for _, f := range r.New {
		p("new finding   %s", findingLine(f))
	}
	for _, f := range r.Gone {
		p("gone finding  %s", findingLine(f))
	}
	for _, f := range r.StaleWaivers {
		p("waiver no longer matches  %s (the file or the skill's path changed)", findingLine(f))
	}
	for _, c := range r.NewCapabilities {
		p("new capability   %s: %s", c.Skill, strings.Join(c.Capabilities, ", "))
	}
	for _, c := range r.GoneCapabilities {
		p("gone capability  %s: %s", c.Skill, strings.Join(c.Capabilities, ", "))
	}
	p("%d added, %d removed, %d renamed, %d changed, %d unchanged; findings: %d new, %d gone, %d unchanged",
		len(d.Added), len(d.Removed), len(d.Renamed), len(d.Changed), d.Unchanged, len(r.New), len(r.Gone), len(r.Unchanged))
	return bw.err
}

// writeChange writes the frontmatter and file lines of a changed skill,
// and with patch the unified diffs of its text files.
func (d *Diff) writeChange(ctx context.Context, bw *errWriter, c SkillChange, patch bool) error {
	p := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	for _, f := range c.Frontmatter {
		p("    %s: %s", f.Field, change(f))
	}
	for _, f := range c.Files {
		switch f.Change {
		case FileAdded:
			p("    A %s (%s)", f.Path, plural(f.NewSize, "byte"))
		case FileRemoved:
			p("    D %s (%s)", f.Path, plural(f.OldSize, "byte"))
		default:
			p("    M %s (%d -> %s)", f.Path, f.OldSize, plural(f.NewSize, "byte"))
		}
	}
	if len(c.Fields) > 0 {
		p("    record: %s changed", strings.Join(c.Fields, ", "))
	}
	if patch {
		if err := d.writePatches(ctx, bw, c); err != nil {
			return err
		}
	}
	return bw.err
}

// writePatches writes the unified diff of each text file of c that was
// added, removed or changed.
func (d *Diff) writePatches(ctx context.Context, w io.Writer, c SkillChange) error {
	for _, f := range c.Files {
		if !f.Text {
			continue
		}
		if f.OldSize > MaxPatchBytes || f.NewSize > MaxPatchBytes {
			fmt.Fprintf(w, "(%s: larger than %d bytes, no patch)\n", f.Path, MaxPatchBytes)
			continue
		}
		var a, b []byte
		var err error
		if f.OldDigest != nil {
			if a, err = d.old.read(ctx, *f.OldDigest, f.OldSize, f.Path); err != nil {
				return fmt.Errorf("%s: %s/%s: %w", d.old.Name, c.Path, f.Path, err)
			}
		}
		if f.NewDigest != nil {
			if b, err = d.new.read(ctx, *f.NewDigest, f.NewSize, f.Path); err != nil {
				return fmt.Errorf("%s: %s/%s: %w", d.new.Name, c.Path, f.Path, err)
			}
		}
		from := c.Path
		if c.From != "" {
			from = c.From
		}
		oldName, newName := "a/"+from+"/"+f.Path, "b/"+c.Path+"/"+f.Path
		if f.OldDigest == nil {
			oldName = "/dev/null"
		}
		if f.NewDigest == nil {
			newName = "/dev/null"
		}
		if _, err := w.Write(Patch(oldName, a, newName, b)); err != nil {
			return err
		}
	}
	return nil
}

// hunkHeader matches the hunk header diff.Diff writes.
var hunkHeader = &lazyre.RE{Expr: `^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$`}

// Patch returns the unified diff of two texts in git's format: "---" and
// "+++" lines naming them, then hunks with three lines of context, a count
// of 1 left out of a hunk header as git leaves it out; nil when they are
// equal. The hunks are those of an anchored (patience) diff.
func Patch(oldName string, old []byte, newName string, new []byte) []byte {
	out := diff.Diff(oldName, old, newName, new)
	if out == nil {
		return nil
	}
	// diff.Diff starts with a "diff A B" line, which git does not write.
	_, out, _ = bytes.Cut(out, []byte("\n"))
	var buf bytes.Buffer
	for line := range bytes.Lines(out) {
		if m := hunkHeader.Regexp().FindSubmatch(bytes.TrimSuffix(line, []byte("\n"))); m != nil {
			r := func(start, n []byte) string {
				if string(n) == "1" {
					return string(start)
				}
				return string(start) + "," + string(n)
			}
			fmt.Fprintf(&buf, "@@ -%s +%s @@\n", r(m[1], m[2]), r(m[3], m[4]))
			continue
		}
		buf.Write(line)
	}
	return buf.Bytes()
}

// findingLine is one finding as the text report shows it.
func findingLine(f Finding) string {
	sev := f.Severity
	if f.Waived != "" {
		sev += " (waived: " + f.Waived + ")"
	}
	s := fmt.Sprintf("%s/%s:%d:%d: %s: %s [%s]", f.Skill, f.File, f.Line, f.Column, sev, f.Excerpt, f.Rule)
	if f.OldLine != 0 && f.OldLine != f.Line {
		s += " (was line " + strconv.Itoa(f.OldLine) + ")"
	}
	return s
}

// change shows a field's old and new values.
func change(f FieldChange) string {
	show := func(v []byte) string {
		if v == nil {
			return "(none)"
		}
		if len(v) > 200 {
			return string(v[:200]) + "…"
		}
		return string(v)
	}
	return show(f.Old) + " -> " + show(f.New)
}

func label(ns string) string {
	if ns == "" {
		return "(root)"
	}
	return ns
}

func plural[N int | int64](n N, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// WriteSARIF writes the findings new in the newer release as SARIF 2.1.0
// (lint.WriteSARIF), each at <skill path>/<file> below %SRCROOT%.
func (d *Diff) WriteSARIF(w io.Writer) error {
	return lint.WriteSARIF(w, d.SARIF(), nil)
}
