package sgsync

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
)

var callShort = [numCalls]string{"map", "unmap", "sync_for_device", "sync_for_cpu"}

// result turns a finished workload into metrics, checks and narration.
func (r *run) result(out *outcome) *scenario.Result {
	res := &scenario.Result{Timeline: out.timeline}
	if out.timeline != nil {
		res.End = out.timeline.End
	}
	us := func(t sim.Time, n int64) float64 {
		if n == 0 {
			return 0
		}
		return t.Microseconds() / float64(n)
	}
	add := func(name, label, unit, group string, v float64) {
		res.Metrics = append(res.Metrics, scenario.Metric{Name: name, Label: label, Unit: unit, Value: v, Group: group})
	}
	c := &out.calls
	add("map_sg_us", "dma_map_sg (average per call)", "us", "time", us(c[callMap].t, c[callMap].n))
	add("unmap_sg_us", "dma_unmap_sg (average per call)", "us", "time", us(c[callUnmap].t, c[callUnmap].n))
	if r.cfg.persistent {
		add("sync_sg_for_device_us", "dma_sync_sg_for_device (average per call)", "us", "time", us(c[callSyncDev].t, c[callSyncDev].n))
		add("sync_sg_for_cpu_us", "dma_sync_sg_for_cpu (average per call)", "us", "time", us(c[callSyncCPU].t, c[callSyncCPU].n))
	}
	var all callStat
	for i := range c {
		all.add(c[i], 1)
	}
	add("dsb_stall_us", "time stalled in DSB SY per call", "us", "time", us(all.stall, all.n))
	add("iteration_us", "one steady-state iteration (CPU use, calls, DMA)", "us", "time", out.perIter.Microseconds())
	per := func(v uint64, n int64) float64 {
		if n == 0 {
			return 0
		}
		return float64(v) / float64(n)
	}
	add("dc_ops", "DC ops per call", "", "model", per(all.dc, all.n))
	add("dsb_count", "DSB SY per call", "", "model", per(all.dsb, all.n))
	for i := range c {
		if c[i].n > 0 {
			add(callShort[i]+"_dc_ops", "DC ops per "+callNames[i], "", "model", per(c[i].dc, c[i].n))
			add(callShort[i]+"_dsb_count", "DSB SY per "+callNames[i], "", "model", per(c[i].dsb, c[i].n))
			add(callShort[i]+"_dsb_stall_us", "time stalled in DSB SY per "+callNames[i], "us", "time", us(c[i].stall, c[i].n))
		}
	}
	lines := uint64(0)
	for _, e := range r.list.entries {
		lines += (r.list.va(e)+e.len+r.m.LineBytes()-1)/r.m.LineBytes() - r.list.va(e)/r.m.LineBytes()
	}
	add("entries", "SG entries", "", "model", float64(len(r.list.entries)))
	add("list_lines", "cache lines under the entries", "", "model", float64(lines))
	add("iterations", "iterations averaged", "", "model", float64(r.cfg.iterations))
	add("simulated_iterations", "iterations simulated line by line (the rest extrapolated)", "", "model", float64(out.simulated))
	total := map[string]float64{}
	for i, cv := range out.counters {
		v := out.totals[i]
		if cv.Unit == "us" {
			v = v / float64(sim.Microsecond)
		}
		total[cv.Name] = v
		switch cv.Name {
		case "dc_ops", "dsb_count", "dsb_stall_us":
			continue // reported per call above
		}
		add(cv.Name, cv.Name+" (whole run)", cv.Unit, cv.Group, v)
	}
	res.Checks = []scenario.Metric{
		{Name: "stale_bytes", Label: "stale bytes read by the CPU (distinct bytes of the list per transfer, summed over iterations)", Unit: "B", Value: out.stale, Group: "check"},
		{Name: "device_stale_bytes", Label: "stale bytes read by the device", Unit: "B", Value: total["device_stale_lines"] * float64(r.m.LineBytes()), Group: "check"},
		{Name: "lost_bytes", Label: "bytes lost", Unit: "B", Value: total["lost_bytes"], Group: "check"},
	}
	res.Hazards = hwview.HazardsOf(r.m.Hazards())
	res.Fates = &out.fates
	if r.pol.skipDevice || r.pol.skipUnmap {
		if res.Clean() {
			res.NoHazard = r.noHazard(out.fates)
		}
	}
	if r.list.buf.Size != 0 && out.timeline != nil {
		// Hazards point into the physical grid (grid 0).
		for i := range res.Hazards {
			res.Hazards[i].Grid, res.Hazards[i].Cell = -1, 0
			if h := res.Hazards[i].Addr; h >= out.timeline.Grids[0].Base {
				cell := int((h - out.timeline.Grids[0].Base) / uint64(out.timeline.Grids[0].CellBytes))
				if cell < out.timeline.Grids[0].Cells {
					res.Hazards[i].Grid, res.Hazards[i].Cell = 0, cell
				}
			}
		}
	}
	if out.timeline != nil && r.steps != nil {
		res.Narration = r.steps
		last := &res.Narration[len(res.Narration)-1]
		last.Text = hazardVerdict(res.Checks, r.cfg.iterations) + last.Text
		last.Text += fmt.Sprintf(" Over %d iterations (%d simulated line by line, the rest repeating the last): dma_map_sg %.2f us and dma_unmap_sg %.2f us per call, %.0f DC ops and %.0f DSB per call.",
			r.cfg.iterations, out.simulated, us(c[callMap].t, c[callMap].n), us(c[callUnmap].t, c[callUnmap].n),
			per(all.dc, all.n), per(all.dsb, all.n))
	}
	return res
}

// hazardVerdict opens the last narration step with what went wrong in this
// run and how much (empty when every check is zero), so a bug policy's
// narration ends on its consequence rather than on the timing.
func hazardVerdict(checks []scenario.Metric, iterations int) string {
	var parts []string
	for _, m := range checks {
		if m.Value == 0 {
			continue
		}
		what := map[string]string{"stale_bytes": "the CPU read %s of stale data", "device_stale_bytes": "the device read %s of stale data",
			"lost_bytes": "%s of data were lost"}[m.Name]
		if what == "" {
			what = m.Name + ": %s"
		}
		parts = append(parts, fmt.Sprintf(what, scenario.FormatBytes(int64(m.Value))))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("WRONG DATA: over %d iterations %s — the red, hatched lines on the grid, listed under hazards. ", iterations, strings.Join(parts, "; "))
}
