package annotate_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

const nativeHop = `{"id":"g-1","kind":"hop_qa","image":"a.jpg","question":"Which object is nearest?","options":["mug","lamp"],"answer":1,"hop":1,"view":"exo","categories":["rel"],"bbox":[1,2,3,4]}`

func TestImportNative(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		ids       []string // kept, in order
		lines     []int    // of the kept records
		badLines  []int
		badRule   string // a rule every bad record names
		wantError bool
	}{
		{"one record", nativeHop + "\n", []string{"g-1"}, []int{1}, nil, "", false},
		{"blank lines keep line numbers", "\n" + nativeHop + "\n\n" + strings.Replace(nativeHop, "g-1", "g-2", 1), []string{"g-1", "g-2"}, []int{2, 4}, nil, "", false},
		{"a record of the wrong shape is a record error", `["not", "an", "object"]` + "\n" + nativeHop, []string{"g-1"}, []int{2}, []int{1}, annotate.RuleSchema, false},
		{"unknown kind", strings.Replace(nativeHop, "hop_qa", "riddle", 1) + "\n" + strings.Replace(nativeHop, "g-1", "g-2", 1), []string{"g-2"}, []int{2}, []int{1}, annotate.RuleSchema, false},
		{"not JSON Lines", nativeHop + "\n{oops\n", nil, nil, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, bad, err := annotate.ImportNative(strings.NewReader(tt.in))
			if tt.wantError {
				var le *annotate.LineError
				if !errors.As(err, &le) {
					t.Fatalf("err %v, want a LineError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			var lines []int
			for _, r := range recs {
				ids, lines = append(ids, r.Sample.ID), append(lines, r.Line)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.ids) || fmt.Sprint(lines) != fmt.Sprint(tt.lines) {
				t.Errorf("kept %v at lines %v, want %v at %v", ids, lines, tt.ids, tt.lines)
			}
			var badLines []int
			for _, b := range bad {
				badLines = append(badLines, b.Line)
				if !strings.Contains(b.Error(), tt.badRule) {
					t.Errorf("record error %q does not name %s", b.Error(), tt.badRule)
				}
			}
			if fmt.Sprint(badLines) != fmt.Sprint(tt.badLines) {
				t.Errorf("record errors at lines %v, want %v", badLines, tt.badLines)
			}
		})
	}
}

func ExampleImportNative() {
	in := nativeHop + "\n" + `{"id":"g-2","kind":"riddle"}` + "\n"
	recs, bad, err := annotate.ImportNative(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		fmt.Println("line", r.Line, r.Sample.ID, r.Sample.Kind)
	}
	for _, b := range bad {
		fmt.Println("left out: line", b.Line)
	}
	// Output:
	// line 1 g-1 hop_qa
	// left out: line 2
}
