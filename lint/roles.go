package lint

import (
	"bytes"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/lint/filekind"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

// A role says what a file is and what will run or read it. A file has one
// or more; a rule names the roles it reads.
type role uint16

const (
	roleSkill    role = 1 << iota // SKILL.md: frontmatter a host acts on, then the body the agent follows
	roleMarkdown                  // any Markdown file, SKILL.md included
	roleText                      // plain prose: .txt, .rst, .adoc
	roleScript                    // a program: by extension or by a #! line
	roleManifest                  // a package or build manifest: package.json, setup.py, pyproject.toml, Makefile, Dockerfile, …
	roleAutoExec                  // a file a tool runs on its own: conftest.py, sitecustomize.py, *.pth, build.rs, …
	roleBinary                    // not text: magic bytes of a binary format, or a NUL byte near the start
	roleData                      // any other text file (JSON, YAML, HTML, CSV, …)
)

// roleProse is the roles a model reads as instructions in natural language.
const roleProse = roleMarkdown | roleText

// roleCode is the roles whose lines are code whatever their context.
const roleCode = roleScript | roleManifest | roleAutoExec

// manifestNames are package and build manifests by file name.
var manifestNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"package.json": true, "setup.py": true, "setup.cfg": true, "pyproject.toml": true, "makefile": true,
		"gnumakefile": true, "dockerfile": true, "containerfile": true, ".npmrc": true, ".yarnrc": true,
		".yarnrc.yml": true, "pnpm-workspace.yaml": true, "gemfile": true, "rakefile": true, "cargo.toml": true,
		"composer.json": true, "justfile": true, "taskfile.yml": true, "requirements.txt": true, "pipfile": true,
		"deno.json": true, "bunfig.toml": true, "docker-compose.yml": true, "compose.yaml": true,
	}
}}

// autoExecNames are files that a tool runs without being asked to: pytest
// imports conftest.py, Python's site module sitecustomize.py and
// usercustomize.py, Cargo compiles and runs build.rs, direnv sources .envrc.
var autoExecNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"conftest.py": true, "sitecustomize.py": true, "usercustomize.py": true, "build.rs": true, ".envrc": true,
	}
}}

// IsScript reports whether path names an executable script by its
// extension: .sh .bash .zsh .ps1 .psm1 .bat .cmd .py .js .mjs .cjs .ts .rb .pl
// .php, in any case. --no-scripts withholds these files.
func IsScript(p string) bool { return filekind.IsScriptExt(strings.ToLower(path.Ext(p))) }

// classify returns the roles of a file from its path and its first bytes.
func classify(file string, data []byte) role {
	if filekind.IsBinary(data) {
		return roleBinary
	}
	base := path.Base(file)
	lower := strings.ToLower(base)
	ext := path.Ext(lower)
	var r role
	switch {
	case base == "SKILL.md":
		r = roleSkill | roleMarkdown
	case ext == ".md" || ext == ".markdown" || ext == ".mdx":
		r = roleMarkdown
	case ext == ".txt" || ext == ".text" || ext == ".rst" || ext == ".adoc":
		r = roleText
	}
	if filekind.IsProgramExt(ext) || bytes.HasPrefix(data, []byte("#!")) {
		r |= roleScript
	}
	if manifestNames.Get()[lower] || ext == ".mk" || ext == ".mak" || strings.HasPrefix(lower, "dockerfile") || ext == ".dockerfile" || strings.HasPrefix(lower, "makefile.") || strings.HasPrefix(lower, "requirements") && ext == ".txt" {
		r = r&^roleText | roleManifest
	}
	if ext == "" && program.IsGitHookName(lower) {
		r |= roleScript
	}
	if autoExecNames.Get()[lower] || ext == ".pth" || strings.Contains(file, ".git/hooks/") || strings.HasPrefix(file, ".husky/") ||
		strings.Contains(file, "/.husky/") {
		r |= roleAutoExec
	}
	if r == 0 {
		r = roleData
	}
	return r
}

// exeNames are extensions under which a native executable says what it is.
var exeNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{".exe": true, ".dll": true, ".so": true, ".dylib": true, ".bin": true, ".elf": true, ".node": true, "": true}
}}
