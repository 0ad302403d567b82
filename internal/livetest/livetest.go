// Package livetest runs a live catalog (live.Live) for the tests of live and
// teamserver: Start builds one and runs it until the test ends, then stops
// and closes it, and Debounce is the watch's quiet time they use. It does
// not import live, whose own tests (package live) could not import it then:
// Start takes any Server, which *live.Live is. Only tests import it; every
// failure fails the test.
package livetest

import (
	"context"
	"testing"
	"time"
)

// Debounce is the watch's quiet time in tests: short, so that an edit is
// rebuilt at once.
const Debounce = 20 * time.Millisecond

// Server is what a live catalog is to a test: it runs until its context
// ends, and is then closed.
type Server interface {
	Run(ctx context.Context) error
	Close() error
}

// Start builds a server with build and runs it until the test ends; then it
// cancels the run, waits for it and closes the server. An error from build
// fails the test at once; one from Run or Close fails it at the end.
func Start[S Server](t testing.TB, build func() (S, error)) S {
	t.Helper()
	s, err := build()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}
