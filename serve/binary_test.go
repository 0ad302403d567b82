package serve

// Helpers for the tests that run the real binary over HTTP with a token
// file (teamserver's tests have the same; the endpoint is theirs, the view
// each token is answered from is serve's).

import (
	"os"
	"path/filepath"
	"testing"
)

// writeSkills writes each path → SKILL.md content below dir.
func writeSkills(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for p, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
