package usage

// The usage log: one JSON line per skill use, in the field names of
// OpenTelemetry's log data model, written off the request path.

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// LogQueue is how many uses the usage log holds while its writer is
// busy; past it uses are dropped (and counted), never waited for.
const LogQueue = 4096

// Log writes one line per skill use (an Observer) to a writer, on
// a goroutine of its own: a request hands its use over and never waits. A
// write that fails, or a writer too slow for the uses (a full disk, a pipe
// nobody reads), loses lines and is reported on the server's log (once per
// failure, and at most every ten seconds for lines dropped), never blocking
// a request.
//
// Each line is a log record of OpenTelemetry's log data model, with its
// field names: Timestamp (nanoseconds since the epoch, a decimal string as
// OTLP/JSON writes 64-bit integers), ObservedTimestamp, SeverityText INFO,
// SeverityNumber 9, EventName skills_mcp.skill.used, Body, Resource
// (service.name, service.version) and Attributes: skills_mcp.skill (the
// skill's path), skills_mcp.use.kind (get, read, prompt, tool),
// mcp.method.name, user.id (the token's name, oauth:SUBJECT for an OAuth
// token, absent without authorization; never the token),
// skills_mcp.catalog.id and mcp.protocol.version.
type Log struct {
	ch      chan timedUse
	under   io.Writer
	w       *bufio.Writer
	log     *slog.Logger
	service string
	version string
	done    chan struct{}

	dropped    atomic.Int64 // uses not queued
	reportedAt atomic.Int64 // unix nanoseconds of the last report of drops
	closeOnce  sync.Once
}

type timedUse struct {
	at time.Time
	u  Use
}

// NewLog starts a usage log writing to w; log is where its failures
// are reported, service and version name the server in each record.
func NewLog(w io.Writer, log *slog.Logger, service, version string) *Log {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &Log{ch: make(chan timedUse, LogQueue), under: w, w: bufio.NewWriterSize(w, 64<<10), log: log, service: service, version: version, done: make(chan struct{})}
	go l.run()
	return l
}

// SkillUsed queues the use for the writer, or drops it when the queue is
// full (Observer).
func (l *Log) SkillUsed(u *Use) {
	select {
	case l.ch <- timedUse{time.Now(), *u}:
	default:
		n := l.dropped.Add(1)
		now := time.Now().UnixNano()
		if last := l.reportedAt.Load(); now-last > int64(10*time.Second) && l.reportedAt.CompareAndSwap(last, now) {
			l.log.Warn("usage log: uses dropped, the log cannot keep up (is it writable, is its reader reading?)", "dropped", n)
		}
	}
}

// Close writes what is queued and stops the writer, waiting for it at most
// wait (a writer blocked on a pipe is left behind).
func (l *Log) Close(wait time.Duration) {
	l.closeOnce.Do(func() { close(l.ch) })
	select {
	case <-l.done:
	case <-time.After(wait):
		l.log.Warn("usage log: not flushed, its writer is blocked")
	}
}

// Dropped returns how many uses were not logged because the queue was
// full.
func (l *Log) Dropped() int64 { return l.dropped.Load() }

func (l *Log) run() {
	defer close(l.done)
	var line []byte
	failing := false
	pending, lost := 0, 0 // lines since the last flush; lines lost since the last report
	for tu := range l.ch {
		line = l.record(line[:0], tu)
		pending++
		_, err := l.w.Write(line)
		if err == nil && len(l.ch) > 0 {
			continue // more to come: flush once they are written
		}
		if err == nil {
			err = l.w.Flush()
		}
		if err != nil {
			if !failing {
				l.log.Error("usage log: cannot write, uses are not logged", "err", err)
			}
			failing, lost, pending = true, lost+pending, 0
			l.w.Reset(l.under) // bufio keeps its first error for ever: start afresh
			continue
		}
		if failing {
			l.log.Info("usage log: writing again", "lost", lost)
		}
		failing, lost, pending = false, 0, 0
	}
	_ = l.w.Flush()
}

// record appends the JSON line of one use.
func (l *Log) record(b []byte, tu timedUse) []byte {
	u := &tu.u
	ns := strconv.FormatInt(tu.at.UnixNano(), 10)
	b = append(b, `{"Timestamp":"`...)
	b = append(b, ns...)
	b = append(b, `","ObservedTimestamp":"`...)
	b = append(b, ns...)
	b = append(b, `","SeverityText":"INFO","SeverityNumber":9,"EventName":"skills_mcp.skill.used","Body":"skill used","Resource":{"service.name":`...)
	b = appendJSON(b, l.service)
	b = append(b, `,"service.version":`...)
	b = appendJSON(b, l.version)
	b = append(b, `},"Attributes":{"skills_mcp.skill":`...)
	b = appendJSON(b, u.Skill)
	b = append(b, `,"skills_mcp.use.kind":`...)
	b = appendJSON(b, u.Kind)
	b = append(b, `,"mcp.method.name":`...)
	b = appendJSON(b, u.Method)
	if u.Caller != "" {
		b = append(b, `,"user.id":`...)
		b = appendJSON(b, strings.TrimPrefix(u.Caller, "token:"))
	}
	b = append(b, `,"skills_mcp.catalog.id":"`...)
	b = append(b, u.Catalog.String()...)
	b = append(b, '"')
	if u.Protocol != "" {
		b = append(b, `,"mcp.protocol.version":`...)
		b = appendJSON(b, u.Protocol)
	}
	return append(b, "}}\n"...)
}

// appendJSON appends s as a JSON string.
func appendJSON(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
