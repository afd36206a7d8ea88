package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// DeviceConfig describes a DMA master (a trace sink, a NIC, a test engine).
type DeviceConfig struct {
	Name string
	// Coherent devices snoop the CPU caches (an invalidating snoop on
	// write, dirty data forwarded on read); non-coherent ones go straight
	// to DRAM and leave the caches as they are.
	Coherent bool
	// Burst is the size of one bus transaction in bytes (a multiple of
	// the line size is typical).
	Burst int
	// Bandwidth is the device's own rate limit in bytes per second.
	Bandwidth float64
	// SnoopLatency is added per burst for a coherent device.
	SnoopLatency sim.Time
	// IOMMU translates the device's addresses (an SMMU context); nil means
	// the device issues physical addresses.
	IOMMU mem.Translator
}

// DeviceID names a device added to a machine.
type DeviceID int

type device struct {
	cfg       DeviceConfig
	psPerByte float64  // 1e12 / cfg.Bandwidth
	now       sim.Time // when its last job ended (its clock)
	writer    uint8
	// active is the job it is running (-1: idle); queued are the jobs
	// started after it, in order.
	active int
	queued []int
}

// AddDevice adds a DMA master. Its writer id (who wrote a line last) is
// 2 + its index: the first device added is writer 2.
func (m *Machine) AddDevice(c DeviceConfig) (DeviceID, error) { return m.dma.add(c) }

// DeviceWriter returns the writer id a device's data carries.
func (m *Machine) DeviceWriter(d DeviceID) uint8 { return m.dma.writer(d) }

// DeviceTime returns the device's clock (when its last transfer ended).
func (m *Machine) DeviceTime(d DeviceID) sim.Time {
	if dev := m.dma.device(d); dev != nil {
		return dev.now
	}
	return 0
}

// DeviceWrite has device d write n bytes at addr (physical, or IO-virtual
// through its IOMMU) in bursts, starting when both the device and the core
// (which started it) are ready: StartDMA, then FinishDMA (the core waits
// for the returned time; to overlap core work with the transfer, use
// those two). The core idles until the returned time. Each burst takes the longer of the device's
// transfer time and its DRAM occupancy; a coherent device also pays a snoop
// and invalidates the lines in every CPU cache, a non-coherent one leaves
// them, so cached copies go stale. It returns when the last burst lands.
func (m *Machine) DeviceWrite(d DeviceID, addr, n uint64) (sim.Time, error) {
	return m.transfer(d, addr, n, true)
}

// DeviceRead has device d read n bytes at addr. A non-coherent device reads
// DRAM and gets stale data where a CPU line is dirty with newer data
// (counted in device_stale_lines, reported as a hazard); a coherent one
// gets the dirty data by snooping. It returns when the data has arrived.
func (m *Machine) DeviceRead(d DeviceID, addr, n uint64) (sim.Time, error) {
	return m.transfer(d, addr, n, false)
}

func (m *Machine) transfer(d DeviceID, addr, n uint64, write bool) (sim.Time, error) {
	j, err := m.StartDMA(d, addr, n, write)
	if err != nil {
		return m.core.now, err
	}
	return m.FinishDMA(j)
}

