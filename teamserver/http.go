package teamserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/serve/usage"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// DefaultShutdownTimeout is how long ListenAndServe waits for requests in
// flight when its context is cancelled, unless Options.ShutdownTimeout says.
const DefaultShutdownTimeout = 10 * time.Second

// Options configure the HTTP endpoint.
type Options struct {
	// AllowedHosts are the host names (or host:port) clients may use in the
	// Host and Origin headers, besides loopback ones.
	AllowedHosts []string
	// Auth, if not nil, requires a bearer token it accepts on Endpoint, and
	// serves the Protected Resource Metadata (RFC 9728) at
	// ProtectedResourcePath.
	Auth *Authorizer
	// NoAuth allows ListenAndServe to bind a non-loopback address without
	// Auth: the operator says that the network in front does the
	// authorization.
	NoAuth bool
	// Limits are the hard limits (limits.go); zero fields take
	// DefaultLimits.
	Limits Limits
	// Metrics, if not nil, counts requests (metrics.go) and is served at
	// MetricsPath: on MetricsAddr when set (ListenAndServe), else on the
	// main address, behind Auth.
	Metrics     *Metrics
	MetricsAddr string
	// Usage are told of every skill use besides Metrics (the usage log).
	Usage []usage.Observer
	// TLS, if not nil, makes ListenAndServe serve HTTPS with this
	// certificate: HTTP/2 and HTTP/1.1, chosen by ALPN, and no plain HTTP.
	TLS *Certificate
	// ShutdownTimeout is how long ListenAndServe waits for requests in
	// flight once its context is cancelled, before it closes their
	// connections; DefaultShutdownTimeout if 0, no wait if negative.
	ShutdownTimeout time.Duration
}

// Handler returns the HTTP endpoint of srv: its MCP handler
// (serve.Server.MCPHandler) at Endpoint, and the rest of the endpoint
// around it.
//
// It answers MCP at Endpoint, and GET and HEAD of the Agent Skills
// discovery site below /.well-known/agent-skills/ (wellknown.go), both
// behind opt.Auth when set. Every request must name, in its Host header and
// in its Origin header when there is one, a loopback host (localhost,
// 127.0.0.0/8, ::1) or one of opt.AllowedHosts (a host name, or host:port to
// pin the port); anything else gets 403 with no body, which defeats DNS
// rebinding from a browser. This check replaces the SDK's own localhost
// protection, which knows no allow-list.
func Handler(srv *serve.Server, opt Options) http.Handler { return wrapServer(srv).httpHandler(opt) }

// httpHandler is Handler of s.
func (s *server) httpHandler(opt Options) http.Handler {
	s.mcp.ObserveCalls(callObserver{})
	return s.handler(opt, s.mcp.MCPHandler(opt.Limits.withDefaults().MaxBodyBytes)) // negative: none, for the SDK too
}

// handler is Handler around h, the handler of MCP at Endpoint.
func (s *server) handler(opt Options, h http.Handler) http.Handler {
	lm := newLimiter(opt.Limits.withDefaults())
	h = lm.wrap(checkMessages(opt.Limits.withDefaults().MaxBodyBytes, h))
	var prm http.Handler = http.NotFoundHandler()
	var site http.Handler = http.HandlerFunc(s.serveWellKnown)
	var metrics http.Handler = http.NotFoundHandler()
	usage := slices.Clone(opt.Usage)
	if opt.Metrics != nil {
		usage = append(usage, opt.Metrics)
	}
	s.mcp.ObserveUsage(usage...)
	if m := opt.Metrics; m != nil {
		m.srv.Store(s.mcp)
		lm.hit = m.limitHit
		if opt.MetricsAddr == "" {
			metrics = m.Handler()
		}
	}
	if opt.Auth != nil {
		if opt.Metrics != nil {
			opt.Auth.fail = opt.Metrics.authFailed
		}
		h = opt.Auth.wrap(h)
		site = opt.Auth.wrap(site)
		if opt.Metrics != nil && opt.MetricsAddr == "" {
			metrics = opt.Auth.wrapAll(metrics)
		}
		prm = opt.Auth.metadata()
	}
	allowed := newHostPolicy(opt.AllowedHosts)
	proxies := trustedProxies(opt.Limits.TrustedProxies)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex := &exchange{cw: countingWriter{ResponseWriter: w}}
		ex.ri.watchBody(r)
		ex.ctx = infoContext{Context: r.Context(), ri: &ex.ri}
		r = r.WithContext(&ex.ctx)
		if proxies.has(clientAddr(r.RemoteAddr)) { // the client a trusted proxy names (proxies.go), for every log
			r.RemoteAddr = proxies.clientOf(r)
		}
		s.observe(opt.Metrics, &ex.cw, r, &ex.ri, func(w http.ResponseWriter, r *http.Request) {
			s.route(w, r, allowed, h, prm, site, metrics)
		})
	})
}

