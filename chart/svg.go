package chart

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strings"
)

// WriteSVG writes the drawing as an SVG document of W×H pixels: rectangles as
// <rect>, texts as <text> (a shortened one carries its full text as <title>).
func (d *Drawing) WriteSVG(w io.Writer) error {
	b := bufio.NewWriter(w)
	family := "sans-serif"
	if d.Font != nil && d.Font.Family != "" {
		family = d.Font.Family + ", sans-serif"
	}
	fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n",
		num(d.W), num(d.H), num(d.W), num(d.H), attr(family))
	fmt.Fprintf(b, `<rect x="0" y="0" width="%s" height="%s"%s/>`+"\n", num(d.W), num(d.H), fill(d.Background))
	for _, r := range d.Rects {
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s"%s/>`+"\n", num(r.X), num(r.Y), num(r.W), num(r.H), fill(r.Fill))
	}
	for _, t := range d.Texts {
		if t.S == "" {
			continue
		}
		anchor := map[Anchor]string{Start: "start", Middle: "middle", End: "end"}[t.Anchor]
		fmt.Fprintf(b, `<text x="%s" y="%s" font-size="%s" text-anchor="%s"%s`, num(t.X), num(t.Y), num(t.Size), anchor, fill(t.Fill))
		if t.Angle != 0 {
			fmt.Fprintf(b, ` transform="rotate(%s %s %s)"`, num(t.Angle), num(t.X), num(t.Y))
		}
		b.WriteString(">")
		if t.Full != "" {
			b.WriteString("<title>" + attr(t.Full) + "</title>")
		}
		b.WriteString(attr(t.S) + "</text>\n")
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

func num(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

func fill(c color.NRGBA) string {
	s := fmt.Sprintf(` fill="#%02x%02x%02x"`, c.R, c.G, c.B)
	if c.A != 0xff {
		s += fmt.Sprintf(` fill-opacity="%s"`, num(float64(c.A)/255))
	}
	return s
}

func attr(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
