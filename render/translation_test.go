package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

const tBase = 0xffff_8000_8000_0000

// transResult is a hand-made translation run: a 4 MiB buffer whose first
// 2 MiB are 4 KiB pages (two 1 MiB chunks, the second below the first in
// PA) and whose last 2 MiB are one block; a 2-entry L1 TLB filled three
// times (evicting the first entry), and one four-level walk at 100..400 ns.
func transResult(t testing.TB, pages int) *scenario.Result {
	t.Helper()
	r := timeline.NewRecorder()
	g := r.AddGrid(timeline.GridSpec{ID: "buf", Label: "buffer", Base: tBase, CellBytes: 4096, Cells: pages})
	_ = g
	if pages == 1024 {
		r.AddChunk(timeline.Chunk{PA: 0x4010_0000, Order: 8, VA: tBase})
		r.AddChunk(timeline.Chunk{PA: 0x4000_0000, Order: 8, VA: tBase + 1<<20})
		r.AddChunk(timeline.Chunk{PA: 0x4040_0000, Order: 9, VA: tBase + 2<<20})
		for i := 0; i < 512; i++ {
			pa := uint64(0x4010_0000) + uint64(i)<<12
			chunk := 0
			if i >= 256 {
				pa, chunk = 0x4000_0000+uint64(i-256)<<12, 1
			}
			r.MapRun(timeline.Mapping{VA: tBase + uint64(i)<<12, PA: pa, Bytes: 4096, Leaf: timeline.Leaf4K, Attr: "normal-wb", Chunk: chunk, Buffer: "buf"})
		}
		r.MapRun(timeline.Mapping{VA: tBase + 2<<20, PA: 0x4040_0000, Bytes: 2 << 20, Leaf: timeline.Leaf2M, Attr: "normal-wb", Chunk: 2, Buffer: "buf"})
	} else {
		// Scattered pages: every page its own run.
		for i := 0; i < pages; i++ {
			r.MapRun(timeline.Mapping{VA: tBase + uint64(i)<<12, PA: uint64(2*i+1) << 12, Bytes: 4096, Leaf: timeline.Leaf4K, Attr: "normal-wb", Chunk: -1, Buffer: "buf"})
		}
	}
	k := r.AddTLB(timeline.TLBSpec{Name: "l1", Label: "L1 TLB", Entries: 2, Ways: 2})
	fill := func(ts sim.Time, i int, va uint64, bytes uint64) {
		r.TLBFill(ts, k, i, timeline.TLBEntryRec{VA: va, PA: va - tBase + 0x4000_0000, Bytes: bytes, Owner: 2})
	}
	fill(50, 0, tBase, 4096)
	fill(60, 1, tBase+0x1000, 4096)
	fill(450, 0, tBase+2<<20, 2<<20)
	p := r.AddPointer(timeline.PointerSpec{ID: "trbe", Agent: 2})
	r.MovePointer(0, p, tBase)
	r.MovePointer(500, p, tBase+3<<20)
	r.BeginWalk()
	kinds := []string{timeline.DescTable, timeline.DescTable, timeline.DescBlock}
	for l := 0; l < 3; l++ {
		r.WalkStep(timeline.WalkStep{T: sim.Time(100 * (l + 1)), Agent: 2, VA: tBase + 2<<20, Level: l,
			DescAddr: 0x1000 + uint64(l)*8, Desc: 3, Kind: kinds[l], WalkCache: l == 0})
	}
	tl := r.Finish(1000)
	return &scenario.Result{Policy: "x", Timeline: tl, End: 1000}
}

func transFrame(res *scenario.Result, t sim.Time, z Zoom) *Frame {
	var st timeline.State
	res.Timeline.StateAt(len(res.Timeline.Events), &st)
	return &Frame{A: Side{Result: res, State: &st, Time: t}, B: Side{Result: res, State: &st, Time: t},
		Cursor: t, Length: res.End, W: 1400, H: 860, Zoom: z}
}

