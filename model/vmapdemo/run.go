package vmapdemo

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// config is one run's settings.
type config struct {
	bytes       uint64
	fragment    float64
	preferLarge bool
	watermark   uint64
	rate        float64 // GB/s, bytes per ns
	preset      string
	hw          map[string]float64 // hardware overrides (hw.<path>)
	large       bool
}

// marks is how many pointer positions and cell updates a run records at
// most (the write is sequential: more would show nothing new).
const marks = 2048

// run allocates, maps and writes the AUX buffer once.
func run(c config, pace *scenario.Pacer) (*scenario.Result, error) {
	pages := int(c.bytes >> mem.PageShift)
	pace.Plan(2 * int64(pages)) // allocation and mapping, then at most one translation a page
	if err := pace.Point(); err != nil {
		return nil, err
	}
	m, err := platform.NewWith(c.preset, c.hw, Seed)
	if err != nil {
		return nil, err
	}
	if !m.Translating() {
		return nil, fmt.Errorf("%s: preset %s does not translate (tlb.enabled)", ParamPreset, c.preset)
	}
	if _, err := m.Buddy().Fragment(m.RNG(), c.fragment); err != nil {
		return nil, fmt.Errorf("%s: %v", ParamFragment, err)
	}
	aux, err := mmu.RbAllocAux(m.Buddy(), mmu.AuxConfig{Pages: pages, PreferLarge: c.preferLarge, Watermark: c.watermark})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ParamBuffer, err)
	}
	va, _, err := m.Vmap("aux", aux.Pages, mem.Normal, c.large)
	if err != nil {
		return nil, err
	}
	if err := pace.Work(int64(pages)); err != nil {
		return nil, err
	}

	r := timeline.NewRecorder()
	rec := hwview.NewRecording(m, r)
	agent := r.Writer("trbe")
	grid := r.AddGrid(timeline.GridSpec{ID: "aux", Label: "AUX buffer (4 KiB pages, VA order)", Base: va, CellBytes: mem.PageSize, Cells: pages})
	rec.WatchTLBs()
	port, err := m.AddTracePort("trbe_tlb", agent)
	if err != nil {
		return nil, err
	}
	rec.WatchRequester(port.R, "TRBE L1 TLB")
	if err := rec.MapBuffer("aux", va, c.bytes, aux.Chunks); err != nil {
		return nil, err
	}
	ptr := r.AddPointer(timeline.PointerSpec{ID: "trbe", Label: "TRBE write pointer", Agent: agent})

	var steps []scenario.Step
	step := func(t sim.Time, title, text string) {
		r.Mark(t, len(steps))
		steps = append(steps, scenario.Step{T: t, Title: title, Text: text})
	}
	step(0, "rb_alloc_aux and vmap", fmt.Sprintf("%d pages in %d chunks, vmapped at %#x with %s", pages, len(aux.Chunks), va, mapWords(c.large)))
	r.MovePointer(0, ptr, va)

	var t, translate sim.Time
	every := max(c.bytes/marks, mem.PageSize)
	next, cellsDone := every, 0
	for off := uint64(0); off < c.bytes; {
		tr, err := port.Translate(va+off, true, t)
		if err != nil {
			return nil, fmt.Errorf("trace write at %#x: %v", va+off, err)
		}
		t += tr.Cost
		translate += tr.Cost
		if err := pace.Work(1); err != nil {
			return nil, err
		}
		n := min(tr.Contig, c.bytes-off)
		if n == 0 {
			return nil, fmt.Errorf("trace write at %#x: empty translation", va+off)
		}
		switch {
		case off == 0:
			step(t, "The first write walks", fmt.Sprintf("TRBE's one-entry TLB is empty: the write to %#x walks the page tables, and the entry it fills covers %s of the buffer before the next walk",
				va, scenario.FormatBytes(int64(n))))
		case off < c.bytes/2 && off+n >= c.bytes/2:
			step(t, "Halfway", fmt.Sprintf("%d walks for the first %d pages: one per %s", port.R.Stats.Walks, (off+n)>>mem.PageShift,
				scenario.FormatBytes(int64((off+n)/max(port.R.Stats.Walks, 1)))))
		}
		for done := uint64(0); done < n; {
			part := min(n-done, next-(off+done))
			done += part
			t += sim.Time(float64(part) / c.rate * float64(sim.Nanosecond))
			if off+done == next || off+done == c.bytes {
				upto := int((off + done) >> mem.PageShift)
				r.Cells(t, grid, cellsDone, upto-cellsDone, timeline.CellDeviceWritten, agent)
				cellsDone = upto
				r.MovePointer(t, ptr, va+off+done)
				next += every
			}
		}
		off += n
	}
	step(t, "buffer written", fmt.Sprintf("%d walks for %d pages", port.R.Stats.Walks, pages))
	r.Phase(timeline.Phase{Lane: "trbe", Kind: "dma-write", Label: "trace writes", Start: 0, End: t})
	tl := r.Finish(t)
	return result(m, port, aux, tl, steps, t, translate), pace.Point()
}

