package main

import (
	"errors"
	"fmt"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Exit statuses. verify and pull use exitFailed for a tampered or corrupt
// bundle (and pull for skills it abandoned), exitUnsigned and exitUntrusted
// when --trust is not met.
const (
	exitOK        = 0
	exitFailed    = 1 // the command failed; verify: the bundle is tampered or corrupt
	exitUsage     = 2 // bad command line, unreadable key or trust file
	exitUnsigned  = 3 // --trust: the bundle carries no signature
	exitUntrusted = 4 // --trust: signatures, but none valid by a trusted key
)

// exitError carries a specific exit status up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// trustExit gives a failed signature check its exit status (3 unsigned, 4
// untrusted), and any other error status def.
func trustExit(err error, def int) error {
	switch {
	case errors.Is(err, manifest.ErrUnsigned):
		return &exitError{exitUnsigned, fmt.Errorf("unsigned: %w", err)}
	case errors.Is(err, manifest.ErrUntrusted), errors.Is(err, manifest.ErrBadSignature):
		return &exitError{exitUntrusted, fmt.Errorf("untrusted: %w", err)}
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{def, err}
}
