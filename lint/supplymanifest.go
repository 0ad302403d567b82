package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/source"
)

// This file finds the packages that requirements files, manifests and
// install commands name by URL or by repository, outside the package
// managers' index options (supply.go grades them all): a requirements
// line, pip install URL, a PEP 508 direct reference in pyproject.toml or
// setup.py, a URL or a forge shorthand as a package.json dependency, a git
// dependency of a TOML manifest (Cargo.toml, pyproject.toml's uv and
// Poetry sources, Pipfile), and cargo install --git.

// installer matches a command that installs a Python package given by URL
// and what may come between it and the URL: pip, pip3, pipx, uv pip, uv
// add, uv tool and uvx.
var installer = &lazyre.RE{Expr: `\b(?:pip[x\d.]*\s(?:[^|;&\n]*\s)?install|uv\s+(?:pip\s+install|add|tool\s+(?:install|run))|uvx)\b[^|;&\n]*$`}

// valueOpts are the options of pip and uv whose value is not a package:
// the URL after one of them is an index (indexSource) or a file of
// constraints, not what is installed.
var valueOpts = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"-i": true, "--index-url": true, "--extra-index-url": true, "-f": true, "--find-links": true,
		"--trusted-host": true, "--index": true, "--default-index": true, "-c": true, "--constraint": true,
		"--cert": true, "--proxy": true, "--client-cert": true,
	}
}}

// requirementURL grades a package installed from a URL (group 1): a line
// of a requirements file (name @ URL, a bare URL, -r URL, -e URL), a
// manifest's (manifestURL), or an argument of pip, uv or pipx on a command
// line.
func requirementURL(s *scan, i int, m []int) string {
	line := s.line(i)
	before := strings.TrimRight(line[:m[2]], `"'`)
	if before != "" && !strings.HasSuffix(before, " ") && !strings.HasSuffix(before, "\t") && !strings.HasSuffix(before, "@") {
		return "" // part of a word or an option's value (--index-url=https://…)
	}
	before = strings.TrimSpace(before)
	if requirementsFile(s.file) {
		head := strings.TrimSpace(strings.TrimRight(before, "@"))
		switch {
		case before == "", strings.HasSuffix(before, "@") && !strings.ContainsAny(head, " \t"):
		case head == "-r" || head == "--requirement" || head == "-e" || head == "--editable":
		case head == "-i" || head == "-f":
			return gradeIndex(line[m[2]:m[3]]) // pip's short index options, as a requirements line gives them
		default:
			return ""
		}
		return gradeFile(line[m[2]:m[3]], hashedLine(s, i))
	}
	if sev, ok := manifestURL(s, i, before, line[m[2]:m[3]]); ok {
		return sev
	}
	if !installer.MatchString(before) {
		return ""
	}
	if s.flag(i)&lineCode == 0 && strings.Count(before, "`")%2 == 0 {
		return "" // a sentence about pip, not a command: prose outside a code span
	}
	f := strings.Fields(strings.TrimRight(before, "@"))
	if len(f) > 0 && (valueOpts.Get()[f[len(f)-1]] || strings.HasSuffix(f[len(f)-1], "=")) {
		return ""
	}
	return gradeFile(line[m[2]:m[3]], hashedLine(s, i))
}

// requirementsFile reports whether a file is a pip requirements file
// (requirements.txt, requirements-dev.txt, requirements.lock, reqs.in).
func requirementsFile(file string) bool {
	base := strings.ToLower(path.Base(file))
	return strings.HasPrefix(base, "requirements") || strings.HasSuffix(base, ".in") && strings.Contains(base, "req")
}

// directRef matches what ends the text before the URL of a PEP 508 direct
// reference in a quoted string: "name @, 'name[extra] @.
var directRef = &lazyre.RE{Expr: `["']\s*[A-Za-z0-9][\w.-]*(?:\[[\w,.\s-]*\])?\s*@$`}

// jsonKeyColon matches what is before a JSON string value: "key":.
var jsonKeyColon = &lazyre.RE{Expr: `^"[^"]+"\s*:$`}

// jsonObjectOpen matches a line that opens an object under a key, the key
// in group 1.
var jsonObjectOpen = &lazyre.RE{Expr: `^"([^"]+)"\s*:\s*\{`}

// manifestURL grades a URL a manifest declares as a package (before is
// the line before it, trimmed): a direct reference in any file, or the
// value of a package.json dependency. ok is false when the URL is neither.
func manifestURL(s *scan, i int, before, url string) (sev string, ok bool) {
	switch {
	case directRef.MatchString(before):
		return gradeFile(url, hashedLine(s, i)), true
	case strings.ToLower(path.Base(s.file)) == "package.json" && jsonKeyColon.MatchString(before) && inDependencies(s, i):
		return gradeFile(url, false), true
	}
	return "", false
}

