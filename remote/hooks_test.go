package remote

import "net/http"

// SetTestPanic makes every call run f before its store method (a stand-in for a
// call that panics) until restore is called.
func SetTestPanic(f func(r *http.Request)) (restore func()) {
	testPanic = f
	return func() { testPanic = nil }
}
