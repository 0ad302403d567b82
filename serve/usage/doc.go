// Package usage is the record of skill use that serve reports: one Use per
// call that found a skill and read its content (its path, how, by which
// method, by whom, from which catalog), the Observer interface the
// metrics and the usage log implement, and the usage log itself (Log: one
// OpenTelemetry log record a line).
//
// Invariants: it knows nothing of MCP or the server, which passes each use
// down; a use names the skill and the caller's token name, never what the
// skill was used for nor the token; an observer runs on the request's
// goroutine and must not block, so the log hands each use to a writer of
// its own and drops (and counts) what it cannot queue, never waiting.
package usage
