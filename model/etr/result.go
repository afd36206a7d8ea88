package etr

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Metric names.
const (
	MetricUpdate      = "update_etr_buffer_us"
	MetricStale       = "stale_bytes"
	MetricLost        = "lost_bytes"
	MetricOverwritten = "overwritten_bytes"
	MetricTruncated   = "truncated_bytes"
)

func mbps(n uint64, d sim.Time) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Microseconds()
}

// result assembles the live session's Result.
func (r *run) result() *scenario.Result {
	p := r.path
	lb := float64(r.m.LineBytes())
	// Distinct buffer lines the CPU read stale (the machine's
	// stale_lines_read counts reads, and a copy from an offset that is not
	// line aligned reads each line in two parts).
	staleLines := 0
	for _, s := range r.obs.stale {
		if s {
			staleLines++
		}
	}
	stale := float64(staleLines) * lb
	lost := float64(r.lostBytes(p))
	r.narrateResult(p, stale, lost)

	var synced uint64
	for _, s := range p.syncs {
		synced += s.Len
	}
	flag := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	barrier := uint64(0)
	if p.barrier {
		barrier = BarrierBytes
	}
	us := func(d sim.Time) float64 { return d.Microseconds() }
	metrics := []scenario.Metric{
		{Name: MetricUpdate, Label: "tmc_update_etr_buffer", Unit: "us", Value: us(p.end - p.start), Group: "time"},
		{Name: "stop_us", Label: "stop ETR, read pointers", Unit: "us", Value: us(p.stopped - p.start), Group: "time"},
		{Name: "sync_us", Label: "dma_sync_single_for_cpu (DC ops + DSB)", Unit: "us", Value: us(p.synced - p.stopped), Group: "time"},
		{Name: "dsb_wait_us", Label: "of which DSB SY waiting", Unit: "us", Value: us(p.dsbWait), Group: "time"},
		{Name: "barrier_us", Label: "barrier packet", Unit: "us", Value: us(p.barriered - p.synced), Group: "time"},
		{Name: "copy_us", Label: "copy to the AUX ring", Unit: "us", Value: us(p.end - p.barriered), Group: "time"},
		{Name: "copy_mb_s", Label: "copy throughput", Unit: "MB/s", Value: mbps(p.take.Len, p.end-p.barriered), Group: "time"},
		{Name: "trace_bytes", Label: "trace written by the ETR", Unit: "B", Value: float64(r.etr.Written()), Group: "trace"},
		{Name: "data_bytes", Label: "data in the buffer at stop (len)", Unit: "B", Value: float64(p.window.Len), Group: "trace"},
		{Name: "offset", Label: "offset = RRP - base", Unit: "B", Value: float64(p.window.Offset), Group: "trace"},
		{Name: "sts_full", Label: "STS.FULL", Value: flag(p.ptr.Full), Group: "trace"},
		{Name: "synced_bytes", Label: "bytes passed to dma_sync_single_for_cpu", Unit: "B", Value: float64(synced), Group: "trace"},
		{Name: "copied_bytes", Label: "bytes copied to the AUX ring", Unit: "B", Value: float64(p.take.Len), Group: "trace"},
		{Name: MetricOverwritten, Label: "trace overwritten by the ring (reported by STS.FULL)", Unit: "B", Value: float64(Overwritten(r.c.size, r.etr.Written())), Group: "trace"},
		{Name: MetricTruncated, Label: "oldest trace dropped for AUX space (reported)", Unit: "B", Value: float64(p.take.Dropped), Group: "trace"},
		{Name: "aux_truncated_flag", Label: "PERF_AUX_FLAG_TRUNCATED", Value: flag(p.lost), Group: "trace"},
		{Name: "barrier_bytes", Label: "barrier packet written", Unit: "B", Value: float64(barrier), Group: "trace"},
	}
	for i, c := range p.after {
		name := c.Name
		switch name {
		case "lost_bytes":
			name = "dram_lost_bytes" // the machine's: newer DRAM data destroyed
		case "dma_write_bytes", "dma_read_bytes":
			continue // the ETR wrote before the path started
		}
		metrics = append(metrics, scenario.Metric{Name: name, Label: name, Unit: c.Unit, Value: c.Value - p.before[i].Value, Group: c.Group})
	}
	checks := []scenario.Metric{
		{Name: MetricStale, Label: "stale bytes read by the CPU", Unit: "B", Value: stale, Group: "check"},
		{Name: MetricLost, Label: "trace valid at stop that reached AUX wrong or not at all, unreported", Unit: "B", Value: lost, Group: "check"},
	}
	var tl *timeline.Timeline
	if r.rec != nil {
		tl = r.rec.Finish(r.at(r.m.Now()))
	}
	f := r.fates()
	res := &scenario.Result{
		End:       r.at(r.m.Now()),
		Metrics:   metrics,
		Checks:    checks,
		Hazards:   r.hazards(p),
		Narration: r.steps,
		Timeline:  tl,
		Fates:     &f,
	}
	if r.pol.Bug && res.Clean() {
		res.NoHazard = r.noHazard(p, f)
	}
	return res
}

