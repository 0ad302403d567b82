package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// This file grades what one file's findings mean given the skill's other
// files, which Analyze (a file's path and bytes alone) cannot see: build
// calls InSkill with every path of the skill once their findings are made.

// bytecodeSources lists, per bytecode extension, the extensions of the
// source it is compiled from. Python's .pyc is not among them: Python runs
// a .py in preference to a .pyc beside it (its own cache, __pycache__, is
// never bundled), so a .pyc shipped next to its source is there to be run
// by name, in place of what the source says. Nor does its header make it
// checkable: the source size and time it records, or the source's hash,
// are what an attacker copies from the honest .py into a .pyc compiled
// from another source, and nothing in it binds the code to either.
var bytecodeSources = lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		".wasm":  {".wat", ".wast", ".rs", ".c", ".cc", ".cpp", ".zig", ".go", ".ts"},
		".class": {".java", ".kt", ".scala", ".groovy"},
		".luac":  {".lua"},
	}
}}

// InSkill grades the findings fs of one skill, whose files are paths, by
// what the other files show. Bytecode shipped with its source (adler32.wasm
// beside adler32.wat, Foo.class beside Foo.java, anywhere in the skill; a
// .pyc never, see bytecodeSources) is a
// note, not a warning: the analyser reads the source, and a reader can
// rebuild the bytecode from it to check. fs is changed in place.
func InSkill(paths []string, fs []manifest.Finding) {
	for i := range fs {
		f := &fs[i]
		if f.Rule != "opaque-file" || Rank(f.Severity) < Rank(SeverityWarning) {
			continue
		}
		if src := sourceOf(f.File, paths); src != "" {
			f.Severity = SeverityNote
			f.Excerpt = excerpt.Of(f.Excerpt+"; its source "+path.Base(src)+" ships with it", 0)
		}
	}
}

// sourceOf returns a path of paths that is the source of the bytecode file
// file, by its stem (the name up to its first dot or $: Foo$Inner.class is
// Foo's), or "" for none.
func sourceOf(file string, paths []string) string {
	exts := bytecodeSources.Get()[strings.ToLower(path.Ext(file))]
	if exts == nil {
		return ""
	}
	stem := func(p string) string {
		b := path.Base(p)
		if i := strings.IndexAny(b, ".$"); i > 0 {
			return b[:i]
		}
		return b
	}
	want := stem(file)
	for _, p := range paths {
		if p != file && stem(p) == want {
			for _, e := range exts {
				if strings.EqualFold(path.Ext(p), e) {
					return p
				}
			}
		}
	}
	return ""
}
