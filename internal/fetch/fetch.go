// Package fetch is the one bounded HTTP client every outbound request of
// skills-mcp goes through: discovery sites, https libraries and bundles, OCI
// registries, OAuth issuers and their key sets, live MCP servers.
//
// Invariants, for every request a Client makes:
//   - it ends within Policy.Timeout (each attempt, body included);
//   - it ends within Policy.Idle of the last byte received: connecting,
//     waiting for headers and each read of the body are watched by the same
//     timer, so a server that accepts and then says nothing, or sends headers
//     and no body, is given up on in seconds;
//   - a body larger than Policy.MaxBytes, or than what is left of a shared
//     Budget, is refused before a byte of it is read when its declared size
//     says so, and the moment it passes the limit when it does not;
//   - a redirect is followed only to a URL Policy.CheckURL allows, at most
//     Policy.Redirects times, never from a remote host to a loopback one,
//     and an Authorization header never follows a redirect to another host;
//   - a GET or HEAD that failed before any answer (a refused or stalled
//     connection, 429, 502, 503, 504) is tried again at most Policy.Retries
//     times, after a short pause.
//
// The package sits below every package that talks to the network (build,
// pull, oci, wellknown, the servers) and depends on the standard library
// only. Errors name the URL without its query, fragment or user info.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the Policy fields left zero.
const (
	DefaultIdle      = 10 * time.Second
	DefaultTimeout   = 60 * time.Second
	DefaultRedirects = 5
	DefaultRetries   = 2
)

// Rules a refused request names in its *Error.
const (
	RuleStalled  = "fetch-stalled"   // nothing received for Policy.Idle
	RuleTimeout  = "fetch-timeout"   // the request took longer than Policy.Timeout
	RuleTooLarge = "fetch-too-large" // a body over Policy.MaxBytes or the Budget
	RuleRedirect = "fetch-redirect"  // too many redirects
)

// Policy bounds the requests of a Client. A zero field takes its default;
// a negative duration or count turns that bound off (MaxBytes 0 is no cap
// of its own: a Budget may still apply).
type Policy struct {
	// Timeout bounds each attempt of a request, body included.
	Timeout time.Duration
	// Idle bounds every wait for the server: the connection, the response
	// headers, and each read of the body.
	Idle time.Duration
	// MaxBytes caps one response body.
	MaxBytes int64
	// Budget, when not nil, caps the bodies of all the requests that share
	// it, together.
	Budget *Budget
	// Redirects is how many redirects a request may follow.
	Redirects int
	// CheckURL vets every redirect's target; nil allows https, and http to
	// a loopback host. Its error is returned as it is, so a caller's own
	// rule error survives.
	CheckURL func(*url.URL) error
	// Retries is how many times a GET or HEAD is tried again after it
	// failed before any answer.
	Retries int
}

func (p Policy) withDefaults() Policy {
	if p.Timeout == 0 {
		p.Timeout = DefaultTimeout
	}
	if p.Idle == 0 {
		p.Idle = DefaultIdle
	}
	if p.Redirects == 0 {
		p.Redirects = DefaultRedirects
	}
	if p.Retries == 0 {
		p.Retries = DefaultRetries
	}
	if p.CheckURL == nil {
		p.CheckURL = HTTPSOrLoopback
	}
	return p
}

// inherit fills p's zero fields from q: what a caller set on the client it
// passed in survives a package's own policy.
func (p Policy) inherit(q Policy) Policy {
	if p.Timeout == 0 {
		p.Timeout = q.Timeout
	}
	if p.Idle == 0 {
		p.Idle = q.Idle
	}
	if p.MaxBytes == 0 {
		p.MaxBytes = q.MaxBytes
	}
	if p.Budget == nil {
		p.Budget = q.Budget
	}
	if p.Redirects == 0 {
		p.Redirects = q.Redirects
	}
	if p.CheckURL == nil {
		p.CheckURL = q.CheckURL
	}
	if p.Retries == 0 {
		p.Retries = q.Retries
	}
	return p
}

// Budget is a byte budget shared by several requests.
type Budget struct{ left atomic.Int64 }

// NewBudget returns a budget of n bytes.
func NewBudget(n int64) *Budget {
	b := &Budget{}
	b.left.Store(n)
	return b
}

// Left returns the bytes left.
func (b *Budget) Left() int64 { return b.left.Load() }

// Error is a request refused by a bound of its Policy.
type Error struct {
	Rule string
	URL  string // redacted
	Msg  string
}

