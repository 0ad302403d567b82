package serve

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// tempDir holds the built command and the benchmark bundles; TestMain
// removes it.
var tempDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "serve-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tempDir = dir
	servetest.Build(dir) // the command needBinary gives
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// connectStdio starts `skills-mcp serve args…` and connects to it.
func connectStdio(t testing.TB, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	cs, _ := connectCommand(t, version, nil, append([]string{"serve"}, args...)...)
	return cs
}

// connectCommand starts `skills-mcp args…` with env added, and connects to it;
// the session is closed, and the process waited for, when the test ends.
func connectCommand(t testing.TB, version string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	return servetest.ConnectCommand(t, newClient(t, nil), version, env, args...)
}

func TestStdio(t *testing.T) {
	b, path := fileBundle(t, exampleFixture())
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			cs := connectStdio(t, p.version, path, "--name", "acme-skills", "--title", "Acme")
			ctx := context.Background()
			info := cs.InitializeResult().ServerInfo
			if info.Name != "acme-skills" || info.Title != "Acme" {
				t.Errorf("server info %+v", info)
			}
			if got := entryURIs(t, allSkills(t, cs)); len(got) != 4 {
				t.Errorf("skills/list gave %v", got)
			}
			res, err := getSkill(ctx, cs, "skill://tools/secret-helper/SKILL.md")
			if err != nil || string(res.Skill) != string(entryJSON(t, b, 4)) {
				t.Errorf("skills/get of the hidden skill: %v", err)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://acme/pdf-processing/assets/logo.png"})
			if err != nil || len(rr.Contents) != 1 || string(rr.Contents[0].Blob) != exampleFixture()["acme/pdf-processing"]["assets/logo.png"] {
				t.Errorf("binary read: %v %+v", err, rr)
			}
			dir, err := readDir(ctx, cs, "skill://acme/pdf-processing/templates/regional", "")
			if err != nil || len(dir.Resources) != 3 {
				t.Errorf("directory read: %v %+v", err, dir)
			}
		})
	}
	t.Run("show-disabled", func(t *testing.T) {
		cs := connectStdio(t, "", path, "--show-disabled")
		if got := entryURIs(t, allSkills(t, cs)); len(got) != 5 {
			t.Errorf("skills/list with --show-disabled gave %v", got)
		}
	})
}

func TestStdioRefusals(t *testing.T) {
	bin := servetest.Binary(t)
	_, path := fileBundle(t, exampleFixture())
	twin := filepath.Join(t.TempDir(), "twin.skb")
	if data, err := os.ReadFile(path); err != nil || os.WriteFile(twin, data, 0o644) != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, "nothing to serve"},
		{[]string{"serve", path, twin}, "is served by two bundles: " + path + " (sha256:"},
		{[]string{"serve", path, twin}, "and " + twin + " (sha256:"},
		{[]string{"serve", "--name", "a b", path}, "--name"},
		{[]string{"serve", "--http", "0.0.0.0:0", path}, "SKILLS_ALLOWED_HOSTS"},
		{[]string{"serve", "--http", "0.0.0.0:0", "--allowed-hosts", "skills.example.com", path}, "--no-auth"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--auth-tokens", filepath.Join(t.TempDir(), "none"), path}, "token file"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--oauth-issuer", "http://127.0.0.1:1", "--oauth-audience", "x", path}, "oauth issuer http://127.0.0.1:1"},
		{[]string{"serve", filepath.Join(t.TempDir(), "none.skb")}, "none.skb"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: %v\n%s\nwant an error mentioning %q", tc.args, err, out, tc.want)
		}
	}
}

// TestSignalsStopCleanly: SIGINT and SIGTERM make a serving process shut
// down and exit 0, not die of the signal.
func TestSignalsStopCleanly(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(servetest.Binary(t), "serve", path)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Once initialize is answered the server is serving.
			fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"serverInfo"`) {
				t.Fatalf("initialize: %q, %v\nstderr:\n%s", line, err, stderr.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("after %v: %v, want exit status 0\nstderr:\n%s", sig, err, stderr.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 10 s after %v", sig)
			}
		})
	}
}
