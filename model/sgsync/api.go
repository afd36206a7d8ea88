package sgsync

import (
	"github.com/dmaviz/dmaviz/model/dmaapi"
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

// defaultIOMMU is the IOMMU-backed path's own work, modelled simply and
// the same under every policy (the maintenance is identical to
// dma-direct): IOVA allocation per call (assumed: an rcache hit), writing
// or clearing one 4 KiB PTE (assumed), IOTLB invalidation + sync on unmap
// (assumed: one CMD_SYNC round trip).
var defaultIOMMU = dmaapi.IOMMUCost{Alloc: 150 * sim.Nanosecond, PTE: 4 * sim.Nanosecond, TLBI: 1 * sim.Microsecond}

// call runs f as one DMA API call of kind k and accounts for it.
func (r *run) call(k callKind, f func() error) error {
	m := r.m
	t0, dc0, dsb0, st0 := m.Now(), m.Count(soc.DCOps), m.Count(soc.DSBCount), m.Count(soc.DSBStall)
	r.worked = 0
	err := f()
	if err == nil {
		err = r.workRest()
	}
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

// segs is the scatterlist as the driver fills it (kept between calls;
// dropped when the list changes).
func (r *run) segs() []dmaapi.Seg {
	if r.segList == nil {
		r.segList = make([]dmaapi.Seg, len(r.list.entries))
		for i, e := range r.list.entries {
			r.segList[i] = dmaapi.Seg{VA: r.list.va(e), Len: e.len}
		}
	}
	return r.segList
}

// mapSG is dma_map_sg.
func (r *run) mapSG() error {
	return r.call(callMap, func() error {
		var err error
		r.sg, err = r.api.MapSG(r.segs(), r.cfg.dir.api())
		if err == nil {
			err = r.recordIOVA()
		}
		return err
	})
}

// unmapSG is dma_unmap_sg.
func (r *run) unmapSG() error {
	return r.call(callUnmap, func() error { return r.api.UnmapSG(r.sg, 0) })
}

func (r *run) syncForDevice() error {
	return r.call(callSyncDev, func() error { return r.api.SyncSGForDevice(r.sg) })
}

func (r *run) syncForCPU() error {
	return r.call(callSyncCPU, func() error { return r.api.SyncSGForCPU(r.sg) })
}

// target returns the list the device uses: the bounce slots on SWIOTLB.
func (r *run) target() *sgList {
	if r.cfg.path == pathSWIOTLB {
		return &r.bounce
	}
	return &r.list
}

// The run is the API's listener: the view sees each run of DC ops, each
// wait and each bounce copy.

// Maint implements dmaapi.Listener.
func (r *run) Maint(op soc.DCOp, entry int, va, n uint64, t0, t1 sim.Time) {
	r.workTo(entry)
	if r.view != nil && entry >= 0 {
		r.view.openIssue(t0, op, r.target(), entry)
		r.view.gaugeAt(r.m, r.api.Pending())
	}
}

// Wait implements dmaapi.Listener.
func (r *run) Wait(t0, t1 sim.Time) {
	if r.view != nil {
		r.view.closeIssue(t0)
		r.view.phase("cpu", "dsb-wait", "DSB SY", t0, t1)
		r.view.gaugeAt(r.m, 0)
	}
}

// Bounce implements dmaapi.Listener.
func (r *run) Bounce(entry int, toSlot bool, t0, t1 sim.Time) {
	r.workTo(entry)
	if r.view != nil {
		r.view.closeIssue(t0)
		r.view.phase("cpu", "copy", "bounce copy", t0, t1)
	}
}

// transfer has the device read and/or write every entry at its DMA
// address, then the CPU waits for the completion interrupt.
func (r *run) transfer() error {
	t0 := r.m.Now()
	done := t0
	for _, e := range r.sg.Entries {
		err := r.api.Runs(e, func(pa, n uint64) error {
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
		if err := r.work(e.Len); err != nil {
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
