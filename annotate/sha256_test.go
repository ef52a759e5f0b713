package annotate

import "testing"

// The one rule for a content hash: the store refuses an image request with
// another, the lint a video frame's.
func TestIsSHA256Hex(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", true},
		{"BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", false},
		{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a", false},
		{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015add", false},
		{"ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", false},
		{"../../../../etc/passwd/../../../../../../../../../../../../../../ab", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsSHA256Hex(tt.s); got != tt.want {
			t.Errorf("IsSHA256Hex(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