// burst is one step of device d's current job at time t: the previous
// burst lands (its lines take effect), then the next one asks DRAM. It
// returns the time of the device's next step, or false when the job is
// over.
func (m *Machine) burst(dev *device, j *dmaJob, t sim.Time) (sim.Time, bool) {
	lmask := m.lineBytes - 1
	if j.landN != 0 {
		first, end := j.landPA>>m.lineShift, (j.landPA+j.landN+lmask)>>m.lineShift
		if j.write && !dev.cfg.Coherent && len(m.chk.shadows) == 0 {
			// dmaLine for a non-coherent write, written out (no call per
			// line): the caches are left as they are, DRAM gets the data.
			for line := first; line < end && m.ver.Tracked(); line++ {
				if idx := m.ver.Index(line); idx >= 0 {
					m.ver.WriteMem(idx, dev.writer)
					m.outdate(line, idx, t, dev.writer, 0)
				}
			}
		} else {
			for line := first; line < end; line++ {
				m.dmaLine(dev, line, j.write, t)
			}
		}
		if m.ob.obs != nil && m.ob.kinds.Has(hwevent.DMABurst) && m.ob.watchedRange(first, end) {
			f := hwevent.Flags(0)
			if j.write {
				f = hwevent.Write
			}
			// emit, written into the scratch field by field (a struct
			// passed by value goes through the stack): one per burst.
			e := &m.ob.scratch
			e.T, e.End, e.Kind, e.Flags, e.Why, e.Op, e.Agent, e.Writer = t, 0, hwevent.DMABurst, f, hwevent.ReasonNone, 0, dev.writer, dev.writer
			e.Level, e.Set, e.Way, e.Addr, e.Victim, e.Bytes = -1, -1, -1, j.landPA, 0, j.landN
			m.ob.obs.Event(e)
		}
		j.landN = 0
	}
	if j.off >= j.n || j.err != nil {
		return t, false
	}
	c := &j.c
	seg := min(j.n-j.off, uint64(dev.cfg.Burst))
	if dev.cfg.IOMMU != nil {
		if c.left == 0 {
			tr, e := dev.cfg.IOMMU.Translate(c.va, j.write)
			if e != nil {
				j.err = fmt.Errorf("device %s: %w", dev.cfg.Name, e)
				return t, false
			}
			if tr.Contig == 0 {
				j.err = fmt.Errorf("device %s: empty translation at %#x", dev.cfg.Name, c.va)
				return t, false
			}
			c.tr, c.left = tr, tr.Contig
			if tr.Cost > 0 {
				return t + tr.Cost, true // asks DRAM once the translation is back
			}
		}
		seg = min(seg, c.left)
	} else if c.left == 0 {
		c.tr, c.left = mem.Translation{PA: c.va}, ^uint64(0)
	}
	dx := m.dram.xfer(int(seg))
	m.dram.devAsk(t)
	start := m.dram.channel(t, dx)
	t = start + max(dx, sim.Time(float64(seg)*dev.psPerByte+0.5))
	if dev.cfg.Coherent {
		t += dev.cfg.SnoopLatency
	}
	j.landPA, j.landN = c.tr.PA, seg
	c.step(seg)
	j.off += seg
	return t, true
}

// dmaLine applies one line of a DMA transfer to caches and versions.
func (m *Machine) dmaLine(dev *device, line uint64, write bool, t sim.Time) {
	idx := -1
	if m.ver.Tracked() {
		idx = m.ver.Index(line)
	}
	if dev.cfg.Coherent {
		forwarded, fwdVer := false, uint32(0)
		for i, c := range m.hier.lv {
			e := m.hier.find(i, line)
			if e < 0 {
				continue
			}
			if write {
				c.Drop(e) // invalidating snoop: the device's line supersedes it
			} else if c.Meta[e].Dirty || forwarded {
				// The snoop forwards the newest (nearest the core) dirty
				// data and DRAM is updated; copies below now hold it too
				// (an older one must not resurface after an eviction).
				if !forwarded {
					if idx >= 0 {
						m.ver.WriteBack(idx, c.Meta[e].Ver)
					}
					forwarded, fwdVer = true, c.Meta[e].Ver
				}
				c.Meta[e].Dirty, c.Meta[e].Ver = false, fwdVer
			}
			if m.ob.obs != nil {
				k := hwevent.Update
				if write {
					k = hwevent.Drop
				}
				m.noteEntryAt(t, k, i, e, line)
			}
		}
	}
	if write {
		if idx >= 0 {
			m.ver.WriteMem(idx, dev.writer)
			if dev.cfg.Coherent {
				m.chk.rewritten(idx) // the snoop dropped every copy
			} else {
				m.outdate(line, idx, t, dev.writer, 0)
			}
		}
		if len(m.chk.shadows) != 0 {
			m.shadowWrite(line, dev.writer, t)
		}
		return
	}
	if idx >= 0 && m.ver.Mem[idx] < m.ver.Latest[idx] {
		m.cnt[DeviceStaleLines]++
		m.hazard(hwevent.Event{T: t, Kind: hwevent.DeviceStaleRead, Agent: dev.writer, Writer: m.ver.LatestWriter[idx],
			Level: -1, Set: -1, Way: -1, Addr: line << m.lineShift, Bytes: m.lineBytes})
	}
}
