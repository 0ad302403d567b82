package promtext

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// memStats is runtime.ReadMemStats, read at most once per memStatsAge so
// that one scrape's families stop the world once and agree.
type memStats struct {
	mu   sync.Mutex
	at   time.Time
	last runtime.MemStats
}

const memStatsAge = 100 * time.Millisecond

func (m *memStats) get() *runtime.MemStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Since(m.at) > memStatsAge {
		runtime.ReadMemStats(&m.last)
		m.at = time.Now()
	}
	c := m.last
	return &c
}

// RegisterRuntime registers the Go runtime's metrics (go_*) and the
// process's (process_*, where the system tells them), under the names
// client_golang's Go and process collectors give them.
func RegisterRuntime(r *Registry) {
	one := func(f func() float64) func(func(float64, ...string)) {
		return func(emit func(float64, ...string)) { emit(f()) }
	}
	r.NewGaugeFunc("go_goroutines", "Number of goroutines that currently exist.", nil, one(func() float64 { return float64(runtime.NumGoroutine()) }))
	r.NewGaugeFunc("go_threads", "Number of OS threads created.", nil, one(func() float64 {
		n, _ := runtime.ThreadCreateProfile(nil)
		return float64(n)
	}))
	version := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok && bi.GoVersion != "" {
		version = bi.GoVersion
	}
	r.NewGaugeFunc("go_info", "Information about the Go environment.", []string{"version"}, func(emit func(float64, ...string)) { emit(1, version) })
	r.NewGaugeFunc("go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously.", nil,
		one(func() float64 { return float64(runtime.GOMAXPROCS(0)) }))
	var ms memStats
	for _, m := range []struct {
		name, help, typ string
		f               func(*runtime.MemStats) float64
	}{
		{"go_memstats_alloc_bytes", "Number of heap bytes allocated and currently in use.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapAlloc) }},
		{"go_memstats_alloc_bytes_total", "Total number of heap bytes allocated, even if freed.", typeCounter, func(ms *runtime.MemStats) float64 { return float64(ms.TotalAlloc) }},
		{"go_memstats_frees_total", "Total number of heap objects frees.", typeCounter, func(ms *runtime.MemStats) float64 { return float64(ms.Frees) }},
		{"go_memstats_gc_sys_bytes", "Number of bytes used for garbage collection system metadata.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.GCSys) }},
		{"go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and currently in use.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapAlloc) }},
		{"go_memstats_heap_idle_bytes", "Number of heap bytes waiting to be used.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapIdle) }},
		{"go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapInuse) }},
		{"go_memstats_heap_objects", "Number of currently allocated objects.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapObjects) }},
		{"go_memstats_heap_released_bytes", "Number of heap bytes released to OS.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapReleased) }},
		{"go_memstats_heap_sys_bytes", "Number of heap bytes obtained from system.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.HeapSys) }},
		{"go_memstats_last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.LastGC) / 1e9 }},
		{"go_memstats_mallocs_total", "Total number of heap objects allocated.", typeCounter, func(ms *runtime.MemStats) float64 { return float64(ms.Mallocs) }},
		{"go_memstats_next_gc_bytes", "Number of heap bytes when next garbage collection will take place.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.NextGC) }},
		{"go_memstats_stack_inuse_bytes", "Number of bytes obtained from system for stack allocator.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.StackInuse) }},
		{"go_memstats_sys_bytes", "Number of bytes obtained from system.", typeGauge, func(ms *runtime.MemStats) float64 { return float64(ms.Sys) }},
	} {
		f := m.f
		r.add(&funcFamily{m.name, m.help, m.typ, nil, one(func() float64 { return f(ms.get()) })}, nil)
	}
	registerProcess(r)
}
