package live

// Returning memory after a swap: a swapped-out release stays in memory
// while requests on its snapshot finish, then the collector frees it, but
// the runtime gives freed pages back to the system only slowly, so a
// server that swaps 1,000-skill releases in and out looks as if it grew.
// A releaser returns them once the old release has had time to be let go.

import (
	"context"
	"runtime/debug"
	"time"
)

// releaseDelay is how long after a swap the freed memory is returned: long
// enough for requests on the old snapshot to finish and let it go.
const releaseDelay = 10 * time.Second

// releaser returns freed memory to the system (debug.FreeOSMemory) a delay
// after each swap; swaps that come closer together share one return. It
// works only while run runs, off every request path.
type releaser struct {
	delay time.Duration
	kick  chan struct{}
	free  func() // debug.FreeOSMemory; tests count the calls
}

func newReleaser() *releaser {
	return &releaser{delay: releaseDelay, kick: make(chan struct{}, 1), free: debug.FreeOSMemory}
}

// swapped notes that a catalog was swapped out; it never blocks.
func (r *releaser) swapped() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// run returns memory after each swap until ctx is cancelled.
func (r *releaser) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		}
		t := time.NewTimer(r.delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		r.free()
	}
}

// start runs r until ctx is cancelled; the function it returns waits for
// it to stop, so that a caller's Run leaves no goroutine behind.
func (r *releaser) start(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.run(ctx)
	}()
	return func() { <-done }
}
