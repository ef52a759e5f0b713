package remote

import (
	"reflect"
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

type contractV1 interface {
	Get(id string) (contractItem, error)
}
type contractV1Again interface {
	Get(id string) (contractItem, error)
}
type contractV2 interface {
	Get(id string) (contractOther, error)
}
type contractV3 interface {
	Get(id string) (contractItem, error)
	Put(it contractItem) error
}

// The digest changes with what the wire carries — a JSON name, a call — and with
// nothing else.
func TestContractDigest(t *testing.T) {
	d := func(v any) string { return contractDigest(reflect.TypeOf(v).Elem()) }
	v1 := d((*contractV1)(nil))
	if again := d((*contractV1Again)(nil)); again != v1 {
		t.Errorf("the same calls: %s and %s", v1, again)
	}
	if v2 := d((*contractV2)(nil)); v2 == v1 {
		t.Error("a field's JSON name changed and the digest did not")
	}
	if v3 := d((*contractV3)(nil)); v3 == v1 {
		t.Error("a call was added and the digest did not change")
	}
	if len(Contract) != 16 {
		t.Errorf("Contract %q", Contract)
	}
}
