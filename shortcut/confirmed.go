package shortcut

import "slices"

// Confirmed is pairs less those notAlike refutes: the pairs of images (by name,
// the smaller first) whose hashes are close but whose thumbnails Alike tells
// apart. pairs is changed in place; what is kept keeps its order.
func Confirmed(pairs []NearDuplicate, notAlike map[[2]string]bool) []NearDuplicate {
	return slices.DeleteFunc(pairs, func(nd NearDuplicate) bool { return notAlike[[2]string{nd.A, nd.B}] })
}