// Error returns "URL: message (rule …)".
func (e *Error) Error() string { return e.URL + ": " + e.Msg + " (rule " + e.Rule + ")" }

// Timeout reports true for a stall or a deadline, as net.Error does.
func (e *Error) Timeout() bool { return e.Rule == RuleStalled || e.Rule == RuleTimeout }

// RuleOf returns the rule of the *Error in err's chain, or "".
func RuleOf(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Rule
	}
	return ""
}

// Redact returns u without user info, query or fragment, for messages:
// signed URLs carry credentials there.
func Redact(u *url.URL) string {
	c := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return c.String()
}

// HTTPSOrLoopback allows https, and plain http to a loopback host only.
func HTTPSOrLoopback(u *url.URL) error {
	switch {
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && IsLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect to %s: only https (or http to a loopback host) is allowed", Redact(u))
}

// IsLoopback reports whether host is localhost or a loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Client returns an HTTP client bounded by p, sending through base's
// transport (a fresh transport when base is nil or has none). When base is
// itself a bounded client, the fields p leaves zero take base's values and
// the bounds are not applied twice. base is never changed.
func Client(base *http.Client, p Policy) *http.Client {
	var next http.RoundTripper
	if base != nil {
		next = base.Transport
		if t, ok := next.(*transport); ok {
			p = p.inherit(t.p)
			next = t.next
		}
	}
	p = p.withDefaults()
	if next == nil {
		next = newTransport()
	}
	c := &http.Client{Transport: &transport{next: next, p: p}}
	if base != nil {
		c.Jar = base.Jar
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if p.Redirects < 0 || len(via) > p.Redirects {
			return &Error{Rule: RuleRedirect, URL: Redact(via[0].URL), Msg: fmt.Sprintf("more than %d redirects", max(p.Redirects, 0))}
		}
		if err := p.CheckURL(req.URL); err != nil {
			return err
		}
		// Whatever CheckURL allows, a remote host does not send the client
		// to the machine's own services.
		if IsLoopback(req.URL.Hostname()) && !IsLoopback(via[0].URL.Hostname()) {
			return &Error{Rule: RuleRedirect, URL: Redact(via[0].URL), Msg: fmt.Sprintf("redirect to %s: a remote host may not redirect to a loopback host", Redact(req.URL))}
		}
		first := strings.ToLower(via[0].URL.Host)
		for _, r := range append(via[1:], req) {
			if strings.ToLower(r.URL.Host) != first {
				req.Header.Del("Authorization")
				req.Header.Del("Cookie")
				break
			}
		}
		return nil
	}
	return c
}

// newTransport is the transport of a client given none: the standard one's
// settings, no proxy from the environment taken away.
func newTransport() http.RoundTripper {
	return http.DefaultTransport.(*http.Transport).Clone()
}

// transport applies a Policy to each round trip of next.
type transport struct {
	next http.RoundTripper
	p    Policy
}

// retryable answers: the server is overloaded or a gateway failed.
func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusBadGateway ||
		code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	name := Redact(req.URL)
	idempotent := (req.Method == http.MethodGet || req.Method == http.MethodHead) && (req.Body == nil || req.Body == http.NoBody)
	for attempt := 0; ; attempt++ {
		resp, err := t.try(req, name)
		again := idempotent && attempt < t.p.Retries && req.Context().Err() == nil
		switch {
		case err != nil && again && retryableErr(err):
		case err == nil && again && retryableStatus(resp.StatusCode):
			io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
			resp.Body.Close()
		default:
			return resp, err
		}
		pause := time.Duration(200<<attempt) * time.Millisecond
		select {
		case <-time.After(pause):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
}

// retryableErr: a failure before any answer that another attempt may not
// meet: a stall, a deadline of the attempt, a refused or reset connection.
// A refusal by the policy itself (too large) is not retried.
func retryableErr(err error) bool {
	switch RuleOf(err) {
	case RuleStalled, RuleTimeout:
		return true
	case "":
		var ne net.Error
		var oe *net.OpError
		return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
	}
	return false
}

// try makes one attempt: the request under its own deadline and idle
// watchdog, which the returned body carries on.
func (t *transport) try(req *http.Request, name string) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	stopDeadline := func() bool { return false }
	if t.p.Timeout > 0 {
		dl := time.AfterFunc(t.p.Timeout, func() {
			cancel(&Error{Rule: RuleTimeout, URL: name, Msg: fmt.Sprintf("no complete answer within %v", t.p.Timeout)})
		})
		stopDeadline = dl.Stop
	}
	w := &watchdog{idle: t.p.Idle, fire: func() {
		cancel(&Error{Rule: RuleStalled, URL: name, Msg: fmt.Sprintf("nothing received for %v", t.p.Idle)})
	}}
	end := func() { w.stop(); stopDeadline(); cancel(nil) }
	w.arm()
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	w.disarm()
	// Once a bound fired, it is the error, even with an answer in hand:
	// Go's transport hands over a response that raced the cancel, such as
	// the empty 200 a server sends when a TLS client's close_notify ends
	// its handler before the connection is closed.
	if cause := ourCause(ctx); cause != nil {
		if err == nil {
			resp.Body.Close()
		}
		end()
		return nil, cause
	}
	if err != nil {
		end()
		return nil, err
	}
	limit := t.limit()
	// A HEAD answer declares the size of what a GET would send, and has
	// no body to refuse.
	if limit >= 0 && req.Method != http.MethodHead && resp.ContentLength > limit {
		resp.Body.Close()
		end()
		return nil, &Error{Rule: RuleTooLarge, URL: name, Msg: fmt.Sprintf("declares %d bytes, more than the %d allowed", resp.ContentLength, limit)}
	}
	resp.Body = &body{rc: resp.Body, ctx: ctx, w: w, end: end, limit: limit, budget: t.p.Budget, name: name}
	return resp, nil
}

// limit is the most bytes the next body may hold, or -1 for no limit.
func (t *transport) limit() int64 {
	l := int64(-1)
	if t.p.MaxBytes > 0 {
		l = t.p.MaxBytes
	}
	if t.p.Budget != nil {
		left := max(t.p.Budget.Left(), 0)
		if l < 0 || left < l {
			l = left
		}
	}
	return l
}

// ourCause returns the *Error ctx was cancelled with, if any.
func ourCause(ctx context.Context) error {
	var fe *Error
	if errors.As(context.Cause(ctx), &fe) {
		return fe
	}
	return nil
}

// watchdog cancels a request when a wait for the server lasts longer than
// idle. Armed around each wait, disarmed when the wait ends.
type watchdog struct {
	idle time.Duration
	fire func()
	mu   sync.Mutex
	t    *time.Timer
	done bool
}

func (w *watchdog) arm() {
	if w.idle <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	if w.t == nil {
		w.t = time.AfterFunc(w.idle, w.fire)
	} else {
		w.t.Reset(w.idle)
	}
}

func (w *watchdog) disarm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.t != nil {
		w.t.Stop()
	}
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if w.t != nil {
		w.t.Stop()
	}
}

