package render

import (
	"image/color"

	"github.com/dmaviz/dmaviz/model/timeline"
)

// Color is an index into a Palette. Views pick colours by meaning; the
// painter or SVG writer maps them to RGBA with the palette in use (dark for
// the stage and projectors, light for documentation figures).
type Color uint8

const (
	None       Color = iota // transparent: no fill or no stroke
	Background              // what the stage clears to
	Surface                 // panels, empty cells, bar tracks
	Text                    // primary text and outlines
	Muted                   // secondary text, axes, grid lines
	Cursor                  // the time cursor and the hovered item
	// Meaning colours: each stands for one thing on every view (Meaning
	// lists them). Mostly the Okabe-Ito colours (Okabe & Ito 2008), which
	// stay apart with the common forms of colour blindness; hazards (Red,
	// Purple) also carry hatching, and A and B are told apart by marks, not
	// colour.
	Orange // a device wrote (device-written cells, DMA phases)
	Sky    // invalidated (DC IVAC)
	Green  // copied out correctly
	Yellow // in the CPU cache (cached cells, valid ways, CPU reads)
	Blue   // read through a Normal-NC mapping
	Red    // stale: the CPU read an older version (hatched)
	Purple // lost: overwritten or dropped unreported (cross-hatched)
	Grey   // the CPU wrote (cpu-written cells, dirty ways, CPU writes)
	Violet // cleaned to the point of coherency (DC CVAC)
	Accent // a second pointer colour, neutral, readable as text
	White  // waiting in a barrier (DSB SY)
	Steel  // a driver call (stop the ETR, a DMA API call)
	// Translation meanings (page-mapping and TLB views): a mapping's leaf
	// size on one sequential scale (lighter on the stage = larger), and a
	// TLB entry's owner.
	Page4K    // a 4 KiB page
	Page64K   // a 64 KiB contiguous run
	Block2M   // a 2 MiB block
	Block1G   // a 1 GiB block
	CoreOwned // a TLB entry the core's miss allocated
	UnitOwned // a TLB entry a trace unit's miss allocated
	// Outdated cached copies, before they become a hazard: each striped
	// in the colour of the hazard it turns into.
	Rose // a stale copy: cached, older than memory (striped Red)
	Plum // a doomed line: dirty over newer data (striped Purple)
	// The page-mapping view's VA bins (BinColor): a scattered buffer's
	// physical frames carry the colour of the part of the buffer they
	// hold. sg-sync draws them beside its buffer grid, so each is chosen
	// apart from every cell-state colour (CIEDE2000 20 or more), from the
	// background, surface and text, and from the mapping sizes and TLB
	// owners of the same view (10 or more), from each other (15 or more),
	// with its number, drawn in Background, at 4.5:1 contrast or more
	// (palette_test.go checks each).
	Bin1
	Bin2
	Bin3
	Bin4
	Bin5
	Bin6
	Bin7
	Bin8
	NumColors
)

// Palette maps every Color to an RGBA value.
type Palette [NumColors]color.RGBA

