//go:build !unix

package store_test

import "time"

// cpuTime is 0 where getrusage is missing: the CPU figures of the benchmarks are 0.
func cpuTime() time.Duration { return 0 }

// userTime is 0 where getrusage is missing.
func userTime() time.Duration { return 0 }