// inDependencies reports whether line i of a package.json is inside one of
// its dependency objects (dependencies, devDependencies, overrides, …):
// the nearest object opened above it, as a formatted file lays them out.
func inDependencies(s *scan, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4096; j-- {
		l := strings.TrimSpace(s.line(j))
		if strings.HasPrefix(l, "}") {
			return false // a sibling object closed: line i is outside it
		}
		if m := jsonObjectOpen.FindStringSubmatch(l); m != nil {
			k := strings.ToLower(m[1])
			return strings.HasSuffix(k, "dependencies") || k == "overrides" || k == "resolutions"
		}
	}
	return false
}

// npmInstall matches an npm, Yarn, pnpm or Bun command that adds packages,
// before a forge shorthand on its line.
var npmInstall = &lazyre.RE{Expr: `\b(?:npm|pnpm|yarn|bun)\s+(?:[^|;&\n]*\s)?(?:i|install|add)\s[^|;&\n]*$`}

// forgeShorthand grades npm's shorthand for a repository on a forge
// (github:org/repo#ref; group 1 the forge, group 2 the rest) in a
// package.json or an install command: a git source (gradeGit).
func forgeShorthand(s *scan, i int, m []int) string {
	line := s.line(i)
	if strings.ToLower(path.Base(s.file)) != "package.json" && !npmInstall.MatchString(line[:m[0]]) {
		return ""
	}
	host := strings.ToLower(line[m[2]:m[3]]) + ".com"
	if host == "bitbucket.com" {
		host = "bitbucket.org"
	}
	return gradeGit("https://" + host + "/" + line[m[4]:m[5]])
}

// gitRefOption matches cargo install's --tag or --rev and its value
// (group 1); --branch names no fixed ref.
var gitRefOption = &lazyre.RE{Expr: `\s--(?:tag|rev)(?:\s+|=)["']?([^\s"'<>]+)`}

// cargoGit grades cargo install --git URL (group 1), with the ref --tag or
// --rev gives on the line: a git source (gradeGit).
func cargoGit(s *scan, i int, m []int) string {
	line := s.line(i)
	url := source.Trim(line[m[2]:m[3]])
	ref := ""
	if r := gitRefOption.FindStringSubmatch(line); r != nil {
		ref = r[1]
	}
	return gradeGit(withRef(url, ref))
}

// tomlRef matches a TOML git dependency's fixed ref and its value
// (group 1): tag, rev (Cargo, uv, Poetry) or ref (Pipfile).
var tomlRef = &lazyre.RE{Expr: `\b(?:tag|rev|ref)\s*=\s*["']([^"']+)["']`}

// tomlGit grades a git dependency of a TOML manifest or a Pipfile
// (git = "URL", group 1), with the ref that the same inline table, or the
// lines of its table below, give; branch names no fixed ref.
func tomlGit(s *scan, i int, m []int) string {
	ext := strings.ToLower(path.Ext(s.file))
	if ext != ".toml" && strings.ToLower(path.Base(s.file)) != "pipfile" {
		return ""
	}
	line := s.line(i)
	ref := ""
	if r := tomlRef.FindStringSubmatch(line[m[1]:]); r != nil {
		ref = r[1]
	} else if !strings.Contains(line[:m[0]], "{") {
		for j := i + 1; j < s.lines() && j <= i+16; j++ {
			l := strings.TrimSpace(s.line(j))
			if l == "" || strings.HasPrefix(l, "[") {
				break
			}
			if r := tomlRef.FindStringSubmatch(l); r != nil {
				ref = r[1]
				break
			}
		}
	}
	return gradeGit(withRef(source.Trim(line[m[2]:m[3]]), ref))
}

// withRef spells a repository URL and a ref as pip does, URL@ref.
func withRef(url, ref string) string {
	if ref == "" {
		return url
	}
	return url + "@" + ref
}

// preCommitRev matches the rev: of a pre-commit hook repository and its
// value (group 1).
var preCommitRev = &lazyre.RE{Expr: `^\s*-?\s*rev\s*:\s*["']?([^\s"'#]+)`}

// preCommitRepo grades a hook repository of a pre-commit configuration
// (repo: URL, group 1), whose hooks pre-commit fetches and runs on every
// commit, with the rev: of its entry: a git source (gradeGit).
func preCommitRepo(s *scan, i int, m []int) string {
	if !strings.Contains(strings.ToLower(path.Base(s.file)), "pre-commit") {
		return ""
	}
	ref := ""
	for j := i + 1; j < s.lines() && j <= i+8; j++ {
		l := s.line(j)
		if strings.Contains(l, "repo:") {
			break
		}
		if r := preCommitRev.FindStringSubmatch(l); r != nil {
			ref = r[1]
			break
		}
	}
	return gradeGit(withRef(source.Trim(s.line(i)[m[2]:m[3]]), ref))
}
