package fetch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostile is a server that misbehaves as its path says:
//
//	/ok/N               N bytes, honestly
//	/silent             accepts, reads the request, answers nothing
//	/stall/D/N          declares D bytes, sends N, then nothing
//	/drip               one byte every 10 ms, for ever (well inside the smallest Idle)
//	/flood              chunked bytes without end
//	/lie/D/N            declares D bytes and sends N (N < D: cut short)
//	/status/C           answers status C, counting the attempts
//	/loop               redirects to itself
//	/to?u=URL           redirects to URL
//	/auth               answers the Authorization header it got
type hostile struct {
	srv      *httptest.Server
	attempts atomic.Int64
}

func newHostile(t *testing.T) *hostile {
	h := &hostile{}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hostile) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	num := func(i int) int { n, _ := strconv.Atoi(parts[i]); return n }
	switch parts[0] {
	case "ok":
		w.Write(make([]byte, num(1)))
	case "silent":
		<-r.Context().Done()
	case "stall", "lie":
		hj, _ := w.(http.Hijacker)
		c, buf, _ := hj.Hijack()
		defer c.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", num(1))
		buf.Write(make([]byte, num(2)))
		buf.Flush()
		if parts[0] == "stall" {
			io.Copy(io.Discard, c) // until the client gives up
		}
	case "drip":
		for {
			if _, err := w.Write([]byte{'x'}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	case "flood":
		chunk := make([]byte, 32<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	case "status":
		h.attempts.Add(1)
		w.WriteHeader(num(1))
	case "loop":
		http.Redirect(w, r, "/loop", http.StatusFound)
	case "to":
		http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
	case "auth":
		io.WriteString(w, r.Header.Get("Authorization"))
	}
}

// silentListener accepts connections and never reads or writes.
func silentListener(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return "http://" + l.Addr().String()
}

// TestBoundsProperty drives the client through a random series of hostile
// answers (stalls before and after the headers, drips, floods, lying sizes,
// redirect loops and escapes, overloaded servers) under random policies,
// and asserts for every request: it ends, within the bound its policy
// gives; it never hands over more than MaxBytes; and a refusal names its
// rule.
func TestBoundsProperty(t *testing.T) {
	h := newHostile(t)
	silent := silentListener(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	const rounds = 40
	for i := range rounds {
		p := Policy{
			Idle:     time.Duration(80+rng.IntN(120)) * time.Millisecond,
			Timeout:  time.Duration(400+rng.IntN(400)) * time.Millisecond,
			MaxBytes: int64(1+rng.IntN(64)) << 10,
			Retries:  rng.IntN(3) - 1, // -1 (none), 0 (the default, 2) or 1
		}
		max := p.MaxBytes
		retries := p.Retries
		if retries == 0 {
			retries = DefaultRetries
		}
		retries = max64(retries, 0)
		d := int(max) * (1 + rng.IntN(4)) / 2 // below or above the cap
		n := rng.IntN(d + 1)
		var path, want string
		switch rng.IntN(11) {
		case 0:
			path, want = fmt.Sprintf("/ok/%d", n), ""
			if int64(n) > max {
				want = RuleTooLarge
			}
		case 1:
			path, want = "/silent", RuleStalled
		case 2:
			path, want = fmt.Sprintf("/stall/%d/%d", d, n), RuleStalled
			if int64(d) > max {
				want = RuleTooLarge
			}
			if n == d {
				want = ""
			}
		case 3:
			path, want = "/drip", RuleTimeout // 80 bytes at most in 800 ms: under any cap
		case 4:
			path, want = "/flood", RuleTooLarge
		case 5:
			path, want = fmt.Sprintf("/lie/%d/%d", d, n), "cut"
			if int64(d) > max {
				want = RuleTooLarge
			}
			if n == d {
				want = ""
			}
		case 6:
			path, want = "/status/503", "503"
		case 7:
			path, want = "/loop", RuleRedirect
		case 8:
			path, want = "/to?u="+url.QueryEscape("http://example.com/x"), "escape"
		case 9:
			path, want = "/to?u="+url.QueryEscape(silent+"/x"), RuleStalled
		case 10:
			path, want = "raw-silent", RuleStalled
		}
		u := h.srv.URL + path
		if path == "raw-silent" {
			u = silent + "/x"
		}
		h.attempts.Store(0)
		c := Client(nil, p)
		start := time.Now()
		got, err := get(c, u)
		took := time.Since(start)

		// The bound: each attempt within its timeout, and the pauses between.
		pauses := time.Duration(0)
		for a := range retries {
			pauses += time.Duration(200<<a) * time.Millisecond
		}
		bound := time.Duration(retries+1)*p.Timeout + pauses + time.Second // a loaded machine's slack
		if took > bound {
			t.Errorf("round %d %s %+v: took %v, bound %v", i, path, p, took, bound)
		}
		if int64(got) > max {
			t.Errorf("round %d %s: handed over %d bytes, cap %d", i, path, got, max)
		}
		switch want {
		case "":
			if err != nil {
				t.Errorf("round %d %s: %v", i, path, err)
			}
		case "503":
			if a := h.attempts.Load(); a != int64(retries)+1 {
				t.Errorf("round %d %s: %d attempts, want %d", i, path, a, retries+1)
			}
		case "cut":
			if err == nil {
				t.Errorf("round %d %s: a body cut short was accepted", i, path)
			}
		case "escape":
			if err == nil || !strings.Contains(err.Error(), "only https") {
				t.Errorf("round %d %s: %v, want the redirect refused", i, path, err)
			}
		default:
			if RuleOf(err) != want {
				t.Errorf("round %d %s %+v: %v, want rule %s", i, path, p, err, want)
			}
		}
	}
}

func max64(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// get reads u whole and returns how many bytes it was handed.
func get(c *http.Client, u string) (int, error) {
	resp, err := c.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = errors.New(resp.Status)
	}
	return int(n), err
}

// TestStallNamed: a stalled body fails within the idle time, and the error
// names the URL (without its query) and the rule.
func TestStallNamed(t *testing.T) {
	h := newHostile(t)
	c := Client(nil, Policy{Idle: 150 * time.Millisecond, Timeout: 10 * time.Second})
	start := time.Now()
	_, err := get(c, h.srv.URL+"/stall/100/10?token=secret")
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %v", took)
	}
	if err == nil || !strings.Contains(err.Error(), h.srv.URL+"/stall/100/10: nothing received for 150ms (rule fetch-stalled)") || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %v", err)
	}
}

// TestBudgetShared: requests that share a budget stop at it together.
func TestBudgetShared(t *testing.T) {
	h := newHostile(t)
	c := Client(nil, Policy{Budget: NewBudget(100 << 10)})
	for i := range 3 {
		if _, err := get(c, h.srv.URL+"/ok/40000"); err != nil {
			if i < 2 || RuleOf(err) != RuleTooLarge {
				t.Fatalf("request %d: %v", i, err)
			}
			return
		}
	}
	t.Error("three 40,000-byte bodies fit a 100 KiB budget")
}

// TestAuthorizationStays: the Authorization header never follows a redirect
// to another host (here: another port).
func TestAuthorizationStays(t *testing.T) {
	a, b := newHostile(t), newHostile(t)
	c := Client(nil, Policy{})
	for target, want := range map[string]string{a.srv.URL + "/auth": "Bearer t", b.srv.URL + "/auth": ""} {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/to?u="+url.QueryEscape(target), nil)
		req.Header.Set("Authorization", "Bearer t")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := bufio.NewReader(resp.Body).ReadString('\n')
		resp.Body.Close()
		if got != want {
			t.Errorf("redirect to %s: the server got %q, want %q", target, got, want)
		}
	}
}

// TestInherit: a package's policy takes what the caller's bounded client
// set, and wraps its transport once.
func TestInherit(t *testing.T) {
	base := Client(nil, Policy{Idle: 3 * time.Second})
	c := Client(base, Policy{MaxBytes: 10})
	tr := c.Transport.(*transport)
	if tr.p.Idle != 3*time.Second || tr.p.MaxBytes != 10 || tr.p.Timeout != DefaultTimeout {
		t.Errorf("policy %+v", tr.p)
	}
	if _, ok := tr.next.(*transport); ok {
		t.Error("bounds applied twice")
	}
}

// TestBudgetSharedConcurrent: requests that share a budget and are open at
// the same time stop at it together too: each was given what was left when
// its headers came, so two bodies read side by side could each spend it.
func TestBudgetSharedConcurrent(t *testing.T) {
	h := newHostile(t)
	c := Client(nil, Policy{Budget: NewBudget(100)})
	var bodies []io.ReadCloser
	for range 2 {
		resp, err := c.Get(h.srv.URL + "/ok/80")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		bodies = append(bodies, resp.Body)
	}
	total, refused := 0, false
	for _, b := range bodies {
		n, err := io.Copy(io.Discard, b)
		total += int(n)
		if err != nil {
			if RuleOf(err) != RuleTooLarge {
				t.Fatalf("error %v, want rule %s", err, RuleTooLarge)
			}
			refused = true
		}
	}
	if !refused || total > 100 {
		t.Errorf("two 80-byte bodies read side by side under a 100-byte budget: %d bytes handed over, refused %v", total, refused)
	}
}

// TestReadAfterRefusal: a body read again after it was refused for its size
// keeps refusing, handing over nothing (it returned a negative count, which
// bufio and io.ReadAll panic on).
func TestReadAfterRefusal(t *testing.T) {
	h := newHostile(t)
	c := Client(nil, Policy{MaxBytes: 10})
	resp, err := c.Get(h.srv.URL + "/flood")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	for i := range 3 {
		n, err := resp.Body.Read(buf)
		if n < 0 || n > len(buf) {
			t.Fatalf("read %d: n = %d", i, n)
		}
		if err != nil && RuleOf(err) != RuleTooLarge {
			t.Fatalf("read %d: %v", i, err)
		}
		if i > 0 && (n != 0 || err == nil) {
			t.Errorf("read %d after the refusal: n = %d, err %v", i, n, err)
		}
		if i == 0 && err == nil {
			// The first read may stop short of the limit; read to it.
			if _, err = io.ReadFull(resp.Body, make([]byte, 11-n)); RuleOf(err) != RuleTooLarge {
				t.Fatalf("read past the limit: %v", err)
			}
		}
	}
}

// TestRedirectToLoopbackFromRemote: a remote host cannot redirect the
// client to a loopback one (the local services of the machine running
// skills-mcp), though plain http to a loopback host is allowed for a
// request that started there. The remote host is the test server, dialled
// as remote.example.com.
func TestRedirectToLoopbackFromRemote(t *testing.T) {
	h := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
	}))
	t.Cleanup(h.Close)
	local := newHostile(t)
	tr := h.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == "remote.example.com:443" {
			addr = h.Listener.Addr().String()
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c := Client(&http.Client{Transport: tr}, Policy{})
	for _, target := range []string{local.srv.URL + "/ok/5", "https://localhost/ok/5", "https://[::1]/ok/5"} {
		_, err := get(c, "https://remote.example.com/to?u="+url.QueryEscape(target))
		if RuleOf(err) != RuleRedirect || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("remote redirect to %s: %v, want rule %s naming the loopback host", target, err, RuleRedirect)
		}
	}
	// From a loopback host to a loopback host is as before.
	if n, err := get(c, local.srv.URL+"/to?u="+url.QueryEscape(local.srv.URL+"/ok/5")); err != nil || n != 5 {
		t.Errorf("loopback redirect to loopback: %d bytes, %v", n, err)
	}
}

