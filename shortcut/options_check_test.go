package shortcut

import "testing"

func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, ""},
		{Options{Margin: 0.99, Folds: 20, Level: 0.5, MinSamples: 1}, ""},
		{Options{Margin: 1}, "the margin must be between 0 and 100 points"},
		{Options{Margin: -0.1}, "the margin must be between 0 and 100 points"},
		{Options{Folds: 21}, "the folds must be between 2 and 20"},
		{Options{Folds: -1}, "the folds must be between 2 and 20"},
		{Options{Level: 1}, "the test's level must be between 0 and 1"},
		{Options{Level: -0.01}, "the test's level must be between 0 and 1"},
		{Options{MinSamples: -1}, "the fewest samples a check judges cannot be negative"},
	} {
		got := ""
		if err := tc.o.Check(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%+v.Check() = %q, want %q", tc.o, got, tc.want)
		}
	}
}
