package lint

import (
	"net/netip"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file grades what the untrusted-source rule (rules.go) finds, and
// finds the package indexes it names (supplymanifest.go finds packages
// named by URL or repository): where a package manager is told to fetch
// from, and whether what it fetches there can change after the skill was
// read. A source is a note when both who
// serves it and what it serves are fixed: a registry or a project's own
// index (officialIndexes), or a public forge (publicForges) at a full
// commit or a release tag, over https; anything else is a warning: an index
// or file on any other host (its owner serves what it likes, now or later),
// plain http or a raw IP address, a branch, HEAD or no ref at all. A hash
// pins a file's content but not who made it: it makes a file on a public
// forge fixed, never a file or an index on an unknown host.

// officialIndexes are the package indexes the rule trusts as it trusts the
// default registry: the registry itself, or the index a real project runs
// for its own packages and names in its own install instructions. Each is a
// host and a path prefix (a whole path segment). The list is small on
// purpose, and docs/lint.md gives it.
var officialIndexes = []struct{ host, path string }{
	{"pypi.org", "/simple"},          // PyPI
	{"files.pythonhosted.org", "/"},  // PyPI's files
	{"download.pytorch.org", "/whl"}, // PyTorch's wheels (CPU, CUDA, ROCm)
	{"pypi.nvidia.com", "/"},         // NVIDIA's wheels (CUDA, RAPIDS, TensorRT)
	{"registry.npmjs.org", "/"},      // npm
	{"registry.yarnpkg.com", "/"},    // Yarn's front of the npm registry
	{"npm.pkg.github.com", "/"},      // GitHub's npm registry: a scope's packages, published by its owner only
}

// publicForges are the public code hosts whose repositories, tags and
// history anyone can read: a git source there at a full commit or a
// release tag is pinned as a registry version is (raw.githubusercontent.com
// serves GitHub's files by ref).
var publicForges = []string{"github.com", "gitlab.com", "codeberg.org", "bitbucket.org", "raw.githubusercontent.com"}

// A source is a URL a package manager fetches from, in parts.
type source struct {
	scheme, host, port, path, query, frag string
}

// parseSource splits u (scheme://[user@]host[:port]/path?query#frag, or
// ssh's scp form user@host:path after git+ssh://) into its parts, the
// scheme and host in lower case; ok is false when u is not a URL.
func parseSource(u string) (src source, ok bool) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok || scheme == "" || strings.Trim(strings.ToLower(scheme), "abcdefghijklmnopqrstuvwxyz+") != "" {
		return source{}, false
	}
	src.scheme = strings.ToLower(scheme)
	rest, src.frag, _ = strings.Cut(rest, "#")
	rest, src.query, _ = strings.Cut(rest, "?")
	auth := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		auth, src.path = rest[:i], rest[i:]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:] // a user name: what follows the last @ is the host
	}
	host := auth
	if strings.HasPrefix(auth, "[") {
		if i := strings.IndexByte(auth, ']'); i > 0 {
			host, src.port = auth[1:i], strings.TrimPrefix(auth[i+1:], ":")
		}
	} else if h, p, ok := strings.Cut(auth, ":"); ok {
		host, src.port = h, p
		if strings.Trim(p, "0123456789") != "" {
			// scp form (git@github.com:org/repo.git): a path, not a port
			src.path, src.port = "/"+p+src.path, ""
		}
	}
	src.host = strings.TrimSuffix(strings.ToLower(host), ".")
	return src, src.host != "" || src.scheme == "file"
}

