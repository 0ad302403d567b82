package build

// This file declares the Cache and the entries it holds; cache.go has its
// methods. The types sit apart so that Options can name Cache from below.

import (
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skills-mcp/skills-mcp/build/frontmatter"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Cache carries what one build learned about its libraries' files to the
// next build, so that a rebuild of an unchanged tree neither reads nor
// hashes a file again. Give the same Cache to successive builds in
// Options.Cache, and after each build hand it the bundle that build wrote
// (UseBundle, ideally opened with OpenMemory). Unchanged tells, from stats
// alone, whether a build would write that same bundle again.
//
// A file counts as unchanged when its size, modification time and identity
// (device and inode; os.SameFile) are those of the previous build. Its
// digest, text flag, lint findings and, for SKILL.md, parsed frontmatter are
// taken from the cache, and its bytes from the bundle. A folder listing
// counts as unchanged under the same rule (adding, removing or renaming an
// entry changes a folder's time). The output is byte for byte the output
// of a cold build, as long as no file was rewritten in place to the same
// size while its modification time was set back (the trade-off every
// mtime-based tool makes; the inode check catches the usual
// write-to-temporary-and-rename). A file or folder modified within two
// seconds before a build started is not remembered by it, so that a second
// edit within the same timestamp tick of a coarse file system is still
// seen. A file whose bytes the bundle does not hold is read again, so a
// cache with a stale bundle, or none, is merely slower, never wrong.
//
// Archive libraries (.zip files and https downloads) are validated once per
// archive identity: an archive whose size, modification time and inode did
// not change, or whose bytes hash to the digest of the validated copy, is
// not re-validated; its opened tree, and the open file under it, are kept in
// the cache until an archive replaces it or Close. An https library is
// fetched once per URL and pin for the life of the cache.
//
// A Cache serves one build at a time; concurrent builds with the same Cache
// wait for each other.
type Cache struct {
	mu       sync.Mutex // held for a whole build
	bundle   *manifest.Bundle
	files    map[fileKey]*cachedFile // the previous build's files
	next     map[fileKey]*cachedFile // the files of the build in progress
	dirs     map[string]*cachedDir   // the previous build's folder listings, by absolute path
	dirMu    sync.Mutex              // guards nextDirs (workers list folders in parallel)
	nextDirs map[string]*cachedDir
	probes   []probe // what Unchanged stats, made from files, dirs and archives on first use
	archives map[string]*cachedArchive
	used     map[string]bool // archives the build in progress opened
	settled  time.Time       // files modified after this are not remembered

	// What Unchanged compares with: the last build's inputs and bundle id,
	// and whether it remembered everything it looked at.
	inputs     *buildInputs
	lastID     manifest.Digest
	complete   bool
	incomplete atomic.Bool // the build in progress missed something
}

// fileKey names a file: the library's tree (src.key) and the path in it.
type fileKey struct{ lib, path string }

// cachedFile is what the cache knows about one file. It is never modified
// once made: workers share it.
type cachedFile struct {
	info     fs.FileInfo // the file's listing, for os.SameFile
	size     int64
	digest   manifest.Digest
	text     bool
	linted   bool                // findings are known (lint ran on the bytes)
	findings []manifest.Finding  // File holds the path the linter saw
	fm       *frontmatter.Header // SKILL.md only, once parsed
}

// cachedArchive is an opened, validated archive library.
type cachedArchive struct {
	info     fs.FileInfo // nil for an https library (fetched once)
	digest   manifest.Digest
	fsys     fs.FS
	rootName string
	kind     string
	file     *os.File
}

// seenFile is a file a skill load saw, for the next build.
type seenFile struct {
	key  fileKey
	file *cachedFile
}

// cachedDir is a folder listing: the names and types of its entries, valid
// while the folder keeps its identity and modification time (adding,
// removing or renaming an entry changes the folder's time). A folder that
// was not there has a nil info.
type cachedDir struct {
	info  fs.FileInfo
	root  bool // the library's root: stat'ed through a symlink
	names []string
	types []fs.FileMode
}

// buildInputs are the options that shape a build's output.
type buildInputs struct {
	Libraries    []Library
	Depth        int
	Exclude      []string
	NoScripts    bool
	NoLint       bool
	MaxFileBytes int64
	Created      time.Time
	Archive      ArchiveLimits
	Waivers      []lint.Waiver
	SARIF        []SARIF
	Deny         []string
}

// probe is one stat Unchanged makes: of a folder, file or archive the last
// build looked at, with what it was then.
type probe struct {
	path   string
	old    fs.FileInfo // nil: must not exist
	follow bool        // a root folder or an archive: Stat, not Lstat
}
