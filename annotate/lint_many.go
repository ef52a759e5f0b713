package annotate

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// LintErrors lints every sample with the environment env gives it (on the
// machine's cores, at most four goroutines) and returns the text of each one's
// error findings, in the samples' order; warnings are left out. A panic of
// Lint's (or env's) is raised again on the caller's goroutine.
func LintErrors(samples []Sample, env func(Sample) LintEnv) [][]string {
	out := make([][]string, len(samples))
	var next atomic.Int64
	var wg sync.WaitGroup
	var fault atomic.Value // a panic of Lint's, raised again on the caller's goroutine
	for range min(runtime.NumCPU(), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					fault.CompareAndSwap(nil, fmt.Sprint(v))
					next.Store(int64(len(out)))
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				for _, f := range Lint(samples[i], env(samples[i])) {
					if f.Severity == SeverityError {
						out[i] = append(out[i], f.Text())
					}
				}
			}
		}()
	}
	wg.Wait()
	if v := fault.Load(); v != nil {
		panic(v)
	}
	return out
}
