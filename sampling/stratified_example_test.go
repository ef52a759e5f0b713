package sampling_test

import (
	"fmt"

	"github.com/benchwright/benchwright/sampling"
)

func ExampleStratified() {
	// 30 items judged in a task of 10,000 (3 wrong) and 30 in a task of 30
	// (none wrong). Pooled, 3 in 60 would read 5 %; weighted by the tasks'
	// sizes the batch's error rate is near 10 %, with a wider interval.
	e, _ := sampling.Stratified(sampling.Exact, []sampling.StratumCount{
		{Items: 10000, N: 30, Errors: 3},
		{Items: 30, N: 30, Errors: 0},
	}, 0.95)
	fmt.Printf("%.4f [%.4f, %.4f], effective n %.2f\n", e.Rate, e.CI.Low, e.CI.High, e.EffectiveN)
	// Output:
	// 0.0997 [0.0211, 0.2642], effective n 30.19
}
