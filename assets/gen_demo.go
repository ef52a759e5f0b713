//go:build ignore

// gen_demo draws the demo project's scene images and its sample records:
// go run assets/gen_demo.go (from the repository root). The pictures are simple
// synthetic rooms whose objects sit at known places, so the records' boxes fit.
package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

type object struct {
	name  string
	col   color.RGBA
	box   [4]int
	round bool
}

type scene struct {
	folder, file string
	wall, floor  color.RGBA
	objects      []object
}

var (
	red    = color.RGBA{200, 40, 40, 255}
	blue   = color.RGBA{40, 80, 200, 255}
	green  = color.RGBA{40, 150, 70, 255}
	yellow = color.RGBA{230, 200, 40, 255}
	brown  = color.RGBA{120, 80, 40, 255}
	grey   = color.RGBA{110, 110, 120, 255}
	white  = color.RGBA{235, 235, 230, 255}
	black  = color.RGBA{30, 30, 35, 255}
)

func scenes() []scene {
	desk := object{"desk", brown, [4]int{120, 360, 840, 420}, false}
	return []scene{
		{"0001-office-1", "img_001.jpg", color.RGBA{210, 205, 190, 255}, color.RGBA{150, 140, 120, 255}, []object{
			desk, {"laptop", grey, [4]int{380, 290, 560, 360}, false}, {"book", blue, [4]int{420, 270, 520, 290}, false},
			{"mug", red, [4]int{200, 300, 250, 360}, true}, {"lamp", yellow, [4]int{700, 220, 760, 360}, false}}},
		{"0001-office-1", "img_002.jpg", color.RGBA{200, 210, 215, 255}, color.RGBA{140, 130, 115, 255}, []object{
			desk, {"monitor", black, [4]int{300, 200, 520, 340}, false}, {"stapler", red, [4]int{560, 330, 620, 360}, false},
			{"plant", green, [4]int{160, 280, 230, 360}, true}, {"mug", white, [4]int{650, 310, 700, 360}, true}}},
		{"0002-kitchen-1", "img_001.jpg", color.RGBA{235, 230, 215, 255}, color.RGBA{170, 160, 150, 255}, []object{
			{"counter", white, [4]int{80, 380, 880, 460}, false}, {"kettle", grey, [4]int{180, 300, 270, 380}, false},
			{"apple", red, [4]int{420, 340, 470, 380}, true}, {"bowl", blue, [4]int{520, 340, 640, 380}, true},
			{"bottle", green, [4]int{720, 260, 760, 380}, false}}},
		{"0002-kitchen-1", "img_002.jpg", color.RGBA{225, 225, 205, 255}, color.RGBA{160, 150, 140, 255}, []object{
			{"counter", white, [4]int{80, 380, 880, 460}, false}, {"pan", black, [4]int{200, 350, 330, 380}, true},
			{"lemon", yellow, [4]int{420, 345, 460, 380}, true}, {"cup", red, [4]int{600, 330, 650, 380}, false}}},
		{"0003-livingroom-1", "img_001.jpg", color.RGBA{215, 200, 200, 255}, color.RGBA{120, 100, 90, 255}, []object{
			{"sofa", blue, [4]int{100, 300, 520, 470}, false}, {"table", brown, [4]int{580, 380, 820, 440}, false},
			{"vase", yellow, [4]int{660, 300, 710, 380}, false}, {"ball", red, [4]int{300, 500, 360, 560}, true}}},
		{"0003-livingroom-1", "img_002.jpg", color.RGBA{205, 215, 200, 255}, color.RGBA{125, 105, 95, 255}, []object{
			{"armchair", green, [4]int{120, 320, 340, 480}, false}, {"tv", black, [4]int{520, 200, 800, 360}, false},
			{"remote", grey, [4]int{400, 440, 460, 460}, false}, {"cushion", red, [4]int{160, 330, 240, 390}, true}}},
		{"0004-office-2", "img_001.jpg", color.RGBA{220, 220, 225, 255}, color.RGBA{130, 130, 140, 255}, []object{
			desk, {"keyboard", black, [4]int{340, 340, 560, 360}, false}, {"phone", blue, [4]int{600, 335, 640, 360}, false},
			{"notebook", yellow, [4]int{200, 330, 300, 360}, false}}},
		{"0004-office-2", "img_002.jpg", color.RGBA{225, 215, 225, 255}, color.RGBA{135, 125, 140, 255}, []object{
			desk, {"printer", white, [4]int{560, 260, 760, 360}, false}, {"scissors", red, [4]int{300, 340, 360, 360}, false},
			{"folder", green, [4]int{160, 330, 260, 360}, false}}},
	}
}

const W, H = 960, 640

func draw1(sc scene) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, image.Rect(0, 0, W, 340), &image.Uniform{sc.wall}, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 340, W, H), &image.Uniform{sc.floor}, image.Point{}, draw.Src)
	for _, o := range sc.objects {
		r := image.Rect(o.box[0], o.box[1], o.box[2], o.box[3])
		if !o.round {
			draw.Draw(img, r, &image.Uniform{o.col}, image.Point{}, draw.Src)
			continue
		}
		cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
		rx, ry := float64(r.Dx())/2, float64(r.Dy())/2
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if math.Pow((float64(x)+.5-cx)/rx, 2)+math.Pow((float64(y)+.5-cy)/ry, 2) <= 1 {
					img.Set(x, y, o.col)
				}
			}
		}
	}
	return img
}

func main() {
	out := filepath.Join("assets", "demo", "images")
	for _, sc := range scenes() {
		dir := filepath.Join(out, sc.folder)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, sc.file))
		if err != nil {
			log.Fatal(err)
		}
		if err := jpeg.Encode(f, draw1(sc), &jpeg.Options{Quality: 80}); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	// Object boxes, for writing the demo's sample records by hand.
	boxes := map[string]map[string][4]int{}
	for _, sc := range scenes() {
		m := map[string][4]int{}
		for _, o := range sc.objects {
			m[o.name] = o.box
		}
		boxes[sc.folder+"/"+sc.file] = m
	}
	js, _ := json.MarshalIndent(boxes, "", "  ")
	if err := os.WriteFile(filepath.Join("assets", "demo", "objects.json"), js, 0o644); err != nil {
		log.Fatal(err)
	}
	// The app icon: a box drawn over a grid.
	icon := image.NewRGBA(image.Rect(0, 0, 256, 256))
	draw.Draw(icon, icon.Bounds(), &image.Uniform{color.RGBA{32, 44, 64, 255}}, image.Point{}, draw.Src)
	for i := 32; i < 256; i += 48 {
		draw.Draw(icon, image.Rect(i, 0, i+2, 256), &image.Uniform{color.RGBA{60, 80, 110, 255}}, image.Point{}, draw.Src)
		draw.Draw(icon, image.Rect(0, i, 256, i+2), &image.Uniform{color.RGBA{60, 80, 110, 255}}, image.Point{}, draw.Src)
	}
	for _, r := range []image.Rectangle{image.Rect(60, 70, 196, 78), image.Rect(60, 178, 196, 186), image.Rect(60, 70, 68, 186), image.Rect(188, 70, 196, 186)} {
		draw.Draw(icon, r, &image.Uniform{color.RGBA{255, 170, 40, 255}}, image.Point{}, draw.Src)
	}
	draw.Draw(icon, image.Rect(96, 104, 160, 152), &image.Uniform{color.RGBA{90, 200, 140, 255}}, image.Point{}, draw.Src)
	f, err := os.Create(filepath.Join("assets", "icon.png"))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, icon); err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", out)
}
