// Package assets embeds the files Benchwright ships: the app icon and the demo
// project (scene images and sample records) that the GUI opens on first start and
// `bwctl demo` writes.
package assets

import (
	"embed"
	"io/fs"
)

//go:embed icon.png
var Icon []byte

//go:embed demo
var demo embed.FS

// Demo is the demo project: images/ (scene folders) and samples.jsonl.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "demo")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}
