package oci

import "github.com/skills-mcp/skills-mcp/internal/lazy"

// SetAnalyserVersion makes v the name of the analyser that derivation
// records are kept under, as a rebuilt binary would, until restore.
func SetAnalyserVersion(v string) (restore func()) {
	old := analyserVersion
	analyserVersion = &lazy.Value[string]{New: func() string { return v }}
	return func() { analyserVersion = old }
}
