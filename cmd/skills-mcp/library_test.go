package main

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestZipSidecarWarning: an https zip library without a .sha256 sidecar is
// accepted with a warning that build and lint print as every other warning
// of theirs (skills-mcp: warning: …), not as a log line among them.
func TestZipSidecarWarning(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	root := "../../testdata/example/acme"
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/acme.zip" {
			http.NotFound(w, r)
			return
		}
		w.Write(buf.Bytes())
	}))
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"SKILLS_CACHE_DIR=" + filepath.Join(dir, "cache"), "SSL_CERT_FILE=" + trustSite(t, dir)}
	lib := "acme=" + srv.URL + "/acme.zip"
	for _, args := range [][]string{
		{"build", "--lib", lib, "-o", filepath.Join(dir, "acme.skb")},
		{"lint", "--lib", lib, "--cache-dir", filepath.Join(dir, "cache2")},
	} {
		stderr, _, err := runTimed(t, time.Minute, env, args...)
		if err != nil && args[0] == "build" {
			t.Fatalf("%s: %v\n%s", args[0], err, stderr)
		}
		found := false
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "no sha256 sidecar") {
				found = strings.HasPrefix(l, "skills-mcp: warning: "+srv.URL+"/acme.zip has no sha256 sidecar")
			}
			if strings.Contains(l, "level=") {
				t.Errorf("%s: a log line among the warnings: %s", args[0], l)
			}
		}
		if !found {
			t.Errorf("%s: no skills-mcp: warning: line for the missing sidecar:\n%s", args[0], stderr)
		}
	}
}
