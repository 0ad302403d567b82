package lint

// This file holds the checks of the rules about agent configuration
// (rules.go) that look at more than a match; supply.go those of the
// supply-chain rule.

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