// RGBA returns the colour for c (transparent for None or an unknown index).
func (p *Palette) RGBA(c Color) color.RGBA {
	if c >= NumColors {
		return color.RGBA{}
	}
	return p[c]
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// Dark is the stage palette: near-black background, light text, the
// Okabe-Ito colours at full strength (high contrast on a projector).
func Dark() Palette {
	return Palette{
		None:       {},
		Background: rgb(0x111418),
		Surface:    rgb(0x2a2f36),
		Text:       rgb(0xf2f2f2),
		Muted:      rgb(0x9aa3ad),
		Cursor:     rgb(0xffffff),
		Orange:     rgb(0xe69f00),
		Sky:        rgb(0x56b4e9),
		Green:      rgb(0x009e73),
		Yellow:     rgb(0xf0e442),
		Blue:       rgb(0x2f6fd6), // Okabe-Ito blue 0072b2, lightened for a dark background
		Red:        rgb(0xff4d4d), // brighter than vermillion, so it does not read as Orange on a projector
		Purple:     rgb(0xcc79a7),
		Grey:       rgb(0xbbbbbb),
		Violet:     rgb(0xa98bff),
		Accent:     rgb(0xc8d0d8),
		White:      rgb(0xf2f2f2),
		Steel:      rgb(0x7d8da3),
		Page4K:     rgb(0x2e6670),
		Page64K:    rgb(0x3a9fae),
		Block2M:    rgb(0x7fdde6),
		Block1G:    rgb(0xd2fbff),
		CoreOwned:  rgb(0xf0a070),
		UnitOwned:  rgb(0x9ee060),
		Rose:       rgb(0xffc2c2),
		Plum:       rgb(0x7e3f86),
		Bin1:       rgb(0xcc6000),
		Bin2:       rgb(0xa8846c),
		Bin3:       rgb(0x909c00),
		Bin4:       rgb(0x848460),
		Bin5:       rgb(0x3cc00c),
		Bin6:       rgb(0xb4d8a8),
		Bin7:       rgb(0x00fc90),
		Bin8:       rgb(0x3cf0d8),
	}
}

// Light is the documentation palette: white background, black text.
func Light() Palette {
	return Palette{
		None:       {},
		Background: rgb(0xffffff),
		Surface:    rgb(0xe8eaed),
		Text:       rgb(0x111111),
		Muted:      rgb(0x5f6670),
		Cursor:     rgb(0x000000),
		Orange:     rgb(0xe69f00),
		Sky:        rgb(0x56b4e9),
		Green:      rgb(0x009e73),
		Yellow:     rgb(0xf0e442),
		Blue:       rgb(0x0072b2),
		Red:        rgb(0xd62728),
		Purple:     rgb(0xcc79a7),
		Grey:       rgb(0x777777),
		Violet:     rgb(0x7b5cd6),
		Accent:     rgb(0x4a5560),
		White:      rgb(0x222222), // the barrier colour is the text colour on paper
		Steel:      rgb(0x8a9ab0),
		Page4K:     rgb(0xb3e3ea),
		Page64K:    rgb(0x5fbfcc),
		Block2M:    rgb(0x1c8796),
		Block1G:    rgb(0x0a4650),
		CoreOwned:  rgb(0xb0561c),
		UnitOwned:  rgb(0x4d8a1a),
		Rose:       rgb(0xf6b8b8),
		Plum:       rgb(0x5e2a66),
		Bin1:       rgb(0xc00060),
		Bin2:       rgb(0x6c4848),
		Bin3:       rgb(0x783000),
		Bin4:       rgb(0x9c6c30),
		Bin5:       rgb(0x544818),
		Bin6:       rgb(0x6c7818),
		Bin7:       rgb(0x0c5418),
		Bin8:       rgb(0x0c6c6c),
	}
}

// CellColor is the colour of a cell state. Stale and lost cells are also
// hatched by the grid view, so they do not rely on colour alone.
func CellColor(s timeline.CellState) Color {
	switch s {
	case timeline.CellDeviceWritten:
		return Orange
	case timeline.CellCPUWritten:
		return Grey
	case timeline.CellInvalidated:
		return Sky
	case timeline.CellCleaned:
		return Violet
	case timeline.CellCached:
		return Yellow
	case timeline.CellCopied:
		return Green
	case timeline.CellStale:
		return Red
	case timeline.CellLost:
		return Purple
	case timeline.CellUncachedRead:
		return Blue
	case timeline.CellStaleCopy:
		return Rose
	case timeline.CellDoomed:
		return Plum
	}
	return Surface
}

// Severity orders cell states for aggregation: when one drawn cell stands
// for many, it shows the state with the highest severity, so one stale line
// in a million stays visible.
func Severity(s timeline.CellState) int {
	switch s {
	case timeline.CellLost:
		return 11
	case timeline.CellStale:
		return 10
	case timeline.CellDoomed:
		return 9
	case timeline.CellStaleCopy:
		return 8
	case timeline.CellDeviceWritten:
		return 7
	case timeline.CellCached:
		return 6
	case timeline.CellInvalidated:
		return 5
	case timeline.CellCleaned:
		return 4
	case timeline.CellUncachedRead:
		return 3
	case timeline.CellCPUWritten:
		return 2
	case timeline.CellCopied:
		return 1
	}
	return 0
}
