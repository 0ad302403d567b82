package teamserver

// Trusted proxies (Limits.TrustedProxies, --trusted-proxies): the only
// peers whose word on the client's address is taken. The rule:
//
//   - A request's client is its TCP peer, unless the peer is a trusted
//     proxy; then it is the address that proxy was given, read from
//     X-Forwarded-For or Forwarded (RFC 7239 for=), whichever the request
//     carries, from the right: the first address that is not itself a
//     trusted proxy. An entry that is no IP address (unknown, an
//     obfuscated name) ends the walk at the proxy before it.
//   - A request carrying both headers is taken as from the proxy itself:
//     a proxy appends to one of them, and a client may have written the
//     other whole.
//   - A trusted proxy's connections are counted towards MaxConns only,
//     never per client (conns.go): they carry many clients.
//
// The client's address is what the logs show (remote=).

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies parses a list of CIDR prefixes or addresses
// ("10.0.0.0/8,192.0.2.7"), as --trusted-proxies takes them.
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR prefix (10.0.0.0/8)", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// clientOf returns the client address of r by the rule above, without a
// port; r.RemoteAddr's address when its peer is not a trusted proxy.
func (p trustedProxies) clientOf(r *http.Request) string {
	peer := clientAddr(r.RemoteAddr)
	if !p.has(peer) {
		return peer
	}
	xff, fwd := r.Header.Values("X-Forwarded-For"), r.Header.Values("Forwarded")
	var hops []string
	switch {
	case len(xff) > 0 && len(fwd) > 0:
		return peer
	case len(xff) > 0:
		for _, v := range xff {
			for h := range strings.SplitSeq(v, ",") {
				hops = append(hops, strings.TrimSpace(h))
			}
		}
	default:
		for _, v := range fwd {
			for elem := range strings.SplitSeq(v, ",") {
				hop := ""
				for pair := range strings.SplitSeq(elem, ";") {
					k, val, _ := strings.Cut(strings.TrimSpace(pair), "=")
					if strings.EqualFold(k, "for") {
						hop = strings.Trim(val, `"`)
					}
				}
				hops = append(hops, hop)
			}
		}
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := hopAddr(hops[i])
		if !ok {
			break
		}
		client = a
		if !p.has(a) {
			break
		}
	}
	return client
}

// hopAddr reads one hop of a forwarding header: an IP address, with a port
// or (IPv6) in brackets perhaps.
func hopAddr(h string) (string, bool) {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	a, err := netip.ParseAddr(h)
	if err != nil {
		return "", false
	}
	return a.Unmap().String(), true
}
