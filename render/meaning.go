package render

import (
	"strings"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// PhaseMeaning is what a timeline bar stands for: one colour and one legend
// label per meaning, shared by every scenario's phase kinds that mean it
// (an ETR's "dma-write" and an SG device's "dma" are both a device's DMA).
type PhaseMeaning struct {
	Label string // legend text
	Color Color
	Help  string // what the hover says the bar is
}

var (
	meaningDevice     = PhaseMeaning{"device DMA", Orange, "the device transfers data by DMA"}
	meaningRead       = PhaseMeaning{"CPU reads (cached)", Yellow, "the CPU reads the buffer through a cacheable mapping: lines fill the cache"}
	meaningWrite      = PhaseMeaning{"CPU writes", Grey, "the CPU writes the buffer (lines become dirty)"}
	meaningNCRead     = PhaseMeaning{"uncached read", Blue, "the CPU reads through a Normal-NC mapping: every load is its own DRAM read"}
	meaningCopy       = PhaseMeaning{"copy", Green, "the CPU copies the data out"}
	meaningInvalidate = PhaseMeaning{"invalidate (DC IVAC)", Sky, "DC IVAC per line: the CPU's cached copies are dropped"}
	meaningClean      = PhaseMeaning{"clean (DC CVAC)", Violet, "DC CVAC/CIVAC per line: dirty lines are written to the point of coherency"}
	meaningDSB        = PhaseMeaning{"DSB wait", White, "DSB SY: the CPU waits until every queued DC op has completed"}
	meaningCall       = PhaseMeaning{"driver call", Steel, "a driver step (stopping the ETR, a DMA API call); its name is on the bar"}
)

// MeaningOf returns the meaning of a phase kind. Kinds the table does not
// know are driver steps.
func MeaningOf(kind string) PhaseMeaning {
	switch kind {
	case "dma-write", "dma":
		return meaningDevice
	case "read":
		return meaningRead
	case "write", "barrier":
		return meaningWrite
	case "nc-read":
		return meaningNCRead
	case "copy":
		return meaningCopy
	case "invalidate":
		return meaningInvalidate
	case "clean":
		return meaningClean
	case "dsb-wait":
		return meaningDSB
	}
	return meaningCall
}

// PhaseColor is the colour of a phase kind.
func PhaseColor(kind string) Color { return MeaningOf(kind).Color }

// namedOnBar reports whether a phase kind's bar carries its name (kinds
// that share the driver-call colour are told apart by it).
func namedOnBar(kind string) bool {
	return MeaningOf(kind) == meaningCall && !strings.HasPrefix(kind, "idle")
}

// CellLabel is a cell state's name as the legends and hover text show it:
// the state's id (CellState.String, used in exports and traces) with the
// CPU capitalised and "uncached read" spelt as the time-line legend spells
// its phase.
func CellLabel(c timeline.CellState) string {
	switch c {
	case timeline.CellCPUWritten:
		return "CPU-written"
	case timeline.CellUncachedRead:
		return "uncached read"
	case timeline.CellStaleCopy:
		return "stale copy"
	}
	return c.String()
}

// CellHelp says what a cell state means, for the legend's hover.
func CellHelp(c timeline.CellState) string {
	switch c {
	case timeline.CellDeviceWritten:
		return "a device wrote it; the CPU has not looked yet"
	case timeline.CellCPUWritten:
		return "the CPU wrote it (a dirty line, or written back)"
	case timeline.CellInvalidated:
		return "invalidated (DC IVAC): the CPU's next read comes from memory"
	case timeline.CellCleaned:
		return "cleaned (DC CVAC): memory holds what the CPU wrote"
	case timeline.CellCached:
		return "filled into the CPU cache by a read"
	case timeline.CellCopied:
		return "copied out by the CPU with the right data"
	case timeline.CellStale:
		return "hazard, hatched: the CPU read an older version than memory holds"
	case timeline.CellLost:
		return "hazard, cross-hatched: data overwritten or dropped without being reported"
	case timeline.CellUncachedRead:
		return "read through the Normal-NC (uncached) mapping"
	case timeline.CellStaleCopy:
		return "striped red: the CPU cache holds a copy older than memory (written after it was cached); reading it now would return stale data"
	case timeline.CellDoomed:
		return "striped purple: the CPU cache holds the line dirty over newer data; its write-back will destroy that data, so it is as good as lost"
	}
	return "not written in this run"
}

// WhyText says what made a cell's cached copy old, for the hover: e.g.
// "the etr wrote this line after the CPU cached it". dev names the
// writer; a doomed line's cause adds what its write-back will do.
func WhyText(st timeline.CellState, why timeline.CellWhy, dev string) string {
	var s string
	switch why {
	case timeline.WhyDeviceWrite:
		s = "the " + dev + " wrote this line after the CPU cached it"
	case timeline.WhyBounceSlot:
		s = "the " + dev + " wrote this line's bounce slot while the CPU had it cached"
	case timeline.WhyNCWrite:
		s = "the CPU wrote this line through its Normal-NC alias while it was cached"
	default:
		return ""
	}
	if st == timeline.CellDoomed {
		s += " dirty: its write-back will overwrite the new data"
	}
	return s
}

// markCell draws a cell state's second cue over its square (x, y, w, h),
// so that no state relies on colour alone: hazards hatched in the
// background colour (lost cross-hatched), an outdated copy striped in the
// colour of the hazard it becomes (a stale copy red, a doomed line
// purple).
func markCell(s *Scene, id string, st timeline.CellState, x, y, w, h float32) {
	switch st {
	case timeline.CellStale:
		hatch(s, id, x, y, w, h, false, Background)
	case timeline.CellLost:
		hatch(s, id, x, y, w, h, true, Background)
	case timeline.CellStaleCopy, timeline.CellDoomed:
		hatch(s, id, x, y, w, h, false, markColor(st))
	}
}

// markColor is the colour an outdated copy is striped in: that of the
// hazard it turns into (a stale copy's read is stale, a doomed line's
// write-back loses data).
func markColor(st timeline.CellState) Color {
	if st == timeline.CellDoomed {
		return Purple
	}
	return Red
}

// hatchGap is the distance between hatch lines, in pixels.
const hatchGap = 4

// hatch draws diagonal lines of colour col (top-left to bottom-right, and
// the other way too when cross is set) over the rectangle (x, y, w, h).
func hatch(s *Scene, id string, x, y, w, h float32, cross bool, col Color) {
	if w <= 0 || h <= 0 {
		return
	}
	// Lines x' - y' = c (falling to the right) for c across [-h, w].
	for c := -h + hatchGap/2; c < w; c += hatchGap {
		x0, y0 := max(c, 0), max(-c, 0)
		n := min(w-x0, h-y0)
		s.Line(id, x+x0, y+y0, x+x0+n, y+y0+n, col, 1)
		if cross {
			s.Line(id, x+w-x0, y+y0, x+w-x0-n, y+y0+n, col, 1)
		}
	}
}
