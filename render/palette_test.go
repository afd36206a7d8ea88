package render

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// lab is a colour in CIELAB (D65).
type lab struct{ L, A, B float64 }

// toLab converts an sRGB colour to CIELAB under D65.
func toLab(c color.RGBA) lab {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	r, g, b := lin(c.R), lin(c.G), lin(c.B)
	x := (0.4124564*r + 0.3575761*g + 0.1804375*b) / 0.95047
	y := 0.2126729*r + 0.7151522*g + 0.0721750*b
	z := (0.0193339*r + 0.1191920*g + 0.9503041*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return lab{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deltaE00 is the CIEDE2000 colour difference of a and b (Sharma, Wu and
// Dalal 2005): about 1 is just noticeable side by side, and colours a
// class must tell apart at a glance, on a projector, want 20 or more.
func deltaE00(c1, c2 color.RGBA) float64 { return deltaE00Lab(toLab(c1), toLab(c2)) }

func deltaE00Lab(p, q lab) float64 {
	rad := math.Pi / 180
	c1s, c2s := math.Hypot(p.A, p.B), math.Hypot(q.A, q.B)
	cm := (c1s + c2s) / 2
	g := 0.5 * (1 - math.Sqrt(math.Pow(cm, 7)/(math.Pow(cm, 7)+math.Pow(25, 7))))
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	cp1, cp2 := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / rad
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(p.B, a1), hue(q.B, a2)
	dL, dC := q.L-p.L, cp2-cp1
	dh := 0.0
	if cp1*cp2 != 0 {
		dh = h2 - h1
		switch {
		case dh > 180:
			dh -= 360
		case dh < -180:
			dh += 360
		}
	}
	dH := 2 * math.Sqrt(cp1*cp2) * math.Sin(dh/2*rad)
	lm, cpm := (p.L+q.L)/2, (cp1+cp2)/2
	hm := h1 + h2
	if cp1*cp2 != 0 {
		switch {
		case math.Abs(h1-h2) <= 180:
			hm = (h1 + h2) / 2
		case h1+h2 < 360:
			hm = (h1 + h2 + 360) / 2
		default:
			hm = (h1 + h2 - 360) / 2
		}
	}
	t := 1 - 0.17*math.Cos((hm-30)*rad) + 0.24*math.Cos(2*hm*rad) + 0.32*math.Cos((3*hm+6)*rad) - 0.20*math.Cos((4*hm-63)*rad)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	rc := 2 * math.Sqrt(math.Pow(cpm, 7)/(math.Pow(cpm, 7)+math.Pow(25, 7)))
	sl := 1 + 0.015*(lm-50)*(lm-50)/math.Sqrt(20+(lm-50)*(lm-50))
	sc := 1 + 0.045*cpm
	sh := 1 + 0.015*cpm*t
	rt := -math.Sin(2*dTheta*rad) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// contrast is the WCAG 2 contrast ratio of a and b (1 to 21).
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		l := toLab(c) // Y from L*
		y := (l.L + 16) / 116
		if y3 := y * y * y; y3 > 216.0/24389 {
			return y3
		}
		return l.L * 27 / 24389
	}
	x, y := lum(a), lum(b)
	return (max(x, y) + 0.05) / (min(x, y) + 0.05)
}

// deltaE00 against Sharma, Wu and Dalal's published test pairs (2005,
// table 1: pairs 1, 7, 17, 25) and the range's ends.
func TestDeltaE00MatchesPublishedPairs(t *testing.T) {
	for _, c := range []struct {
		a, b lab
		want float64
	}{
		{lab{50, 2.6772, -79.7751}, lab{50, 0, -82.7485}, 2.0425},
		{lab{50, 0, 0}, lab{50, -1, 2}, 2.3669},
		{lab{50, 2.5, 0}, lab{73, 25, -18}, 27.1492},
		{lab{60.2574, -34.0099, 36.2677}, lab{60.4626, -34.1751, 39.4387}, 1.2644},
	} {
		assert.InDelta(t, c.want, deltaE00Lab(c.a, c.b), 0.0001, "%+v %+v", c.a, c.b)
	}
	assert.InDelta(t, 100, deltaE00(rgb(0xffffff), rgb(0x000000)), 0.01)
	assert.InDelta(t, 21, contrast(rgb(0xffffff), rgb(0x000000)), 0.01)
}

// The VA bins' colours are told apart from every cell state's (sg-sync
// draws its IOMMU bins beside its buffer grid: a bin must not read as
// "stale" or "cached"), in both palettes: CIEDE2000 20 or more from each
// cell-state colour and from the background, surface and text; 10 or
// more from the same view's mapping sizes and TLB owners; 15 or more
// from each other (a frame's colour names one bin); and each bin's
// number, drawn in Background, at 4.5:1 contrast (WCAG AA) or more. (The
// palettes have no separate colour-blind choice: the cell colours are
// Okabe-Ito's, and stale and lost cells are hatched as well.)
func TestBinColoursStandApartFromCellStates(t *testing.T) {
	for name, p := range map[string]Palette{"dark": Dark(), "light": Light()} {
		near := map[Color]string{Background: "background", Surface: "surface", Text: "text"}
		for st := timeline.CellState(0); st < timeline.NumCellStates; st++ {
			near[CellColor(st)] = st.String()
		}
		view := map[Color]string{Page4K: "4K page", Page64K: "64K contig", Block2M: "2M block", Block1G: "1G block", CoreOwned: "core-owned", UnitOwned: "unit-owned"}
		least := 1e9
		for b := range maxFlowBins {
			c := p.RGBA(BinColor(b))
			for o, what := range near {
				d := deltaE00(c, p.RGBA(o))
				least = min(least, d)
				assert.GreaterOrEqual(t, d, 20.0, "%s: bin %d is %.1f from %s", name, b+1, d, what)
			}
			for o, what := range view {
				d := deltaE00(c, p.RGBA(o))
				assert.GreaterOrEqual(t, d, 10.0, "%s: bin %d is %.1f from %s", name, b+1, d, what)
			}
			for o := b + 1; o < maxFlowBins; o++ {
				d := deltaE00(c, p.RGBA(BinColor(o)))
				assert.GreaterOrEqual(t, d, 15.0, "%s: bins %d and %d are %.1f apart", name, b+1, o+1, d)
			}
			r := contrast(c, p.RGBA(Background))
			assert.GreaterOrEqual(t, r, 4.5, "%s: bin %d's number at %.2f:1", name, b+1, r)
		}
		t.Logf("%s: a bin is CIEDE2000 %.1f or more from every cell-state, background, surface and text colour", name, least)
	}
}
