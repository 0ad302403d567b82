package serve

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestSwapReleasesOld: once a swap is done and no request holds it, the
// replaced snapshot, and with it its bundles (a followed release lives in
// memory), can be collected, though a caller with an access had a view of
// it and no request came since.
func TestSwapReleasesOld(t *testing.T) {
	a, _ := memBundle(t, exampleFixture())
	s := newServer(t, Options{}, a)
	ctx := WithAccess(context.Background(), NewAccess("acme"))
	if v := s.snapshotFor(ctx); v.Len() == 0 || v == s.Snapshot() {
		t.Fatalf("view of acme: %d skills", v.Len())
	}
	collected := make(chan struct{})
	runtime.AddCleanup(s.Snapshot(), func(ch chan struct{}) { close(ch) }, collected)
	fx := exampleFixture()
	delete(fx, "community/git-workflow")
	b, _ := memBundle(t, fx)
	if err := s.Swap([]*manifest.Bundle{b}); err != nil {
		t.Fatal(err)
	}
	// The server stays in use (a test that let it go would see everything
	// collected).
	defer runtime.KeepAlive(s)
	for range 20 {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Error("the snapshot a swap replaced is still reachable")
}