// body is a response body under the policy: each read watched, every byte
// counted against the limit and the budget.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	w      *watchdog
	end    func()
	limit  int64 // -1: none
	n      int64
	budget *Budget
	name   string
	once   sync.Once
	// refused is the size refusal once given, given again to any later
	// read.
	refused error
}

// spend takes n bytes off the budget and returns by how many bytes the
// budget is now overspent (0 when it is not, or there is none).
func (b *body) spend(n int) int64 {
	if b.budget == nil || n <= 0 {
		return 0
	}
	return max(-b.budget.left.Add(-int64(n)), 0)
}

func (b *body) Read(p []byte) (int, error) {
	if b.refused != nil {
		return 0, b.refused // read again after a refusal: nothing more
	}
	if b.limit >= 0 && int64(len(p)) > b.limit-b.n+1 {
		p = p[:b.limit-b.n+1] // one byte past the limit tells an overrun
	}
	b.w.arm()
	n, err := b.rc.Read(p)
	b.w.disarm()
	b.n += int64(n)
	if b.limit >= 0 && b.n > b.limit {
		b.spend(n)
		b.refused = &Error{Rule: RuleTooLarge, URL: b.name, Msg: fmt.Sprintf("more than the %d bytes allowed", b.limit)}
		return n - int(b.n-b.limit), b.refused
	}
	// Other bodies open at the same time spend the budget too: what was
	// left when this one's headers came (its limit) may be gone.
	if over := b.spend(n); over > 0 {
		b.refused = &Error{Rule: RuleTooLarge, URL: b.name, Msg: "more than the shared byte budget allows"}
		return n - int(min(over, int64(n))), b.refused
	}
	// Once a bound fired, no byte more is handed: what this read gave
	// raced the cancel, and a body the cancel cut short may end in a clean
	// EOF.
	if cause := ourCause(b.ctx); cause != nil {
		return 0, cause
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.once.Do(b.end)
	return err
}
