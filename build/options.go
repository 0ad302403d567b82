package build

// This file holds what a build is given (Options and its defaults) and an
// opened library (source), below cache.go, skill.go, wellknown.go and
// build.go, which read them.

import (
	"context"
	"io/fs"
	"time"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Options configures a build.
type Options struct {
	Libraries    []Library
	Depth        int           // discovery depth below each root; 0 means 4
	Exclude      []string      // folder names never entered during discovery
	NoScripts    bool          // leave executable files out of every library
	NoLint       bool          // skip the risk linter
	MaxFileBytes int64         // per-file cap; 0 means 4 MiB
	Created      time.Time     // the manifest's created time; zero leaves it out
	Archive      ArchiveLimits // limits for .zip and https libraries; zero means defaults
	Fetch        FetchOptions  // how https libraries are downloaded
	Progress     func(done, total int)
	Warn         func(msg string) // receives each warning as it happens (may be nil)
	Context      context.Context  // cancels a long build; nil means Background
	Cache        *Cache           // what the previous build learned (incremental rebuilds); may be nil
	// Waivers are the operator's, from the configuration file: a finding
	// they cover is kept, marked waived.
	Waivers []lint.Waiver
	// SARIF are other tools' logs whose results are folded into the
	// findings of the files they name, in folder libraries: waivable and
	// gated like the analyser's. A result no published file takes, or
	// whose file changed since the scan, is dropped and reported to Warn
	// (never to the bundle: a report names local paths).
	SARIF []SARIF
	// Deny lists capabilities denied in every library, besides each
	// library's own Deny (see Library.Deny).
	Deny []string
	// Report receives each SARIF result dropped, when Warn does not (nil
	// Warn); lint sets it alone, to show these and no other warnings.
	Report func(msg string)

	imports *imports // SARIF, indexed by file, for the build in progress
}

// Defaults for Options.
const (
	DefaultDepth        = 4
	DefaultMaxFileBytes = 4 << 20
)

// DefaultExclude are the folder names skipped during discovery by default.
var DefaultExclude = []string{"_archive", "_audit"}

// source is an opened library: the tree to scan and its public description.
type source struct {
	lib      Library
	fsys     fs.FS // the tree as an fs.FS; nil when tree reads a folder by descriptors
	tree     tree
	rootName string
	info     manifest.Library
	close    func() error
	key      string   // names the tree in a Cache: its folder, or its archive's digest
	warnings []string // what opening the library found, for the manifest
}

func (opt *Options) defaults() {
	if opt.Depth <= 0 {
		opt.Depth = DefaultDepth
	}
	if opt.Exclude == nil {
		opt.Exclude = DefaultExclude
	}
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = DefaultMaxFileBytes
	}
	if opt.Archive == (ArchiveLimits{}) {
		opt.Archive = DefaultArchiveLimits()
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
}
