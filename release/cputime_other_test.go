//go:build !unix

package release

import "time"

// cpuTime returns 0 where getrusage is missing: the CPU time is not reported.
func cpuTime() time.Duration { return 0 }
