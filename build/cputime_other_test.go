//go:build !unix

package build

import "time"

// cpuTime returns 0 where getrusage is missing: the CPU ratio is not reported.
func cpuTime() time.Duration { return 0 }
