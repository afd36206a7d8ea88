//go:build js && wasm

package paint

import (
	"math"
	"strconv"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

// Text is rasterised by the browser (its fonts, hinting and scripts), white
// on transparent, then tinted when drawn. The WebAssembly binary carries no
// font.
const fontFamily = `system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif`

type textKey struct {
	text string
	size float32
	bold bool
}

type textEntry struct {
	key        textKey
	img        *ebiten.Image
	w, h       int
	ascent     int
	lastUse    uint64
	rasterised bool
}

// textCache keeps at most limit rasterised strings, evicting the least
// recently used; images of evicted entries are deallocated.
type textCache struct {
	limit   int
	entries []*textEntry
	index   map[textKey]int
	clock   uint64
	canvas  js.Value
	ctx     js.Value
	u8      js.Value // Uint8Array constructor
	pix     []byte
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

// get returns the rasterised text, making it on first use.
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
		if e.img != nil {
			e.img.Deallocate()
		}
		*e = textEntry{}
		c.index[k] = victim
	}
	e.key, e.lastUse = k, c.clock
	c.rasterise(e)
	return e
}

func (c *textCache) rasterise(e *textEntry) {
	f := font(e.key.size, e.key.bold)
	c.ctx.Set("font", f)
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
	if w <= 2 || h <= 0 || w > 4096 || h > 512 {
		return
	}
	c.canvas.Set("width", w)
	c.canvas.Set("height", h)
	c.ctx.Set("font", f) // resizing the canvas resets its state
	c.ctx.Set("fillStyle", "#fff")
	c.ctx.Set("textBaseline", "alphabetic")
	c.ctx.Call("clearRect", 0, 0, w, h)
	c.ctx.Call("fillText", e.key.text, 1, math.Ceil(ascent))
	data := c.ctx.Call("getImageData", 0, 0, w, h).Get("data")
	n := w * h * 4
	if cap(c.pix) < n {
		c.pix = make([]byte, n)
	}
	pix := c.pix[:n]
	js.CopyBytesToGo(pix, c.u8.New(data.Get("buffer"), data.Get("byteOffset"), n))
	// Ebiten takes premultiplied alpha; the glyphs are white.
	for i := 0; i < n; i += 4 {
		a := pix[i+3]
		pix[i], pix[i+1], pix[i+2] = a, a, a
	}
	e.img = ebiten.NewImage(w, h)
	e.img.WritePixels(pix)
	e.w, e.h, e.ascent = w, h, int(math.Ceil(ascent))
	e.rasterised = true
}
