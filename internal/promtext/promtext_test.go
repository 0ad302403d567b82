package promtext

import (
	"bytes"
	"io"
	"math"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"
)

func parse(t *testing.T, r io.Reader) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		t.Fatalf("does not parse: %v", err)
	}
	return fams
}

func body(t *testing.T, r *Registry) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	r.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	return rec.Body.Bytes()
}

// TestDifferential makes the same families and does the same to them in
// promtext and in client_golang, and checks that Prometheus' own parser
// reads the same families from both: names, help, types, label sets,
// values, histogram buckets, sums and counts; label values that need
// escaping included.
func TestDifferential(t *testing.T) {
	ours := NewRegistry()
	theirs := prometheus.NewRegistry()
	odd := "a\"b\\c\nd ☃"
	c1 := ours.NewCounterVec("x_requests_total", "Requests, by method and code.\nSecond line \\ here.", "method", "code")
	c2 := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_requests_total", Help: "Requests, by method and code.\nSecond line \\ here."}, []string{"method", "code"})
	h1 := ours.NewHistogramVec("x_duration_seconds", "Latency.", []float64{.001, .01, .1, 1}, "m")
	h2 := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "x_duration_seconds", Help: "Latency.", Buckets: []float64{.001, .01, .1, 1}}, []string{"m"})
	g1 := ours.NewGauge("x_conns", "Open connections.")
	g2 := prometheus.NewGauge(prometheus.GaugeOpts{Name: "x_conns", Help: "Open connections."})
	b1 := ours.NewCounter("x_bytes_total", "Bytes.")
	b2 := prometheus.NewCounter(prometheus.CounterOpts{Name: "x_bytes_total", Help: "Bytes."})
	e1 := ours.NewHistogram("x_rebuild_seconds", "Rebuilds.", ExponentialBuckets(0.005, 2.5, 10))
	e2 := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "x_rebuild_seconds", Help: "Rebuilds.", Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 10)})
	ours.NewCounterVec("x_unused_total", "Never counted.", "l")
	prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_unused_total", Help: "Never counted."}, []string{"l"}) // registered below
	info := prometheus.NewDesc("x_info", "Info (a constant 1).", []string{"id", "digest"}, nil)
	ours.NewGaugeFunc("x_info", "Info (a constant 1).", []string{"id", "digest"}, func(emit func(float64, ...string)) {
		emit(1, "b", "sha256:2")
		emit(1, "a", odd)
	})
	theirs.MustRegister(c2, h2, g2, b2, e2, constCollector{info, [][]string{{"b", "sha256:2"}, {"a", odd}}})
	for i, m := range []string{"GET", "POST", odd, "GET"} {
		c1.WithLabelValues(m, "200").Inc()
		c2.WithLabelValues(m, "200").Inc()
		c1.WithLabelValues(m, "500").Add(float64(i) + 0.25)
		c2.WithLabelValues(m, "500").Add(float64(i) + 0.25)
	}
	for _, v := range []float64{0, .001, .0011, .01, .5, 1, 2, 1e9, math.Inf(1)} {
		h1.WithLabelValues("tools/call").Observe(v)
		h2.WithLabelValues("tools/call").Observe(v)
		e1.Observe(v / 100)
		e2.Observe(v / 100)
	}
	h1.WithLabelValues(odd).Observe(.05)
	h2.WithLabelValues(odd).Observe(.05)
	g1.Inc()
	g1.Inc()
	g1.Dec()
	g2.Inc()
	g2.Inc()
	g2.Dec()
	b1.Add(12345678)
	b2.Add(12345678)
	got := parse(t, bytes.NewReader(body(t, ours)))
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(theirs, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	want := parse(t, rec.Body)
	if len(got) != len(want) {
		t.Errorf("%d families, client_golang %d", len(got), len(want))
	}
	for name, w := range want {
		if !proto.Equal(got[name], w) {
			t.Errorf("%s:\n ours   %v\n theirs %v", name, got[name], w)
		}
	}
	if _, ok := got["x_unused_total"]; ok {
		t.Error("a family with no series is written")
	}
}

type constCollector struct {
	d      *prometheus.Desc
	series [][]string
}

func (c constCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.d }
func (c constCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.series {
		ch <- prometheus.MustNewConstMetric(c.d, prometheus.GaugeValue, 1, s...)
	}
}

// TestRuntime: the go_* and process_* families parse, the ones
// client_golang's collectors also write have the same type, and the ones
// the docs name are there.
func TestRuntime(t *testing.T) {
	ours := NewRegistry()
	RegisterRuntime(ours)
	got := parse(t, bytes.NewReader(body(t, ours)))
	theirs := prometheus.NewRegistry()
	theirs.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(theirs, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	want := parse(t, rec.Body)
	for name, f := range got {
		w := want[name]
		if w == nil {
			t.Errorf("%s: client_golang writes no such family", name)
			continue
		}
		if f.GetType() != w.GetType() {
			t.Errorf("%s: type %v, client_golang %v", name, f.GetType(), w.GetType())
		}
	}
	need := []string{"go_goroutines", "go_threads", "go_info", "go_memstats_alloc_bytes", "go_memstats_sys_bytes", "process_cpu_seconds_total", "process_max_fds"}
	if runtime.GOOS == "linux" {
		need = append(need, "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_start_time_seconds")
	}
	for _, n := range need {
		if got[n] == nil {
			t.Errorf("no %s", n)
		}
	}
	rss := got["process_resident_memory_bytes"]
	if rss != nil && rss.Metric[0].GetGauge().GetValue() < 1<<20 {
		t.Errorf("resident memory %v", rss.Metric[0].GetGauge().GetValue())
	}
	if st := got["process_start_time_seconds"]; st != nil {
		w := want["process_start_time_seconds"].Metric[0].GetGauge().GetValue()
		if g := st.Metric[0].GetGauge().GetValue(); math.Abs(g-w) > 1 {
			t.Errorf("start time %v, client_golang %v", g, w)
		}
	}
}

// TestRefusals: what a program must not do to a registry panics at once.
func TestRefusals(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	r := NewRegistry()
	r.NewCounter("a_total", "A.")
	mustPanic("twice", func() { r.NewCounter("a_total", "A.") })
	mustPanic("bad name", func() { r.NewCounter("a-total", "A.") })
	mustPanic("bad label", func() { r.NewCounterVec("b_total", "B.", "0l") })
	mustPanic("label count", func() { r.NewCounterVec("c_total", "C.", "l").WithLabelValues("x", "y") })
	mustPanic("decrease", func() { r.NewCounter("d_total", "D.").Add(-1) })
	mustPanic("buckets", func() { r.NewHistogram("e", "E.", []float64{2, 1}) })
}
