package teamserver

// Connection caps (Limits.MaxConns, MaxConnsPerClient), made so that no
// client can lock the others out with connections it does not use: when a
// cap is reached, the connection idle longest among those the cap counts
// (kept alive between requests, or accepted and not yet sending one) is
// closed to make room, as the idle timeout would have closed it later;
// only when none of them is idle is the new connection closed at once.

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
)

// clientAddr is the address part of a remote address (no port).
func clientAddr(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// limitListener applies the connection caps to the connections it
// accepts; its connState must follow http.Server.ConnState.
type limitListener struct {
	net.Listener
	max, perClient int
	proxies        trustedProxies   // peers counted towards max only
	refused        func(why string) // counts refusals and closings (metrics); may be nil

	mu     sync.Mutex
	open   int
	byAddr map[string]int
	idle   idleList // the idle connections, longest idle first
}

func newLimitListener(ln net.Listener, l Limits, refused func(string)) *limitListener {
	if l.MaxConns < 0 && l.MaxConnsPerClient < 0 {
		return nil
	}
	return &limitListener{Listener: ln, max: l.MaxConns, perClient: l.MaxConnsPerClient,
		proxies: trustedProxies(l.TrustedProxies), refused: refused, byAddr: map[string]int{}}
}

func (ll *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := clientAddr(c.RemoteAddr().String())
		if ll.proxies.has(addr) {
			addr = "" // a proxy's clients are many: counted towards max only
		}
		lc := &limitConn{Conn: c, ll: ll, addr: addr}
		ll.mu.Lock()
		// One closing makes room under both caps: a connection of the same
		// client also counts towards the global one.
		var victim *limitConn
		why := ""
		switch {
		case addr != "" && ll.perClient > 0 && ll.byAddr[addr] >= ll.perClient:
			why, victim = "max_conns_per_client", ll.idle.oldest(addr)
		case ll.max > 0 && ll.open >= ll.max:
			why, victim = "max_conns", ll.idle.oldest(anyClient)
		}
		if victim != nil {
			ll.releaseLocked(victim)
			why += "_idle_closed"
		}
		if victim != nil || why == "" {
			ll.open++
			if addr != "" {
				ll.byAddr[addr]++
			}
			ll.idle.push(lc) // idle until its first request
		}
		ll.mu.Unlock()
		if victim != nil {
			victim.Conn.Close()
		}
		if why != "" && ll.refused != nil {
			ll.refused(why)
		}
		if victim == nil && why != "" {
			c.Close()
			continue
		}
		return lc, nil
	}
}

// connState follows http.Server.ConnState: a connection between requests
// is idle, one serving a request is not.
func (ll *limitListener) connState(c net.Conn, st http.ConnState) {
	lc, ok := plainConn(c).(*limitConn)
	if !ok {
		return
	}
	ll.mu.Lock()
	defer ll.mu.Unlock()
	if lc.released {
		return
	}
	switch st {
	case http.StateIdle:
		ll.idle.remove(lc)
		ll.idle.push(lc)
	case http.StateActive, http.StateHijacked:
		ll.idle.remove(lc)
	}
}

// releaseLocked takes c out of the counts, once. Called with ll.mu held.
func (ll *limitListener) releaseLocked(c *limitConn) {
	if c.released {
		return
	}
	c.released = true
	ll.idle.remove(c)
	ll.open--
	if c.addr != "" {
		if ll.byAddr[c.addr]--; ll.byAddr[c.addr] <= 0 {
			delete(ll.byAddr, c.addr)
		}
	}
}

type limitConn struct {
	net.Conn
	ll   *limitListener
	addr string // "" for a trusted proxy's

	// guarded by ll.mu
	released   bool
	prev, next *limitConn // in ll.idle, while idle
	queued     bool
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.ll.mu.Lock()
	c.ll.releaseLocked(c)
	c.ll.mu.Unlock()
	return err
}

// anyClient asks idleList.oldest for the oldest idle connection of any
// client.
const anyClient = "\x00any"

// idleList is the idle connections in the order they became idle, oldest
// first: an intrusive doubly-linked list, so that a connection becoming
// active leaves it at once.
type idleList struct {
	head, tail *limitConn
}

func (l *idleList) push(c *limitConn) {
	c.prev, c.next, c.queued = l.tail, nil, true
	if l.tail != nil {
		l.tail.next = c
	} else {
		l.head = c
	}
	l.tail = c
}

func (l *idleList) remove(c *limitConn) {
	if !c.queued {
		return
	}
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		l.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		l.tail = c.prev
	}
	c.prev, c.next, c.queued = nil, nil, false
}

// oldest returns the connection idle longest of client addr (anyClient
// for any), or nil. It walks the list, which holds at most MaxConns
// entries, only when a cap is reached.
func (l *idleList) oldest(addr string) *limitConn {
	for c := l.head; c != nil; c = c.next {
		if addr == anyClient || c.addr == addr {
			return c
		}
	}
	return nil
}

// trustedProxies are the peers whose word on the client is taken.
type trustedProxies []netip.Prefix

// has reports whether addr (an IP address, without port) is a trusted
// proxy.
func (p trustedProxies) has(addr string) bool {
	if len(p) == 0 {
		return false
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, pre := range p {
		if pre.Contains(ip) {
			return true
		}
	}
	return false
}