// route answers one request of Handler.
func (s *server) route(w http.ResponseWriter, r *http.Request, allowed *hostPolicy, h, prm, site, metrics http.Handler) {
	{
		switch r.URL.Path {
		case HealthPath:
			health(w, r)
			return
		case ReadyPath:
			s.ready(w, r)
			return
		}
		if !allowed.allows(r.Host) {
			s.log.Warn("http: refused host", "host", r.Host, "remote", r.RemoteAddr)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !allowed.allowsOrigin(o) {
			s.log.Warn("http: refused origin", "origin", o, "remote", r.RemoteAddr)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if strings.HasPrefix(r.URL.Path, wellknown.Dir) {
			site.ServeHTTP(w, r)
			return
		}
		switch r.URL.Path {
		case Endpoint:
			h.ServeHTTP(w, r)
		case ProtectedResourcePath, ProtectedResourcePath + Endpoint:
			prm.ServeHTTP(w, r)
		case MetricsPath:
			metrics.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}
}

type hostPolicy struct {
	names map[string]bool // lower-case host names and host:port pairs
}

func newHostPolicy(allowed []string) *hostPolicy {
	p := &hostPolicy{names: map[string]bool{}}
	for _, h := range allowed {
		h = strings.ToLower(strings.TrimSpace(h))
		if h != "" {
			p.names[strings.TrimSuffix(h, ".")] = true
		}
	}
	return p
}

// allows reports whether a Host header value names an allowed host.
func (p *hostPolicy) allows(hostport string) bool {
	hostport = strings.ToLower(hostport)
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Unmap().IsLoopback() && a.Zone() == "" {
		return true
	}
	return p.names[host] || p.names[hostport]
}

// allowsOrigin reports whether an Origin header names an allowed host.
// "null" (a sandboxed or file: page) is refused.
func (p *hostPolicy) allowsOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	return p.allows(u.Host)
}

// ListenAndServe serves Handler of srv at http://addr/mcp (https with
// opt.TLS) until ctx is cancelled (SIGTERM), then drains: ReadyPath answers 503 at once (on
// MetricsAddr, which keeps serving until the end, and on any connection
// still open), no connection is accepted, and requests in flight are
// waited for up to Options.ShutdownTimeout (subscription streams are ended
// at once) before it returns nil.
//
// addr is [HOST:]PORT. With no host (or an empty one, as in ":8080") it
// binds 127.0.0.1, not every interface. Binding every interface (0.0.0.0 or
// ::) requires opt.AllowedHosts: the names clients will use to reach the
// server. A specific bind address is allowed as a host name too. Binding
// anything but a loopback address requires opt.Auth, or opt.NoAuth. It
// listens only once srv.Verified returns nil, and returns its error.
func ListenAndServe(ctx context.Context, srv *serve.Server, addr string, opt Options) error {
	hostport, err := bindAddress(addr)
	if err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(hostport)
	if a, err := netip.ParseAddr(host); err == nil && a.IsUnspecified() {
		if len(opt.AllowedHosts) == 0 {
			return fmt.Errorf("serve: binding %s exposes the server on every interface: give the host names clients use (SKILLS_ALLOWED_HOSTS or --allowed-hosts)", hostport)
		}
	} else {
		opt.AllowedHosts = append(opt.AllowedHosts[:len(opt.AllowedHosts):len(opt.AllowedHosts)], host)
	}
	if !isLoopbackHost(host) && opt.Auth == nil && !opt.NoAuth {
		return fmt.Errorf("serve: binding %s lets anyone who can reach it read every skill: give --auth-tokens or --oauth-issuer, or --no-auth if the network in front authorizes", hostport)
	}
	if err := srv.Verified(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", hostport)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return wrapServer(srv).serveListener(ctx, ln, opt)
}

// isLoopbackHost reports whether a bind host is localhost or a loopback
// address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// serveMetrics serves MetricsPath, HealthPath and ReadyPath on addr
// ([HOST:]PORT, HOST 127.0.0.1 if none) until stop is called.
func (s *server) serveMetrics(addr string, m *Metrics) (stop func(), err error) {
	hostport, err := bindAddress(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", hostport)
	if err != nil {
		return nil, fmt.Errorf("serve: metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle(MetricsPath, m.Handler())
	mux.HandleFunc(HealthPath, health)
	mux.HandleFunc(ReadyPath, s.ready)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second}
	s.log.Info("metrics on http://" + ln.Addr().String() + MetricsPath)
	go srv.Serve(ln)
	return func() { srv.Close() }, nil
}

// longLived readies a request whose answer streams for long
// (subscriptions/listen): its small body is read under the read timeout,
// which is then lifted, else its expiry would end the stream. It answers
// 413 and returns false for a body larger than smallBody.
func longLived(w http.ResponseWriter, r *http.Request) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, smallBody+1))
	if err != nil {
		http.Error(w, "cannot read the request body", http.StatusBadRequest)
		return false
	}
	if len(body) > smallBody {
		http.Error(w, "request body too large for subscriptions/listen", http.StatusRequestEntityTooLarge)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	return true
}

// bindAddress turns [HOST:]PORT into HOST:PORT, defaulting HOST to 127.0.0.1.
func bindAddress(addr string) (string, error) {
	host, port := "", addr
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		h, p, err := net.SplitHostPort(addr)
		if err != nil {
			return "", fmt.Errorf("serve: http address %q: want [HOST:]PORT", addr)
		}
		host, port = h, p
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("serve: http address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

func (s *server) serveListener(ctx context.Context, ln net.Listener, opt Options) error {
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	h := s.httpHandler(opt)
	lim := opt.Limits.withDefaults()
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// A subscriptions/listen stream (2026-07-28) stays open until the
			// client leaves; end it when shutting down, so draining does not
			// wait for it.
			if strings.TrimSpace(r.Header.Get("Mcp-Method")) == "subscriptions/listen" {
				if !longLived(w, r) {
					return
				}
				ctx, cancel := context.WithCancel(r.Context())
				defer cancel()
				defer context.AfterFunc(streams, cancel)()
				r = r.WithContext(ctx)
			}
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: off(lim.ReadHeaderTimeout),
		ReadTimeout:       off(lim.ReadTimeout),
		IdleTimeout:       off(lim.IdleTimeout),
		MaxHeaderBytes:    off(lim.MaxHeaderBytes),
		Protocols:         new(http.Protocols),
	}
	// HTTP/1.1, and HTTP/2: over TLS when the endpoint has a certificate,
	// else without TLS for clients that know to speak it (prior knowledge,
	// as on loopback or behind a proxy that ends TLS in front).
	srv.Protocols.SetHTTP1(true)
	scheme := "http"
	if opt.TLS != nil {
		srv.Protocols.SetHTTP2(true)
		srv.TLSConfig = opt.TLS.config()
		scheme = "https"
	} else {
		srv.Protocols.SetUnencryptedHTTP2(true)
	}
	var refused func(string)
	var states []func(net.Conn, http.ConnState)
	if m := opt.Metrics; m != nil {
		states = append(states, func(c net.Conn, st http.ConnState) { m.connState(c, st) })
		refused = m.limitHit
		if opt.MetricsAddr != "" {
			stop, err := s.serveMetrics(opt.MetricsAddr, m)
			if err != nil {
				ln.Close()
				return err
			}
			defer stop()
		}
	}
	if ll := newLimitListener(ln, lim, refused); ll != nil {
		ln = ll
		states = append(states, ll.connState)
	}
	if len(states) > 0 {
		srv.ConnState = func(c net.Conn, st http.ConnState) {
			for _, f := range states {
				f(c, st)
			}
		}
	}
	srv.RegisterOnShutdown(endStreams)
	s.log.Info("listening on " + scheme + "://" + ln.Addr().String() + Endpoint)
	done := make(chan error, 1)
	go func() {
		if opt.TLS != nil {
			done <- srv.ServeTLS(ln, "", "")
			return
		}
		done <- srv.Serve(ln)
	}()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.draining.Store(true)
	grace := opt.ShutdownTimeout
	if grace == 0 {
		grace = DefaultShutdownTimeout
	}
	s.log.Info("shutting down: not ready, no new connections, finishing requests in flight", "timeout", max(grace, 0))
	sctx, cancel := context.WithTimeout(context.Background(), max(grace, 0))
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		s.log.Warn("http: requests still running after --shutdown-timeout; closing their connections", "timeout", max(grace, 0))
		srv.Close()
	}
	<-done
	s.log.Info("http server stopped")
	return nil
}
