package teamserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// TestTokenFileFIFO: a FIFO at the --auth-tokens path never hangs the real
// binary. At start it is refused at once, naming the file; on SIGHUP it is
// refused with a log line while the tokens in force stay, and the reloader
// goes on, so that the next SIGHUP, with a regular file back, revokes a
// token.
func TestTokenFileFIFO(t *testing.T) {
	_, bundle := fileBundle(t, exampleFixture())
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, servetest.Binary(t), "serve", "--http", "127.0.0.1:0", "--auth-tokens", fifo, bundle).CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("start-up with a FIFO for a token file hung:\n%s", out)
	}
	if err == nil || !strings.Contains(string(out), "token file "+fifo+": a named pipe (FIFO), not a regular file") {
		t.Errorf("start-up with a FIFO: %v\n%s", err, out)
	}

	p := servetest.WriteTokens(t, filepath.Join(dir, "tokens"), map[string]string{"alice": "acme"})
	url, cmd, stderr := servetest.StartHTTP(t, Endpoint, "--auth-tokens", p, bundle)
	status := func(tok string) int {
		resp := post(t, url, tok, listBody)
		resp.Body.Close()
		return resp.StatusCode
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for range 200 {
			if ok() {
				return
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatalf("%s\n%s", what, stderr.String())
	}
	if status("tok-alice") != 200 {
		t.Fatalf("alice refused\n%s", stderr.String())
	}
	// The token file becomes a FIFO (no one ever writes to it).
	if err := os.Rename(fifo, p); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("no log line for the FIFO", func() bool {
		return strings.Contains(stderr.String(), "token file not reloaded") && strings.Contains(stderr.String(), "a named pipe (FIFO), not a regular file")
	})
	if status("tok-alice") != 200 {
		t.Error("a token file that could not be read dropped the tokens in force")
	}
	// A regular file again, without alice: the reloader still runs.
	tmp := servetest.WriteTokens(t, filepath.Join(dir, "next"), map[string]string{"bob": "community"})
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("the token file was not reloaded after the FIFO", func() bool { return status("tok-bob") == 200 })
	if status("tok-alice") != 401 {
		t.Error("alice's revoked token still works")
	}
}
