package synth

// The generated images: JPEG files of mixed sizes in scene folders NNNN-<type>-<k>,
// each with its own content, all from the seed.

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

var sceneTypes = []string{"office", "kitchen", "bedroom", "living-room", "garage", "classroom", "lab", "street"}

// imagePath is image i's path: eight images per scene folder NNNN-<type>-<k>.
func imagePath(i int) string {
	scene := i / 8
	typ := sceneTypes[scene%len(sceneTypes)]
	return filepath.Join(fmt.Sprintf("%04d-%s-%d", scene+1, typ, scene/len(sceneTypes)+1), fmt.Sprintf("img_%03d.jpg", i%8+1))
}

// imageSize is image i's size: Large of them spread evenly are 4000×3000.
func imageSize(i, n, large int, rng *rand.Rand) (int, int) {
	if large > 0 && i%(n/large) == 0 && i/(n/large) < large {
		return 4000, 3000
	}
	if rng.IntN(50) == 0 {
		return 1280, 960
	}
	sizes := [][2]int{{320, 240}, {400, 300}, {480, 360}, {640, 480}, {360, 480}}
	s := sizes[rng.IntN(len(sizes))]
	return s[0], s[1]
}

// writeImages writes the JPEG files on all cores.
func writeImages(ctx context.Context, opt Options, progress func(string, int, int)) error {
	jobs := make(chan int)
	errs := make(chan error, runtime.NumCPU())
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := writeImage(opt, i); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				done++
				progress("images", done, opt.Images)
				mu.Unlock()
			}
		}()
	}
	var err error
feed:
	for i := 0; i < opt.Images; i++ {
		select {
		case jobs <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	return err
}

// writeImage draws image i: a gradient, a few boxes and a row of blocks
// spelling its index (so that every file has its own content), all from the seed.
func writeImage(opt Options, i int) error {
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(i)+1<<40))
	w, h := imageSize(i, opt.Images, opt.Large, rng)
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	cb0, cr0 := uint8(rng.IntN(256)), uint8(rng.IntN(256))
	for y := 0; y < h; y++ {
		row := img.Y[y*img.YStride : y*img.YStride+w]
		for x := range row {
			row[x] = uint8((x*160/w + y*80/h + 16) & 0xff)
		}
	}
	for j := range img.Cb {
		img.Cb[j], img.Cr[j] = cb0, cr0
	}
	for k := 0; k < 6; k++ {
		bw, bh := w/8+rng.IntN(w/4), h/8+rng.IntN(h/4)
		x0, y0 := rng.IntN(w-bw), rng.IntN(h-bh)
		yv, cb, cr := uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))
		for y := y0; y < y0+bh; y++ {
			for x := x0; x < x0+bw; x++ {
				img.Y[img.YOffset(x, y)] = yv
				img.Cb[img.COffset(x, y)], img.Cr[img.COffset(x, y)] = cb, cr
			}
		}
	}
	block := max(8, w/80)
	for bit := 0; bit < 32; bit++ {
		v := uint8(16)
		if uint64(i)>>bit&1 == 1 {
			v = 235
		}
		for y := 0; y < block; y++ {
			for x := bit * block; x < (bit+1)*block && x < w; x++ {
				img.Y[img.YOffset(x, y)] = v
			}
		}
	}
	path := filepath.Join(opt.ImageDir, imagePath(i))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 80}); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
