package shortcut

import (
	"slices"
	"testing"
)

func TestConfirmed(t *testing.T) {
	pairs := func() []NearDuplicate {
		return []NearDuplicate{{A: "a.jpg", B: "b.jpg"}, {A: "a.jpg", B: "c.jpg"}, {A: "b.jpg", B: "c.jpg"}}
	}
	for _, tc := range []struct {
		name     string
		notAlike map[[2]string]bool
		want     []string
	}{
		{"none refuted", nil, []string{"a.jpg b.jpg", "a.jpg c.jpg", "b.jpg c.jpg"}},
		{"one refuted", map[[2]string]bool{{"a.jpg", "c.jpg"}: true}, []string{"a.jpg b.jpg", "b.jpg c.jpg"}},
		{"order matters", map[[2]string]bool{{"c.jpg", "a.jpg"}: true}, []string{"a.jpg b.jpg", "a.jpg c.jpg", "b.jpg c.jpg"}},
		{"all refuted", map[[2]string]bool{{"a.jpg", "b.jpg"}: true, {"a.jpg", "c.jpg"}: true, {"b.jpg", "c.jpg"}: true}, nil},
	} {
		var got []string
		for _, nd := range Confirmed(pairs(), tc.notAlike) {
			got = append(got, nd.A+" "+nd.B)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
