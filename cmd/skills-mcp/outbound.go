package main

import (
	"net/http"
	"time"

	"github.com/alecthomas/kong"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
)

// outbound is the HTTP client every command's outbound requests start from:
// internal/fetch's bounded client with --stall-timeout as its idle time. Each
// package adds its own bounds (deadline, byte caps, redirect rule) to it.
// Set by run once the command line is parsed.
var outbound = fetch.Client(nil, fetch.Policy{})

// outboundClient returns the bounded client of --stall-timeout.
func outboundClient(kctx *kong.Context) *http.Client {
	idle := fetch.DefaultIdle
	for _, f := range kctx.Flags() {
		if f.Name == "stall-timeout" {
			if d, ok := kctx.FlagValue(f).(time.Duration); ok {
				idle = d
			}
		}
	}
	if idle <= 0 {
		idle = -1 // no idle bound
	}
	return fetch.Client(nil, fetch.Policy{Idle: idle})
}
