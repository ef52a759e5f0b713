package shortcut

import (
	"fmt"
	"image"
	"testing"

	"github.com/corona10/goimagehash"
	"github.com/disintegration/imaging"
)

// TestImageHashNearPerceptionHash: ImageHash computes goimagehash's pHash on grey
// values itself (grey first, then nfnt/resize's bilinear shrink); on the
// thumbnails an import makes (NRGBA before encoding, YCbCr decoded from the file),
// of photo-like and layout-sharing pictures, it gives PerceptionHash's hash but
// for rounding: at most maxBits apart, and equal in most pictures.
func TestImageHashNearPerceptionHash(t *testing.T) {
	const maxBits = 2
	var pics []image.Image
	for seed := range uint64(12) {
		pics = append(pics, photoLike(seed, 640, 480), photoLike(seed+50, 360, 500))
	}
	for seed := range uint64(12) {
		pics = append(pics, layoutAlike(seed, 480, 360))
	}
	var n, differ int
	for i, pic := range pics {
		thumb := imaging.Fit(pic, 256, 256, imaging.Linear)
		for _, c := range []struct {
			name string
			img  image.Image
		}{{"before encoding", thumb}, {"decoded", reencode(t, thumb, 85)}, {"gray", imaging.Grayscale(thumb)}} {
			t.Run(fmt.Sprintf("%d-%s", i, c.name), func(t *testing.T) {
				want, err := goimagehash.PerceptionHash(c.img)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ImageHash(c.img)
				if err != nil {
					t.Fatal(err)
				}
				d := Distance(got, want.GetHash())
				if d > maxBits {
					t.Errorf("%T: ImageHash %016x, PerceptionHash %016x: %d bits apart", c.img, got, want.GetHash(), d)
				}
				n++
				if d > 0 {
					differ++
				}
			})
		}
	}
	t.Logf("%d thumbnails: %d hashes differ from PerceptionHash's", n, differ)
	if differ*4 > n {
		t.Errorf("%d of %d hashes differ from PerceptionHash's", differ, n)
	}
}
