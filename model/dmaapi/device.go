package dmaapi

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Path is how the device reaches memory.
type Path uint8

const (
	// Direct is dma-direct: the device uses physical addresses.
	Direct Path = iota
	// IOMMU is the IOMMU-backed path (iommu_dma_map_*): IOVA allocation and
	// page-table updates around the same maintenance as Direct.
	IOMMU
	// SWIOTLB bounces every mapping through slots of a pool the device can
	// reach.
	SWIOTLB
)

// Wait is where a scatterlist call's DSB SY falls.
type Wait uint8

const (
	// PerCall issues every entry's DC ops and waits once at the end (Linux
	// 7.1's batched sync).
	PerCall Wait = iota
	// PerEntry waits after every entry (before Linux 7.1).
	PerEntry
)

// IOMMUCost is the IOMMU path's own work per call, the same whatever the
// wait policy.
type IOMMUCost struct {
	Alloc sim.Time // IOVA allocation per map call
	PTE   sim.Time // writing or clearing one 4 KiB PTE
	TLBI  sim.Time // IOTLB invalidation + sync per unmap call
}

// SlotBytes is IO_TLB_SIZE: every bounced mapping starts on a slot.
const SlotBytes = 2048

// Config is how the kernel treats one device.
type Config struct {
	// Coherent is dev_is_dma_coherent: the device snoops the CPU caches
	// and no call does maintenance. It must match the soc device.
	Coherent bool
	Path     Path
	Wait     Wait
	IOMMU    IOMMUCost
	// PoolBytes sizes the SWIOTLB pool (Path SWIOTLB), allocated when the
	// device is created.
	PoolBytes uint64
	// CopyWidth is the load/store width of the bounce copies (16: arm64
	// memcpy's LDP/STP).
	CopyWidth int
	// OmitClean is a bug toggle: arch_sync_dma_for_device issues nothing,
	// so dirty CPU lines reach the device stale or are later written back
	// over its data.
	OmitClean bool
	// Entry is the kernel's software work per entry (cost.go); zero costs
	// nothing.
	Entry EntryCost
}

// Listener sees what a call does, for views: every run of DC ops, every
// DSB SY and every bounce copy, with the core times it took. entry is the
// scatterlist index (-1 for a single-buffer call).
type Listener interface {
	Maint(op soc.DCOp, entry int, va, n uint64, t0, t1 sim.Time)
	Wait(t0, t1 sim.Time)
	Bounce(entry int, toSlot bool, t0, t1 sim.Time)
}

// Device is one device as the DMA API sees it, on a machine.
type Device struct {
	m    *soc.Machine
	id   soc.DeviceID
	cfg  Config
	cost entryTimes // cfg.Entry at the machine's CPU clock

	pool soc.Buffer // SWIOTLB slots (Path SWIOTLB)
	used []bool     // per slot of pool
	// next is where the slot search starts. Invariant: inUse == number of
	// true entries in used; next is 0 whenever inUse is 0.
	next, inUse int

	// pending is how many DC ops were issued since the last DSB SY.
	pending int64
	// spare is the entries array of the last unmapped scatterlist, reused
	// by the next MapSG.
	spare []Mapping
	// Listener, if set, sees every op, wait and copy.
	Listener Listener
	// iommu is the device's IOMMU domain (Path IOMMU; iommu.go).
	iommu *iommuDomain
}

// New returns the DMA API for soc device id of m, allocating the SWIOTLB
// pool for Path SWIOTLB.
func New(m *soc.Machine, id soc.DeviceID, cfg Config) (*Device, error) {
	if cfg.CopyWidth == 0 {
		cfg.CopyWidth = 16
	}
	cost, err := cfg.Entry.times(m.Config().Clocks.CPU)
	if err != nil {
		return nil, err
	}
	d := &Device{m: m, id: id, cfg: cfg, cost: cost}
	if cfg.Path == SWIOTLB {
		if cfg.PoolBytes == 0 {
			return nil, fmt.Errorf("swiotlb: pool size 0")
		}
		pool, err := m.Alloc("swiotlb", cfg.PoolBytes, mem.Normal)
		if err != nil {
			return nil, fmt.Errorf("swiotlb: %w", err)
		}
		d.pool, d.used = pool, make([]bool, pool.Size/SlotBytes)
	}
	if cfg.Path == IOMMU {
		dom, err := newIOMMUDomain(d)
		if err != nil {
			return nil, err
		}
		d.iommu = dom
	}
	return d, nil
}

// Machine returns the machine the device is on.
func (d *Device) Machine() *soc.Machine { return d.m }

// ID returns the soc device.
func (d *Device) ID() soc.DeviceID { return d.id }

// Pool returns the SWIOTLB pool (empty unless Path SWIOTLB).
func (d *Device) Pool() soc.Buffer { return d.pool }

// Config returns the device's configuration.
func (d *Device) Config() Config { return d.cfg }