func colours(items []Item) map[Color]float32 {
	out := map[Color]float32{}
	for _, it := range items {
		out[it.Fill] += it.W
	}
	return out
}

// The whole buffer: half its width in 4K colour, half in 2M colour, the
// three chunks outlined, the 2 MiB block's physical piece coloured as a
// block, the pointer where the run left it, and hover words for a block.
func TestPageMapWholeBuffer(t *testing.T) {
	res := transResult(t, 1024)
	var s Scene
	st := NewStage()
	st.Build(&s, transFrame(res, 1000, Zoom{}))
	va := find(&s, "a/pm-va")
	require.NotEmpty(t, va)
	c := colours(va)
	var total float32
	for _, w := range c {
		total += w
	}
	assert.InDelta(t, 0.5, c[LeafColor(timeline.Leaf2M)]/total, 0.01, "the block is half the buffer")
	assert.InDelta(t, 0.5, c[LeafColor(timeline.Leaf4K)]/total, 0.01, "the pages are the other half")
	assert.LessOrEqual(t, len(va), 3, "equal neighbours merge into one rectangle")
	assert.Len(t, find(&s, "a/pm-chunk"), 3)
	require.Len(t, find(&s, "a/pm-sep"), 1, "4 KiB leaves are too narrow to separate; the block's edge is drawn")
	pa := find(&s, "a/pm-pa")
	require.Len(t, pa, 3, "three chunks in PA order")
	assert.InDelta(t, pa[0].X+pa[0].W, pa[1].X, 0.01, "chunk 0 follows chunk 1 in PA: no gap")
	assert.Less(t, pa[1].X+pa[1].W+2, pa[2].X, "a gap before the block's chunk")
	assert.Equal(t, LeafColor(timeline.Leaf2M), pa[2].Fill)
	ptr := find(&s, "a/pm-pointer")
	require.Len(t, ptr, 1)
	x0, x1 := va[0].X, va[len(va)-1].X+va[len(va)-1].W
	assert.InDelta(t, x0+(x1-x0)*0.75, ptr[0].X, 1, "the pointer at 3 MiB of 4")
	last := va[len(va)-1]
	h, ok := s.HitTest(last.X+last.W/2, last.Y+last.H/2)
	require.True(t, ok)
	assert.Contains(t, h.Info, "2M block")
	assert.Contains(t, h.Info, "PA 0x40400000")
	assert.Contains(t, h.Info, "chunk 2 (order 9")
}

// Zoomed to 16 pages: each page its own leaf with a separator, the
// pointer outside the window.
func TestPageMapZoomToPages(t *testing.T) {
	res := transResult(t, 1024)
	var s Scene
	NewStage().Build(&s, transFrame(res, 1000, Zoom{First: 250, Count: 16}))
	assert.Len(t, find(&s, "a/pm-sep"), 15)
	assert.Empty(t, find(&s, "a/pm-pointer"))
	// Pages 250..255 are chunk 0, 256..265 chunk 1: two PA pieces, in PA
	// order chunk 1 first, joined by crossing lines.
	pa := find(&s, "a/pm-pa")
	require.Len(t, pa, 2)
	links := find(&s, "a/pm-link")
	require.Len(t, links, 2)
	assert.Greater(t, links[0].X, links[0].X2, "chunk 1 comes first in PA but second in VA")
	for _, it := range find(&s, "a/pm-label") {
		assert.Contains(t, it.Text, "64KiB")
	}
}

// A 1 GiB buffer of scattered 4 KiB pages stays a bounded drawing.
func TestPageMapGiBBounded(t *testing.T) {
	res := transResult(t, 1<<18)
	require.LessOrEqual(t, len(res.Timeline.Translation.Mappings), timeline.MaxMappings)
	var s Scene
	NewStage().Build(&s, transFrame(res, 1000, Zoom{}))
	assert.LessOrEqual(t, len(find(&s, "a/pm-va")), 700)
	assert.LessOrEqual(t, len(find(&s, "a/pm-pa")), 700)
	assert.LessOrEqual(t, len(find(&s, "a/pm-link")), maxLinks)
	assert.Less(t, len(s.Items), 5000)
}

