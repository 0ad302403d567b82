//go:build !unix

package manifest

import "os"

// createLockedTemp creates a temporary file in dir. Without flock there is
// no telling a live writer's file from a stale one, so nothing is locked.
func createLockedTemp(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }

// removeIfUnlocked leaves the file: without flock a live writer's file
// cannot be told from a stale one.
func removeIfUnlocked(string) {}
