// Package bundletest makes bundles for tests with the build package: the
// libraries of a config file built as `skills-mcp build --config` builds
// them, the skills of a JSON fixture (Skill) written out as SKILL.md files
// and built, bundle bytes opened in memory, and fixtures (Fixture: skill
// paths to files) written straight into a bundle without the build, as
// serve's and teamserver's tests serve them. Every failure fails the
// test. Only tests import it.
package bundletest

import (
	"bytes"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Config builds the libraries of the config file at path into bundle bytes.
func Config(t testing.TB, path string) []byte {
	t.Helper()
	cfg, err := build.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: cfg.Libraries}, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Open opens bundle bytes held in memory.
func Open(t testing.TB, data []byte) *manifest.Bundle {
	t.Helper()
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
