package remote

import (
	"testing"
)

type contractItem struct {
	N    int            `json:"n"`
	Kids []contractItem `json:"kids"` // a recursive type ends
	note string
}

type contractOther struct {
	N    int            `json:"m"` // another JSON name
	Kids []contractItem `json:"kids"`
}

type getIn struct {
	ID string `json:"id"`
}
type getInRenamed struct {
	ID string `json:"sampleID"` // the same Go type, another JSON name
}
type getOut struct {
	R0 contractItem `json:"r0"`
}
type getOutOther struct {
	R0 contractOther `json:"r0"`
}
type putIn struct {
	It contractItem `json:"it"`
}

// The digest changes with what the wire carries — a JSON name, in a request or
// an answer, a call — and with nothing else.
func TestContractDigest(t *testing.T) {
	v1 := wireDigest(map[string][2]any{"Get": {getIn{}, getOut{}}})
	if again := wireDigest(map[string][2]any{"Get": {getIn{}, getOut{}}}); again != v1 {
		t.Errorf("the same calls: %s and %s", v1, again)
	}
	if v2 := wireDigest(map[string][2]any{"Get": {getIn{}, getOutOther{}}}); v2 == v1 {
		t.Error("a field's JSON name changed and the digest did not")
	}
	if v := wireDigest(map[string][2]any{"Get": {getInRenamed{}, getOut{}}}); v == v1 {
		t.Error("a request's key changed and the digest did not")
	}
	if v3 := wireDigest(map[string][2]any{"Get": {getIn{}, getOut{}}, "Put": {putIn{}, struct{}{}}}); v3 == v1 {
		t.Error("a call was added and the digest did not change")
	}
	if len(Contract) != 16 {
		t.Errorf("Contract %q", Contract)
	}
}