// lostBytes counts the bytes of the data kept for the AUX ring (the window
// after the documented truncation) whose line the copy read stale or did
// not read at all. The barrier packet's own bytes are not trace.
func (r *run) lostBytes(p path) uint64 {
	shift := lineShift(r.m)
	var lost uint64
	for _, ch := range p.take.Window.Chunks(r.c.size) {
		for off := ch.Off; off < ch.End(); {
			line := off >> shift
			n := min(ch.End(), (line+1)<<shift) - off
			if r.obs.stale[line] || !r.obs.copied[line] {
				lost += n
				if p.barrier && off <= p.take.Offset && p.take.Offset < off+n {
					lost -= min(BarrierBytes, off+n-p.take.Offset)
				}
			}
			off += n
		}
	}
	return lost
}

// hazards lists each stale run with where it is and why, then the
// machine's other hazards of the session (data destroyed in DRAM).
func (r *run) hazards(p path) []scenario.Hazard {
	var out []scenario.Hazard
	shift := lineShift(r.m)
	for _, run := range r.obs.runs {
		off := run.first << shift
		g, cell := r.recording.Locate(run.firstPA)
		out = append(out, scenario.Hazard{T: r.at(run.t), Addr: run.firstPA, Bytes: int64(run.n << shift),
			Cause: r.staleCause(p, run, off), Grid: g, Cell: cell})
	}
	for _, e := range r.m.Hazards() {
		if e.T < p.start || e.Kind == hwevent.LineRead {
			continue // stale reads are listed above, with the scenario's cause
		}
		h := hwview.HazardOf(e)
		if cause, ok := r.writeBackCause(h); ok {
			h.Cause = cause
		}
		h.T = r.at(h.T)
		h.Grid, h.Cell = r.recording.Locate(h.Addr)
		out = append(out, h)
	}
	return out
}

func (r *run) staleCause(p path, run staleRun, off uint64) string {
	n := run.n << lineShift(r.m)
	where := fmt.Sprintf("CPU read %#x: buffer [+%#x, +%#x), %s", run.firstPA, off, off+n, bytes(n))
	lb := r.m.LineBytes()
	inSync := false // the run's first line was under a DC op
	for _, s := range p.syncs {
		if off < s.End() && off+lb > s.Off {
			inSync = true
		}
	}
	switch {
	case inSync:
		return where + ": stale although synced: DRAM held older data than the ETR wrote (a dirty CPU line was written back over the trace)"
	case r.pol.ID == WrongWrap && p.window.Wraps(r.c.size) && off < p.window.Offset+p.window.Len-r.c.size:
		return where + fmt.Sprintf(": line cached before the ETR wrote it; head part of the wrapped data [0, %#x) left out of the sync, which stopped at the end of the buffer", p.window.Offset+p.window.Len-r.c.size)
	case len(p.syncs) == 0:
		return where + ": line cached before the ETR wrote it; no dma_sync_single_for_cpu"
	}
	return where + ": line cached before the ETR wrote it and outside every synced range"
}
