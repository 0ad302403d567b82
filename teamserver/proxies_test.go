package teamserver

import (
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestClientOf: the client address of a request, by the trusted-proxy rule
// (proxies.go): a peer's forwarding headers count only when the peer is a
// trusted proxy, from the right, past other trusted proxies.
func TestClientOf(t *testing.T) {
	p := trustedProxies{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32")}
	for _, tc := range []struct {
		name, peer string
		xff, fwd   []string
		want       string
	}{
		{"direct, no header", "203.0.113.1:5000", nil, nil, "203.0.113.1"},
		{"direct, a header it wrote", "203.0.113.1:5000", []string{"198.51.100.1"}, nil, "203.0.113.1"},
		{"proxy, XFF", "10.1.2.3:80", []string{"198.51.100.1"}, nil, "198.51.100.1"},
		{"proxy, a client's own XFF before the proxy's entry", "10.1.2.3:80", []string{"6.6.6.6, 198.51.100.1"}, nil, "198.51.100.1"},
		{"two proxies", "10.1.2.3:80", []string{"198.51.100.1, 192.0.2.7"}, nil, "198.51.100.1"},
		{"XFF in two lines", "10.1.2.3:80", []string{"6.6.6.6", "198.51.100.1"}, nil, "198.51.100.1"},
		{"proxy, no header", "10.1.2.3:80", nil, nil, "10.1.2.3"},
		{"proxy, garbage", "10.1.2.3:80", []string{"not-an-ip"}, nil, "10.1.2.3"},
		{"proxy, garbage before a trusted hop", "10.1.2.3:80", []string{"junk, 192.0.2.7"}, nil, "192.0.2.7"},
		{"Forwarded", "10.1.2.3:80", nil, []string{`for=192.0.2.60;proto=http;by=203.0.113.43`}, "192.0.2.60"},
		{"Forwarded IPv6 with port", "10.1.2.3:80", nil, []string{`for=6.6.6.6, for="[2001:db8:cafe::17]:4711"`}, "2001:db8:cafe::17"},
		{"Forwarded unknown", "10.1.2.3:80", nil, []string{`for=unknown`}, "10.1.2.3"},
		{"both headers", "10.1.2.3:80", []string{"198.51.100.1"}, []string{"for=6.6.6.6"}, "10.1.2.3"},
		{"IPv4-mapped proxy", "[::ffff:10.1.2.3]:80", []string{"198.51.100.1"}, nil, "198.51.100.1"},
	} {
		r := &http.Request{RemoteAddr: tc.peer, Header: http.Header{}}
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		for _, v := range tc.fwd {
			r.Header.Add("Forwarded", v)
		}
		if got := p.clientOf(r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if _, err := ParseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.7", "::1"}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0"} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("%q taken as a proxy", bad)
		}
	}
}

// TestTrustedProxies: the real binary with --trusted-proxies 127.0.0.9
// logs the client a request from that proxy names, and the peer of one
// from anywhere else whatever it claims; and counts the proxy's
// connections towards --max-conns only, not --max-conns-per-client.
func TestTrustedProxies(t *testing.T) {
	a := startAbuse(t, "", "--trusted-proxies", "127.0.0.9", "--max-conns-per-client", "5", "--read-header-timeout", "30s")
	get := func(src, headers string) {
		t.Helper()
		c, err := dialFrom(src, a.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if resp, err := rawRequest(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"+headers+"\r\n", 5*time.Second); err != nil || resp.StatusCode != 200 {
			t.Fatalf("from %s: %v", src, err)
		}
	}
	get("127.0.0.9", "X-Forwarded-For: 6.6.6.6, 198.51.100.1\r\n")
	get("127.0.0.8", "X-Forwarded-For: 198.51.100.2\r\n")
	get("127.0.0.9", "Forwarded: for=\"[2001:db8::3]:4711\"\r\n")
	for _, want := range []string{`remote=198.51.100.1( |$)`, `remote=127.0.0.8:\d+`, `remote=2001:db8::3( |$)`} {
		re := regexp.MustCompile(`(?m)msg=http method=GET path=/healthz .*` + want)
		found := false
		for range 100 { // the access line is written once the answer is sent
			if found = re.MatchString(a.stderr.String()); found {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !found {
			t.Errorf("no access line with %s:\n%s", want, a.stderr.String())
		}
	}
	if strings.Contains(a.stderr.String(), "remote=198.51.100.2") || strings.Contains(a.stderr.String(), "remote=6.6.6.6") {
		t.Errorf("a forwarding header was taken from a peer that is no trusted proxy, or past the proxy's entry:\n%s", a.stderr.String())
	}
	proxy, direct := a.dialMany(20, "127.0.0.9"), a.dialMany(20, "127.0.0.10")
	a.await(15, "skills_mcp_limit_refusals_total", "limit", "max_conns_per_client_idle_closed")
	a.served(10)
	held := func(cs []net.Conn) (n int) {
		for _, c := range cs {
			if !closedWithin(c, 20*time.Millisecond) {
				n++
			}
		}
		return n
	}
	if n := held(proxy); n != 20 {
		t.Errorf("%d of the trusted proxy's 20 connections held, want all", n)
	}
	if n := held(direct); n != 5 {
		t.Errorf("%d of another address's 20 connections held, want --max-conns-per-client 5", n)
	}
}
