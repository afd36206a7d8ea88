package etr

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// BarrierBytes is CORESIGHT_BARRIER_PKT_SIZE: four 32-bit words.
const BarrierBytes = 16

// TMC register offsets the update path touches.
const (
	regSTS   = 0x00c
	regRRP   = 0x014
	regRWP   = 0x018
	regFFCR  = 0x304
	regRRPHI = 0x038
	regRWPHI = 0x03c
	regLAR   = 0xfb0
)

// path is what one tmc_update_etr_buffer did and when.
type path struct {
	start, stopped, synced, barriered, end sim.Time
	dsbWait                                sim.Time
	ptr                                    Pointers
	window                                 Window
	syncs                                  []Range
	take                                   Take
	lost                                   bool // perf's "lost": FULL or truncated -> barrier + TRUNCATED flag
	barrier                                bool // a barrier packet was written at take.Offset
	// prevBarrierHeld: the previous session's unsynced barrier line was
	// still in the caches when this one stopped (the sync can meet it).
	prevBarrierHeld bool
	before, after   []soc.CounterValue
}

// update is tmc_update_etr_buffer for a flat buffer: stop the ETR, read the
// pointers, sync per policy, apply the AUX space rule, insert the barrier
// packet, copy page by page into the AUX ring at its head.
func (r *run) update() (path, error) {
	m, size := r.m, r.c.size
	p := path{start: m.Now(), before: m.Counters()}
	p.ptr = r.etr.Pointers()
	p.window = p.ptr.Window(size)
	p.syncs = r.pol.Syncs(p.window, size)
	p.take = Keep(p.window, size, r.ring.Space())
	p.lost = p.ptr.Full || p.take.Truncated
	p.barrier = p.lost && r.c.barrier && p.take.Len >= BarrierBytes
	if r.prevBarrier {
		p.prevBarrierHeld = r.cached(r.buf.PA(r.prevBarrierAt) >> lineShift(m))
	}
	if r.live {
		r.obs.tally = true
		r.narrateStop(p)
	}

	// tmc_flush_and_stop, then tmc_sync_etr_buf's register reads.
	if err := r.mmio(); err != nil {
		return p, err
	}
	p.stopped = m.Now()
	r.phase("cpu", "stop", "stop ETR, read RRP/RWP/STS", p.start, p.stopped)

	// dma_sync_single_for_cpu, as the policy calls it.
	if r.live && len(p.syncs) != 0 {
		r.narrateSync(p)
	}
	for i, rg := range p.syncs {
		w, err := r.syncForCPU(rg, i)
		if err != nil {
			return p, err
		}
		p.dsbWait += w
	}
	p.synced = m.Now()
	r.narrateWriteBacks(p.start)

	if p.barrier {
		if r.live {
			r.step(m.Now(), "Barrier packet",
				fmt.Sprintf("%s, so the trace has a gap the decoder must resynchronise over: the driver writes a %d-byte barrier packet at the new start of the data (offset %#x, outlined) through the CPU's %s mapping, after the sync.",
					gapReason(p), BarrierBytes, p.take.Offset, mappingName(r.pol)))
			r.rec.Span(r.at(m.Now()), r.ids.barrier, int(p.take.Offset/r.cellBytes), 1)
		}
		if err := r.insertBarrier(p.take.Offset); err != nil {
			return p, err
		}
		r.barrierAt, r.barrierDirty = p.take.Offset, !r.pol.NC
		if r.pol.SyncForDevice {
			if r.live {
				r.step(m.Now(), "Sync the barrier for the device",
					fmt.Sprintf("dma_sync_single_for_device over the barrier packet: DC CVAC writes its line (offset %#x) back now and DSB SY waits, so the cache holds no dirty line of the buffer when the ETR restarts: no later invalidate or eviction can write it over new trace.", p.take.Offset&^(m.LineBytes()-1)))
			}
			if err := r.syncForDevice(p.take.Offset); err != nil {
				return p, err
			}
			r.barrierDirty = false
		}
	}
	p.barriered = m.Now()
	r.phase("cpu", "barrier", "barrier packet", p.synced, p.barriered)

	// tmc_etr_sync_perf_buffer: page by page into the AUX ring.
	if r.live {
		r.narrateCopy(p)
	}
	head := r.ring.Head
	// The counters are sampled at about copySamples points of the copy.
	const copySamples = 256
	every, piece := max(1, p.take.Len/mem.PageSize/copySamples), uint64(0)
	err := Pieces(p.take, size, r.ring.Size, head, func(pc Piece) error {
		if err := r.pace.Work(r.cpuUnits(pc.Len)); err != nil {
			return err
		}
		if _, err := m.Copy(r.aux.VA+pc.Dst, r.src.VA+pc.Src, pc.Len, r.c.width); err != nil {
			return fmt.Errorf("copy: %w", err)
		}
		head += pc.Len
		if r.live {
			r.rec.Value(r.at(m.Now()), r.ids.head, int64(head%r.ring.Size/mem.PageSize))
			if piece++; piece%every == 0 {
				r.sampleCounters()
			}
		}
		return nil
	})
	r.ring.Head += p.take.Len
	p.end = m.Now()
	r.narrateWriteBacks(p.start)
	kind := "copy"
	if r.pol.NC {
		kind = "nc-read"
	}
	r.phase("cpu", kind, "copy to the AUX ring", p.barriered, p.end)
	p.after = m.Counters()
	if r.live {
		r.obs.tally = false
		if p.lost { // perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED)
			r.rec.Value(r.at(p.end), r.ids.truncated, 1)
		}
	}
	return p, err
}