// SetWait changes where scatterlist calls wait (to time both policies on
// one machine).
func (d *Device) SetWait(w Wait) { d.cfg.Wait = w }

// Pending returns the DC ops issued since the last DSB SY.
func (d *Device) Pending() int64 { return d.pending }

// Mapping is one streaming mapping (dma_map_single, dma_map_page, or one
// scatterlist entry), or a dma_alloc_noncoherent buffer.
type Mapping struct {
	VA  uint64 // the CPU's address of the buffer (cacheable linear map)
	Len uint64
	Dir Dir
	// Dev is the CPU address of the bytes the device accesses: VA, or the
	// bounce slot's address in the SWIOTLB pool.
	Dev uint64
	// IOVA is the address the device uses on the IOMMU path (its IOMMU
	// domain maps it to the pages of Dev); 0 elsewhere.
	IOVA uint64
	slot int // first bounce slot, -1 when not bounced
}

// Bounced reports whether the mapping goes through a SWIOTLB slot.
func (mp Mapping) Bounced() bool { return mp.slot >= 0 }

// maint issues ops (one call's arch hook over one entry), in slices so a
// listener can sample gauges while a long run is in flight: the machine
// issues the same ops either way.
func (d *Device) maint(ops *Ops, entry int) error {
	lb := d.m.LineBytes()
	for _, o := range ops.ops[:ops.n] {
		slice := max(64*lb, o.N/256&^(lb-1))
		for va, end := o.VA, o.VA+o.N; va < end; va += slice {
			n := min(slice, end-va)
			t0 := d.m.Now()
			if _, err := d.m.DC(o.DC, va, n); err != nil {
				return err
			}
			d.pending += int64(n / lb)
			if d.Listener != nil {
				d.Listener.Maint(o.DC, entry, va, n, t0, d.m.Now())
			}
		}
	}
	return nil
}

// forDevice is arch_sync_dma_for_device over [va, va+n).
func (d *Device) forDevice(va, n uint64, entry int) error {
	if d.cfg.Coherent || d.cfg.OmitClean {
		return nil
	}
	o := deviceOps(va, n, d.m.LineBytes())
	return d.maint(&o, entry)
}

// forCPU is arch_sync_dma_for_cpu over [va, va+n).
func (d *Device) forCPU(va, n uint64, dir Dir, entry int) error {
	if d.cfg.Coherent {
		return nil
	}
	o := cpuOps(va, n, d.m.LineBytes(), dir)
	return d.maint(&o, entry)
}

// wait is DSB SY, when DC ops were issued since the last one.
func (d *Device) wait() {
	if d.pending == 0 {
		return
	}
	t0 := d.m.Now()
	d.m.DSB()
	d.pending = 0
	if d.Listener != nil {
		d.Listener.Wait(t0, d.m.Now())
	}
}

// copy is the bounce memcpy.
func (d *Device) copy(dst, src, n uint64, entry int, toSlot bool) error {
	t0 := d.m.Now()
	if _, err := d.m.Copy(dst, src, n, d.cfg.CopyWidth); err != nil {
		return fmt.Errorf("swiotlb copy: %w", err)
	}
	if d.Listener != nil {
		d.Listener.Bounce(entry, toSlot, t0, d.m.Now())
	}
	return nil
}

// pages is the number of 4 KiB pages [va, va+n) touches.
func pages(va, n uint64) uint64 {
	return (va&(mem.PageSize-1) + n + mem.PageSize - 1) >> mem.PageShift
}

// Runs calls f for each physically contiguous piece of the bytes the
// device accesses for mp (what its DMA descriptors would list): on the
// IOMMU path, what the domain's io-pgtable translates mp's IOVA range to.
func (d *Device) Runs(mp Mapping, f func(pa, n uint64) error) error {
	if d.iommu != nil && mp.IOVA != 0 {
		return d.iommuRuns(mp, f)
	}
	sp := d.m.Space()
	return joinRuns(mp.Len, func(off uint64) (uint64, uint64, error) {
		tr, err := sp.Translate(mp.Dev+off, false)
		return tr.PA, tr.Contig, err
	}, f)
}

// joinRuns calls f for each physically contiguous run of n bytes that
// piece translates: piece(off) is the physical address of byte off and how
// many bytes from it are contiguous (a page, a block); adjacent pieces are
// joined. A piece's error ends the walk.
func joinRuns(n uint64, piece func(off uint64) (pa, k uint64, err error), f func(pa, n uint64) error) error {
	var runPA, runN uint64
	for off := uint64(0); off < n; {
		pa, k, err := piece(off)
		if err != nil {
			return err
		}
		if k == 0 {
			return fmt.Errorf("empty translation at offset %#x", off)
		}
		k = min(k, n-off)
		if runN > 0 && runPA+runN == pa {
			runN += k
		} else {
			if runN > 0 {
				if err := f(runPA, runN); err != nil {
					return err
				}
			}
			runPA, runN = pa, k
		}
		off += k
	}
	if runN > 0 {
		return f(runPA, runN)
	}
	return nil
}