func mapWords(large bool) string {
	if large {
		return "large mappings (64 KiB contiguous and 2 MiB blocks where runs allow)"
	}
	return "4 KiB PTEs"
}

// result assembles the metrics.
func result(m *soc.Machine, port *soc.TracePort, aux *mmu.AuxBuffer, tl *timeline.Timeline, steps []scenario.Step,
	end, translate sim.Time) *scenario.Result {
	us := func(t sim.Time) float64 { return float64(t) / float64(sim.Microsecond) }
	res := &scenario.Result{End: end, Timeline: tl, Narration: steps}
	add := func(name, label, unit, group string, v float64) {
		res.Metrics = append(res.Metrics, scenario.Metric{Name: name, Label: label, Unit: unit, Value: v, Group: group})
	}
	add("write_us", "time to write the buffer", "us", "time", us(end))
	add("translate_us", "of which translation (TLB misses and walks)", "us", "time", us(translate))
	add("l2d_tlb_refill", "l2d_tlb_refill", "", "pmu", float64(m.Count(soc.L2DTLBRefill)))
	add("dtlb_walk", "dtlb_walk (core's own walks)", "", "pmu", float64(m.Count(soc.DTLBWalk)))
	add("l1d_tlb_refill", "l1d_tlb_refill (core's L1 TLB)", "", "pmu", float64(m.Count(soc.L1DTLBRefill)))
	add("trace_walks", "walks caused by the trace unit", "", "model", float64(port.R.Stats.Walks))
	add("trace_tlb_refill", "refills of the trace unit's L1 TLB", "", "model", float64(port.R.L1.Stats.Refills))
	ws := m.MMU().Walker.Stats
	add("descriptor_reads", "descriptor reads", "", "model", float64(ws.Reads))
	add("aux_chunks", "rb_alloc_aux chunks", "", "model", float64(len(aux.Chunks)))
	lb := tl.Translation.LeafBytes()
	add("leaves_4k", "4 KiB PTEs", "", "model", float64(lb[timeline.Leaf4K]/timeline.Leaf4K))
	add("leaves_64k", "64 KiB contiguous runs", "", "model", float64(lb[timeline.Leaf64K]/timeline.Leaf64K))
	add("leaves_2m", "2 MiB blocks", "", "model", float64(lb[timeline.Leaf2M]/timeline.Leaf2M))
	res.Checks = []scenario.Metric{
		{Name: "stale_bytes", Label: "stale bytes read by the CPU", Unit: "B", Value: float64(len(m.StaleLines())) * float64(m.LineBytes()), Group: "check"},
		{Name: "lost_bytes", Label: "bytes lost", Unit: "B", Value: float64(m.Count(soc.LostBytes)), Group: "check"},
	}
	return res
}
