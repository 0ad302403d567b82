package lint

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file is what the rules know of npm's lifecycle scripts, which npm,
// yarn and pnpm run on install (install-hook): a package's own build
// tools, the package's own scripts run by name, and inline code that can
// only test the Node that runs it.

// npmLifecycle accepts a lifecycle script of package.json, which npm, yarn
// and pnpm run on install: a warning, a note when the whole script is one
// that localBuildTool accepts.
func npmLifecycle(s *scan, i int, m []int) string {
	if path.Base(s.file) != "package.json" {
		return ""
	}
	rest := s.line(i)[m[1]:]
	if localBuildScript(s.text, rest) || nodeVersionCheck(rest) || s.file == "package.json" && ownScriptHook(rest) {
		return SeverityNote
	}
	return SeverityWarning
}

// escapedLifecycle grades a package.json key spelled with JSON escapes
// that decodes to a lifecycle script's name ("pre\u0069nstall"): npm runs
// it as the name it decodes to, and spelling it so hides it from a reader,
// a warning whatever it runs.
func escapedLifecycle(s *scan, i int, m []int) string {
	if path.Base(s.file) != "package.json" {
		return ""
	}
	var key string
	if json.Unmarshal([]byte(`"`+s.line(i)[m[2]:m[3]]+`"`), &key) != nil {
		return ""
	}
	if lifecycleName.MatchString(key) {
		return SeverityWarning
	}
	return ""
}

// lifecycleName matches the name of a script npm runs on install.
var lifecycleName = &lazyre.RE{Expr: `^(?:(?:pre|post)?(?:un)?install|(?:pre|post)?prepare|prepublish)$`}

// ownScriptHook reports whether rest, the text after a lifecycle script's
// opening quote in the skill's own root package.json, is node running one
// script of the package's (a relative path, out of node_modules), with
// plain arguments. npm runs it when whoever holds the folder installs it,
// as a Makefile's recipe runs when they make: the project's own build
// step, and what the script does is graded in its own file. A package
// bundled deeper in the skill (packages/util/package.json) is another
// matter: its hook runs inside another project's install, unasked, which
// is how the public corpus's dep-install attacks, so it stays a warning.
func ownScriptHook(rest string) bool {
	end := strings.IndexByte(rest, '"')
	if end < 0 || strings.ContainsAny(rest[:end], "\\&|;`$<>()") {
		return false
	}
	f := strings.Fields(rest[:end])
	if len(f) < 2 || f[0] != "node" || !localPath(f[1]) || strings.Contains(f[1], "node_modules") {
		return false
	}
	switch path.Ext(f[1]) {
	case ".js", ".mjs", ".cjs":
	default:
		return false
	}
	for _, a := range f[2:] {
		if !strings.HasPrefix(a, "-") && !localPath(a) {
			return false
		}
	}
	return true
}

// nodeVersionCheck reports whether rest, the text after a lifecycle
// script's opening quote, is node -e (or -p) with inline code that can
// only look at the Node that runs it and stop the install: every name it
// uses is one of nodeCheckNames or one it declares, it indexes nothing
// but by a number, and it holds no template literal. Such a script reads
// and runs nothing else ("preinstall": "node -e \"if (+process.versions.node.split('.')[0] < 20) process.exit(1)\"").
func nodeVersionCheck(rest string) bool {
	end := 0
	for end < len(rest) && rest[end] != '"' {
		if rest[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(rest) {
		return false
	}
	var script string
	if json.Unmarshal([]byte(`"`+rest[:end]+`"`), &script) != nil {
		return false
	}
	code, ok := strings.CutPrefix(script, "node -e ")
	if !ok {
		code, ok = strings.CutPrefix(script, "node -p ")
	}
	code = strings.TrimSpace(code)
	if !ok || len(code) < 2 || code[0] != code[len(code)-1] || (code[0] != '"' && code[0] != '\'') {
		return false
	}
	code = code[1 : len(code)-1]
	if strings.ContainsAny(code, "`\\") {
		return false
	}
	code = jsStrings.Regexp().ReplaceAllString(code, "''")
	if strings.Contains(jsNumberIndex.Regexp().ReplaceAllString(code, ""), "[") {
		return false
	}
	declared := map[string]bool{}
	for _, m := range jsDecl.FindAllStringSubmatch(code, -1) {
		declared[m[1]] = true
	}
	for _, w := range jsIdent.Regexp().FindAllString(code, -1) {
		if !declared[w] && !nodeCheckNames.Get()[w] {
			return false
		}
	}
	return true
}

var (
	jsStrings     = &lazyre.RE{Expr: `'[^'\\]*'|"[^"\\]*"`}
	jsNumberIndex = &lazyre.RE{Expr: `\[\s*\d+\s*\]`}
	jsDecl        = &lazyre.RE{Expr: `\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)`}
	jsIdent       = &lazyre.RE{Expr: `[A-Za-z_$][\w$]*`}
)

// nodeCheckNames are the names a Node version check may use: JavaScript's
// keywords, the parts of process that say which Node runs and end it, the
// console, and what compares strings and numbers.
var nodeCheckNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`const let var if else return true false null undefined typeof throw new Error
		process versions version node platform arch release lts exit exitCode console error log warn info
		split map Number parseInt parseFloat String Math max min floor startsWith endsWith includes test match length
		replace slice trim toString localeCompare every some`) {
		m[w] = true
	}
	return m
}}

