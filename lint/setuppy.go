package lint

import (
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file tells Python build hooks that only build from ones that do
// more: pip runs a setup.py's command classes and a build back-end's hooks
// when it installs the package, so they are an install-hook warning
// unless all the file does is start build tools, or the hook is
// hatch-vcs's version file.

// setupHook grades a setup.py command class (install-hook's cmdclass and
// class patterns): a note in the skill's root setup.py, the project's own
// build, whose code the analysis reads in the same file (as a root
// package.json's hook, ownScriptHook), unless it reaches the network, the
// home folder or dynamic code (setupReach); deeper in the skill, a package
// bundled to be installed elsewhere, a note only when the whole file only
// builds (setupBuildOnly), a warning otherwise.
func setupHook(s *scan, i int, m []int) string {
	if s.file == "setup.py" && !setupReach.MatchString(s.text) || strings.EqualFold(path.Base(s.file), "setup.py") && setupBuildOnly(s.text) {
		return SeverityNote
	}
	return SeverityWarning
}

// setupReach matches what in a setup.py reaches past building the
// package: the network, the home folder, code run from a value, decoding,
// native calls, a shell, a place that runs later.
var setupReach = &lazyre.RE{Expr: `\b(?:urllib|requests|httpx|http\.client|socket|urlopen|ftplib|smtplib|paramiko|expanduser|home\b|HOME\b|USERPROFILE|` +
	`importlib|__import__|base64|b64decode|binascii|codecs\.(?:decode|encode|getdecoder|lookup)|marshal|pickle|ctypes|os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|pty|shell\s*=\s*True|` +
	`chmod|crontab|bashrc|zshrc|profile|\.ssh|\.aws|getattr|setattr|globals|locals|rmtree\(\s*["'/~])|(?:^|[^.\w])(?:exec|eval|compile)\s*\(`}

// setupPrograms are the programs a setup.py may start and still only
// build: git asking about the source tree, the JavaScript package managers
// building a front end the package ships (their scripts are in the
// skill's package.json, which the rules read), protoc.
var setupPrograms = []string{"git", "npm", "pnpm", "yarn", "protoc"}

// setupModules are the modules a setup.py may run with sys.executable -m
// and still only build.
var setupModules = []string{"grpc_tools.protoc"}

// setupCommand matches a process a setup.py starts, capturing the first
// element of its command list; setupImport an import line.
var (
	setupCommand = &lazyre.RE{Expr: `\bsubprocess\.(?:run|call|check_call|check_output|Popen)\s*\(\s*(\[?)\s*([^,\]\)]*)(?:,\s*([^,\]\)]*))?(?:,\s*([^,\]\)]*))?`}
	setupImport  = &lazyre.RE{Expr: `(?m)^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))`}
)

// setupStd are the modules a setup.py that only builds imports: the
// packaging tools, the standard library's file and process modules, and
// grpc_tools, whose protoc is a code generator.
var setupStd = []string{"setuptools", "distutils", "wheel", "os", "sys", "re", "io", "json", "shutil", "subprocess", "pathlib", "glob",
	"sysconfig", "platform", "textwrap", "typing", "__future__", "grpc_tools", "datetime", "time", "fnmatch", "contextlib"}

// setupBuildOnly reports a setup.py that only builds: its cmdclass is a
// literal mapping to classes the file defines (setupClassesHere); nothing in it
// reaches past the package (setupReach, a git subcommand that changes
// the repository or reaches a remote); every module it imports is one of
// setupStd; every process it starts is one of setupPrograms, named by a
// literal or a name bound to one (npm = shutil.which("npm")), or
// sys.executable running one of setupModules.
func setupBuildOnly(text string) bool {
	if setupReach.MatchString(text) || gitWriteQuoted.MatchString(text) || !setupClassesHere(text) {
		return false
	}
	for _, m := range setupImport.FindAllStringSubmatch(text, -1) {
		mods := m[1]
		if mods == "" {
			mods = m[2]
		}
		for _, mod := range strings.Split(mods, ",") {
			mod, _, _ = strings.Cut(strings.TrimSpace(mod), " ")
			root, _, _ := strings.Cut(mod, ".")
			if !slices.Contains(setupStd, root) {
				return false
			}
		}
	}
	cmds := setupCommand.FindAllStringSubmatch(text, maxBuildCommands+1)
	if len(cmds) > maxBuildCommands {
		return false // more processes than a build starts: read no further
	}
	for _, m := range cmds {
		if m[1] != "[" {
			return false // a command the text builds elsewhere
		}
		prog := strings.TrimSpace(m[2])
		if prog == "sys.executable" {
			if strings.Trim(strings.TrimSpace(m[3]), `"'`) != "-m" || !slices.Contains(setupModules, strings.Trim(strings.TrimSpace(m[4]), `"'`)) {
				return false
			}
			continue
		}
		if !setupProgram(text, prog) {
			return false
		}
	}
	return true
}

// setupCmdclass matches a setup.py's cmdclass mapping, capturing its
// entries.
var setupCmdclass = &lazyre.RE{Expr: `\bcmdclass\s*=\s*\{([^{}]*)\}`}

// setupClassesHere reports whether a setup.py has one cmdclass, a
// literal mapping, and defines every class it names: the code pip runs
// is all in the text.
func setupClassesHere(text string) bool {
	ms := setupCmdclass.FindAllStringSubmatch(text, -1)
	if len(ms) != 1 || strings.Count(text, "cmdclass") != 1 {
		return false
	}
	n := 0
	for _, e := range strings.Split(ms[0][1], ",") {
		_, name, ok := strings.Cut(e, ":")
		if name = strings.TrimSpace(name); !ok && strings.TrimSpace(e) == "" {
			continue
		}
		if !isIdent(name) || !strings.Contains(text, "class "+name+"(") {
			return false
		}
		n++
	}
	return n > 0
}

// setupProgram reports whether the expression prog names one of
// setupPrograms: a literal, or a name the text binds to a literal or to
// shutil.which of one (and to nothing else).
func setupProgram(text, prog string) bool {
	if lit, ok := plainLiteral(prog, `"'`); ok {
		return slices.Contains(setupPrograms, lit)
	}
	if !isIdent(prog) {
		return false
	}
	bound := false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, prog) {
			continue
		}
		rest := strings.TrimSpace(t[len(prog):])
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			continue
		}
		v := strings.TrimSpace(rest[1:])
		if w, ok := strings.CutPrefix(v, "shutil.which("); ok {
			v = strings.TrimSuffix(w, ")")
		}
		lit, ok := plainLiteral(v, `"'`)
		if !ok || !slices.Contains(setupPrograms, lit) {
			return false
		}
		bound = true
	}
	return bound
}

// hatchHook grades a build back-end's hook (install-hook's backend-path
// and hatch hooks pattern): a note for hatch-vcs's version hook, which
// writes the version git describes into a file and runs nothing of the
// package's, and for the custom hook of the skill's root pyproject.toml,
// which runs the project's own hatch_build.py, read as code on its own
// (as a root package.json's hook, ownScriptHook); a warning for any other.
func hatchHook(s *scan, i int, m []int) string {
	switch {
	case m[2] >= 0 && s.line(i)[m[2]:m[3]] == "vcs":
		return SeverityNote
	case m[2] >= 0 && s.line(i)[m[2]:m[3]] == "custom" && s.file == "pyproject.toml":
		return SeverityNote // the root project's own hook file, read as code on its own
	}
	return SeverityWarning
}
