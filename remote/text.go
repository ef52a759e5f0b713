package remote

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/benchwright/benchwright/bench"
)

// checkText refuses, before it is sent, a call whose arguments hold a string
// that is not valid UTF-8: JSON would silently carry each bad byte as U+FFFD,
// so the server would store other text than the person wrote (a local file
// stores it unchanged on SQLite; PostgreSQL refuses it).
func checkText(name string, in any) error {
	if where, ok := validText(reflect.ValueOf(in), ""); !ok {
		return fmt.Errorf("%w: %s: the text%s holds bytes that are not UTF-8, which the team server cannot store as written; retype it", bench.ErrInvalid, name, where)
	}
	return nil
}

// validText reports whether every string in v is valid UTF-8 and, when one is
// not, the field it is in (" in Comment").
func validText(v reflect.Value, field string) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			if field != "" {
				return " in " + field, false
			}
			return "", false
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return validText(v.Elem(), field)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				if where, ok := validText(v.Field(i), t.Field(i).Name); !ok {
					return where, false
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return "", true // bytes, sent as base64
		}
		for i := range v.Len() {
			if where, ok := validText(v.Index(i), field); !ok {
				return where, false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if where, ok := validText(it.Key(), field); !ok {
				return where, false
			}
			if where, ok := validText(it.Value(), field); !ok {
				return where, false
			}
		}
	}
	return "", true
}
