package sgsync

import (
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// callKind is one of the DMA API calls the workload makes.
type callKind int

const (
	callMap     callKind = iota // dma_map_sg
	callUnmap                   // dma_unmap_sg
	callSyncDev                 // dma_sync_sg_for_device
	callSyncCPU                 // dma_sync_sg_for_cpu
	numCalls
)

var callNames = [numCalls]string{"dma_map_sg", "dma_unmap_sg", "dma_sync_sg_for_device", "dma_sync_sg_for_cpu"}

// callStat accumulates calls of one kind.
type callStat struct {
	n     int64    // calls made
	t     sim.Time // core time inside them
	dc    uint64   // DC ops issued
	dsb   uint64   // DSB SY executed
	stall sim.Time // time waiting in DSB
}

func (s *callStat) add(o callStat, times int64) {
	s.n += o.n * times
	s.t += o.t * sim.Time(times)
	s.dc += o.dc * uint64(times)
	s.dsb += o.dsb * uint64(times)
	s.stall += o.stall * sim.Time(times)
}

// iommuCost is the IOMMU-backed path's own work, modelled simply and the
// same under every policy (the maintenance is identical to dma-direct).
type iommuCost struct {
	alloc sim.Time // IOVA allocation per call (assumed: an rcache hit)
	pte   sim.Time // writing or clearing one 4 KiB PTE (assumed)
	tlbi  sim.Time // IOTLB invalidation + sync on unmap (assumed: one CMD_SYNC round trip)
}

var defaultIOMMU = iommuCost{alloc: 150 * sim.Nanosecond, pte: 4 * sim.Nanosecond, tlbi: 1 * sim.Microsecond}

// call runs f as one DMA API call of kind k and accounts for it.
func (r *run) call(k callKind, f func() error) error {
	m := r.m
	t0, dc0, dsb0, st0 := m.Now(), m.Count(soc.DCOps), m.Count(soc.DSBCount), m.Count(soc.DSBStall)
	err := f()
	s := &r.cur[k]
	s.n++
	s.t += m.Now() - t0
	s.dc += m.Count(soc.DCOps) - dc0
	s.dsb += m.Count(soc.DSBCount) - dsb0
	s.stall += sim.Time(m.Count(soc.DSBStall) - st0)
	if r.view != nil {
		r.view.closeIssue(m.Now())
		r.view.phase("api", callNames[k], callNames[k], t0, m.Now())
	}
	return err
}

func (r *run) pages() sim.Time {
	n := uint64(0)
	for _, e := range r.list.entries {
		n += (e.off&(mem.PageSize-1) + e.len + mem.PageSize - 1) >> mem.PageShift
	}
	return sim.Time(n)
}

// mapSG is dma_map_sg: (IOVA + page tables,) then every entry toward the
// device (bounce copy on SWIOTLB, DC CVAC on every line).
func (r *run) mapSG() error {
	return r.call(callMap, func() error {
		if r.cfg.path == pathIOMMU {
			r.m.Spend(r.iommu.alloc + r.pages()*r.iommu.pte)
		}
		return r.forDevice(true)
	})
}

// unmapSG is dma_unmap_sg: every entry back to the CPU, (then the IOMMU
// unmaps its PTEs and invalidates the IOTLB).
func (r *run) unmapSG() error {
	return r.call(callUnmap, func() error {
		if err := r.forCPU(); err != nil {
			return err
		}
		if r.cfg.path == pathIOMMU {
			r.m.Spend(r.pages()*r.iommu.pte + r.iommu.tlbi)
		}
		return nil
	})
}

func (r *run) syncForDevice() error {
	return r.call(callSyncDev, func() error { return r.forDevice(false) })
}

func (r *run) syncForCPU() error {
	return r.call(callSyncCPU, r.forCPU)
}

// target returns the list the device uses: the bounce slots on SWIOTLB.
func (r *run) target() *sgList {
	if r.cfg.path == pathSWIOTLB {
		return &r.bounce
	}
	return &r.list
}

// forDevice is arch_sync_dma_for_device on every entry (clean to PoC, any
// direction). SWIOTLB first copies the entry into its slot (always at map,
// for TO_DEVICE and BIDIRECTIONAL at sync) and waits per entry.
func (r *run) forDevice(mapping bool) error {
	t := r.target()
	for i, e := range r.list.entries {
		te := t.entries[i]
		if r.cfg.path == pathSWIOTLB && (mapping || r.cfg.dir != fromDevice) {
			if err := r.copy(t.va(te), r.list.va(e), e.len); err != nil {
				return err
			}
		}
		if r.cfg.path != pathCoherent && !r.pol.skipDevice {
			if err := r.dc(soc.CVAC, t.va(te), te.len, i); err != nil {
				return err
			}
		}
		if r.pol.perEntry || r.cfg.path == pathSWIOTLB {
			r.dsb()
		}
		if err := r.work(e.len); err != nil {
			return err
		}
	}
	r.dsb()
	return nil
}

// forCPU is arch_sync_dma_for_cpu on every entry: nothing for TO_DEVICE,
// else dcache_inval_poc. SWIOTLB waits per entry, then copies the slot
// back (the copy must see the device's data, not old cached lines).
func (r *run) forCPU() error {
	if r.cfg.dir == toDevice {
		return nil
	}
	t := r.target()
	for i, e := range r.list.entries {
		te := t.entries[i]
		if r.cfg.path != pathCoherent {
			if err := r.inval(t.va(te), te.len, i); err != nil {
				return err
			}
		}
		if r.pol.perEntry || r.cfg.path == pathSWIOTLB {
			r.dsb()
		}
		if r.cfg.path == pathSWIOTLB {
			if err := r.copy(r.list.va(e), t.va(te), e.len); err != nil {
				return err
			}
		}
		if err := r.work(e.len); err != nil {
			return err
		}
	}
	r.dsb()
	return nil
}

// inval is arm64 dcache_inval_poc without its DSB: DC CIVAC on a partial
// last line, then on a partial first line, DC IVAC on the whole lines
// (a partial line holds someone else's bytes: they must not be dropped).
func (r *run) inval(va, n uint64, i int) error {
	lb := r.m.LineBytes()
	mask := lb - 1
	start, end := va, va+n
	if end&mask != 0 {
		if err := r.dc(soc.CIVAC, end&^mask, 1, i); err != nil {
			return err
		}
		end &^= mask
	}
	if start&mask != 0 {
		if err := r.dc(soc.CIVAC, start&^mask, 1, i); err != nil {
			return err
		}
		start = start&^mask + lb
	}
	if start < end {
		return r.dc(soc.IVAC, start, end-start, i)
	}
	return nil
}

// dc issues op over the lines of [va, va+n) for entry i.
func (r *run) dc(op soc.DCOp, va, n uint64, i int) error {
	if r.view != nil {
		r.view.openIssue(r.m.Now(), op, r.target(), i)
	}
	before := r.m.Count(soc.DCOps)
	_, err := r.m.DC(op, va, n)
	r.pending += int64(r.m.Count(soc.DCOps) - before)
	if r.view != nil {
		r.view.gaugeAt(r.m, r.pending)
	}
	return err
}

// dsb is DSB SY when DC ops are outstanding since the last one.
func (r *run) dsb() {
	if r.pending == 0 {
		return
	}
	if r.view != nil {
		r.view.closeIssue(r.m.Now())
	}
	t0 := r.m.Now()
	r.m.DSB()
	r.pending = 0
	if r.view != nil {
		r.view.phase("cpu", "dsb-wait", "DSB SY", t0, r.m.Now())
		r.view.gaugeAt(r.m, 0)
	}
}

// copy is a CPU memcpy (the SWIOTLB bounce).
func (r *run) copy(dst, src, n uint64) error {
	if r.view != nil {
		r.view.closeIssue(r.m.Now())
	}
	t0 := r.m.Now()
	_, err := r.m.Copy(dst, src, n, 16)
	if r.view != nil {
		r.view.phase("cpu", "copy", "bounce copy", t0, r.m.Now())
	}
	return err
}

// transfer has the device read and/or write every entry at its DMA
// address, then the CPU waits for the completion interrupt.
func (r *run) transfer() error {
	t := r.target()
	t0 := r.m.Now()
	done := t0
	for _, e := range t.entries {
		err := t.runs(e, func(pa, n uint64) error {
			if r.cfg.dir != fromDevice {
				end, err := r.m.DeviceRead(r.dev, pa, n)
				if err != nil {
					return err
				}
				done = max(done, end)
			}
			if r.cfg.dir != toDevice {
				end, err := r.m.DeviceWrite(r.dev, pa, n)
				if err != nil {
					return err
				}
				done = max(done, end)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := r.work(e.len); err != nil {
			return err
		}
	}
	r.m.WaitUntil(done)
	if r.view != nil {
		r.view.phase("device", "dma", "device transfer", t0, done)
	}
	return nil
}

// cpuUse is the CPU touching every entry: read (consume received data) or
// read-modify-write (fill the buffer; the read first so the stores hit
// and leave dirty lines rather than streaming past the cache).
func (r *run) cpuUse(write bool) error {
	t0 := r.m.Now()
	for _, e := range r.list.entries {
		va := r.list.va(e)
		if _, err := r.m.Read(va, e.len, 16); err != nil {
			return err
		}
		if write {
			if _, err := r.m.Write(va, e.len, 16); err != nil {
				return err
			}
		}
		if err := r.work(e.len); err != nil {
			return err
		}
	}
	if r.view != nil {
		kind, label := "read", "CPU reads the buffer"
		if write {
			kind, label = "write", "CPU writes the buffer"
		}
		r.view.phase("cpu", kind, label, t0, r.m.Now())
	}
	return nil
}
