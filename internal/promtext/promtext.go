// Package promtext keeps counters, gauges and histograms and serves them
// in the Prometheus text exposition format (version 0.0.4), with the Go
// runtime's and the process's own metrics (go_*, process_*). It is the
// part of client_golang the team server uses, on the standard library:
// client_golang links protobuf, procfs and its collectors, whose package
// initialisation ran in every skills-mcp start, the stdio serve a host
// spawns per session included.
//
// # Invariants
//
//   - Families are written sorted by name, series by label values, each
//     family once with its HELP and TYPE; a family with no series is not
//     written.
//   - Label values are escaped as the format says (\\, \", \n); names are
//     the program's own constants, checked when a family is made.
//   - Counters only grow; histogram buckets are cumulative and end with
//     le="+Inf", whose count is the histogram's _count.
package promtext

import (
	"bufio"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// Types of a family, as # TYPE names them.
const (
	typeCounter   = "counter"
	typeGauge     = "gauge"
	typeHistogram = "histogram"
)

// family is one metric name's HELP, TYPE and series.
type family interface {
	name() string
	write(w *bufio.Writer)
}

// Registry holds families and writes them.
type Registry struct {
	mu   sync.Mutex
	fams map[string]family
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{fams: map[string]family{}} }

// validName reports whether n is a metric or label name this package
// accepts: [a-zA-Z_][a-zA-Z0-9_]*.
func validName(n string) bool {
	for i, c := range n {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return n != ""
}

func (r *Registry) add(f family, labels []string) {
	for _, n := range append([]string{f.name()}, labels...) {
		if !validName(n) {
			panic(fmt.Sprintf("promtext: invalid metric or label name %q", n))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.fams[f.name()]; dup {
		panic("promtext: " + f.name() + " registered twice")
	}
	r.fams[f.name()] = f
}

// Handler serves the registry's families in the text format.
func (r *Registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		bw := bufio.NewWriterSize(w, 16<<10)
		r.Write(bw)
		bw.Flush()
	})
}

// Write writes every family, sorted by name.
func (r *Registry) Write(w *bufio.Writer) {
	r.mu.Lock()
	fams := make([]family, 0, len(r.fams))
	for _, f := range r.fams {
		fams = append(fams, f)
	}
	r.mu.Unlock()
	slices.SortFunc(fams, func(a, b family) int { return strings.Compare(a.name(), b.name()) })
	for _, f := range fams {
		f.write(w)
	}
}

// header writes a family's HELP and TYPE lines.
func header(w *bufio.Writer, name, help, typ string) {
	w.WriteString("# HELP " + name + " ")
	w.WriteString(strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help))
	w.WriteString("\n# TYPE " + name + " " + typ + "\n")
}

// sorted returns labels and values in the order of the label names, the
// order client_golang writes and sorts series by.
func sorted(labels []string) (func(values []string) []string, []string) {
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(labels[a], labels[b]) })
	perm := func(values []string) []string {
		out := make([]string, len(order))
		for i, o := range order {
			out[i] = values[o]
		}
		return out
	}
	return perm, perm(labels)
}

