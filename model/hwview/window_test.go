package hwview_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// A cache window is placed over the sets a buffer's lines fill: the small
// machine's L2 has 512 sets of 64-byte lines, so a 16 KiB buffer at PA
// 0x4000 fills sets 256..511 and none of sets 0..15; its L1D (128 sets)
// is covered twice over by it, and the window starts at the set of the
// buffer's first line. Of equally full windows, the one at the first
// line's set wins (page order, not PA order).
func TestCacheWindowOverTheBuffersSets(t *testing.T) {
	pages := func(pas ...uint64) []uint64 { return pas }
	for _, tc := range []struct {
		name      string
		pages     []uint64
		size      uint64
		level     int
		wantFirst int
	}{
		{"16 KiB at 0x4000 in L2", pages(0x4000, 0x5000, 0x6000, 0x7000), 16 << 10, 1, 256},
		{"16 KiB at 0x4000 in L1D", pages(0x4000, 0x5000, 0x6000, 0x7000), 16 << 10, 0, 0},
		{"one page at 0x3000 in L2", pages(0x3000), 4 << 10, 1, 192},
		{"two scattered pages, first at 0x10000", pages(0x10000, 0x3000), 8 << 10, 1, 0},
		{"two scattered pages, first at 0x3000", pages(0x3000, 0x10000), 8 << 10, 1, 192},
		{"the page at 0x7000, the end of L2's 32 KiB way", pages(0x7000), 4 << 10, 1, 448},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := smallMachine(t)
			rec := hwview.NewRecording(m, timeline.NewRecorder())
			b := soc.Buffer{Name: "buf", VA: tc.pages[0], Size: tc.size, Pages: tc.pages, Attr: mem.Normal}
			g := rec.Grid("buf", "buffer", b, 64)
			assert.Equal(t, tc.wantFirst, rec.WindowOver(tc.level, 16, g))
			obj := rec.CacheOver("win", "window", tc.level, 16, g)
			require.GreaterOrEqual(t, obj, 0)
			tl := rec.Recorder().Finish(0)
			assert.Equal(t, tc.wantFirst, tl.Caches[obj].FirstSet)
			assert.Equal(t, 16, tl.Caches[obj].Sets)
		})
	}
}

// A window asked for an unknown grid or level starts at set 0, and one as
// wide as the level shows all of it.
func TestCacheWindowOverNothing(t *testing.T) {
	m := smallMachine(t)
	rec := hwview.NewRecording(m, timeline.NewRecorder())
	g := rec.Grid("buf", "buffer", soc.Buffer{Name: "buf", VA: 0x4000, Size: 4096, Pages: []uint64{0x4000}, Attr: mem.Normal}, 64)
	assert.Zero(t, rec.WindowOver(1, 16, g+1), "unknown grid")
	assert.Zero(t, rec.WindowOver(7, 16, g), "unknown level")
	assert.Zero(t, rec.WindowOver(0, 128, g), "the whole L1D")
	assert.Equal(t, 256, rec.WindowOver(1, 16, g))
}
