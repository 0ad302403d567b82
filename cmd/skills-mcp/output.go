package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// stderrNote writes a note on stderr.
func stderrNote(format string, args ...any) {
	fmt.Fprintf(stderr, "skills-mcp: "+format+"\n", args...)
}

// slogNote logs a note at info level.
func slogNote(log *slog.Logger) func(string, ...any) {
	return func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }
}

// warn prints a warning for the person at a terminal, as every command but
// serve (whose log is logfmt, for machines) does.
func warn(s string) { fmt.Fprintf(stderr, "skills-mcp: warning: %s\n", s) }

// warnf is warn with a format.
func warnf(format string, args ...any) { warn(fmt.Sprintf(format, args...)) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// openBundle opens the bundle file at path. A file that is truncated, damaged
// or changed is reported as verify reports a blob that does not match:
// "PATH: tampered or corrupt: REASON", exit status 1.
func openBundle(path string) (*manifest.Bundle, error) {
	b, err := manifest.OpenFile(path)
	return b, bundleError(path, err)
}

// bundleError is openBundle's rewording of an error from manifest.OpenFile.
func bundleError(path string, err error) error {
	var ce *manifest.CorruptError
	if errors.As(err, &ce) {
		return &exitError{exitFailed, fmt.Errorf("%s: tampered or corrupt: %s", path, ce.Reason)}
	}
	return err
}

// count writes n and word, with an s when n is not 1: "1 file", "2 files".
func count[N int | int64](n N, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeFile(path string, write func(io.Writer) error) error {
	if err := manifest.WriteFileAtomic(path, 0o644, write); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

func writeBytes(path string, data []byte) error {
	return writeFile(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}
