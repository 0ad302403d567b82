//go:build !linux

package search

import "time"

// threadCPU is not measured here: only Linux has a per-thread CPU clock
// that the benchmarks read.
func threadCPU() (time.Duration, bool) { return 0, false }
