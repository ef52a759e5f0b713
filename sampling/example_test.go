package sampling_test

import (
	"fmt"

	"github.com/benchwright/benchwright/sampling"
)

func ExampleClopperPearson() {
	// 3 errors among 400 sampled items: the exact 95 % interval.
	iv := sampling.ClopperPearson(3, 400, 0.95)
	fmt.Printf("[%.4f, %.4f]\n", iv.Low, iv.High)
	w := sampling.Wilson(3, 400, 0.95)
	fmt.Printf("[%.4f, %.4f]\n", w.Low, w.High)
	// Output:
	// [0.0015, 0.0218]
	// [0.0026, 0.0218]
}

func ExampleCheckAcceptRest() {
	batch, _ := sampling.Estimated(sampling.Exact, 4, 300, 0.95)
	strata := []sampling.Stratum{{Name: "T1", Estimate: batch, Unsampled: 19700}}
	fmt.Println(sampling.CheckAcceptRest(batch, strata, 0.05))
	fmt.Println(sampling.CheckAcceptRest(batch, strata, 0.03))
	// Output:
	// <nil>
	// the upper bound of the error rate is not below the threshold of 3.00 % for the batch: 4 errors in 300 (1.33 %), upper bound 3.38 %; T1: 4 errors in 300 (1.33 %), upper bound 3.38 %; enlarge the sample or fix the set
}

func ExampleSizeForMargin() {
	// ±3 % at 95 % for an expected error rate of 5 %, in a task of 12,000 items.
	fmt.Println(sampling.SizeForMargin(0.03, 0.95, 0.05, 12000))
	// Output:
	// 200
}