// loopback reports whether the source is the user's own machine.
func (src source) loopback() bool {
	if src.scheme == "file" || src.host == "localhost" || strings.HasSuffix(src.host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(src.host)
	return err == nil && a.IsLoopback()
}

// official reports whether the source is one of officialIndexes, over
// https on its standard port.
func (src source) official() bool {
	if src.scheme != "https" || src.port != "" && src.port != "443" {
		return false
	}
	for _, o := range officialIndexes {
		if src.host == o.host && (o.path == "/" || src.path == o.path || strings.HasPrefix(src.path, o.path+"/")) {
			return true
		}
	}
	return false
}

// forge reports whether the source is a repository on one of publicForges,
// over https or ssh.
func (src source) forge() bool {
	if src.scheme != "https" && src.scheme != "ssh" {
		return false
	}
	for _, f := range publicForges {
		if src.host == f || src.host == "www."+f {
			return true
		}
	}
	return false
}

// trimURL cuts what ends a URL in text rather than belonging to it: closing
// brackets, quotes and punctuation.
func trimURL(u string) string { return strings.TrimRight(u, ".,;:)]}>'\"`") }

// releaseTag matches a ref that names a release: a version of two or more
// numbers, with an optional v, a prefix naming the project
// (sqlfmt-v0.21.0) and a pre-release or build suffix (v2.0.0-rc.1).
// A lone major version (v4) is a tag that moves with each release.
// Group 1 is the suffix.
var releaseTag = &lazyre.RE{Expr: `^(?:[A-Za-z][\w.]*[-_])?[vV]?\d+(?:\.\d+)+((?:[-+._]?[0-9A-Za-z]+)*)$`}

// movingSuffix matches the words of a version suffix that says it moves.
var movingSuffix = &lazyre.RE{Expr: `(?i)latest|snapshot|nightly|head|main|master|edge|current|stable`}

// fixedRef reports whether a git ref names content that does not change: a
// full commit (SHA-1 or SHA-256) or a release tag.
func fixedRef(ref string) bool {
	if (len(ref) == 40 || len(ref) == 64) && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == "" {
		return true
	}
	m := releaseTag.FindStringSubmatch(ref)
	return m != nil && !movingSuffix.MatchString(m[1])
}

// gitRef returns the ref a git source names: pip's and uv's @ref after the
// repository's path, or npm's #ref (a fragment of key=value pairs is pip's
// egg= and subdirectory=, not a ref).
func (src source) gitRef() string {
	if src.frag != "" && !strings.Contains(src.frag, "=") {
		return src.frag
	}
	if i := strings.LastIndexByte(src.path, '@'); i >= 0 {
		return src.path[i+1:]
	}
	return ""
}

// gradeIndex grades a package index (or a find-links page) named by value:
// a note for the user's own machine, one of officialIndexes, or a host
// left to the reader (https://<your-index>/simple), a warning for any
// other host, plain http, a raw IP address, or a value the line does not
// spell (a variable).
func gradeIndex(value string) string {
	src, ok := parseSource(trimURL(value))
	switch {
	case strings.HasSuffix(value, "://"):
		return SeverityNote // a placeholder follows (https://<your-index>/simple): the reader's own index
	case !ok:
		return SeverityWarning
	case src.loopback(), src.official():
		return SeverityNote
	}
	return SeverityWarning
}

// gradeGit grades a git source (git+https://host/org/repo@ref): a note on
// the user's own machine, or on a public forge over https or ssh at a full
// commit or a release tag; a warning for a branch, HEAD or no ref, another
// host, or plain http and git://.
func gradeGit(value string) string {
	value = trimURL(value)
	if scpForm.MatchString(value) {
		value = "ssh://" + value // git@github.com:org/repo.git
	}
	src, ok := parseSource(value)
	switch {
	case !ok:
		return SeverityWarning
	case src.loopback():
		return SeverityNote
	case src.forge() && fixedRef(src.gitRef()):
		return SeverityNote
	}
	return SeverityWarning
}

// scpForm matches ssh's short form of a repository address, user@host:path.
var scpForm = &lazyre.RE{Expr: `^[\w.-]+@[\w.-]+:[^/]`}

// gradeFile grades a package file fetched by URL (a requirement, a pip
// install argument): a note from one of officialIndexes, or from a public
// forge when the URL names a full commit or a release tag (a release
// asset, an archive of a tag) or the file's hash is pinned; a warning for
// any other host, plain http or a raw IP address.
func gradeFile(value string, hashed bool) string {
	src, ok := parseSource(trimURL(value))
	switch {
	case !ok:
		return SeverityWarning
	case src.loopback(), src.official():
		return SeverityNote
	case src.forge() && (hashed || hashFragment(src.frag) || fixedRef(src.forgeRef())):
		return SeverityNote
	}
	return SeverityWarning
}

// hashFragment reports whether a URL's fragment pins the file's hash, as
// pip reads it (#sha256=…).
func hashFragment(frag string) bool {
	for _, kv := range strings.Split(frag, "&") {
		for _, a := range []string{"sha256=", "sha384=", "sha512="} {
			if strings.HasPrefix(strings.ToLower(kv), a) && len(kv) > len(a)+31 {
				return true
			}
		}
	}
	return false
}

// forgeRef returns the ref a forge's download URL names: the tag of a
// release asset (/releases/download/TAG/file), the ref of an archive
// (/archive/REF.tar.gz, /archive/refs/tags/TAG.zip, GitLab's
// /-/archive/REF/file) or of a raw file (/raw/REF/file, GitLab's
// /-/raw/REF/file, raw.githubusercontent.com/org/repo/REF/file); a branch
// (refs/heads/) names none.
func (src source) forgeRef() string {
	segs := strings.Split(strings.Trim(src.path, "/"), "/")
	if src.host == "raw.githubusercontent.com" {
		if len(segs) < 4 {
			return ""
		}
		return refAt(segs[2:])
	}
	for i := 2; i+1 < len(segs); i++ { // after org/repo: a repository may be named "archive"
		switch s := segs[i]; {
		case s == "download" && segs[i-1] == "releases":
			return segs[i+1]
		case s == "raw":
			return refAt(segs[i+1:])
		case s == "archive":
			ref := refAt(segs[i+1:]) // GitLab's /-/archive/REF/name-REF.tar.gz too
			for _, ext := range []string{".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip"} {
				if n, ok := strings.CutSuffix(ref, ext); ok {
					return n
				}
			}
			return ref
		}
	}
	return ""
}

// refAt returns the ref that starts a path's rest: refs/tags/TAG gives
// TAG, refs/heads/ none, anything else its first segment.
func refAt(rest []string) string {
	if rest[0] != "refs" {
		return rest[0]
	}
	if len(rest) >= 3 && rest[1] == "tags" {
		return rest[2]
	}
	return ""
}

// npmConfigFile reports whether a file is npm's or Yarn's configuration,
// where a line registry=URL points installs at an index.
func npmConfigFile(file string) bool {
	switch strings.ToLower(path.Base(file)) {
	case ".npmrc", "npmrc", ".yarnrc":
		return true
	}
	return false
}

// hashedLine reports whether line i, with the lines it continues onto
// (a final backslash), pins a hash: pip's --hash=, or a #sha256= fragment.
func hashedLine(s *scan, i int) bool {
	for j := i; j < s.lines() && j <= i+8; j++ {
		l := s.line(j)
		if strings.Contains(l, "--hash=") || strings.Contains(l, "--hash ") || strings.Contains(l, "#sha256=") {
			return true
		}
		if !strings.HasSuffix(strings.TrimRight(l, " \t\r"), `\`) {
			break
		}
	}
	return false
}

// urlValue reports whether a value is spelt as a URL.
func urlValue(v string) bool { return strings.Contains(v, "://") }

// unresolved reports whether a value is one the line does not spell: a
// variable ($INDEX, %INDEX%).
func unresolved(v string) bool {
	v = strings.TrimLeft(v, `"'`)
	return strings.HasPrefix(v, "$") && !strings.HasPrefix(v, "${CLAUDE_SKILL_DIR}") || strings.HasPrefix(v, "%")
}

// indexValue grades the value of what names a package index: a URL by
// gradeIndex; a value the line does not spell is a warning where the name
// can only mean an index (strict), and a folder on disk for find-links a
// note. Anything else is not an index: "".
func indexValue(value string, strict, findLinks bool) string {
	if _, v, ok := strings.Cut(value, "="); ok && urlValue(v) && !strings.Contains(value[:strings.IndexByte(value, '=')], "/") {
		value = v // uv's --index name=URL
	}
	switch {
	case urlValue(value):
		return gradeIndex(value)
	case unresolved(value) && (strict || findLinks):
		return SeverityWarning
	case findLinks:
		return SeverityNote // a folder of wheels on disk
	}
	return ""
}

// pipBefore matches a pip or uv pip command before an option on its line,
// in the same command.
var pipBefore = &lazyre.RE{Expr: `\b(?:pip[\d.]*|uv\s+pip)\s[^|;&\n]*$`}

// indexOption grades an option that names a package index (group 1, its
// value group 2): pip's --index-url, --extra-index-url and --find-links,
// uv's --index and --default-index, npm's --registry, and pip's -i and -f
// after pip. An option other tools also have (--registry, --index,
// --default-index) counts only with a URL.
func indexOption(s *scan, i int, m []int) string {
	line := s.line(i)
	opt, value := strings.ToLower(line[m[2]:m[3]]), line[m[4]:m[5]]
	switch opt {
	case "--index-url", "--extra-index-url":
		return indexValue(value, true, false)
	case "--find-links":
		return indexValue(value, false, true)
	case "-i", "-f":
		if !pipBefore.MatchString(line[:m[2]]) {
			return ""
		}
		return indexValue(value, opt == "-i", opt == "-f")
	}
	if !urlValue(value) {
		return ""
	}
	return indexValue(value, false, false)
}

// indexConfig grades a configuration line that names a package index
// (group 1, its value group 2): pip.conf's index-url = and extra-index-url
// =, and in npm's configuration registry= (also a scope's
// @scope:registry=).
func indexConfig(s *scan, i int, m []int) string {
	opt := strings.ToLower(s.line(i)[m[2]:m[3]])
	if strings.HasSuffix(opt, "registry") {
		if !npmConfigFile(s.file) {
			return "" // registry= in some other tool's configuration
		}
		return indexValue(s.line(i)[m[4]:m[5]], false, false)
	}
	return indexValue(s.line(i)[m[4]:m[5]], true, strings.Contains(opt, "find"))
}

// indexSetting grades a variable or a config set that names a package
// index (group 1, its value group 2): PIP_INDEX_URL=,
// PIP_EXTRA_INDEX_URL=, UV_INDEX_URL= and their kin, pip config set
// global.index-url, npm config set registry.
func indexSetting(s *scan, i int, m []int) string {
	g := 2
	if m[g] < 0 {
		g = 6 // config set
	}
	opt := strings.ToLower(s.line(i)[m[g]:m[g+1]])
	return indexValue(s.line(i)[m[g+2]:m[g+3]], !strings.HasSuffix(opt, "registry"), strings.Contains(opt, "find"))
}

// trustedHost grades pip's --trusted-host, which turns off TLS checks for a
// host: a note for the user's own machine, else a warning.
func trustedHost(s *scan, i int, m []int) string {
	if m[2] < 0 {
		return SeverityWarning
	}
	host := strings.ToLower(trimURL(s.line(i)[m[2]:m[3]]))
	if src, ok := parseSource("https://" + host); ok && src.loopback() {
		return SeverityNote
	}
	return SeverityWarning
}

// gitSource grades a git+ URL (group 1: the URL after git+).
func gitSource(s *scan, i int, m []int) string {
	return gradeGit(s.line(i)[m[2]:m[3]])
}

// gypAction accepts actions and command expansions of a node-gyp file,
// which npm runs when it installs the package.
func gypAction(s *scan, i int, m []int) string {
	if ext := strings.ToLower(path.Ext(s.file)); ext == ".gyp" || ext == ".gypi" {
		return SeverityWarning
	}
	return ""
}
