package live

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// memSource is a FollowSource over releases held in memory: Resolve names
// the one move last chose, Open reads it afresh (as a fetch does).
type memSource struct {
	mu       sync.Mutex
	releases [][]byte
	at       int
}

func (m *memSource) Name() string { return "mem" }

func (m *memSource) move(i int) {
	m.mu.Lock()
	m.at = i
	m.mu.Unlock()
}

func (m *memSource) Resolve(context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fmt.Sprintf("release-%d", m.at), nil
}

func (m *memSource) Open(_ context.Context, digest string) (*manifest.Bundle, error) {
	var i int
	if _, err := fmt.Sscanf(digest, "release-%d", &i); err != nil {
		return nil, FollowRefusal(ReasonInvalid, err)
	}
	m.mu.Lock()
	data := bytes.Clone(m.releases[i%len(m.releases)])
	m.mu.Unlock()
	return manifest.Open(bytes.NewReader(data), int64(len(data)))
}

// newMemFollower serves src's release 0 and returns a follower of src
// that never checks on its own (Check does).
func newMemFollower(tb testing.TB, src *memSource) (*Follower, *serve.Server) {
	tb.Helper()
	b, err := src.Open(context.Background(), "release-0")
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := serve.New([]*manifest.Bundle{b}, serve.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	f, err := NewFollower(srv, FollowOptions{Interval: time.Hour, Jitter: -1, Sources: []FollowSource{src},
		Served: []Release{{Digest: "release-0", Bundle: b}}})
	if err != nil {
		tb.Fatal(err)
	}
	return f, srv
}

func bundleBytes(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	bundletest.Write(tb, &buf, bundletest.Big(n))
	return buf.Bytes()
}

// TestFollowerReturnsMemory: a while after an update, and only after one,
// the follower returns freed memory to the system, and once Run returned it
// returns none.
func TestFollowerReturnsMemory(t *testing.T) {
	src := &memSource{releases: [][]byte{bundleBytes(t, 3), bundleBytes(t, 4)}}
	f, _ := newMemFollower(t, src)
	freed := make(chan struct{}, 10)
	f.rel.delay, f.rel.free = 20*time.Millisecond, func() { freed <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()

	if err := f.Check(ctx); err != nil { // unchanged: nothing swapped out
		t.Fatal(err)
	}
	select {
	case <-freed:
		t.Fatal("memory returned without an update")
	case <-time.After(200 * time.Millisecond):
	}
	src.move(1)
	if err := f.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.Served()[0].Digest; got != "release-1" {
		t.Fatalf("served %s after the update, want release-1", got)
	}
	select {
	case <-freed:
	case <-time.After(10 * time.Second):
		t.Fatal("memory not returned after an update")
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	src.move(0)
	if err := f.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-freed:
		t.Fatal("memory returned after Run returned")
	case <-time.After(200 * time.Millisecond):
	}
}

// TestFollowerReleasesPages: after an update the real return
// (debug.FreeOSMemory) runs, seen in the heap bytes the runtime reports
// released to the system.
func TestFollowerReleasesPages(t *testing.T) {
	src := &memSource{releases: [][]byte{bundleBytes(t, 200), bundleBytes(t, 199)}}
	f, _ := newMemFollower(t, src)
	free := f.rel.free
	freed := make(chan struct{}, 10)
	f.rel.delay, f.rel.free = 0, func() { free(); freed <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()

	src.move(1)
	before := releasedBytes()
	if err := f.Check(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-freed:
	case <-time.After(10 * time.Second):
		t.Fatal("memory not returned after an update")
	}
	if after := releasedBytes(); after <= before {
		t.Errorf("heap released to the system %d bytes before the update, %d after: want more", before, after)
	}
}

// releasedBytes is the heap memory the runtime has returned to the system.
func releasedBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkFollowSwaps has a Follower take b.N updates of a 1,000-skill
// release (two releases in turn, each read into memory afresh, some skills
// read between updates), each followed by the return of memory the
// follower makes once the old release is let go (without its delay), and
// reports the resident memory and live heap after the first update's return
// and after the last's. The benchmark adds no collection or return of its
// own: the figures are what a following server holds.
func BenchmarkFollowSwaps(b *testing.B) {
	dir := b.TempDir()
	var releases [][]byte
	for _, n := range []int{1000, 999} {
		d, err := os.ReadFile(servetest.BenchBundle(b, dir, n))
		if err != nil {
			b.Fatal(err)
		}
		releases = append(releases, d)
	}
	src := &memSource{releases: releases}
	f, srv := newMemFollower(b, src)
	free := f.rel.free
	freed := make(chan struct{}, 1)
	f.rel.delay, f.rel.free = 0, func() { free(); freed <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()

	var first, firstHeap int64
	i := 0
	for b.Loop() {
		i++
		src.move(i)
		if err := f.Check(ctx); err != nil {
			b.Fatal(err)
		}
		snap := srv.Snapshot()
		for k := 0; k < snap.Len(); k += 97 {
			if _, err := snap.Skill(k); err != nil {
				b.Fatal(err)
			}
		}
		<-freed
		if i == 1 {
			first, firstHeap = servetest.RSS(b), heapAlloc()
		}
	}
	last, lastHeap := servetest.RSS(b), heapAlloc()
	runtime.KeepAlive(srv)
	b.ReportMetric(float64(first)/(1<<20), "rss-first-MiB")
	b.ReportMetric(float64(last)/(1<<20), "rss-last-MiB")
	b.ReportMetric(float64(firstHeap)/(1<<20), "heap-first-MiB")
	b.ReportMetric(float64(lastHeap)/(1<<20), "heap-last-MiB")
}

// heapAlloc is the heap bytes allocated now, without a collection.
func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestLiveReturnsMemory: a rebuild that swaps the catalog is followed by a
// return of memory, one that finds nothing new is not.
func TestLiveReturnsMemory(t *testing.T) {
	dir := t.TempDir()
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "First.")})
	l, err := New(Options{NoWatch: true, Server: serve.Options{Logger: servetest.Logger(t)},
		Build: build.Options{Libraries: []build.Library{{Root: dir}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	freed := make(chan struct{}, 10)
	l.rel.delay, l.rel.free = 20*time.Millisecond, func() { freed <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- l.Run(ctx) }()
	defer func() { cancel(); <-done }()

	if err := l.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-freed:
		t.Fatal("memory returned without a swap")
	case <-time.After(200 * time.Millisecond):
	}
	servetest.WriteFiles(t, dir, map[string]string{"alpha/SKILL.md": servetest.SkillMD("alpha", "Second.")})
	snap := l.Server().Snapshot()
	if err := l.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if l.Server().Snapshot() == snap {
		t.Fatal("the edit swapped nothing")
	}
	select {
	case <-freed:
	case <-time.After(10 * time.Second):
		t.Fatal("memory not returned after a swap")
	}
}
