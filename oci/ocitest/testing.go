package ocitest

import (
	"errors"
	"os"
	"testing"
)

// Missing ends a test that needs what err says is not installed: it skips
// the test, or fails it when CI is set (CI installs every tool the tests
// use).
func Missing(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%v (CI must install it: see .ci/run)", err)
	}
	t.Skip(err)
}

// Need returns the path of a tool, as Tool finds it; a tool not installed
// is Missing.
func Need(t testing.TB, tool string) string {
	t.Helper()
	p, err := Tool(tool)
	if err != nil {
		Missing(t, err)
	}
	return p
}

// StartTest starts a registry for the test, storing into a temporary
// folder, and stops it when the test ends; one not installed is Missing,
// any other failure fails the test. With auth, as Start.
func StartTest(t testing.TB, auth bool) *Registry {
	t.Helper()
	r, err := Start(t.TempDir(), auth)
	if errors.Is(err, ErrMissing) {
		Missing(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}
