package soc

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

func countCells(cells []scenario.Cell, st scenario.CellState) int {
	n := 0
	for _, c := range cells {
		if c.State == st {
			n++
		}
	}
	return n
}

// A recording shows the buffer's lines going device-written, then stale
// when read without invalidate, and the L1 window filling; hazards are
// located in the grid.
func TestRecordingIntoTimeline(t *testing.T) {
	m := newMachine(t, nil)
	rec := NewRecording(m, scenario.NewRecorder())
	b := alloc(t, m, "buf", 8192, mem.Normal, true)
	other := alloc(t, m, "other", 4096, mem.Normal, false)
	g := rec.Grid("buf", "DMA buffer", b, 64)
	win := rec.Cache("l1d", "L1D", 0, 0, 4)
	dev := addDev(t, m, false)

	must[sim.Time](t)(m.Read(b.VA, 4096, 16)) // first half cached
	must[sim.Time](t)(m.Read(other.VA, 4096, 16))
	m.WaitUntil(must[sim.Time](t)(m.DeviceWrite(dev, b.PA(0), b.Size)))
	live := rec.Recorder().Live()
	if n := countCells(live.Cells[g], scenario.CellDeviceWritten); n != 128 {
		t.Fatalf("%d cells device-written, want 128", n)
	}
	if w := live.Cells[g][0].Writer; w != m.DeviceWriter(dev) || w != 2 {
		t.Fatalf("writer %d, want device writer 2", w)
	}
	must[sim.Time](t)(m.Read(b.VA, b.Size, 16))
	tl := rec.Recorder().Finish(m.Now())

	var end scenario.State
	tl.StateAt(len(tl.Events), &end)
	if n := countCells(end.Cells[g], scenario.CellStale); n != 64 {
		t.Fatalf("%d stale cells, want 64 (the half cached before the DMA)", n)
	}
	if n := countCells(end.Cells[g], scenario.CellCached); n != 64 {
		t.Fatalf("%d freshly cached cells, want 64", n)
	}
	valid := 0
	for _, l := range end.Caches[win] {
		if l.Valid {
			valid++
		}
	}
	// 128 sets: sets 0..3 hold one line of buf and one of other each.
	if len(end.Caches[win]) != 16 || valid != 8 {
		t.Fatalf("L1 window: %d entries, %d valid; want 4 sets x 4 ways, 8 valid", len(end.Caches[win]), valid)
	}
	for i := 1; i < len(tl.Events); i++ {
		if tl.Events[i].T < tl.Events[i-1].T {
			t.Fatal("recorded events go back in time")
		}
	}
	hz := m.Hazards()
	rec.Annotate(hz)
	if len(hz) != 1 || hz[0].Grid != g || hz[0].Cell != 0 || hz[0].Bytes != 4096 {
		t.Fatalf("hazards %+v: want one 4096-byte stale hazard at grid %d cell 0", hz, g)
	}
	if gg, c := rec.Locate(b.PA(8191)); gg != g || c != 127 {
		t.Fatalf("Locate(last byte) = %d,%d", gg, c)
	}
	if gg, _ := rec.Locate(other.PA(0)); gg != -1 {
		t.Fatal("unwatched buffer located in a grid")
	}
}
