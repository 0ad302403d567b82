package lint

import (
	"path"
	"strings"
)

// This file holds the checks of the rules about agent configuration and
// supply chains (rules.go) that look at more than a match.

// mcpWrite grades a write to an MCP server list or an agent's settings: the
// user's own is an error, a project's a warning.
func mcpWrite(s *scan, i int, m []int) string {
	if !writes(s, i, m) {
		return ""
	}
	if m[2] >= 0 {
		return SeverityError
	}
	return SeverityWarning
}

// requirementURL accepts a requirement installed from a URL: a line of a
// requirements file, or of a pip install.
func requirementURL(s *scan, i int, m []int) string {
	base := strings.ToLower(path.Base(s.file))
	if strings.HasPrefix(base, "requirements") || strings.HasSuffix(base, ".in") && strings.Contains(base, "req") {
		return SeverityWarning
	}
	return ""
}

// gypAction accepts actions and command expansions of a node-gyp file,
// which npm runs when it installs the package.
func gypAction(s *scan, i int, m []int) string {
	if ext := strings.ToLower(path.Ext(s.file)); ext == ".gyp" || ext == ".gypi" {
		return SeverityWarning
	}
	return ""
}
