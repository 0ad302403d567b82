package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/lint"
)

// LibraryFlags are the flags and variables that name skill libraries and the
// scan policy. build, lint and serve share them.
type LibraryFlags struct {
	Root   string   `name:"root" env:"SKILLS_ROOT" placeholder:"DIR|ZIP|URL" help:"One un-namespaced library: a folder, a .zip, or an https .zip URL (#sha256=<hex> pins it)."`
	Lib    []string `name:"lib" env:"SKILLS_LIBS" sep:"," placeholder:"NS=DIR" help:"A namespaced library (repeatable): NS=DIR, NS=FILE.zip, NS=https://...zip#sha256=<hex>, or a discovery site NS=https://HOST/.well-known/agent-skills/index.json."`
	Config string   `name:"config" env:"SKILLS_CONFIG" placeholder:"FILE" help:"JSON file listing libraries ({\"libraries\":[{\"namespace\",\"root\"|\"url\",...}]}); relative roots resolve against the file."`

	Exclude     []string `name:"exclude" env:"SKILLS_EXCLUDE" sep:"," default:"_archive,_audit" help:"Folder names never entered during discovery."`
	Depth       int      `name:"depth" env:"SKILLS_DEPTH" default:"4" help:"How many folder levels below a root a skill may sit."`
	NoScripts   bool     `name:"no-scripts" env:"SKILLS_NO_SCRIPTS" help:"Leave executable files (.sh .py .js ...) out of every skill."`
	Lint        bool     `name:"lint" env:"SKILLS_LINT" default:"true" negatable:"" help:"Run the risk linter (--no-lint turns it off)."`
	Deny        []string `name:"deny" env:"SKILLS_DENY" sep:"," placeholder:"CAP,..." help:"Withhold, in every library, a skill whose findings (not waived) show one of these capabilities (network, exec-remote, reads-secrets, writes-persistence, agent-config, destructive, dynamic-code, opaque-files); a library's own \"deny\" adds to it."`
	ImportSARIF []string `name:"import-sarif" placeholder:"FILE" help:"Fold another scanner's SARIF 2.1.0 results into the findings (repeatable): bound to the files they name, relative paths against the current folder; a result in no published skill, or about other bytes, is reported and dropped."`

	CacheDir       string `name:"cache-dir" env:"SKILLS_CACHE_DIR" help:"Where https libraries are cached by digest (default: the user cache folder)."`
	ArchiveFlags   `embed:""`
	MaxDownload    int64 `name:"max-download-bytes" env:"SKILLS_MAX_DOWNLOAD_BYTES" default:"268435456" help:"Largest download of an https library."`
	FetchTimeoutMS int   `name:"fetch-timeout-ms" env:"SKILLS_FETCH_TIMEOUT_MS" default:"60000" help:"Timeout of one https request."`
}

// ArchiveFlags bound what a skill's files may be, and what an archive
// holding them may inflate to: an archive library's (build, lint, serve)
// and a ToolHive skill's layer fetched from a registry (serve, pull).
type ArchiveFlags struct {
	MaxFileBytes    int64 `name:"max-file-bytes" env:"SKILLS_MAX_FILE_BYTES" default:"4194304" help:"Largest file a skill may hold; a skill with a larger one is withheld (a ToolHive skill's, refused)."`
	MaxArchiveBytes int64 `name:"max-archive-bytes" env:"SKILLS_MAX_ARCHIVE_BYTES" default:"268435456" help:"Total bytes an archive library, or a ToolHive skill's layer, may inflate to."`
	MaxArchiveFiles int   `name:"max-archive-entries" env:"SKILLS_MAX_ARCHIVE_ENTRIES" default:"8192" help:"Most entries an archive library, or a ToolHive skill's layer, may hold."`
}

// Given reports whether any library was named.
func (f *LibraryFlags) Given() bool { return f.Root != "" || len(f.Lib) > 0 || f.Config != "" }

// Options turns the flags into build options: the policy, the libraries of
// --root and --lib, and the libraries and policy of --config.
func (f *LibraryFlags) Options(log *slog.Logger) (build.Options, error) {
	opt, err := f.policy(log)
	if err != nil {
		return opt, err
	}
	if opt.Libraries, err = f.named(); err != nil {
		return opt, err
	}
	if f.Config != "" {
		c, err := build.LoadConfig(f.Config)
		if err != nil {
			return opt, err
		}
		opt.Libraries = append(opt.Libraries, c.Libraries...)
		opt.NoScripts = opt.NoScripts || c.NoScripts
		if c.Lint != nil && !*c.Lint {
			opt.NoLint = true
		}
		opt.Waivers = c.Waivers
	}
	return opt, build.CheckLibraries(opt.Libraries)
}

// named returns the libraries of --root and --lib, unchecked.
func (f *LibraryFlags) named() ([]build.Library, error) {
	var libs []build.Library
	if f.Root != "" {
		lib := build.Library{Root: f.Root}
		if isHTTP(f.Root) {
			lib = build.Library{URL: f.Root}
		}
		libs = append(libs, lib)
	}
	for _, s := range f.Lib {
		lib, err := build.ParseLib(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		libs = append(libs, lib)
	}
	return libs, nil
}

// policy returns the build options the flags set, without libraries and
// without --config's settings.
func (f *LibraryFlags) policy(log *slog.Logger) (build.Options, error) {
	opt := build.Options{
		Depth: f.Depth, Exclude: f.Exclude, NoScripts: f.NoScripts, NoLint: !f.Lint, MaxFileBytes: f.MaxFileBytes, Deny: f.Deny,
	}
	if err := lint.CheckDeny(f.Deny); err != nil {
		return opt, fmt.Errorf("--%w", err)
	}
	if len(f.ImportSARIF) > 0 {
		cwd, err := os.Getwd()
		if err != nil {
			return opt, fmt.Errorf("--import-sarif: %w", err)
		}
		for _, name := range f.ImportSARIF {
			log, err := build.ReadSARIF(name, cwd)
			if err != nil {
				return opt, fmt.Errorf("--import-sarif: %w", err)
			}
			opt.SARIF = append(opt.SARIF, log)
		}
	}
	if sde := os.Getenv("SOURCE_DATE_EPOCH"); sde != "" {
		sec, err := strconv.ParseInt(sde, 10, 64)
		if err != nil {
			return opt, fmt.Errorf("SOURCE_DATE_EPOCH %q: not a whole number of seconds", sde)
		}
		opt.Created = time.Unix(sec, 0).UTC()
	}
	opt.Archive = build.ArchiveLimits{MaxEntries: f.MaxArchiveFiles, MaxEntryBytes: 16 * f.MaxFileBytes, MaxTotalBytes: f.MaxArchiveBytes}
	cache := f.CacheDir
	if cache == "" {
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "skills-mcp")
		}
	}
	opt.Fetch = build.FetchOptions{
		CacheDir: cache, MaxBytes: f.MaxDownload, Timeout: time.Duration(f.FetchTimeoutMS) * time.Millisecond, Client: outbound,
		Token: firstEnv("SKILLS_FETCH_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"),
		Logf:  func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) },
	}
	return opt, nil
}

func isHTTP(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
