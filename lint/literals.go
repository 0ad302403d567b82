package lint

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file holds the words of program text that the file rules read by
// hand (build.rs, setup.py, generated tables): identifiers, plain string
// literals, and the git arguments that change a repository. It points at
// no other file.

// isIdent reports whether s is one identifier: ASCII letters, digits and
// underscores, not starting with a digit.
func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// isIdentByte reports an ASCII letter, digit or underscore.
func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// plainLiteral returns the string a string literal s spells when it is
// quoted by one of quotes and holds no quote or escape.
func plainLiteral(s, quotes string) (string, bool) {
	if len(s) < 2 || s[0] != s[len(s)-1] || strings.IndexByte(quotes, s[0]) < 0 || strings.ContainsAny(s[1:len(s)-1], `"'\`) {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// gitWriteQuoted matches, in a program's text, a git subcommand or option
// in either kind of quotes that reaches a remote or changes the
// repository or its configuration: what a build script that only asks git
// about the source tree never passes it.
var gitWriteQuoted = &lazyre.RE{Expr: `["'](?:clone|fetch|pull|push|remote|config|submodule|ls-remote|archive|am|apply|checkout|reset|commit|gc|-c|--exec-path|--upload-pack|--git-dir=[^"']*|--work-tree=[^"']*)["']`}
