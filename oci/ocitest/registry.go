// Package ocitest runs a real OCI registry for tests: Debian's
// docker-registry (the CNCF distribution registry) on a free loopback port,
// storing into a folder the caller owns, with or without htpasswd basic
// auth.
package ocitest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Registry is a running registry.
type Registry struct {
	Host string // 127.0.0.1:PORT
	User string // set when started with basic auth
	Pass string

	cmd    *exec.Cmd
	exited chan struct{}
	log    *lockedBuffer
}

// ErrMissing is wrapped by Start's error when docker-registry (or
// htpasswd, for auth) is not installed.
var ErrMissing = errors.New("not installed")

// Tool returns the path of an installed tool: on PATH, or in GOBIN or
// GOPATH/bin (where go install puts oras).
func Tool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	dirs := []string{os.Getenv("GOBIN")}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		dirs = append(dirs, filepath.Join(strings.TrimSpace(string(out)), "bin"))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, ErrMissing)
}

// Start starts a registry storing into dir. With auth, it accepts one user,
// whose name and password are in User and Pass.
func Start(dir string, auth bool) (*Registry, error) {
	bin, err := Tool("docker-registry")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r := &Registry{log: &lockedBuffer{}}
	authCfg := ""
	if auth {
		htpasswd, err := Tool("htpasswd")
		if err != nil {
			return nil, err
		}
		r.User, r.Pass = "ci-user", "s3cret-pa55word-never-logged"
		out, err := exec.Command(htpasswd, "-Bbn", r.User, r.Pass).Output()
		if err != nil {
			return nil, fmt.Errorf("htpasswd: %w", err)
		}
		pw := filepath.Join(dir, "htpasswd")
		if err := os.WriteFile(pw, out, 0o600); err != nil {
			return nil, err
		}
		authCfg = fmt.Sprintf("auth:\n  htpasswd:\n    realm: test\n    path: %s\n", pw)
	}
	for attempt := 0; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addr := l.Addr().String()
		l.Close()
		cfg := filepath.Join(dir, "config.yml")
		body := fmt.Sprintf("version: 0.1\nlog:\n  level: info\nstorage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\nhttp:\n  addr: %s\n%s",
			filepath.Join(dir, "data"), addr, authCfg)
		if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
			return nil, err
		}
		r.cmd = exec.Command(bin, "serve", cfg)
		r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
		if err := r.cmd.Start(); err != nil {
			return nil, err
		}
		r.exited = make(chan struct{})
		go func() { r.cmd.Wait(); close(r.exited) }()
		if r.waitListening(addr) {
			r.Host = addr
			return r, nil
		}
		r.Stop()
		if attempt == 3 {
			return nil, fmt.Errorf("docker-registry did not start:\n%s", r.log.String())
		}
	}
}

// Stop stops the registry and waits for it to exit.
func (r *Registry) Stop() {
	r.cmd.Process.Kill()
	<-r.exited
}

// Log returns what the registry wrote so far.
func (r *Registry) Log() string { return r.log.String() }

// waitListening waits until the registry answers /v2/, or has exited.
func (r *Registry) waitListening(addr string) bool {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-r.exited:
			return false
		default:
		}
		resp, err := http.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