// TestHeadNotSized: a HEAD answer has no body, so the size it declares (the
// resource's) is not held against the byte cap: an oci blob's or
// manifest's HEAD answers with the size of what a GET would send.
func TestHeadNotSized(t *testing.T) {
	h := newHostile(t)
	c := Client(nil, Policy{MaxBytes: 10})
	resp, err := c.Head(h.srv.URL + "/lie/100/0")
	if err != nil {
		t.Fatalf("HEAD of a 100-byte resource under a 10-byte cap: %v", err)
	}
	resp.Body.Close()
	if resp.ContentLength != 100 {
		t.Errorf("content length %d, want 100", resp.ContentLength)
	}
	if _, err := get(c, h.srv.URL+"/ok/100"); RuleOf(err) != RuleTooLarge {
		t.Errorf("GET of 100 bytes under a 10-byte cap: %v", err)
	}
}

// lateAnswer is a transport whose answers come only as the request is
// cancelled, as Go's transport may hand over one that raced the cancel:
// with head, the response itself waits for the cancel; without, its body's
// first read does, then gives a whole JSON value.
type lateAnswer struct {
	head   bool
	closed atomic.Int64 // bodies closed
}

func (l *lateAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if l.head {
		<-ctx.Done()
	}
	b := &lateBody{ctx: ctx, wait: !l.head, l: l}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: b, Request: req}, nil
}

