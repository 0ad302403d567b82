package teamserver

// Hard limits of the HTTP endpoint, so that one misbehaving client cannot
// hurt the others: timeouts, connection caps, body and header sizes, a
// shared budget for large bodies, and a request rate per token.

import (
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits are the HTTP endpoint's hard limits. A zero field takes its
// default from DefaultLimits; a negative one turns the limit off.
type Limits struct {
	// ReadHeaderTimeout bounds the time to read a request's headers, from
	// the connection's first byte (or the end of the previous request).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds the time to read a whole request, body included.
	ReadTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its
	// next request.
	IdleTimeout time.Duration
	// MaxConns caps the open connections; MaxConnsPerClient those of one
	// client address (a trusted proxy's are not counted per client). When
	// a cap is reached, the connection idle longest among those it counts
	// is closed to make room; only when none is idle is the new connection
	// closed at once (conns.go).
	MaxConns, MaxConnsPerClient int
	// TrustedProxies are the peers whose Forwarded or X-Forwarded-For
	// header names the client (proxies.go); none unless configured.
	TrustedProxies []netip.Prefix
	// MaxBodyBytes caps a request body; a larger declared one is refused
	// (413) before a byte of it is read. MaxHeaderBytes caps the headers.
	MaxBodyBytes   int64
	MaxHeaderBytes int
	// LargeBodyBudget is the body bytes that requests larger than
	// smallBody may hold at once, all clients together; a request that
	// finds it spent gets 503 with Retry-After. MCP requests are small, so
	// this only ever throttles clients sending large bodies.
	LargeBodyBudget int64
	// Rate is the sustained requests per second of one token, with bursts
	// of Burst; past it, 429 with Retry-After. Without authorization there
	// is no rate: behind a proxy every client would share one address.
	Rate  float64
	Burst int
}

// DefaultLimits are the limits of a server that was given none: a real
// deployment can keep them. An MCP request is a few hundred bytes and
// answered in milliseconds, hosts keep a few connections each, and an agent
// makes some requests a second.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	IdleTimeout:       120 * time.Second,
	MaxConns:          4096,
	MaxConnsPerClient: 256,
	MaxBodyBytes:      1 << 20,
	MaxHeaderBytes:    64 << 10,
	LargeBodyBudget:   16 << 20,
	Rate:              100,
	Burst:             200,
}

// smallBody is the size up to which a body needs none of LargeBodyBudget.
const smallBody = 64 << 10

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	pick(&l.ReadHeaderTimeout, d.ReadHeaderTimeout)
	pick(&l.ReadTimeout, d.ReadTimeout)
	pick(&l.IdleTimeout, d.IdleTimeout)
	if l.MaxConns == 0 {
		l.MaxConns = d.MaxConns
	}
	if l.MaxConnsPerClient == 0 {
		l.MaxConnsPerClient = d.MaxConnsPerClient
	}
	if l.MaxBodyBytes == 0 {
		l.MaxBodyBytes = d.MaxBodyBytes
	}
	if l.MaxHeaderBytes == 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.LargeBodyBudget == 0 {
		l.LargeBodyBudget = d.LargeBodyBudget
	}
	if l.Rate == 0 {
		l.Rate = d.Rate
	}
	if l.Burst == 0 {
		l.Burst = d.Burst
	}
	return l
}

// off turns a negative limit into none (0 for http.Server fields).
func off[T int | int64 | time.Duration](v T) T { return max(v, 0) }

// bodyBudget hands out LargeBodyBudget.
type bodyBudget struct {
	mu   sync.Mutex
	left int64
}

func (b *bodyBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

func (b *bodyBudget) give(n int64) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
}

// rateLimiters are the request-rate limiters, by token name. Limiters unused for a while are dropped when the map grows.
type rateLimiters struct {
	r     rate.Limit
	burst int

	mu    sync.Mutex
	m     map[string]*keyedLimiter
	swept time.Time
}

type keyedLimiter struct {
	lim  *rate.Limiter
	seen time.Time
}

// maxLimiters is the map size past which idle limiters are dropped.
const maxLimiters = 10000

// allow reports whether key may make a request now, and if not, how long
// until it may.
func (rl *rateLimiters) allow(key string, now time.Time) (bool, time.Duration) {
	rl.mu.Lock()
	kl := rl.m[key]
	if kl == nil {
		if len(rl.m) >= maxLimiters && now.Sub(rl.swept) > time.Second {
			for k, v := range rl.m {
				if now.Sub(v.seen) > time.Minute {
					delete(rl.m, k)
				}
			}
			rl.swept = now
		}
		kl = &keyedLimiter{lim: rate.NewLimiter(rl.r, rl.burst)}
		rl.m[key] = kl
	}
	kl.seen = now
	rl.mu.Unlock()
	res := kl.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// limiter applies, per request, the body limits and the request rate.
type limiter struct {
	l      Limits
	budget *bodyBudget
	rates  *rateLimiters
	hit    func(limit string) // counts refusals (metrics); may be nil
	now    func() time.Time
}

func newLimiter(l Limits) *limiter {
	lm := &limiter{l: l, now: time.Now}
	if l.LargeBodyBudget > 0 {
		lm.budget = &bodyBudget{left: l.LargeBodyBudget}
	}
	if l.Rate > 0 {
		lm.rates = &rateLimiters{r: rate.Limit(l.Rate), burst: max(l.Burst, 1), m: map[string]*keyedLimiter{}}
	}
	return lm
}

// wrap returns next behind the rate and body limits. It runs after
// authorization, so the rate is counted per token. next must stop reading
// a body at MaxBodyBytes, as the SDK's handler does when given the limit.
func (lm *limiter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ri := infoFrom(r.Context()); lm.rates != nil && ri != nil && ri.token != "" {
			if ok, wait := lm.rates.allow(ri.token, lm.now()); !ok {
				lm.refuse(w, r, http.StatusTooManyRequests, "rate", wait)
				return
			}
		}
		// A body of unknown length (chunked) is cut at MaxBodyBytes as it is
		// read by next, the SDK's handler, which Handler gives the same limit
		// (MaxRequestBodyBytes): it answers 413 past it.
		n := r.ContentLength
		if lm.l.MaxBodyBytes > 0 {
			if n > lm.l.MaxBodyBytes {
				lm.refuse(w, r, http.StatusRequestEntityTooLarge, "body_size", 0)
				return
			}
			if n < 0 {
				n = lm.l.MaxBodyBytes // chunked: as large as it may grow
			}
		}
		if lm.budget != nil && n > smallBody {
			if !lm.budget.take(n) {
				lm.refuse(w, r, http.StatusServiceUnavailable, "body_budget", time.Second)
				return
			}
			defer lm.budget.give(n)
		}
		next.ServeHTTP(w, r)
	})
}

func (lm *limiter) refuse(w http.ResponseWriter, r *http.Request, status int, limit string, wait time.Duration) {
	if lm.hit != nil {
		lm.hit(limit)
	}
	if ri := infoFrom(r.Context()); ri != nil {
		ri.limit = limit
	}
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	}
	// The connection may hold an unread body: close it rather than read it.
	w.Header().Set("Connection", "close")
	http.Error(w, http.StatusText(status)+" ("+limit+")", status)
}
