package serve

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverBin is the skills-mcp command built once by TestMain, for the tests
// that run the server as a subprocess over stdio; serverBinErr says why it is
// missing.
var serverBin, serverBinErr = "", error(nil)

// tempDir holds the built command and the benchmark bundles; TestMain
// removes it.
var tempDir string

func TestMain(m *testing.M) {
	if os.Getenv(sdkFloorEnv) != "" { // BenchmarkServeHTTPSDKFloor's server
		if err := runSDKFloorServer(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "serve-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tempDir = dir
	serverBin = filepath.Join(dir, "skills-mcp")
	// Built as the README says to install it: static.
	build := exec.Command("go", "build", "-o", serverBin, "../cmd/skills-mcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err != nil {
		serverBin, serverBinErr = "", fmt.Errorf("go build ../cmd/skills-mcp: %v\n%s", err, out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needBinary skips a test when the command could not be built; under CI that
// is a failure.
func needBinary(t testing.TB) string {
	t.Helper()
	if serverBin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(serverBinErr)
		}
		t.Skip(serverBinErr)
	}
	return serverBin
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
	cmd := exec.Command(needBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := newClient(t, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v\nstderr:\n%s", err, stderr.String())
		}
	})
	return cs, cmd
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
	bin := needBinary(t)
	_, path := fileBundle(t, exampleFixture())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, "nothing to serve"},
		{[]string{"serve", path, path}, "is served by bundle"},
		{[]string{"serve", "--name", "a b", path}, "--name"},
		{[]string{"serve", "--http", "0.0.0.0:0", path}, "SKILLS_ALLOWED_HOSTS"},
		{[]string{"serve", filepath.Join(t.TempDir(), "none.skb")}, "none.skb"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: %v\n%s\nwant an error mentioning %q", tc.args, err, out, tc.want)
		}
	}
}