// The TLB view: the last fill outlined and the evicted entry named; the
// walk's levels appear as they arrive.
func TestTLBViewFillEvictWalk(t *testing.T) {
	res := transResult(t, 1024)
	var s Scene
	st := NewStage()
	st.Build(&s, transFrame(res, 250, Zoom{}))
	steps := find(&s, "a/walk-text")
	require.Len(t, steps, 4)
	assert.Contains(t, steps[0].Text, "walk-cache hit")
	assert.Contains(t, steps[1].Text, "read from memory")
	assert.Contains(t, steps[2].Text, "reading…", "level 2 arrives at 300")
	assert.Len(t, find(&s, "a/walk-now"), 1)
	ents := find(&s, "a/tlb-entry")
	require.Len(t, ents, 2)
	assert.Equal(t, LeafColor(4096), ents[0].Fill)
	filled := find(&s, "a/tlb-filled")
	require.Len(t, filled, 1)
	assert.InDelta(t, ents[1].X, filled[0].X, 1.5, "entry 1 was filled last")
	assert.Greater(t, filled[0].X, ents[0].X+ents[0].W-1)

	s = Scene{}
	st.Build(&s, transFrame(res, 460, Zoom{}))
	steps = find(&s, "a/walk-text")
	assert.Contains(t, steps[2].Text, "block")
	assert.Contains(t, steps[3].Text, "not needed")
	ents = find(&s, "a/tlb-entry")
	assert.Equal(t, LeafColor(2<<20), ents[0].Fill)
	var notes []string
	for _, it := range find(&s, "a/tlb-note") {
		notes = append(notes, it.Text)
	}
	joined := strings.Join(notes, " | ")
	assert.Contains(t, joined, "evicted 0xffff800080000000")
	h, ok := s.HitTest(ents[0].X+ents[0].W/2, ents[0].Y+ents[0].H-1)
	require.True(t, ok)
	assert.Contains(t, h.Info, "2M block")
	assert.Contains(t, h.Info, "entry 0 (set 0 way 0)")
}

// One colour per leaf size, none of them the empty colour nor a cell
// state's or phase's colour (a band under the grids shares the stage).
func TestLeafColoursDistinct(t *testing.T) {
	for c := timeline.CellState(0); c < timeline.NumCellStates; c++ {
		for _, l := range leafLegend {
			assert.NotEqual(t, CellColor(c), LeafColor(l.bytes), "%s has the colour of %s", l.name, c)
		}
		assert.NotEqual(t, CellColor(c), OwnerColor(1))
		assert.NotEqual(t, CellColor(c), OwnerColor(2))
	}
	for _, m := range []PhaseMeaning{meaningDevice, meaningRead, meaningWrite, meaningNCRead, meaningCopy, meaningInvalidate, meaningClean, meaningDSB, meaningCall} {
		for _, l := range leafLegend {
			assert.NotEqual(t, m.Color, LeafColor(l.bytes), "%s has the colour of %s", l.name, m.Label)
		}
	}
	seen := map[Color]uint64{}
	for _, l := range leafLegend {
		c := LeafColor(l.bytes)
		assert.NotEqual(t, Surface, c)
		_, dup := seen[c]
		assert.False(t, dup, "%s shares a colour", l.name)
		seen[c] = l.bytes
	}
}

// Any zoom and cursor builds a frame whose mapping strips stay inside
// their column and cover the window without gaps.
func TestPageMapAnyZoom(t *testing.T) {
	res := transResult(t, 1024)
	st := NewStage()
	var s Scene
	for i := 0; i < 200; i++ {
		first, count := (i*37)%1024, 1+(i*101)%1100
		f := transFrame(res, sim.Time(i*7), Zoom{First: first, Count: count})
		st.Build(&s, f)
		va := find(&s, "a/pm-va")
		require.NotEmpty(t, va, "zoom %d+%d", first, count)
		var w float32
		for _, it := range va {
			w += it.W
			assert.GreaterOrEqual(t, it.X, float32(0))
			assert.LessOrEqual(t, it.X+it.W, f.W/2+1)
		}
		assert.InDelta(t, va[len(va)-1].X+va[len(va)-1].W-va[0].X, w, 0.5, "no gaps")
		for _, it := range va {
			assert.NotEqual(t, Surface, it.Fill, "every page of the window is mapped")
		}
	}
}