// sample writes one line: name{labels} value, names and values in the
// order of the names (sorted).
func sample(w *bufio.Writer, name string, names, values []string, extra string, v float64) {
	w.WriteString(name)
	if len(names) > 0 || extra != "" {
		w.WriteByte('{')
		for i, n := range names {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(n + `="`)
			w.WriteString(escapeValue(values[i]))
			w.WriteByte('"')
		}
		if extra != "" {
			if len(names) > 0 {
				w.WriteByte(',')
			}
			w.WriteString(extra)
		}
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

var valueEscaper = lazy.Value[*strings.Replacer]{New: func() *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
}}

func escapeValue(s string) string {
	if !strings.ContainsAny(s, "\\\"\n") {
		return s
	}
	return valueEscaper.Get().Replace(s)
}

// formatFloat writes a value as the format does: +Inf, -Inf, NaN, or the
// shortest decimal that reads back the same.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// value is a float64 updated atomically.
type value struct{ bits atomic.Uint64 }

func (v *value) add(d float64) {
	for {
		old := v.bits.Load()
		if v.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

func (v *value) get() float64 { return math.Float64frombits(v.bits.Load()) }

// Counter is a value that only grows.
type Counter interface {
	Inc()
	Add(float64)
}

// Gauge is a value that goes up and down.
type Gauge interface {
	Inc()
	Dec()
	Set(float64)
}

// Observer takes observations (a histogram).
type Observer interface{ Observe(float64) }

type counter struct{ v value }

func (c *counter) Inc() { c.v.add(1) }

// Add adds d, which must not be negative.
func (c *counter) Add(d float64) {
	if d < 0 {
		panic("promtext: a counter cannot decrease")
	}
	c.v.add(d)
}

type gauge struct{ v value }

func (g *gauge) Inc()          { g.v.add(1) }
func (g *gauge) Dec()          { g.v.add(-1) }
func (g *gauge) Set(x float64) { g.v.bits.Store(math.Float64bits(x)) }

// histogram counts observations into cumulative buckets.
type histogram struct {
	bounds []float64
	counts []atomic.Uint64 // by bucket, the last +Inf; not cumulative
	sum    value
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

func (h *histogram) Observe(x float64) {
	h.counts[sort.SearchFloat64s(h.bounds, x)].Add(1)
	h.sum.add(x)
}

// vec is the series of a family by label values.
type vec[T any] struct {
	fname, help, typ string
	labels           []string // in the order of the names
	perm             func([]string) []string
	make             func() T
	write1           func(w *bufio.Writer, values []string, m T)

	mu     sync.Mutex
	series map[string]*entry[T]
}

type entry[T any] struct {
	values []string
	m      T
}

func (v *vec[T]) name() string { return v.fname }

// with returns the series of values, made on first use.
func (v *vec[T]) with(values []string) T {
	if len(values) != len(v.labels) {
		panic(fmt.Sprintf("promtext: %s takes %d label values, got %d", v.fname, len(v.labels), len(values)))
	}
	key := strings.Join(values, "\xff")
	v.mu.Lock()
	defer v.mu.Unlock()
	e := v.series[key]
	if e == nil {
		e = &entry[T]{values: v.perm(values), m: v.make()}
		v.series[key] = e
	}
	return e.m
}

func (v *vec[T]) write(w *bufio.Writer) {
	v.mu.Lock()
	es := make([]*entry[T], 0, len(v.series))
	for _, e := range v.series {
		es = append(es, e)
	}
	v.mu.Unlock()
	if len(es) == 0 {
		return
	}
	slices.SortFunc(es, func(a, b *entry[T]) int { return slices.Compare(a.values, b.values) })
	header(w, v.fname, v.help, v.typ)
	for _, e := range es {
		v.write1(w, e.values, e.m)
	}
}

func newVec[T any](r *Registry, name, help, typ string, labels []string, mk func() T, write1 func(*vec[T], *bufio.Writer, []string, T)) *vec[T] {
	perm, sortedLabels := sorted(labels)
	v := &vec[T]{fname: name, help: help, typ: typ, labels: sortedLabels, perm: perm, make: mk, series: map[string]*entry[T]{}}
	v.write1 = func(w *bufio.Writer, values []string, m T) { write1(v, w, values, m) }
	r.add(v, labels)
	return v
}

// CounterVec is a counter family with labels.
type CounterVec struct{ v *vec[*counter] }

// NewCounterVec registers a counter family.
func (r *Registry) NewCounterVec(name, help string, labels ...string) *CounterVec {
	return &CounterVec{newVec(r, name, help, typeCounter, labels, func() *counter { return &counter{} },
		func(v *vec[*counter], w *bufio.Writer, values []string, c *counter) {
			sample(w, v.fname, v.labels, values, "", c.v.get())
		})}
}

// WithLabelValues returns the series of values, in the order of the
// family's labels.
func (c *CounterVec) WithLabelValues(values ...string) Counter { return c.v.with(values) }

// NewCounter registers a counter with no labels.
func (r *Registry) NewCounter(name, help string) Counter {
	return r.NewCounterVec(name, help).WithLabelValues()
}

// NewGauge registers a gauge with no labels.
func (r *Registry) NewGauge(name, help string) Gauge {
	return newVec(r, name, help, typeGauge, nil, func() *gauge { return &gauge{} },
		func(v *vec[*gauge], w *bufio.Writer, values []string, g *gauge) {
			sample(w, v.fname, v.labels, values, "", g.v.get())
		}).with(nil)
}

// HistogramVec is a histogram family with labels.
type HistogramVec struct{ v *vec[*histogram] }

// NewHistogramVec registers a histogram family with buckets (upper bounds,
// increasing; +Inf is added).
func (r *Registry) NewHistogramVec(name, help string, buckets []float64, labels ...string) *HistogramVec {
	if !slices.IsSorted(buckets) || len(buckets) == 0 {
		panic("promtext: " + name + ": buckets must be increasing")
	}
	return &HistogramVec{newVec(r, name, help, typeHistogram, labels, func() *histogram { return newHistogram(buckets) },
		func(v *vec[*histogram], w *bufio.Writer, values []string, h *histogram) {
			var cum uint64
			for i := range h.counts {
				cum += h.counts[i].Load()
				le := "+Inf"
				if i < len(h.bounds) {
					le = formatFloat(h.bounds[i])
				}
				sample(w, v.fname+"_bucket", v.labels, values, `le="`+le+`"`, float64(cum))
			}
			sample(w, v.fname+"_sum", v.labels, values, "", h.sum.get())
			sample(w, v.fname+"_count", v.labels, values, "", float64(cum))
		})}
}

// WithLabelValues returns the series of values.
func (h *HistogramVec) WithLabelValues(values ...string) Observer { return h.v.with(values) }

// NewHistogram registers a histogram with no labels.
func (r *Registry) NewHistogram(name, help string, buckets []float64) Observer {
	return r.NewHistogramVec(name, help, buckets).WithLabelValues()
}

// ExponentialBuckets returns n bounds: start, start×factor, ….
func ExponentialBuckets(start, factor float64, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = start
		start *= factor
	}
	return b
}

// funcFamily is a family whose series are computed at each write.
type funcFamily struct {
	fname, help, typ string
	labels           []string
	collect          func(emit func(v float64, values ...string))
}

func (f *funcFamily) name() string { return f.fname }

func (f *funcFamily) write(w *bufio.Writer) {
	type s struct {
		values []string
		v      float64
	}
	var ss []s
	perm, labels := sorted(f.labels)
	f.collect(func(v float64, values ...string) {
		if len(values) != len(f.labels) {
			panic(fmt.Sprintf("promtext: %s takes %d label values, got %d", f.fname, len(f.labels), len(values)))
		}
		ss = append(ss, s{perm(values), v})
	})
	if len(ss) == 0 {
		return
	}
	slices.SortFunc(ss, func(a, b s) int { return slices.Compare(a.values, b.values) })
	header(w, f.fname, f.help, f.typ)
	for _, x := range ss {
		sample(w, f.fname, labels, x.values, "", x.v)
	}
}

// NewGaugeFunc registers a gauge family whose series collect emits at each
// scrape (label values in the order of labels).
func (r *Registry) NewGaugeFunc(name, help string, labels []string, collect func(emit func(v float64, values ...string))) {
	r.add(&funcFamily{name, help, typeGauge, labels, collect}, labels)
}

// NewCounterFunc is NewGaugeFunc for a counter kept elsewhere.
func (r *Registry) NewCounterFunc(name, help string, labels []string, collect func(emit func(v float64, values ...string))) {
	r.add(&funcFamily{name, help, typeCounter, labels, collect}, labels)
}