type lateBody struct {
	ctx  context.Context
	wait bool
	sent bool
	l    *lateAnswer
}

func (b *lateBody) Read(p []byte) (int, error) {
	if b.sent {
		return 0, io.EOF
	}
	if b.wait {
		<-b.ctx.Done()
	}
	b.sent = true
	return copy(p, `{"ok":true}`), nil
}

func (b *lateBody) Close() error { b.l.closed.Add(1); return nil }

// TestAnswerAfterWatchdog: an answer that comes only as the idle watchdog
// fires is not handed over: the request fails as stalled, and the late
// answer is closed; a body whose bytes come only as it fires hands none of
// them (a JSON value complete in them is not decoded).
func TestAnswerAfterWatchdog(t *testing.T) {
	l := &lateAnswer{head: true}
	c := Client(&http.Client{Transport: l}, Policy{Idle: 30 * time.Millisecond, Retries: -1})
	resp, err := c.Head("https://registry.example/v2/x/manifests/v1")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a HEAD answered as the watchdog fired: status %d handed over, want rule %s", resp.StatusCode, RuleStalled)
	}
	if RuleOf(err) != RuleStalled || l.closed.Load() != 1 {
		t.Errorf("a HEAD answered as the watchdog fired: %v, %d late bodies closed; want rule %s, 1", err, l.closed.Load(), RuleStalled)
	}

	c = Client(&http.Client{Transport: &lateAnswer{}}, Policy{Idle: 30 * time.Millisecond, Retries: -1})
	resp, err = c.Get("https://example.com/index.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ OK bool }
	if err := json.NewDecoder(resp.Body).Decode(&v); RuleOf(err) != RuleStalled {
		t.Errorf("a body sent as the watchdog fired: decoded %+v, error %v; want rule %s", v, err, RuleStalled)
	}
}
