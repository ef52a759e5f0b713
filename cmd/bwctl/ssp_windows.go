//go:build windows && cgo

package main

// The release builds for Windows compile C with _FORTIFY_SOURCE and stack
// protection (fyne package's flags, scripts/dev package), whose checks mingw-w64
// keeps in libssp: linked in statically, as the shared one is no Windows DLL.

// #cgo LDFLAGS: -l:libssp.a
import "C"
