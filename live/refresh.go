package live

// The rescans catalog_status refresh=true asks for (serve.Options.Refresh),
// behind a gate: live libraries (Live.Refresh) and followed releases
// (Follower.Check) both refresh through Gate.

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// refreshInterval is the least time between two rescans that refresh=true
// starts: a call that comes sooner waits for the next one, which every call
// waiting shares.
const refreshInterval = 2 * time.Second

// refreshGate runs the rescans catalog_status refresh=true asks for, so
// that no caller can make the server rescan at will: calls that come while
// a rescan is due share it (one rescan for any number of calls), and
// rescans start at least refreshInterval apart. A call is answered by a
// rescan that starts after it came, so it sees every change made before it
// asked. At most one rescan runs and one waits, whatever the callers.
type refreshGate struct {
	fn       func(context.Context) error
	interval time.Duration
	run      sync.Mutex // held by the running round

	mu      sync.Mutex
	last    time.Time     // when the last round started
	pending *refreshRound // the round not yet started, which a new call joins
}

// refreshRound is one rescan and the calls that share it.
type refreshRound struct {
	done chan struct{}
	err  error
}

// Gate returns fn behind a refresh gate, for serve.Options.Refresh: calls
// that come together share one run of fn, and runs start at least 2 s
// apart, so that no client can make the server rescan at will. Each run's
// failure is logged on log. Gate(nil) is nil.
func Gate(fn func(context.Context) error, log *slog.Logger) func(context.Context) error {
	if fn == nil {
		return nil
	}
	return newRefreshGate(fn, log).refresh
}

// newRefreshGate returns the gate of fn, which logs each round's failure.
func newRefreshGate(fn func(context.Context) error, log *slog.Logger) *refreshGate {
	logged := func(ctx context.Context) error {
		err := fn(ctx)
		if err != nil {
			log.Error("catalog refresh failed", "err", err)
		}
		return err
	}
	return &refreshGate{fn: logged, interval: refreshInterval}
}

// refresh joins the round due (starting one if none is) and waits for its
// end, or for ctx.
func (g *refreshGate) refresh(ctx context.Context) error {
	g.mu.Lock()
	r := g.pending
	if r == nil {
		r = &refreshRound{done: make(chan struct{})}
		g.pending = r
		// The round is shared: no one caller's cancellation ends it.
		go g.start(context.WithoutCancel(ctx), r)
	}
	g.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// start runs round r once the round before it has ended and the interval
// since it began has passed.
func (g *refreshGate) start(ctx context.Context, r *refreshRound) {
	g.run.Lock()
	defer g.run.Unlock()
	g.mu.Lock()
	wait := time.Until(g.last.Add(g.interval))
	g.mu.Unlock()
	if wait > 0 {
		time.Sleep(wait)
	}
	g.mu.Lock()
	g.pending, g.last = nil, time.Now() // calls from now on need the next round
	g.mu.Unlock()
	r.err = g.fn(ctx)
	close(r.done)
}