// localBuildTool reports whether a lifecycle script runs only a
// package's own build tool on files the package holds: husky points git at
// the package's .husky folder (whose hooks are analysed as files that run
// on their own), node-gyp builds its binding.gyp (whose actions and command
// expansions are analysed as install-time code). Any other word, argument
// or second command is not one of them.
//
// A package's own scripts, run by name (npm run build), count when what
// they run does, in the same package.json (scripts, at most a few names
// deep); so does TypeScript's compiler on the package's own project, the
// framework generators that write only types into the package. Node on
// a script of the package's own is ownScriptHook's, and only for the
// skill's root package: in a package bundled deeper it stays a warning,
// as that is how install hooks attack (the public corpus's dep-install).
func localBuildTool(script string, scripts map[string]string, depth int) bool {
	switch script {
	case "husky", "husky install", "node-gyp rebuild", "node-gyp-build", "tsc", "tsc --build", "tsc -b", "patch-package",
		"prisma generate", "svelte-kit sync", "nuxt prepare", "astro sync", "lefthook install", "simple-git-hooks",
		"npx only-allow pnpm", "npx only-allow npm", "npx only-allow yarn", "npx only-allow bun":
		return true // only-allow stops an install by another package manager, and does nothing else
	}
	f := strings.Fields(script)
	switch {
	case len(f) == 0 || strings.ContainsAny(script, "&|;`$<>()"):
		return false
	case f[0] == "tsc":
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !localPath(a) {
				return false
			}
		}
		return true
	case len(f) == 3 && (f[0] == "npm" || f[0] == "pnpm" || f[0] == "yarn" || f[0] == "bun") && f[1] == "run",
		len(f) == 2 && f[0] == "yarn":
		next, ok := scripts[f[len(f)-1]]
		return ok && depth < 4 && localBuildTool(next, scripts, depth+1)
	}
	return false
}

// localPath reports a relative path that stays inside the package.
func localPath(p string) bool {
	p = strings.TrimPrefix(p, "./")
	return p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.Contains(p, "..") && !strings.Contains(p, "://")
}

// packageScripts returns the scripts of a package.json, nil when it does
// not parse.
func packageScripts(text string) map[string]string {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return nil
	}
	return pkg.Scripts
}

// localBuildScript reports whether rest, the text after a lifecycle
// script's opening quote, is a JSON string whose value localBuildTool
// accepts and which ends the member (a comma, a brace or the
// line's end after it).
func localBuildScript(text, rest string) bool {
	end := strings.IndexByte(rest, '"')
	if end < 0 {
		return false
	}
	val, after := rest[:end], strings.TrimSpace(rest[end+1:])
	if strings.ContainsRune(val, '\\') {
		return false
	}
	if after != "" && after != "," && after != "}" && after != "}," {
		return false
	}
	var scripts map[string]string
	if strings.Contains(val, " run ") || strings.HasPrefix(val, "yarn ") {
		scripts = packageScripts(text)
	}
	return localBuildTool(val, scripts, 0)
}