// mmio is the register traffic of the stop and pointer read: CS_UNLOCK,
// FFCR flush-and-stop and its poll, STS.TMCReady, RRP/RWP (low and high)
// and STS, CS_LOCK. Device-nGnRE accesses, one at a time.
func (r *run) mmio() error {
	m, va := r.m, r.regs.VA
	for _, a := range []struct {
		off   uint64
		write bool
	}{{regLAR, true}, {regFFCR, true}, {regFFCR, false}, {regSTS, false},
		{regRRP, false}, {regRRPHI, false}, {regRWP, false}, {regRWPHI, false}, {regSTS, false}, {regLAR, true}} {
		var err error
		if a.write {
			_, err = m.Write(va+a.off, 4, 4)
		} else {
			_, err = m.Read(va+a.off, 4, 4)
		}
		if err != nil {
			return fmt.Errorf("etr registers: %w", err)
		}
	}
	return nil
}

// syncForCPU is dma_sync_single_for_cpu(DMA_FROM_DEVICE) over rg: the
// DMA API's DC IVAC per line (DC CIVAC on a partial first or last line),
// then DSB SY. It returns the time the DSB waited.
func (r *run) syncForCPU(rg Range, call int) (sim.Time, error) {
	m := r.m
	t0 := m.Now()
	if r.live && call < len(r.ids.sync) {
		first := int(rg.Off / r.cellBytes)
		last := int((rg.End() + r.cellBytes - 1) / r.cellBytes)
		r.rec.Span(r.at(t0), r.ids.sync[call], first, last-first)
	}
	r.wait = [2]sim.Time{}
	r.dcPaced = 0
	if err := r.api.SyncSingleForCPU(r.mp, rg.Off, rg.Len); err != nil {
		return 0, err
	}
	// The ops are one call and one DSB (splitting them would change what
	// the driver does): the machine gives way during them (Progress) and
	// the rest of the range counts here; a cancel is seen now.
	if err := r.pace.Work(max(int64(rg.Len/workBytes)-r.dcPaced, 0)); err != nil {
		return 0, err
	}
	r.phase("cpu", "invalidate", "DC IVAC per line", t0, r.wait[0])
	r.phase("cpu", "dsb-wait", "DSB SY", r.wait[0], r.wait[1])
	return r.wait[1] - r.wait[0], nil
}

// syncForDevice is dma_sync_single_for_device(DMA_FROM_DEVICE) over the
// barrier packet: DC CVAC on its line, then DSB SY, so no dirty CPU line
// is left to be written back over the next session's trace.
func (r *run) syncForDevice(off uint64) error {
	t0 := r.m.Now()
	if err := r.api.SyncSingleForDevice(r.mp, off, BarrierBytes); err != nil {
		return err
	}
	r.phase("cpu", "clean", "dma_sync_single_for_device (DC CVAC + DSB)", t0, r.m.Now())
	return nil
}

