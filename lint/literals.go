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

// quoteAt reads a line of code up to byte at as a shell reads its quotes
// (a backslash escapes in double quotes only): the quote that byte at is
// inside, and where it opened (0 and -1 outside quotes), and whether a #
// outside quotes, at the line's start or after a blank, began a comment
// before it.
func quoteAt(l string, at int) (open int, q byte, comment bool) {
	open = -1
	for k := 0; k < at && k < len(l); k++ {
		switch c := l[k]; {
		case q != 0:
			if c == q {
				q, open = 0, -1
			} else if c == '\\' && q == '"' {
				k++
			}
		case c == '\'' || c == '"':
			open, q = k, c
		case c == '#' && (k == 0 || l[k-1] == ' ' || l[k-1] == '\t'):
			return -1, 0, true
		}
	}
	return open, q, false
}
