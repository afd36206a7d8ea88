//go:build js && wasm

package paint

import (
	"image"
	"math"
	"strconv"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

// Text is rasterised by the browser (its fonts, hinting and scripts), white
// on transparent, then tinted when drawn. The WebAssembly binary carries no
// font.
const fontFamily = `system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif`

// Strings new in a frame are rasterised together onto one sheet (one canvas
// size, one pixel read-back, one Ebiten image and upload for all of them)
// rather than one canvas, read-back and image each: a frame that first
// shows a scenario draws a few hundred labels, and each round trip between
// WebAssembly and the canvas costs about as much as drawing the text.
const (
	sheetWidth   = 2048 // where a sheet's rows wrap (a wider string has a row of its own)
	sheetHeight  = 2048 // a sheet's height; a taller batch takes several
	sheetGap     = 2    // pixels between strings, for glyphs that overhang
	maxTextWidth = 4096 // wider strings are not drawn
)

type textKey struct {
	text string
	size float32
	bold bool
}

// sheet is one rasterised batch; it is deallocated when no entry uses it.
type sheet struct {
	img  *ebiten.Image
	live int
}

type textEntry struct {
	key        textKey
	img        *ebiten.Image // a sub-image of sh.img
	sh         *sheet
	w, h       int
	ascent     int
	lastUse    uint64
	rasterised bool
	queued     bool // in the batch being prepared
}

// textCache keeps at most limit strings, evicting the least recently used;
// a sheet is deallocated once all its strings are evicted.
type textCache struct {
	limit   int
	entries []*textEntry
	index   map[textKey]int
	clock   uint64
	canvas  js.Value
	ctx     js.Value
	u8      js.Value // Uint8Array constructor
	font    string   // the context's font, as last set
	pix     []byte
	batch   []*textEntry
	pos     []image.Point // layout's places for a sheet's strings
}

func newTextCache(limit int) *textCache {
	return &textCache{limit: limit, index: make(map[textKey]int, limit)}
}

func (c *textCache) init() bool {
	if c.ctx.Truthy() {
		return true
	}
	g := js.Global()
	if oc := g.Get("OffscreenCanvas"); oc.Truthy() {
		c.canvas = oc.New(16, 16)
	} else {
		c.canvas = g.Get("document").Call("createElement", "canvas")
	}
	c.ctx = c.canvas.Call("getContext", "2d", map[string]any{"willReadFrequently": true})
	c.u8 = g.Get("Uint8Array")
	return c.ctx.Truthy()
}

func font(size float32, bold bool) string {
	w := ""
	if bold {
		w = "bold "
	}
	return w + strconv.FormatFloat(float64(size), 'f', 1, 32) + "px " + fontFamily
}

// setFont sets the context's font unless it is already f.
func (c *textCache) setFont(f string) {
	if f != c.font {
		c.ctx.Set("font", f)
		c.font = f
	}
}

// get returns the measured text (w is 0 when there is nothing to draw),
// measuring it on first use; it is rasterised by rasterise.
func (c *textCache) get(text string, size float32, bold bool) *textEntry {
	k := textKey{text, size, bold}
	c.clock++
	if i, ok := c.index[k]; ok {
		e := c.entries[i]
		e.lastUse = c.clock
		return e
	}
	if !c.init() {
		return nil
	}
	var e *textEntry
	if len(c.entries) < c.limit {
		e = &textEntry{}
		c.entries = append(c.entries, e)
		c.index[k] = len(c.entries) - 1
	} else {
		victim := 0
		for i, o := range c.entries {
			if o.lastUse < c.entries[victim].lastUse {
				victim = i
			}
		}
		e = c.entries[victim]
		delete(c.index, e.key)
		c.release(e)
		*e = textEntry{}
		c.index[k] = victim
	}
	e.key, e.lastUse = k, c.clock
	c.measure(e)
	return e
}

// release drops e's use of its sheet.
func (c *textCache) release(e *textEntry) {
	if e.sh == nil {
		return
	}
	e.sh.live--
	if e.sh.live == 0 {
		e.sh.img.Deallocate()
	}
	e.sh, e.img = nil, nil
}

func (c *textCache) measure(e *textEntry) {
	c.setFont(font(e.key.size, e.key.bold))
	m := c.ctx.Call("measureText", e.key.text)
	asc := m.Get("fontBoundingBoxAscent")
	desc := m.Get("fontBoundingBoxDescent")
	size := float64(e.key.size)
	ascent, descent := size*0.8, size*0.25
	if asc.Type() == js.TypeNumber && desc.Type() == js.TypeNumber {
		ascent, descent = asc.Float(), desc.Float()
	}
	w := int(math.Ceil(m.Get("width").Float())) + 2
	h := int(math.Ceil(ascent) + math.Ceil(descent))
	if w <= 2 || h <= 0 || w > maxTextWidth || h > 512 {
		return
	}
	e.w, e.h, e.ascent = w, h, int(math.Ceil(ascent))
}

// queue adds e to the next batch if it still needs rasterising.
func (c *textCache) queue(e *textEntry) {
	if e == nil || e.rasterised || e.queued || e.w == 0 {
		return
	}
	e.queued = true
	c.batch = append(c.batch, e)
}

// rasterise draws every queued string onto sheets, in shelves: rows left
// to right, each as tall as its tallest string.
func (c *textCache) rasterise() {
	for rest := c.batch; len(rest) > 0; {
		n, w, h := c.layout(rest)
		c.drawSheet(rest[:n], w, h)
		rest = rest[n:]
	}
	c.batch = c.batch[:0] // the same array for the next frame's batch
}

// layout places the first strings of es that fit on one sheet (c.pos)
// and returns how many and the sheet's size.
func (c *textCache) layout(es []*textEntry) (n, w, h int) {
	c.pos = c.pos[:0]
	x, y, row := 0, 0, 0
	for n = 0; n < len(es); n++ {
		e := es[n]
		if x > 0 && x+e.w > sheetWidth {
			x, y, row = 0, y+row+sheetGap, 0
		}
		if y+e.h > sheetHeight && n > 0 {
			break
		}
		c.pos = append(c.pos, image.Pt(x, y))
		row = max(row, e.h)
		w = max(w, x+e.w)
		x += e.w + sheetGap
	}
	return n, w, y + row
}

func (c *textCache) drawSheet(es []*textEntry, w, h int) {
	c.canvas.Set("width", w)
	c.canvas.Set("height", h)
	c.font = "" // resizing the canvas resets its state
	c.ctx.Set("fillStyle", "#fff")
	c.ctx.Set("textBaseline", "alphabetic")
	for i, e := range es {
		c.setFont(font(e.key.size, e.key.bold))
		c.ctx.Call("fillText", e.key.text, c.pos[i].X+1, c.pos[i].Y+e.ascent)
	}
	data := c.ctx.Call("getImageData", 0, 0, w, h).Get("data")
	size := w * h * 4
	if cap(c.pix) < size {
		c.pix = make([]byte, size)
	}
	pix := c.pix[:size]
	js.CopyBytesToGo(pix, c.u8.New(data.Get("buffer"), data.Get("byteOffset"), size))
	// Ebiten takes premultiplied alpha; the glyphs are white.
	for i := 0; i < size; i += 4 {
		a := pix[i+3]
		pix[i], pix[i+1], pix[i+2] = a, a, a
	}
	sh := &sheet{img: ebiten.NewImage(w, h)}
	sh.img.WritePixels(pix)
	for i, e := range es {
		p := c.pos[i]
		c.release(e) // queued twice (evicted and reused in one batch)
		e.img = sh.img.SubImage(image.Rect(p.X, p.Y, p.X+e.w, p.Y+e.h)).(*ebiten.Image)
		e.sh, e.rasterised, e.queued = sh, true, false
		sh.live++
	}
}
