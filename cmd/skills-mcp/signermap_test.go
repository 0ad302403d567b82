package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
)

// TestSignerMapKeepsNoBundle: a followed release swapped out is left to
// the collector (live.FollowSource.Open); what catalog_status knows of its
// signer must not keep it, its bytes in memory, alive for as long as the
// server follows. The same release opened again is still known.
func TestSignerMapKeepsNoBundle(t *testing.T) {
	var sm signerMap
	collected := make(chan struct{}, 1)
	func() {
		b, _ := bundletest.Mem(t, bundletest.Example())
		sm.set(b, "release@example.com")
		runtime.AddCleanup(b, func(ch chan struct{}) { ch <- struct{}{} }, collected)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		select {
		case <-collected:
			again, _ := bundletest.Mem(t, bundletest.Example())
			if who := sm.get(again); len(who) != 1 || who[0] != "release@example.com" {
				t.Fatalf("signers of the release opened again: %q", who)
			}
			return
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("a bundle the signer map was given is never collected: the map keeps it alive")
		}
	}
}
