package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/source"
)

// This file grades what the untrusted-source rule (rules.go) finds, and
// finds the package indexes it names (supplymanifest.go finds packages
// named by URL or repository): where a package manager is told to fetch
// from, and whether what it fetches there can change after the skill was
// read. A source is a note when package source finds both who serves it
// and what it serves fixed (a registry or a project's own index, or a
// public forge at a full commit or a release tag, over https), a warning
// otherwise.

// gradeIndex grades a package index named by value: a note when package
// source trusts it as the default registry (source.Index), else a warning.
func gradeIndex(value string) string { return sevIf(!source.Index(value)) }

// gradeGit grades a git source: a note when it is pinned (source.Git),
// else a warning.
func gradeGit(value string) string { return sevIf(!source.Git(value)) }

// gradeFile grades a package file fetched by URL: a note when it is pinned
// (source.File), else a warning.
func gradeFile(value string, hashed bool) string { return sevIf(!source.File(value, hashed)) }

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
	return sevIf(!source.Loopback(s.line(i)[m[2]:m[3]]))
}

// gitSource grades a git+ URL (group 1: the URL after git+).
func gitSource(s *scan, i int, m []int) string {
	line := s.line(i)
	if strings.EqualFold(path.Base(s.file), "package.json") && packageMetaKey.MatchString(line[:m[0]]) {
		return "" // where the package's own source lives (repository.url), not something installed
	}
	if s.roles&roleScript != 0 && s.roles&(roleManifest|roleAutoExec) == 0 && !gitInstaller.MatchString(line[:m[0]]) {
		return "" // a program's string or docstring that names a source (a test's input, a parser's example): nothing installs from it
	}
	u := line[m[2]:m[3]]
	if _, rest, _ := strings.Cut(u, "://"); strings.HasPrefix(rest, "…") || strings.HasPrefix(rest, "...") || strings.HasPrefix(rest, "<") {
		return SeverityNote // git+https://…: the form of a source, no host named
	}
	return gradeGit(u)
}

// packageMetaKey matches the start of a package.json line whose value
// says where the package itself lives: "url" (of repository or bugs),
// "repository", "homepage".
var packageMetaKey = &lazyre.RE{Expr: `^\s*"(?:url|repository|homepage)"\s*:\s*"$`}

// gitInstaller matches, before a git+ source on a program's line, what
// installs from it: pip, uv, uvx, pipx, npm, pnpm, yarn, bun, poetry.
var gitInstaller = &lazyre.RE{Expr: `\b(?:pip[x\d.]*|uvx?|npm|pnpm|yarn|bun|poetry|pdm|hatch|conda)\b`}

// gypAction accepts actions and command expansions of a node-gyp file,
// which npm runs when it installs the package: a note for an expansion
// that only prints where an installed package keeps its headers
// (gypHeaders), a warning for any other.
func gypAction(s *scan, i int, m []int) string {
	if ext := strings.ToLower(path.Ext(s.file)); ext != ".gyp" && ext != ".gypi" {
		return ""
	}
	line := s.line(i)
	if strings.HasPrefix(line[m[0]:], "<!") {
		if e := gypHeaders.Regexp().FindStringIndex(line[m[0]:]); e != nil && e[0] == 0 {
			if rest := line[m[0]+e[1]:]; !strings.Contains(rest, "<!") && !strings.Contains(rest, `"actions"`) {
				return SeverityNote
			}
		}
	}
	return SeverityWarning
}

// gypHeaders matches a node-gyp command expansion that prints an
// installed package's include folder, as node-addon-api and nan document
// it: <!(node -p "require('node-addon-api').include_dir"), <!@(node -p
// "require('node-addon-api').include"), <!(node -e "require('nan')"); or
// pkg-config's flags for a library.
var gypHeaders = &lazyre.RE{Expr: `<!@?\((?:node\s+-[pe]\s+\\?"require\('(?:@[\w.-]+/)?[\w.-]+'\)(?:\.\w+)?\\?"|pkg-config\s+--(?:cflags|libs|cflags-only-I|libs-only-l|libs-only-L)(?:\s+--(?:cflags|libs))?\s+[\w.+-]+)\)`}
