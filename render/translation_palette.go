package render

import (
	"github.com/dmaviz/dmaviz/model/timeline"
)

// The page-mapping and TLB views' colours, in one place. Each view has
// one colour per meaning: a mapping or TLB entry by its size, a TLB entry's
// owner by the requester, the last change by an outline. The colours are
// the palette's translation meanings, apart from every cell and phase
// colour, so a page-mapping band under a buffer's grids reads on its own.

// LeafColor is the colour of a mapping or TLB entry of bytes.
func LeafColor(bytes uint64) Color {
	switch {
	case bytes >= timeline.Leaf1G:
		return Block1G
	case bytes >= timeline.Leaf2M:
		return Block2M
	case bytes >= timeline.Leaf64K:
		return Page64K
	case bytes > 0:
		return Page4K
	}
	return Surface
}

// leafLegend lists the leaf sizes in legend order.
var leafLegend = [...]struct {
	bytes uint64
	name  string
}{{timeline.Leaf4K, "4K page"}, {timeline.Leaf64K, "64K contig"}, {timeline.Leaf2M, "2M block"}, {timeline.Leaf1G, "1G block"}}

// OwnerColor is the colour of the requester that allocated a TLB entry:
// the core, or a trace unit.
func OwnerColor(owner uint8) Color {
	if owner <= 1 {
		return CoreOwned
	}
	return UnitOwned
}

// The outlines of the TLB view and the page-mapping view.
const (
	filledColor  = Cursor // the entry filled last
	evictedColor = Accent // the entry that was evicted to make room
	chunkColor   = Muted  // an allocator chunk's outline (structure, like grid lines)
	walkReadCol  = Muted  // a walk step read from memory
	walkHitCol   = Cursor // a walk step found in a walk cache
)

// BinColor is the colour of VA bin b of the page-mapping view (Bin1 for
// the first, round the eight).
func BinColor(b int) Color { return Bin1 + Color(b%maxFlowBins) }
