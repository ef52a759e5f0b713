// Package release writes a frozen release in the file layouts that evaluation
// toolkits load, writes its MANIFEST.json (the release, counts, and the size and
// SHA-256 of every file), and verifies an exported folder against that manifest.
//
// Each format lives in its own file behind the Format interface (format.go): its
// name, which samples it can hold, its layout in words, and how it writes the
// records through a Writer, which creates the files, copies the images (checked
// against their frozen hash) and reports progress. Export runs a format and writes
// the manifest; VerifyRelease re-hashes a folder against it. Formats whose exports
// can be read back also implement Reader: all but coco, which holds boxes, not
// samples.
//
// It is plain Go over package annotate's sample model: no UI, no SQL.
package release
