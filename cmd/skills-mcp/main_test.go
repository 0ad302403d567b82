package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/skills-mcp/skills-mcp/internal/oauthtest"
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
	p := testscript.Params{
		Dir: dir,
		Setup: func(e *testscript.Env) error {
			e.Values[issuerKey{}] = new(*oauthtest.Server) // set by oauth-issuer
			e.Setenv("TESTDATA", testdata)
			e.Setenv("SKILLS_CACHE_DIR", filepath.Join(e.WorkDir, ".cache"))
			return nil
		},
		// [registry]: docker-registry is installed, or CI is set (where a
		// missing registry must fail the script, not skip it).
		// [cosign]: the cosign CLI is installed, or CI is set.
		Condition: func(cond string) (bool, error) {
			if cond != "registry" && cond != "cosign" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			tool := map[string]string{"registry": "docker-registry", "cosign": "cosign"}[cond]
			_, err := ocitest.Tool(tool)
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
			// exits N CMD ARGS... runs CMD as exec does (its output for
			// stdout and stderr to check) and wants exit status N.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 || neg {
					ts.Fatalf("usage: exits N CMD ARGS...")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("%s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
				}
			},
			// mkfifo FILE makes a named pipe at FILE.
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: mkfifo FILE")
				}
				ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
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
			// oauth-issuer [aud=URI] [scope=S] [client=ID] [noreg] [deny=CODE]
			// starts an OAuth authorization server (oauthtest) on a loopback
			// port until the script ends, sets $ISSUER to its URL, and
			// appends every code and token it issues to $WORK/.secrets.
			"oauth-issuer": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg {
					ts.Fatalf("usage: oauth-issuer [aud=URI] [scope=S] [client=ID] [noreg] [deny=CODE]")
				}
				secrets, err := os.OpenFile(ts.MkAbs(".secrets"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
				ts.Check(err)
				ts.Defer(func() { secrets.Close() })
				var mu sync.Mutex
				opt := oauthtest.Options{OnSecret: func(s string) {
					mu.Lock()
					defer mu.Unlock()
					fmt.Fprintln(secrets, s)
				}}
				for _, a := range args {
					k, v, _ := strings.Cut(a, "=")
					switch k {
					case "aud":
						opt.Audience = v
					case "scope":
						opt.Scope = v
					case "client":
						opt.ClientID = v
					case "noreg":
						opt.NoRegistration = true
					case "deny":
						opt.Deny = v
					default:
						ts.Fatalf("oauth-issuer: unknown option %q", a)
					}
				}
				as, err := oauthtest.Start(opt)
				ts.Check(err)
				ts.Defer(as.Close)
				ts.Setenv("ISSUER", as.URL)
				*ts.Value(issuerKey{}).(**oauthtest.Server) = as
			},
			// oauth-token NAME AUD [CLAIM=JSON]... sets $NAME to an access
			// token of the script's oauth-issuer for audience AUD: iss, sub
			// alice, iat, nbf, exp an hour from now, and each CLAIM, whose
			// value is JSON. It is appended to $WORK/.secrets.
			"oauth-token": func(ts *testscript.TestScript, neg bool, args []string) {
				as := *ts.Value(issuerKey{}).(**oauthtest.Server)
				if neg || len(args) < 2 || as == nil {
					ts.Fatalf("usage: oauth-token NAME AUD [CLAIM=JSON]..., after oauth-issuer")
				}
				now := time.Now().Unix()
				claims := map[string]any{"iss": as.URL, "aud": args[1], "sub": "alice", "iat": now, "nbf": now, "exp": now + 3600}
				for _, a := range args[2:] {
					k, v, ok := strings.Cut(a, "=")
					var val any
					if !ok || json.Unmarshal([]byte(v), &val) != nil {
						ts.Fatalf("oauth-token: %q: want CLAIM=JSON", a)
					}
					claims[k] = val
				}
				tok, err := as.Sign(claims)
				ts.Check(err)
				f, err := os.OpenFile(ts.MkAbs(".secrets"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
				ts.Check(err)
				_, err = fmt.Fprintln(f, tok)
				ts.Check(errors.Join(err, f.Close()))
				ts.Setenv(args[0], tok)
			},
			// serve-http ARGS... runs skills-mcp serve --http 127.0.0.1:0
			// ARGS... until the script ends, its log in $WORK/serve.log, and
			// sets $MCP_URL to its endpoint once it listens.
			"serve-http": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg {
					ts.Fatalf("usage: serve-http ARGS...")
				}
				url, err := startServeHTTP(ts, args)
				ts.Check(err)
				ts.Setenv("MCP_URL", url)
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
	maps.Copy(p.Cmds, ociScriptCmds())
	maps.Copy(p.Cmds, lockScriptCmds())
	return p
}

// issuerKey is the testscript value holding the script's oauth-issuer.
type issuerKey struct{}

// startServeHTTP starts the script's skills-mcp as serve --http
// 127.0.0.1:0 ARGS..., with its log in $WORK/serve.log, and returns its
// endpoint once it listens. The script's end kills it.
func startServeHTTP(ts *testscript.TestScript, args []string) (string, error) {
	var bin string
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(dir, "skills-mcp"); fileExists(p) {
			bin = p
			break
		}
	}
	if bin == "" {
		return "", fmt.Errorf("skills-mcp is not on the script's PATH")
	}
	log, err := os.Create(ts.MkAbs("serve.log"))
	if err != nil {
		return "", err
	}
	cmd := exec.Command(bin, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		log.Close()
		return "", err
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	ts.Defer(func() {
		cmd.Process.Kill()
		<-exited
		log.Close()
	})
	listening := regexp.MustCompile(`listening on (https?://127\.0\.0\.1:[0-9]+/mcp)`)
	deadline := time.After(20 * time.Second)
	for {
		data, _ := os.ReadFile(log.Name())
		if m := listening.FindSubmatch(data); m != nil {
			return string(m[1]), nil
		}
		select {
		case <-exited:
		case <-deadline:
		case <-time.After(20 * time.Millisecond):
			continue
		}
		break
	}
	data, _ := os.ReadFile(log.Name())
	return "", fmt.Errorf("serve --http did not start listening:\n%s", data)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
