package render

import (
	"github.com/dmaviz/dmaviz/model/timeline"
)

// tipSz is the size of the hover description beside the pointer.
const tipSz = 14

// Hover outlines the item under (x, y) and shows its description in a box
// beside the pointer, kept inside the scene right of left. It reports what
// it described ("" when the pointer is over nothing that explains itself).
func (s *Scene) Hover(x, y, left float32) string {
	h, ok := s.HitTest(x, y)
	if !ok || h.Info == "" {
		return ""
	}
	s.Highlight(&h.Item)
	s.tooltip(h.Info, x, y, left)
	return h.Info
}

// tooltip draws text wrapped in a box below and right of (x, y), flipped
// left or up where the scene's edge is near.
func (s *Scene) tooltip(text string, x, y, left float32) {
	k := max(s.Scale, 1)
	size := tipSz * k
	maxW := min(420*k, s.W-left-16)
	if maxW < 60 {
		return
	}
	lines := Wrap(text, maxW-12, size)
	if len(lines) == 0 {
		return
	}
	w := float32(0)
	for _, l := range lines {
		w = max(w, textWidth(l, size))
	}
	w += 12
	lineH := size * 1.3
	h := lineH*float32(len(lines)) + 8
	bx, by := x+16, y+18
	if bx+w > s.W-4 {
		bx = max(x-16-w, left+4)
	}
	if by+h > s.H-4 {
		by = max(y-12-h, 4)
	}
	s.Add(Item{Kind: KindRect, ID: "hover/tip", X: bx, Y: by, W: w, H: h, Fill: Background, Stroke: Cursor, StrokeWidth: 1})
	for i, l := range lines {
		s.Text("hover/tip-text", bx+6, by+4+lineH*float32(i)+size, l, size, Text, AlignStart)
	}
}

// Glossary entries a RefExplain's Index names.
const (
	explainScale        = iota // Obj: cells per square, Count: cell bytes
	explainCounter             // the counters' A/B key
	explainMore                // Obj: counters that did not fit, Count 1 beside the panel
	explainRing                // a grid drawn as a ring
	explainCache               // a cache window: Obj first set, Count total sets
	explainCounterChart        // the PMU counter chart (Obj: 1 + its counter, 0 the title)
)

// explain says what an explanatory label means.
func explain(r Ref) string {
	switch r.Index {
	case explainScale:
		return "Each square stands for " + itoa(int(r.Obj)) + " " + unitWord(int64(r.Count), int(r.Obj)) +
			" of the buffer; it takes the colour of the most severe state among them (lost, then stale, first), so one stale line stays visible. Scroll to zoom in."
	case explainMore:
		if r.Count == 1 {
			return itoa(int(r.Obj)) + " more figures did not fit here: the panel's metrics table lists every one with its unit, whether it is per call or a whole-run total, and the published figures."
		}
		return itoa(int(r.Obj)) + " more figures did not fit here: the full view (open in dmaviz) lists every one with its unit, whether it is per call or a whole-run total, and the published figures."
	case explainRing:
		return "The buffer above drawn as the circular buffer it is: clockwise from the top, each arc coloured by the most severe state it covers; the pointers are arrows from the centre, the flags are under the ring, and an outer white arc marks the span that was synced."
	case explainCache:
		return "A window on the cache: sets " + itoa(int(r.Obj)) + " onwards of " + itoa(int(r.Count)) + ", one row per set, one column per way. Yellow: a valid clean line; grey: a dirty line (the CPU wrote it); dark: invalid. A white frame marks a way touched just now. Hover a way for its physical line address."
	case explainCounterChart:
		what := "The PMU counters of the last simulated session (the one the views play), counted from its start: A's line wide, B's thin on top, one strip per counter, each scaled to the larger final count; the numbers are each side's count at the cursor. The metrics table averages every iteration, so its figures can differ from this session's."
		switch r.Obj {
		case 1:
			what = "l2d_tlb_refill: allocations into the core's shared L2 TLB after a walk, whoever caused the walk (the trace unit's included). " + what
		case 2:
			what = "l1d_tlb_refill: refills of the core's L1 data TLB, for its own loads and stores only (the trace unit's one-entry TLB is not counted). " + what
		case 3:
			what = "dtlb_walk: walks for the core's own data accesses; the trace unit's walks are not counted. " + what
		}
		return what
	case explainCounter:
		return "Counters: A's bar is filled, B's outlined, both scaled to the larger of the two; the numbers are A / B and the last column B/A. Hover a bar for its meaning; the metrics table (in the panel of the full view) has every figure with its unit."
	}
	return ""
}

// valueHelp explains the named values the scenarios draw (pointers, flags,
// gauges) in words a kernel developer would use.
func valueHelp(v *timeline.ValueSpec) string {
	switch v.ID {
	case "rrp":
		return "RRP, the ETR's read pointer: where the oldest trace byte is. The driver reads it after stopping the ETR; with STS.FULL set the oldest byte is at RWP instead."
	case "rwp":
		return "RWP, the ETR's write pointer: where the ETR writes its next byte. It wraps to the start of the buffer when it reaches the end."
	case "full":
		return "STS.FULL, the ETR's status flag: RWP wrapped, the whole buffer holds data and the oldest byte is at RWP."
	case "head":
		return "perf AUX head: where the driver copies the next byte into the AUX ring (advanced by perf_aux_output_end)."
	case "tail":
		return "perf AUX tail: how far the perf tool has consumed the ring; the driver may not write past it."
	case "truncated":
		return "PERF_AUX_FLAG_TRUNCATED: the AUX ring had less room than the trace, so the record was cut short."
	case "synced":
		return "synced for CPU: on once dma_sync_single_for_cpu (DC IVAC per line, then DSB) has run, so the CPU's reads see what the device wrote; off before it, or when the policy skips it."
	case "dc_outstanding":
		return "cache maintenance (DC) ops issued and not yet waited for: a DSB SY waits until every one of them has completed."
	case "dc_inflight":
		return "DC ops in flight: ops the maintenance queue holds now; each completes a DRAM round trip after it issues."
	case "dev":
		return "device write pointer: how far the device's DMA has written."
	case "cpu":
		return "CPU copy pointer: how far the CPU's copy has read."
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
