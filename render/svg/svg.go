// Package svg writes a render.Scene as a standalone SVG figure: the same
// display list the stage paints, for documentation, the CLI's export and
// golden tests. Fonts are generic families (no font files), text is
// escaped, and numbers are rounded to 0.01 px so output is stable.
package svg

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/render"
)

// Options control the figure.
type Options struct {
	// Palette maps colours; nil uses render.Dark().
	Palette *render.Palette
	// Crop, when its width is positive, is the part of the scene to show
	// (e.g. the stage without the panel area).
	Crop struct{ X, Y, W, H float32 }
	// Titles adds each hit-testable item's description (from the scene's
	// Describer) as an SVG <title>, shown as a tooltip by browsers.
	Titles bool
}

// Write writes s as an SVG document.
func Write(w io.Writer, s *render.Scene, opt Options) error {
	p := render.Dark()
	if opt.Palette != nil {
		p = *opt.Palette
	}
	x, y, cw, ch := float32(0), float32(0), s.W, s.H
	if opt.Crop.W > 0 && opt.Crop.H > 0 {
		x, y, cw, ch = opt.Crop.X, opt.Crop.Y, opt.Crop.W, opt.Crop.H
	}
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="%s %s %s %s" stroke="none" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">`+"\n",
		num(cw), num(ch), num(x), num(y), num(cw), num(ch))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(x), num(y), num(cw), num(ch), hex(p.RGBA(s.Background)))
	for i := range s.Items {
		it := &s.Items[i]
		title := ""
		if opt.Titles && it.Ref.Kind != render.RefNone && s.Describer != nil {
			title = s.Describer.Describe(it.Ref)
		}
		item(b, it, &p, title)
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

func item(b *bufio.Writer, it *render.Item, p *render.Palette, title string) {
	open := func(tag string) {
		b.WriteString("<" + tag)
		// Defaults are left out (data-index 0, stroke-width 1, butt
		// caps): a panel chart travels as a data URL of at most 15 KB.
		if it.ID != "" {
			fmt.Fprintf(b, ` data-id="%s"`, escape(it.ID))
			if it.Index != 0 {
				fmt.Fprintf(b, ` data-index="%d"`, it.Index)
			}
		}
	}
	end := func(tag string) {
		if title == "" {
			b.WriteString("/>\n")
			return
		}
		b.WriteString("><title>" + escape(title) + "</title></" + tag + ">\n")
	}
	switch it.Kind {
	case render.KindRect:
		open("rect")
		fmt.Fprintf(b, ` x="%s" y="%s" width="%s" height="%s"`, num(it.X), num(it.Y), num(max(it.W, 0)), num(max(it.H, 0)))
		paint(b, "fill", it.Fill, p)
		if it.Stroke != render.None {
			paint(b, "stroke", it.Stroke, p)
			width(b, it)
		}
		end("rect")
	case render.KindLine, render.KindArrow:
		// A described line is a group holding its title and the line:
		// ImageMagick's renderer drops a <line> that has children.
		if title != "" {
			b.WriteString("<g><title>" + escape(title) + "</title>")
		}
		open("line")
		fmt.Fprintf(b, ` x1="%s" y1="%s" x2="%s" y2="%s"`, num(it.X), num(it.Y), num(it.X2), num(it.Y2))
		paint(b, "stroke", it.Stroke, p)
		width(b, it)
		b.WriteString("/>")
		if title != "" {
			b.WriteString("</g>")
		}
		b.WriteString("\n")
		if it.Kind == render.KindArrow {
			arrowHead(b, it, p)
		}
	case render.KindText:
		open("text")
		fmt.Fprintf(b, ` x="%s" y="%s" font-size="%s"`, num(it.X), num(it.Y), num(it.Size))
		paint(b, "fill", it.Fill, p)
		switch it.Align {
		case render.AlignMiddle:
			b.WriteString(` text-anchor="middle"`)
		case render.AlignEnd:
			b.WriteString(` text-anchor="end"`)
		}
		if it.Bold {
			b.WriteString(` font-weight="bold"`)
		}
		b.WriteString(">")
		if title != "" {
			b.WriteString("<title>" + escape(title) + "</title>")
		}
		b.WriteString(escape(it.Text) + "</text>\n")
	}
}

// width writes the item's stroke width unless it is SVG's default, 1.
func width(b *bufio.Writer, it *render.Item) {
	if w := strokeWidth(it); w != 1 {
		fmt.Fprintf(b, ` stroke-width="%s"`, num(w))
	}
}

func strokeWidth(it *render.Item) float32 {
	if it.StrokeWidth > 0 {
		return it.StrokeWidth
	}
	return 1
}

// arrowHead draws the head of an arrow as a triangle at (X2, Y2).
func arrowHead(b *bufio.Writer, it *render.Item, p *render.Palette) {
	dx, dy := float64(it.X2-it.X), float64(it.Y2-it.Y)
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	size := 4 + 2*float64(strokeWidth(it))
	bx, by := float64(it.X2)-ux*size, float64(it.Y2)-uy*size
	fmt.Fprintf(b, `<polygon points="%s,%s %s,%s %s,%s"`, num(it.X2), num(it.Y2),
		num(float32(bx-uy*size/2)), num(float32(by+ux*size/2)), num(float32(bx+uy*size/2)), num(float32(by-ux*size/2)))
	paint(b, "fill", it.Stroke, p)
	b.WriteString("/>\n")
}

func paint(b *bufio.Writer, attr string, c render.Color, p *render.Palette) {
	if c == render.None {
		fmt.Fprintf(b, ` %s="none"`, attr)
		return
	}
	fmt.Fprintf(b, ` %s="%s"`, attr, hex(p.RGBA(c)))
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// num prints v rounded to 0.01 without trailing zeros.
func num(v float32) string {
	r := math.Round(float64(v)*100) / 100
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// xmlEscaper escapes what may not appear raw in SVG text and attribute
// values (the same characters encoding/xml's EscapeText escapes; that
// package alone weighs about 0.3 MB of main.wasm).
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&#34;", "'", "&#39;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")

func escape(s string) string { return xmlEscaper.Replace(s) }