// Mappings without TLBs (a device's IOVAs) add a band with its own
// legend under the usual views; the stage legend stays the cell states'.
func TestIOVABandUnderTheGrids(t *testing.T) {
	r := timeline.NewRecorder()
	r.AddGrid(timeline.GridSpec{ID: "phys", Label: "physical", Base: 0x4000_0000, CellBytes: 64, Cells: 256})
	for i := 0; i < 4; i++ {
		r.MapRun(timeline.Mapping{VA: 0xffff_f000_0000 + uint64(i)<<12, PA: 0x4000_0000 + uint64(3-i)<<12, Bytes: 4096,
			Leaf: timeline.Leaf4K, Chunk: -1, Buffer: "iova", T: 100})
	}
	res := &scenario.Result{Policy: "x", Timeline: r.Finish(1000), End: 1000}
	var s Scene
	st := NewStage()
	st.Build(&s, transFrame(res, 50, Zoom{}))
	require.NotEmpty(t, find(&s, "a/grid"), "the grid is still drawn")
	assert.Empty(t, find(&s, "a/tlb-entry"))
	label := find(&s, "a/pm-label")
	require.Len(t, label, 1)
	assert.Contains(t, label[0].Text, "IOMMU mappings · IOVA 0xfffff0000000")
	for _, it := range find(&s, "a/pm-va") {
		assert.Equal(t, Surface, it.Fill, "not mapped yet at 50")
	}
	s = Scene{}
	st.Build(&s, transFrame(res, 200, Zoom{}))
	assert.Equal(t, LeafColor(timeline.Leaf4K), find(&s, "a/pm-va")[0].Fill)
	sw := find(&s, "a/pm-legend")
	require.Len(t, sw, 1, "only the size the mappings have: 4K pages")
	assert.Equal(t, LeafColor(timeline.Leaf4K), sw[0].Fill)
	lab := find(&s, "a/pm-legend-label")
	require.Len(t, lab, 1)
	assert.Equal(t, "4K page", lab[0].Text)
	h, ok := s.HitTest(lab[0].X+4, lab[0].Y-4)
	require.True(t, ok)
	assert.Contains(t, h.Info, "mapping size: 4K page")
	assert.Empty(t, find(&s, "legend/tl-swatch"), "the stage legend stays the cell states'")
	assert.Len(t, find(&s, "a/pm-link"), 4, "four scattered pages joined in reverse")
}

// In a 960x600 embed the walk's title is shortened, but keeps which walk
// of how many it shows (trbe-aux's order-0 run draws one walk in many).
func TestWalkTitleKeepsItsSampling(t *testing.T) {
	sc, err := catalog.Registry().Get("trbe-aux")
	require.NoError(t, err)
	a, b := runPolicy(t, sc, "order0"), runPolicy(t, sc, "prefer-large")
	end := max(a.End, b.End)
	f := frameAt(a, b, end, 960, 600)
	f.Left, f.Bottom = 0, 40
	var s Scene
	NewStage().Build(&s, f)
	titles := joinTexts(&s, "a/walk-label")
	require.NotEmpty(t, titles)
	if a.Timeline.Translation.WalkStride > 1 {
		assert.Contains(t, titles, " in ", "walk title %q", titles)
	}
	assert.NotContains(t, titles, "…", "walk title %q", titles)
	// Its rows too keep their level, what it holds and how it was read.
	rows := joinTexts(&s, "a/walk-text")
	assert.NotContains(t, rows, "…", "walk rows %q", rows)
	assert.Regexp(t, `L[0-3] (·|=) .*(table|page|block) · (read from memory|walk-cache hit)`, rows)
}
