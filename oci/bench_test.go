package oci

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// BenchmarkPushChangedSkill1k pushes a 1,000-skill bundle to a loopback
// registry, then the same bundle with one skill's SKILL.md changed, and
// reports what the second push sent (bytes on the wire, blobs) against the
// whole bundle. Each iteration re-pushes the second version, which the
// registry then holds entirely: the cost of checking 4,003 blobs.
func BenchmarkPushChangedSkill1k(b *testing.B) { benchPushChanged(b) }

// BenchmarkPushChangedSkill1kPacked is BenchmarkPushChangedSkill1k with the
// bundle packed (as one of more than 8,192 files is): the second push sends
// the pack or two around the changed file instead of the file.
func BenchmarkPushChangedSkill1kPacked(b *testing.B) {
	lowerMaxLayers(b, 512)
	benchPushChanged(b)
}

func benchPushChanged(b *testing.B) {
	reg := startRegistry(b, false)
	ctx := context.Background()
	root := genLibrary(b, 1000, "")
	_, b1 := buildBundle(b, root, nil)
	writeLibrary(b, root, 1, "A changed line.\n")
	_, b2 := buildBundle(b, root, nil)
	ref, _ := ParseRef(reg.ref("bench/push:v1"))
	o := testOptions(b)
	o.Logf = nil
	c1 := newCounter()
	o.Client = c1.client()
	start := time.Now()
	r1, err := Push(ctx, b1, ref, nil, o)
	if err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	c2 := newCounter()
	o.Client = c2.client()
	ref.Tag = "v2"
	start = time.Now()
	r2, err := Push(ctx, b2, ref, nil, o)
	if err != nil {
		b.Fatal(err)
	}
	second := time.Since(start)
	firstSent, secondSent := c1.sent.Load(), c2.sent.Load()
	m2, _ := b2.ManifestBytes()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Push(ctx, b2, ref, nil, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(firstSent), "first-sent-B")
	b.ReportMetric(float64(r1.Sent), "first-sent-blobs")
	b.ReportMetric(float64(first.Milliseconds()), "first-ms")
	b.ReportMetric(float64(secondSent), "second-sent-B")
	b.ReportMetric(float64(r2.Sent), "second-sent-blobs")
	b.ReportMetric(float64(second.Milliseconds()), "second-ms")
	b.ReportMetric(float64(len(m2)), "manifest-B")
	b.ReportMetric(float64(r2.Layers), "layers")
}

// BenchmarkFetchWarm is what oci:// costs a start with a warm cache,
// beyond opening the bundle file: parsing the reference and finding the
// file.
func BenchmarkFetchWarm(b *testing.B) {
	reg := startRegistry(b, false)
	ctx := context.Background()
	_, bu := buildBundle(b, genLibrary(b, 10, ""), nil)
	ref, _ := ParseRef(reg.ref("bench/warm:v1"))
	o := testOptions(b)
	o.Logf = nil
	res, err := Push(ctx, bu, ref, nil, o)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Fetch(ctx, res.Ref.String(), o); err != nil {
		b.Fatal(err)
	}
	s := res.Ref.String()
	for b.Loop() {
		if _, err := Fetch(ctx, s, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchCold10k fetches a 10,000-skill bundle (40,000 files,
// packed) from a loopback registry into an empty cache, and reports the
// time the same layers take to download with plain concurrent GETs and
// nothing else (registry-ms): the fetch is bound by the registry when the
// two are close.
func BenchmarkFetchCold10k(b *testing.B) {
	reg := startRegistry(b, false)
	ctx := context.Background()
	_, bu := buildBundle(b, genLibrary(b, 10000, ""), nil)
	ref, _ := ParseRef(reg.ref("bench/cold:v1"))
	o := testOptions(b)
	o.Logf = nil
	res, err := Push(ctx, bu, ref, nil, o)
	if err != nil {
		b.Fatal(err)
	}
	// The registry alone: every layer by a plain GET, fetchConcurrency at once.
	repo, _ := o.repository(ref)
	mb, _ := bu.ManifestBytes()
	m, _ := bu.Manifest()
	a, err := planArtifact(bu, m, mb)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(fetchConcurrency)
	var mu sync.Mutex
	var n int64
	for _, l := range a.layers {
		g.Go(func() error {
			url := fmt.Sprintf("http://%s/v2/%s/blobs/%s", reg.Host, ref.Repository, l.desc.Digest)
			req, _ := http.NewRequestWithContext(gctx, http.MethodGet, url, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			k, err := io.Copy(io.Discard, resp.Body)
			mu.Lock()
			n += k
			mu.Unlock()
			return err
		})
	}
	if err := g.Wait(); err != nil {
		b.Fatal(err)
	}
	_ = repo
	plain := time.Since(start)
	b.ResetTimer()
	for b.Loop() {
		o.CacheDir = b.TempDir()
		if _, err := Fetch(ctx, res.Ref.String(), o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(plain.Milliseconds()), "registry-ms")
	b.ReportMetric(float64(res.Layers), "layers")
	b.ReportMetric(float64(bu.Size()), "bundle-B")
}
