package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/skills-mcp/skills-mcp/oci/ocitest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skills-mcp": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScript runs the CLI scripts in testdata/script. Each script starts in a
// fresh work folder; $TESTDATA is the repository's testdata folder.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

// scriptParams are the parameters of the CLI scripts in dir.
func scriptParams(t *testing.T, dir string) testscript.Params {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return testscript.Params{
		Dir: dir,
		Setup: func(e *testscript.Env) error {
			e.Setenv("TESTDATA", testdata)
			e.Setenv("SKILLS_CACHE_DIR", filepath.Join(e.WorkDir, ".cache"))
			return nil
		},
		// [registry]: docker-registry is installed, or CI is set (where a
		// missing registry must fail the script, not skip it).
		Condition: func(cond string) (bool, error) {
			if cond != "registry" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := ocitest.Tool("docker-registry")
			return err == nil || os.Getenv("CI") != "", nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// tamper FILE OLD NEW replaces the first OLD in FILE with NEW.
			"tamper": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 || neg {
					ts.Fatalf("usage: tamper FILE OLD NEW")
				}
				data := ts.ReadFile(args[0])
				if !strings.Contains(data, args[1]) {
					ts.Fatalf("%s does not contain %q", args[0], args[1])
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(data, args[1], args[2], 1)), 0o644))
			},
			// registry [auth] starts a real registry (docker-registry) on a
			// free loopback port for the script, with htpasswd basic auth when
			// asked, and sets REGISTRY (HOST:PORT), REGISTRY_USER and
			// REGISTRY_PASSWORD. Scripts guard it with [!registry] skip.
			"registry": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) > 1 || len(args) == 1 && args[0] != "auth" {
					ts.Fatalf("usage: registry [auth]")
				}
				r, err := ocitest.Start(ts.MkAbs(".registry"), len(args) == 1)
				ts.Check(err)
				ts.Defer(r.Stop)
				ts.Setenv("REGISTRY", r.Host)
				ts.Setenv("REGISTRY_USER", r.User)
				ts.Setenv("REGISTRY_PASSWORD", r.Pass)
			},
			// setenv-stdout NAME sets NAME to the last command's standard
			// output, without its final newline.
			"setenv-stdout": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: setenv-stdout NAME")
				}
				ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
			},
			// truncate FILE SIZE cuts FILE to SIZE bytes.
			"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 || neg {
					ts.Fatalf("usage: truncate FILE SIZE")
				}
				n, err := strconv.ParseInt(args[1], 10, 64)
				ts.Check(err)
				ts.Check(os.Truncate(ts.MkAbs(args[0]), n))
			},
			// serve-dir DIR serves DIR as a static web site on a loopback
			// port until the script ends, and sets $SITE to its URL.
			"serve-dir": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: serve-dir DIR")
				}
				srv := httptest.NewServer(http.FileServer(http.Dir(ts.MkAbs(args[0]))))
				ts.Defer(srv.Close)
				ts.Setenv("SITE", srv.URL)
			},
		},
	}
}
