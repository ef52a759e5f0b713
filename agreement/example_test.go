package agreement_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/benchwright/benchwright/agreement"
)

func ExampleAlpha() {
	// Krippendorff's (2011) worked example: one row per coder, "." missing.
	csv := `1,2,3,3,2,1,4,1,2,.,.,.
1,2,3,3,2,2,4,1,2,5,.,3
.,3,3,3,2,3,4,2,2,5,1,.
1,2,3,3,2,4,4,1,2,5,1,.`
	data, _, err := agreement.ReadCSV(strings.NewReader(csv), false)
	if err != nil {
		panic(err)
	}
	for _, level := range []agreement.Level{agreement.Nominal, agreement.Ordinal, agreement.Interval, agreement.Ratio} {
		r, err := agreement.Alpha(data, level)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-8s alpha=%.3f (%s), %d units, %d dropped\n", level, r.Alpha, agreement.Reading(r.Alpha), r.Units, r.DroppedUnits)
	}
	// Output:
	// nominal  alpha=0.743 (tentative), 11 units, 1 dropped
	// ordinal  alpha=0.815 (reliable), 11 units, 1 dropped
	// interval alpha=0.849 (reliable), 11 units, 1 dropped
	// ratio    alpha=0.797 (tentative), 11 units, 1 dropped
}

func ExampleBuilder() {
	// Round-3 judgements as (sample, verifier, verdict) triples.
	var b agreement.Builder
	for _, j := range [][3]string{
		{"mh-0001", "ann", "accept"}, {"mh-0001", "bob", "accept"}, {"mh-0001", "cat", "accept"},
		{"mh-0002", "ann", "reject"}, {"mh-0002", "bob", "reject"}, {"mh-0002", "cat", "accept"},
		{"mh-0003", "ann", "reject"}, {"mh-0003", "bob", "reject"}, {"mh-0003", "cat", "reject"},
		{"mh-0004", "ann", "accept"},
	} {
		if err := b.Add(j[0], j[1], j[2]); err != nil {
			panic(err)
		}
	}
	r, err := agreement.Alpha(b.Data(), agreement.Nominal)
	if err != nil {
		panic(err)
	}
	fmt.Printf("alpha=%.3f units=%d dropped=%d values=%v\n", r.Alpha, r.Units, r.DroppedUnits, r.Values)
	// Output:
	// alpha=0.600 units=3 dropped=1 values=[{accept 4} {reject 5}]
}

func ExampleResult_Bootstrap() {
	data := agreement.NewData([][]string{
		{"1", "2", "3", "3", "2", "1", "4", "1", "2", "", "", ""},
		{"1", "2", "3", "3", "2", "2", "4", "1", "2", "5", "", "3"},
		{"", "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", ""},
		{"1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", ""},
	}, nil)
	r, err := agreement.Alpha(data, agreement.Interval)
	if err != nil {
		panic(err)
	}
	b, err := r.Bootstrap(context.Background(), 1000, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("alpha=%.3f ci95=[%.3f, %.3f] q(alpha<0.800)=%.3f q(alpha<0.667)=%.3f\n",
		r.Alpha, b.CI95[0], b.CI95[1], b.Below[0].P, b.Below[1].P)
	// Output:
	// alpha=0.849 ci95=[0.702, 0.949] q(alpha<0.800)=0.210 q(alpha<0.667)=0.006
}
