package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
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
// rebuild the bytecode from it to check; so is a minified file shipped
// with its readable source (minifiedSource). fs is changed in place.
//
// A read of the macOS keychain or the Secret Service by an item's name
// (security find-generic-password -s NAME, secret-tool lookup service
// NAME) is a note when a file of the skill stores that same item
// (security add-generic-password -s NAME, secret-tool store … service
// NAME): the skill reads back what it has the user keep for it, nothing
// any other program put there. data returns a file's bytes by its path.
func InSkill(paths []string, data func(path string) []byte, fs []manifest.Finding) {
	for i := range fs {
		f := &fs[i]
		if Rank(f.Severity) < Rank(SeverityWarning) {
			continue
		}
		switch f.Rule {
		case "opaque-file":
			if src := sourceOf(f.File, paths); src != "" {
				f.Severity = SeverityNote
				f.Excerpt = excerpt.Of(f.Excerpt+"; its source "+path.Base(src)+" ships with it", 0)
			}
		case "minified-code":
			if src := minifiedSource(f.File, paths); src != "" {
				f.Severity = SeverityNote
				f.Excerpt = excerpt.Of(f.Excerpt+"; its source "+src+" ships with it", 0)
			}
		case "credential-store":
			if item := storeRead(f.Excerpt); item != "" && storedBySkill(item, paths, data) {
				f.Severity = SeverityNote
				f.Excerpt = excerpt.Of(f.Excerpt+"; the skill has the user store "+item+" itself", 0)
			}
		}
	}
}

// Reads and writes of a named keychain or Secret Service item: the name
// is the first group, or the second.
var (
	storeReadRE  = &lazyre.RE{Expr: `\bsecurity\s+find-generic-password\b[^|;&]*?\s-s\s+["']?([\w.@:-]+)|\bsecret-tool\s+lookup\s+service\s+["']?([\w.@:-]+)`}
	storeWriteRE = &lazyre.RE{Expr: `\bsecurity\s+add-generic-password\b[^|;&\n]*?\s-s\s+["']?([\w.@:-]+)|\bsecret-tool\s+store\b[^|;&\n]*?\sservice\s+["']?([\w.@:-]+)`}
)

// storeRead returns the item a finding's line reads by name, or "".
func storeRead(line string) string {
	m := storeReadRE.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// storedBySkill reports whether a file of the skill stores the item.
func storedBySkill(item string, paths []string, data func(string) []byte) bool {
	for _, p := range paths {
		for _, m := range storeWriteRE.Regexp().FindAllSubmatch(data(p), -1) {
			if string(m[1])+string(m[2]) == item {
				return true
			}
		}
	}
	return false
}

// minifiedSource returns a path of paths that is the readable source of a
// minified file (sparkline.min.js beside sparkline.js, src/sparkline.ts,
// anywhere in the skill): a file of the same stem, without .min, in a
// language a minifier takes; "" for none or for a file not named .min.
func minifiedSource(file string, paths []string) string {
	base := strings.ToLower(path.Base(file))
	i := strings.Index(base, ".min.")
	if i <= 0 {
		return ""
	}
	stem := base[:i]
	for _, p := range paths {
		b := strings.ToLower(path.Base(p))
		if p == file || strings.Contains(b, ".min.") {
			continue
		}
		switch ext := path.Ext(b); ext {
		case ".js", ".mjs", ".cjs", ".ts", ".mts", ".tsx", ".jsx", ".css", ".scss", ".less":
			if strings.TrimSuffix(b, ext) == stem {
				return p
			}
		}
	}
	return ""
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