// Maint implements dmaapi.Listener: the gauge of DC ops in flight.
func (r *run) Maint(op soc.DCOp, entry int, va, n uint64, t0, t1 sim.Time) {
	if r.live {
		r.rec.Value(r.at(t1), r.ids.dcInFlight, int64(r.m.OutstandingDC()))
	}
}

// Wait implements dmaapi.Listener: when the DSB started and ended.
func (r *run) Wait(t0, t1 sim.Time) {
	r.wait = [2]sim.Time{t0, t1}
	if r.live {
		r.rec.Value(r.at(t1), r.ids.dcInFlight, int64(r.m.OutstandingDC()))
	}
}

// Bounce implements dmaapi.Listener (the ETR's buffer is never bounced).
func (r *run) Bounce(int, bool, sim.Time, sim.Time) {}

// insertBarrier is tmc_etr_buf_insert_barrier_packet: a 16-byte CPU store
// at off through the CPU's mapping of the buffer. Line versions are per
// line, so a store that merges into a cached line would hide a stale rest
// of the line; the model therefore checks the line like a load first (the
// store's write-allocate fill brings in the same data).
func (r *run) insertBarrier(off uint64) error {
	m := r.m
	if !r.pol.NC {
		if _, err := m.Read(r.buf.VA+off, BarrierBytes, BarrierBytes); err != nil {
			return err
		}
	}
	_, err := m.Write(r.src.VA+off, BarrierBytes, BarrierBytes)
	return err
}

// writeBackCause says which buffer line a machine hazard of a write-back
// over newer trace is, and why it was dirty, when it is the previous
// session's barrier line; ok is false for other hazards.
func (r *run) writeBackCause(h scenario.Hazard) (string, bool) {
	if !strings.Contains(h.Cause, "written back over newer data") {
		return "", false
	}
	off, in := r.obs.offset(h.Addr)
	if !in {
		return "", false
	}
	lb := r.m.LineBytes()
	what := "a dirty CPU line"
	switch {
	case r.prevBarrier && r.prevBarrierAt&^(lb-1) == off&^(lb-1):
		what = fmt.Sprintf("the previous session's barrier packet (offset %#x), written through the cacheable mapping and never synced for the device (no dma_sync_single_for_device),", r.prevBarrierAt)
	case r.sessions == 1 && r.zeroDirty != nil && r.zeroDirty[off/lb]:
		what = "a zero line of the allocation (dma_alloc_noncoherent zeroes the buffer through the cacheable mapping and nothing cleans it: no dma_sync_single_for_device before the ETR's first session),"
	}
	why := h.Cause
	if i := strings.Index(why, "had written ("); i >= 0 {
		why = why[i+len("had written ("):]
		why, _, _ = strings.Cut(why, ";")
	}
	return fmt.Sprintf("buffer line +%#x (PA %#x): %s was written back over the trace the ETR wrote this session (%s)", off&^(lb-1), h.Addr, what, why), true
}

// narrateWriteBacks adds a step for each write-back over new trace the
// machine detected since from that has not been narrated yet.
func (r *run) narrateWriteBacks(from sim.Time) {
	if !r.live {
		return
	}
	hs := r.m.Hazards()
	for ; r.narrated < len(hs); r.narrated++ {
		h := hwview.HazardOf(hs[r.narrated])
		if h.T < from {
			continue
		}
		if cause, ok := r.writeBackCause(h); ok {
			r.step(h.T, "A dirty line is written back over new trace", "At this moment "+cause+". DRAM now holds the old line: the copy will read it (stale) and that trace is lost.")
		}
	}
}

func mappingName(p *Policy) string {
	if p.NC {
		return "Normal-NC"
	}
	return "cacheable"
}

func gapReason(p path) string {
	switch {
	case p.ptr.Full && p.take.Truncated:
		return "The buffer was full (the ring overwrote its oldest trace) and the data was truncated to fit the AUX space"
	case p.take.Truncated:
		return "The data was truncated to fit the AUX space"
	}
	return "The buffer was full: the ring overwrote its oldest trace"
}
