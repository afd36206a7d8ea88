package render

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// maxPieceLinks is the most physical pieces joined to the VA strip one
// line each; more (a buffer of order-0 pages) are joined bin to bin.
const maxPieceLinks = 16

// maxFlowBins bounds the bins each strip is cut into for the bin-to-bin
// lines.
const maxFlowBins = 8

// pmFlow is the page-mapping view's bin-to-bin joining of its strips:
// the VA strip and the physical strip each cut into bins equal in width,
// and for each pair of bins the pages of the first that lie in the
// second. A line joins each pair with pages, as wide as its share of the
// fullest VA bin, so 262144 order-0 pages read as a few bands (where
// each part of the buffer went) rather than thousands of crossing lines.
// Merged runs (past timeline.MaxMappings) have no recorded places and
// are left out (skipped counts their pages).
type pmFlow struct {
	on         bool
	bins       int
	pages      [maxFlowBins][maxFlowBins]uint64
	paLo, paHi [maxFlowBins]uint64
	skipped    uint64
	// vaLo, pageBytes: the VA window and its bins' span, for hover.
	vaLo, vaSpan uint64
}

func (f *pmFlow) reset(p *pmStrips, on bool) {
	*f = pmFlow{on: on, bins: min(max(int(p.w/56), 2), maxFlowBins), vaLo: p.lo, vaSpan: uint64(p.span)}
	for b := range f.paLo {
		f.paLo[b] = ^uint64(0)
	}
}

// add counts unit u, drawn from px on the physical strip.
func (f *pmFlow) add(p *pmStrips, u *paUnit, px float32) {
	if !f.on {
		return
	}
	if u.scattered {
		f.skipped += u.bytes / 4096
		return
	}
	vb := min(int(float64(u.va-p.lo)/p.span*float64(f.bins)), f.bins-1)
	pb := min(max(int((px-p.x)/p.w*float32(f.bins)), 0), f.bins-1)
	f.pages[vb][pb] += max(u.bytes/4096, 1)
	f.paLo[pb] = min(f.paLo[pb], u.pa)
	f.paHi[pb] = max(f.paHi[pb], u.pa+u.bytes)
}

// flows draws the bin-to-bin lines between the strips' note rows.
func (v *pageMapView) flows(s *Scene, p *pmStrips) {
	f := &v.flow
	l0, l1 := p.links()
	if !f.on || l1-l0 < 4 {
		return
	}
	binW := p.w / float32(f.bins)
	fullest := uint64(0)
	for vb := 0; vb < f.bins; vb++ {
		sum := uint64(0)
		for pb := 0; pb < f.bins; pb++ {
			sum += f.pages[vb][pb]
		}
		fullest = max(fullest, sum)
	}
	if fullest == 0 {
		return
	}
	// Thin enough that crossing lines read as a lattice, not a solid band.
	widest := min(binW*0.25, 6, max((l1-l0)/4, 2))
	for vb := 0; vb < f.bins; vb++ {
		for pb := 0; pb < f.bins; pb++ {
			n := f.pages[vb][pb]
			if n == 0 {
				continue
			}
			w := max(widest*float32(n)/float32(fullest), 1)
			x0, x1 := p.x+binW*(float32(vb)+0.5), p.x+binW*(float32(pb)+0.5)
			s.Add(Item{Kind: KindLine, ID: transSideIDs[v.d.side].pmLink, Index: int32(vb*maxFlowBins + pb), X: x0, Y: l0, X2: x1, Y2: l1,
				Fill: None, Stroke: Muted, StrokeWidth: w, Ref: Ref{Kind: RefFlow, Side: v.d.side, Obj: int32(vb), Index: int32(pb), Count: int32(min(n, 1<<31-1))}})
		}
	}
}

// binNote is the VA strip's note on its bins: "8 bins of 32768 pages".
func (f *pmFlow) binNote(txt *texts) string {
	if !f.on {
		return ""
	}
	return txt.Join(txt.Num(float64(f.bins)), " bins of ", txt.Join(txt.Num(float64(f.vaSpan/uint64(f.bins)/4096)), " pages", ""))
}

// describeFlow says what a bin-to-bin line joins.
func (v *pageMapView) describeFlow(r Ref) string {
	f := &v.flow
	vb, pb := int(r.Obj), int(r.Index)
	if !f.on || vb >= f.bins || pb >= f.bins {
		return ""
	}
	span := f.vaSpan / uint64(f.bins)
	lo := f.vaLo + uint64(vb)*span
	out := fmt.Sprintf("%s: %d pages (%s) of VA %#x..%#x (bin %d of %d) lie in PA %#x..%#x (physical bin %d of %d); a line's width is its share of the fullest VA bin",
		v.d.name(), r.Count, scenario.FormatBytes(int64(r.Count)*4096), lo, lo+span-1, vb+1, f.bins, f.paLo[pb], f.paHi[pb]-1, pb+1, f.bins)
	if f.skipped > 0 {
		out += fmt.Sprintf(" · %d pages past the record's first mapping runs have no recorded places and no line", f.skipped)
	}
	return out
}
