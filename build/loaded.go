package build

// This file declares a skill as loaded (loaded, srcFile), which skill.go
// fills and checks and cache.go reads through.

import (
	"fmt"
	"io/fs"

	"github.com/skills-mcp/skills-mcp/build/frontmatter"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// loaded is a skill read from its library: the manifest record and the bytes
// of each file, or the problems that withhold it.
type loaded struct {
	skill    manifest.Skill
	blobs    [][]byte
	problems []Problem
	warnings []string

	cache *Cache     // nil: no cache
	key   string     // the library's cache key
	seen  []seenFile // what the next build may reuse

	readBufs [][]byte // the buffers files were read into, for release (without a cache)
}

// release gives back the buffers the skill's files were read into. Only a
// build without a cache has any: with one, a file's bytes are the previous
// bundle's (a cache hit) or read afresh through os.Root. Nothing may use
// the skill's blobs after.
func (l *loaded) release() {
	for _, b := range l.readBufs {
		putBuf(b)
	}
	l.readBufs, l.blobs = nil, nil
}

type srcFile struct {
	path string
	data []byte

	fsPath string              // path in the library's fs (with a cache)
	info   fs.FileInfo         // the file's listing (with a cache)
	hit    *cachedFile         // the cache entry the bytes came from, or nil
	fm     *frontmatter.Header // the parse of a SKILL.md read from disk (with a cache)
}

// problem records a rule broken by file. A message that is not valid UTF-8
// (an error naming a file the rules did not stop) is quoted whole: the
// manifest holds only valid UTF-8.
func (l *loaded) problem(file, rule, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: file, Rule: rule, Msg: validText(fmt.Sprintf(format, args...))})
}
