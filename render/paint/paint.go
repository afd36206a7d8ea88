//go:build js && wasm

// Package paint draws a render.Scene with Ebiten in the browser.
//
// Shapes (rectangles, outlines, lines, arrow heads) go into one vertex batch
// drawn with a single DrawTriangles call; text is rasterised once per
// (string, size, weight) by the browser's own fonts on a 2D canvas (the
// strings new in a frame together, on one sheet), uploaded as an Ebiten
// image and cached, and tinted per draw. The vertex and index
// slices and the text cache are reused across frames, so a frame in steady
// state allocates nothing.
package paint

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/dmaviz/dmaviz/render"
)

// Painter draws scenes. Create one per screen with New.
type Painter struct {
	Palette render.Palette
	// Scale maps the scene's CSS pixels to screen pixels (the device pixel
	// ratio when the game's Layout returns device pixels).
	Scale float32

	white *ebiten.Image // 1x1 white source for solid shapes
	vs    []ebiten.Vertex
	is    []uint16
	texts *textCache
	opt   ebiten.DrawTrianglesOptions
	img   ebiten.DrawImageOptions
}

// New returns a painter with the dark stage palette.
func New() *Painter {
	w := ebiten.NewImage(3, 3)
	w.Fill(color.White)
	return &Painter{
		Palette: render.Dark(),
		Scale:   1,
		white:   w.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image),
		texts:   newTextCache(768),
	}
}

// Draw clears dst to the scene's background and draws every item in order.
func (p *Painter) Draw(dst *ebiten.Image, s *render.Scene) {
	dst.Fill(p.Palette.RGBA(s.Background))
	p.DrawItems(dst, s.Items)
}

// DrawItems draws items on top of what dst holds.
func (p *Painter) DrawItems(dst *ebiten.Image, items []render.Item) {
	// Strings not drawn before are rasterised together first.
	for i := range items {
		if it := &items[i]; it.Kind == render.KindText && it.Text != "" && it.Fill != render.None {
			p.texts.queue(p.texts.get(it.Text, it.Size*p.Scale, it.Bold))
		}
	}
	p.texts.rasterise()
	for i := range items {
		it := &items[i]
		switch it.Kind {
		case render.KindRect:
			if it.Fill != render.None {
				p.quad(it.X, it.Y, it.X+it.W, it.Y, it.X+it.W, it.Y+it.H, it.X, it.Y+it.H, p.Palette.RGBA(it.Fill))
			}
			if it.Stroke != render.None {
				w := max(it.StrokeWidth, 1)
				c := p.Palette.RGBA(it.Stroke)
				p.line(it.X, it.Y, it.X+it.W, it.Y, w, c)
				p.line(it.X+it.W, it.Y, it.X+it.W, it.Y+it.H, w, c)
				p.line(it.X+it.W, it.Y+it.H, it.X, it.Y+it.H, w, c)
				p.line(it.X, it.Y+it.H, it.X, it.Y, w, c)
			}
		case render.KindLine:
			p.line(it.X, it.Y, it.X2, it.Y2, max(it.StrokeWidth, 1), p.Palette.RGBA(it.Stroke))
		case render.KindArrow:
			p.arrow(it, p.Palette.RGBA(it.Stroke))
		case render.KindText:
			p.flush(dst)
			p.text(dst, it)
		}
		if len(p.vs) > 65000-16 {
			p.flush(dst)
		}
	}
	p.flush(dst)
}

func (p *Painter) flush(dst *ebiten.Image) {
	if len(p.is) == 0 {
		return
	}
	p.opt.AntiAlias = false
	dst.DrawTriangles(p.vs, p.is, p.white, &p.opt)
	p.vs, p.is = p.vs[:0], p.is[:0]
}

func (p *Painter) vertex(x, y float32, c color.RGBA) ebiten.Vertex {
	return ebiten.Vertex{
		DstX: x * p.Scale, DstY: y * p.Scale, SrcX: 1, SrcY: 1,
		ColorR: float32(c.R) / 255, ColorG: float32(c.G) / 255, ColorB: float32(c.B) / 255, ColorA: float32(c.A) / 255,
	}
}

// quad adds a convex quadrilateral with corners in order.
func (p *Painter) quad(x0, y0, x1, y1, x2, y2, x3, y3 float32, c color.RGBA) {
	base := uint16(len(p.vs))
	p.vs = append(p.vs, p.vertex(x0, y0, c), p.vertex(x1, y1, c), p.vertex(x2, y2, c), p.vertex(x3, y3, c))
	p.is = append(p.is, base, base+1, base+2, base, base+2, base+3)
}

func (p *Painter) triangle(x0, y0, x1, y1, x2, y2 float32, c color.RGBA) {
	base := uint16(len(p.vs))
	p.vs = append(p.vs, p.vertex(x0, y0, c), p.vertex(x1, y1, c), p.vertex(x2, y2, c))
	p.is = append(p.is, base, base+1, base+2)
}

// line adds a segment w pixels wide as a quad.
func (p *Painter) line(x0, y0, x1, y1, w float32, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	p.quad(x0+nx, y0+ny, x1+nx, y1+ny, x1-nx, y1-ny, x0-nx, y0-ny, c)
}

func (p *Painter) arrow(it *render.Item, c color.RGBA) {
	w := max(it.StrokeWidth, 1)
	dx, dy := it.X2-it.X, it.Y2-it.Y
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	head := min(4+3*w, l)
	bx, by := it.X2-ux*head, it.Y2-uy*head
	p.line(it.X, it.Y, bx, by, w, c)
	hw := head * 0.6
	p.triangle(it.X2, it.Y2, bx-uy*hw, by+ux*hw, bx+uy*hw, by-ux*hw, c)
}

func (p *Painter) text(dst *ebiten.Image, it *render.Item) {
	if it.Text == "" || it.Fill == render.None {
		return
	}
	size := it.Size * p.Scale
	e := p.texts.get(it.Text, size, it.Bold)
	if e != nil && !e.rasterised {
		// Evicted since DrawItems queued it (a frame with more strings
		// than the cache holds).
		p.texts.queue(e)
		p.texts.rasterise()
	}
	if e == nil || e.img == nil {
		return
	}
	x := it.X * p.Scale
	switch it.Align {
	case render.AlignMiddle:
		x -= float32(e.w) / 2
	case render.AlignEnd:
		x -= float32(e.w)
	}
	y := it.Y*p.Scale - float32(e.ascent)
	p.img.GeoM.Reset()
	p.img.GeoM.Translate(float64(x), float64(y))
	p.img.ColorScale.Reset()
	p.img.ColorScale.ScaleWithColor(p.Palette.RGBA(it.Fill))
	p.img.Filter = ebiten.FilterNearest
	dst.DrawImage(e.img, &p.img)
}

// TextWidth returns the width in CSS pixels of text at size, as drawn.
func (p *Painter) TextWidth(text string, size float32, bold bool) float32 {
	e := p.texts.get(text, size*p.Scale, bold)
	if e == nil || p.Scale == 0 {
		return 0
	}
	return float32(e.w) / p.Scale
}
