package etr

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
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
	before, after                          []soc.CounterValue
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
	if r.live {
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

	if p.barrier {
		if r.live {
			r.step(m.Now(), "Barrier packet",
				fmt.Sprintf("%s, so the trace has a gap the decoder must resynchronise over: the driver writes a %d-byte barrier packet at the new start of the data (offset %#x) through the CPU's %s mapping, after the sync.",
					gapReason(p), BarrierBytes, p.take.Offset, mappingName(r.pol)))
		}
		if err := r.insertBarrier(p.take.Offset); err != nil {
			return p, err
		}
	}
	p.barriered = m.Now()
	r.phase("cpu", "barrier", "barrier packet", p.synced, p.barriered)

	// tmc_etr_sync_perf_buffer: page by page into the AUX ring.
	if r.live {
		r.narrateCopy(p)
	}
	head := r.ring.Head
	err := Pieces(p.take, size, r.ring.Size, head, func(pc Piece) error {
		if err := r.pace.Work(int64(pc.Len / workBytes)); err != nil {
			return err
		}
		if _, err := m.Copy(r.aux.VA+pc.Dst, r.src.VA+pc.Src, pc.Len, r.c.width); err != nil {
			return fmt.Errorf("copy: %w", err)
		}
		head += pc.Len
		if r.live {
			r.rec.Value(r.at(m.Now()), r.ids.head, int64(head%r.ring.Size/mem.PageSize))
		}
		return nil
	})
	r.ring.Head += p.take.Len
	p.end = m.Now()
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

// syncForCPU is dma_sync_single_for_cpu(DMA_FROM_DEVICE) on a non-coherent
// arm64 device: dcache_inval_poc over the range — DC CIVAC on a partial
// last line, DC CIVAC on a partial first line (so bytes outside the range
// are not lost), DC IVAC on the others, then DSB SY. It returns the time
// the DSB waited.
func (r *run) syncForCPU(rg Range, call int) (sim.Time, error) {
	m, va := r.m, r.buf.VA
	lb := m.LineBytes()
	mask := lb - 1
	t0 := m.Now()
	if r.live && call < len(r.ids.sync) {
		first := int(rg.Off / r.cellBytes)
		last := int((rg.End() + r.cellBytes - 1) / r.cellBytes)
		r.rec.Span(r.at(t0), r.ids.sync[call], first, last-first)
	}
	s, e := rg.Off, rg.End()
	dc := func(op soc.DCOp, off, n uint64) error {
		_, err := m.DC(op, va+off, n)
		return err
	}
	if e&mask != 0 {
		e &^= mask
		if err := dc(soc.CIVAC, e, 1); err != nil {
			return 0, err
		}
	}
	op := soc.IVAC
	if s&mask != 0 {
		s &^= mask
		op = soc.CIVAC
	}
	if err := dc(op, s, 1); err != nil { // the loop body runs at least once
		return 0, err
	}
	// The rest of the loop, in slices so the gauge of DC ops in flight can
	// be sampled (the machine issues the same ops either way).
	slice := max(64*lb, (e-s)/256&^mask)
	for s += lb; s < e; s += slice {
		if err := dc(soc.IVAC, s, min(slice, e-s)); err != nil {
			return 0, err
		}
		if err := r.pace.Work(int64(min(slice, e-s) / workBytes)); err != nil {
			return 0, err
		}
		if r.live {
			r.rec.Value(r.at(m.Now()), r.ids.dcInFlight, int64(m.OutstandingDC()))
		}
	}
	t1 := m.Now()
	wait := m.DSB()
	if r.live {
		r.rec.Value(r.at(m.Now()), r.ids.dcInFlight, int64(m.OutstandingDC()))
	}
	r.phase("cpu", "invalidate", "DC IVAC per line", t0, t1)
	r.phase("cpu", "dsb-wait", "DSB SY", t1, m.Now())
	return wait, nil
}

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
