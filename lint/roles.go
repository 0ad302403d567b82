package lint

import (
	"bytes"
	"path"
	"strings"
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

// scriptExts are the extensions of programs: --no-scripts withholds these
// files (see IsScript).
var scriptExts = map[string]bool{
	".sh": true, ".bash": true, ".zsh": true, ".ps1": true, ".psm1": true, ".bat": true, ".cmd": true,
	".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".rb": true, ".pl": true, ".php": true,
}

// moreScriptExts are further program extensions the analyser reads as code
// (IsScript keeps its historical list, which --no-scripts applies).
var moreScriptExts = map[string]bool{
	".ksh": true, ".fish": true, ".psd1": true, ".vbs": true, ".jsx": true, ".tsx": true, ".mts": true,
	".cts": true, ".lua": true, ".tcl": true, ".r": true, ".go": true, ".rs": true, ".swift": true,
	".java": true, ".kt": true, ".cs": true, ".c": true, ".cc": true, ".cpp": true, ".h": true,
	".groovy": true, ".gradle": true, ".applescript": true, ".scpt": true, ".ipynb": true,
}

// manifestNames are package and build manifests by file name.
var manifestNames = map[string]bool{
	"package.json": true, "setup.py": true, "setup.cfg": true, "pyproject.toml": true, "makefile": true,
	"gnumakefile": true, "dockerfile": true, "containerfile": true, ".npmrc": true, ".yarnrc": true,
	".yarnrc.yml": true, "pnpm-workspace.yaml": true, "gemfile": true, "rakefile": true, "cargo.toml": true,
	"composer.json": true, "justfile": true, "taskfile.yml": true, "requirements.txt": true, "pipfile": true,
	"deno.json": true, "bunfig.toml": true, "docker-compose.yml": true, "compose.yaml": true,
}

// autoExecNames are files that a tool runs without being asked to: pytest
// imports conftest.py, Python's site module sitecustomize.py and
// usercustomize.py, Cargo compiles and runs build.rs, direnv sources .envrc.
var autoExecNames = map[string]bool{
	"conftest.py": true, "sitecustomize.py": true, "usercustomize.py": true, "build.rs": true, ".envrc": true,
}

// IsScript reports whether path names an executable script by its
// extension: .sh .bash .zsh .ps1 .psm1 .bat .cmd .py .js .mjs .cjs .ts .rb .pl
// .php, in any case. --no-scripts withholds these files.
func IsScript(p string) bool { return scriptExts[strings.ToLower(path.Ext(p))] }

// classify returns the roles of a file from its path and its first bytes.
func classify(file string, data []byte) role {
	if isBinary(data) {
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
	if scriptExts[ext] || moreScriptExts[ext] || bytes.HasPrefix(data, []byte("#!")) {
		r |= roleScript
	}
	if manifestNames[lower] || ext == ".mk" || ext == ".mak" || strings.HasPrefix(lower, "dockerfile") || strings.HasPrefix(lower, "requirements") && ext == ".txt" {
		r = r&^roleText | roleManifest
	}
	if autoExecNames[lower] || ext == ".pth" || strings.Contains(file, ".git/hooks/") || strings.HasPrefix(file, ".husky/") ||
		strings.Contains(file, "/.husky/") {
		r |= roleAutoExec
	}
	if r == 0 {
		r = roleData
	}
	return r
}

// binaryMagic are the leading bytes of common binary formats.
var binaryMagic = [][]byte{
	[]byte("\x7fELF"), []byte("MZ"), []byte("\xfe\xed\xfa\xce"), []byte("\xfe\xed\xfa\xcf"), []byte("\xce\xfa\xed\xfe"),
	[]byte("\xcf\xfa\xed\xfe"), []byte("\xca\xfe\xba\xbe"), []byte("\x89PNG"), []byte("GIF8"), []byte("\xff\xd8\xff"),
	[]byte("%PDF"), []byte("PK\x03\x04"), []byte("\x00asm"), []byte("RIFF"), []byte("\x1f\x8b"), []byte("BZh"),
	[]byte("\xfd7zXZ"), []byte("7z\xbc\xaf"), []byte("OggS"), []byte("fLaC"), []byte("ID3"), []byte("wOFF"), []byte("wOF2"),
}

// isBinary reports whether data is a binary file: a known magic number, or
// a NUL byte in its first 8000 bytes (as git decides).
func isBinary(data []byte) bool {
	for _, m := range binaryMagic {
		if bytes.HasPrefix(data, m) {
			if m[0] == 'M' && m[1] == 'Z' && exeKind(data) == "" {
				continue // text that starts with "MZ"
			}
			return true
		}
	}
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

// exeKind names the native executable format of data, or "".
func exeKind(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(data, []byte("\xfe\xed\xfa\xce")), bytes.HasPrefix(data, []byte("\xfe\xed\xfa\xcf")),
		bytes.HasPrefix(data, []byte("\xce\xfa\xed\xfe")), bytes.HasPrefix(data, []byte("\xcf\xfa\xed\xfe")):
		return "Mach-O"
	case bytes.HasPrefix(data, []byte("\xca\xfe\xba\xbe")) && len(data) >= 8:
		// A universal Mach-O counts its architectures (a few); a Java class
		// file has its version there (45 and up).
		if n := uint32(data[4])<<24 | uint32(data[5])<<16 | uint32(data[6])<<8 | uint32(data[7]); n > 0 && n < 30 {
			return "Mach-O"
		}
	case bytes.HasPrefix(data, []byte("MZ")) && len(data) >= 0x40:
		off := int(data[0x3c]) | int(data[0x3d])<<8 | int(data[0x3e])<<16 | int(data[0x3f])<<24
		if off >= 0x40 && off+4 <= len(data) && string(data[off:off+4]) == "PE\x00\x00" {
			return "PE"
		}
	}
	return ""
}

// exeNames are extensions under which a native executable says what it is.
var exeNames = map[string]bool{".exe": true, ".dll": true, ".so": true, ".dylib": true, ".bin": true, ".elf": true, ".node": true, "": true}
