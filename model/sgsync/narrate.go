package sgsync

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
)

var dirNames = [...]string{"DMA_FROM_DEVICE", "DMA_TO_DEVICE", "DMA_BIDIRECTIONAL"}

// note adds the narration step for a stage of the first iteration.
func (r *run) note(stage string) {
	v := r.view
	if v == nil {
		return
	}
	t := r.m.Now()
	c := r.cfg
	n := len(r.list.entries)
	switch stage {
	case "start":
		before := map[cpuKind]string{cpuReads: " The CPU has used the buffer before: it reads it first, so its lines are cached, clean.",
			cpuWrites: " The CPU writes the buffer before every map: its lines are dirty.", cpuNone: ""}[c.cpu]
		scatter := "packed back to back in one buffer"
		if c.scatter {
			scatter = "each on its own frames, with frames that belong to someone else between them"
		}
		v.step(t, "The scatterlist", fmt.Sprintf("%d entries, %s in all, %s. The grid is physical memory: the entries are "+
			"the segments that change colour, the gaps stay empty. Direction %s, %s path.%s",
			n, scenario.FormatBytes(int64(c.total)), scatter, dirNames[c.dir], pathNames[c.path], before))
	case "toward the device":
		call := "dma_map_sg"
		if c.persistent {
			call = "dma_sync_sg_for_device"
		}
		if r.pol.skipDevice || c.path == pathCoherent {
			v.carry = call + ": " + r.deviceText(call) // no DC op: nothing to show under a step of its own
			return
		}
		v.step(t, call+": clean to the point of coherency", r.deviceText(call))
	case "transfer":
		what := map[dirKind]string{fromDevice: "writes the entries into DRAM", toDevice: "reads the entries from DRAM",
			bidirectional: "reads, then writes the entries"}[c.dir]
		how := " It is not coherent: it never looks in the CPU caches."
		if c.path == pathCoherent {
			how = " It is coherent: it snoops the CPU caches."
		}
		v.step(t, "The device transfers", "The device "+what+"."+how)
	case "back to the cpu":
		if r.pol.skipUnmap || c.dir == toDevice || c.path == pathCoherent {
			v.carry = r.cpuText() // no DC op: nothing to show under a step of its own
			return
		}
		v.step(t, "Back to the CPU", r.cpuText())
	case "cpu reads":
		v.step(t, "The CPU reads the data", "Every line it reads is checked against the newest version in DRAM: "+
			"a line cached before the device wrote, and not invalidated since, is stale.")
	case "end":
		switch c.path {
		case pathCoherent:
			v.step(t, "Nothing to wait for", "A coherent device snoops the CPU caches on every access, so neither call "+
				"issues a DC op or a DSB: the control case for the cost of maintenance. What the calls still take is the "+
				"kernel's own work per entry: the list walk and the swiotlb, DMA-mask and bounce checks run on a coherent "+
				"device too.")
		case pathSWIOTLB:
			v.step(t, "Why SWIOTLB still waits per entry", "Each bounced entry is copied and its slot maintained on its own; "+
				"the copy back to the original buffer must read the device's data, so the slot's invalidate must have "+
				"completed first. The wait stays once per entry under either policy.")
		default:
			v.step(t, "Why one wait suffices", "DC ops by VA to the point of coherency are independent of one another, "+
				"and DSB SY completes only when every earlier one has. Nothing needs entry 1 cleaned before entry 2 is "+
				"cleaned: the device is started, or the CPU reads, only after the call returns. So one DSB after the last "+
				"entry gives the same guarantee as one per entry, and the waits overlap instead of adding up.")
		}
	}
}

var pathNames = [...]string{"dma-direct", "IOMMU", "SWIOTLB", "coherent-device"}

func (r *run) deviceText(call string) string {
	c, n := r.cfg, len(r.list.entries)
	why := "The device reads DRAM, not the CPU caches: a line the CPU dirtied must be written back first (DC CVAC), " +
		"or the device reads old data."
	if c.dir == fromDevice {
		why = "Even though the device only writes, a dirty line left in the cache could be evicted later and written back " +
			"over the device's data, so every line is cleaned (DC CVAC) before the transfer."
	}
	switch {
	case c.path == pathCoherent:
		return "The device is coherent: it snoops the CPU caches, so " + call + " does no maintenance and no DSB."
	case r.pol.skipDevice:
		return "BUG: " + call + " issues no DC CVAC. " + why + " Without the clean, dirty lines (set cpu=writes) are " +
			"either read stale by the device or written back over its data."
	case c.path == pathSWIOTLB:
		return why + " SWIOTLB first copies each entry into its bounce slot, then cleans the slot and waits (DSB SY) " +
			"before the next entry, under either policy: the copy and its maintenance are done entry by entry."
	case r.pol.perEntry:
		return why + fmt.Sprintf(" Each entry issues its DC CVAC, then DSB SY waits until all of them have reached the "+
			"point of coherency and then for the barrier's own acknowledgement: %d entries, %d waits, with the core idle in each (the gaps on the cpu lane).", n, n)
	}
	return why + fmt.Sprintf(" Every entry's DC CVAC is issued back to back: the queue of outstanding ops fills (gauge; "+
		"at most the core's transaction queue) while earlier ops complete, and a single DSB SY at the end waits for the last "+
		"one: %d entries, 1 wait.", n)
}

func (r *run) cpuText() string {
	c := r.cfg
	call := "dma_unmap_sg"
	if c.persistent {
		call = "dma_sync_sg_for_cpu"
	}
	switch {
	case r.pol.skipUnmap:
		return "BUG: the driver skips " + call + ". Lines the CPU cached before the DMA (and the map's clean kept) still " +
			"hold the old data; the CPU's reads hit them and get stale data."
	case c.dir == toDevice:
		return call + " with DMA_TO_DEVICE does nothing: the device only read, so the CPU's copies are still current."
	case c.path == pathCoherent:
		return "The device is coherent: its writes invalidated the CPU's copies as they happened; " + call + " does no maintenance."
	}
	text := call + " invalidates every line (DC IVAC): the CPU may hold copies from before the DMA (or prefetched during it), " +
		"and must not read them. A line the entry only partly covers gets DC CIVAC, so the neighbouring bytes it holds " +
		"are written back, not dropped. DSB SY waits until every invalidate has completed at the point of coherency."
	if c.path == pathSWIOTLB {
		text += " SWIOTLB waits per entry, then copies the slot back into the original buffer."
	} else if r.pol.perEntry {
		text += " Here: one DSB per entry."
	} else {
		text += " Here: one DSB for the whole list."
	}
	return text
}
