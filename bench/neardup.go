package bench

// ImageHashes are a project's images' perceptual hashes (issue 29 item 5): what
// the near-duplicate-image check pairs (shortcut.NearDuplicates), for bwctl
// shortcuts and the Shortcuts tab.
type ImageHashes struct {
	// MaxDistance is the project's near-duplicate distance: two images whose
	// hashes differ in at most this many of their 64 bits are taken for one
	// picture (a heuristic).
	MaxDistance int `json:"max_distance"`
	// Hashes is each image's 64-bit perceptual hash, by path. An image whose
	// thumbnail cannot be made (its file gone or changed) is absent; 0 is a flat
	// picture's hash, compared with nothing.
	Hashes map[string]uint64 `json:"hashes"`
	// NotAlike are the pairs of images (paths, the smaller first) whose hashes
	// are within MaxDistance but whose thumbnails differ (shortcut.Alike): two
	// pictures sharing a layout, no near-duplicates.
	NotAlike [][2]string `json:"not_alike,omitempty"`
}
