package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"syscall"
	"time"

	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// usageLog opens --usage-log and starts its writer; closeUsage flushes it
// (waiting a second at most) and closes the file. With no --usage-log it
// returns nil.
func (c *ServeCmd) usageLog(log *slog.Logger) (*usage.Log, func(), error) {
	if c.UsageLog == "" {
		return nil, func() {}, nil
	}
	var w io.Writer = os.Stdout
	closeFile := func() {}
	if c.UsageLog == "-" {
		if c.HTTP == "" {
			return nil, nil, &exitError{exitUsage, errors.New("serve: --usage-log -: stdout carries MCP over stdio; give a file, or serve --http")}
		}
	} else {
		// O_NONBLOCK: a FIFO nobody reads is an error now, not a start
		// that never ends.
		f, err := os.OpenFile(c.UsageLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o640)
		if err != nil {
			return nil, nil, &exitError{exitUsage, fmt.Errorf("serve: --usage-log: %w", err)}
		}
		w, closeFile = f, func() { f.Close() }
	}
	u := usage.NewLog(w, log, c.Name, versionString())
	return u, func() {
		u.Close(time.Second)
		closeFile()
	}, nil
}
