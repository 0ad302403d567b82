package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGracefulShutdown: SIGTERM to a real serve --http turns /readyz 503 at
// once (on --metrics-addr, which keeps answering), refuses new connections,
// lets a request in flight finish and be answered, and exits 0; a request
// that does not finish within --shutdown-timeout has its connection closed
// and the server still exits 0, at the timeout.
func TestGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	skb := filepath.Join(dir, "acme.skb")
	if out, _, err := runTimed(t, time.Minute, nil, "build", "--lib", "acme=../../testdata/example/acme", "-o", skb); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	body := `{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		finish  bool // the client sends the rest of its body after SIGTERM
	}{
		{"finishes", 5 * time.Second, true},
		{"times-out", time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := listen(t)
			metricsAddr := ln.Addr().String()
			ln.Close()
			r := startReplica(t, "serve", nil, skb, "--metrics-addr", metricsAddr, "--shutdown-timeout", tc.timeout.String())
			host := strings.TrimPrefix(r.base, "http://")
			ready := func() int {
				resp, err := http.Get("http://" + metricsAddr + "/readyz")
				if err != nil {
					return 0
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			if c := ready(); c != 200 {
				t.Fatalf("/readyz %d before SIGTERM", c)
			}
			// A request in flight: its headers and half its body sent.
			conn, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
				"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: skills/list\r\nContent-Length: %d\r\n\r\n%s", host, len(body), body[:len(body)/2])
			time.Sleep(200 * time.Millisecond)
			term := time.Now()
			if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			for ready() != http.StatusServiceUnavailable {
				if time.Since(term) > 2*time.Second {
					t.Fatal("/readyz still not 503 two seconds after SIGTERM")
				}
				time.Sleep(5 * time.Millisecond)
			}
			t.Logf("/readyz 503 %v after SIGTERM", time.Since(term).Round(time.Millisecond))
			for {
				c, err := net.DialTimeout("tcp", host, time.Second)
				if err != nil {
					break
				}
				c.Close()
				if time.Since(term) > 2*time.Second {
					t.Fatal("new connections still accepted two seconds after SIGTERM")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if tc.finish {
				if _, err := conn.Write([]byte(body[len(body)/2:])); err != nil {
					t.Fatal(err)
				}
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("the request in flight was not answered: %v", err)
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Errorf("the request in flight: %s", resp.Status)
				}
			}
			select {
			case <-r.exited:
			case <-time.After(tc.timeout + 10*time.Second):
				t.Fatal("serve did not exit")
			}
			took := time.Since(term)
			if code := r.cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("exit status %d after SIGTERM\n%s", code, r.log.String())
			}
			if !tc.finish && took < tc.timeout {
				t.Errorf("exited %v after SIGTERM, before --shutdown-timeout %v", took, tc.timeout)
			}
			if tc.finish && took > tc.timeout {
				t.Errorf("exited %v after SIGTERM although nothing was left running", took)
			}
			t.Logf("exited 0 %v after SIGTERM", took.Round(time.Millisecond))
		})
	}
}
