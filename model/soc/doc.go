// Package soc is the CPU/memory-system machine: one core with its cache
// hierarchy (L1D, L2, optional L3/SLC), a stride prefetcher, DRAM, the
// Normal-NC/Device path, cache maintenance and DSB, DMA masters, and PMU
// counters.
//
// # Units
//
// The Machine composes units, each owning its state and its part of the
// per-line path, with its config section and a plain-data Snapshot
// (Machine.State gathers them for views and golden tests):
//
//   - Core (core.*, prefetch.*): the clock, issue, the fill slots, the
//     prefetcher, write streaming;
//   - Hierarchy (l1d, l2, l3): the caches and their lookup hints (nothing
//     else reads a cache's hints);
//   - DRAM (dram.*): the shared channel and the order of asks;
//   - NCPath (nc.*): Normal-NC and Device transactions;
//   - Maint (maint.*): the queue of outstanding DC ops DSB waits for;
//   - Masters: DMA masters, agents and the event queue they run on;
//   - the translation hardware (tlb.*): page tables, TLBs, walker.
//
// The machine itself runs what crosses units: a line fill (hierarchy,
// DRAM, line versions, observer), a DC op (maintenance queue, hierarchy,
// DRAM), a DMA burst (masters, DRAM, caches), and it keeps the PMU
// counters, the correctness checks and the observer's watch.
//
// # Time
//
// Time is transaction level (STYLE.md #2): an operation (a copy, a line
// fill, a DC op, a DMA burst) advances its agent's clock by a cost
// computed from hardware state, and overlap is modelled by pools of
// outstanding operations, one per resource, each an earliest-free pool
// (completions may come back out of order):
//
//   - core.mlp outstanding L1 fills: a miss takes the slot that frees
//     first and waits if none is free (mlp_stall_us);
//   - prefetch.inflight prefetch fills into L2, issued by the stride
//     prefetcher on L1 misses; a demand hit on a line still in flight waits
//     for it;
//   - nc.inflight Normal-NC transactions (nc.device_inflight for Device),
//     one per load or store instruction of the access width;
//   - maint.inflight DC ops, each completing maint.clean_latency or
//     maint.inval_latency after its issue (later if its write-back waits
//     for DRAM);
//   - one DRAM channel: every transfer occupies it for bytes/bandwidth and
//     no read is delivered before dram.latency.
//
// DSB waits for the latest outstanding DC op and posted store, then for
// its own round trip (maint.dsb). So the cost of "a DSB after each SG
// entry" against "one DSB at the end" is the completion latency and the
// barrier paid once per entry instead of once: the drain comes out of the
// pools, the barrier out of maint.dsb.
//
// Every agent is on one clock (agents.go): DMA masters are processes on
// the machine's event queue, one step per burst; the core catches them up
// to its own time before it asks DRAM or starts a line, so DRAM is asked in
// non-decreasing global time and a device no longer books DRAM ahead of an
// earlier core request. StartDMA / FinishDMA overlap core work with
// transfers; DeviceRead / DeviceWrite are the two in one call.
//
// # Correctness
//
// Buffers passed to Track carry data versions (mem.Versions): every CPU
// read is classified, a read returning older data than the newest written
// counts in stale_lines_read and becomes a Hazard; a write-back over newer
// device data, or DC IVAC discarding newer CPU data, counts in lost_bytes;
// a non-coherent DMA read of DRAM older than a dirty CPU line counts in
// device_stale_lines. A non-coherent device writes DRAM and leaves the CPU
// caches alone (stale copies stay); a coherent one snoops.
//
// # Recipes
//
// The ETR bounce buffer (MODEL.md section 1):
//
//	m, _ := platform.New("juno-r2", seed)
//	buf, _ := m.Alloc("etr-buf", size, mem.Normal)       // cacheable linear map
//	m.Track(buf)
//	aux, _ := m.Alloc("aux", size, mem.Normal)           // perf AUX pages
//	etr, _ := m.AddDevice(soc.DeviceConfig{Name: "etr", Burst: 256, Bandwidth: 1e9})
//	done, _ := m.DeviceWrite(etr, buf.PA(0), size)       // trace lands in DRAM
//	m.WaitUntil(done)
//	// coherent policy: copy through the Normal-NC alias
//	nc, _ := m.Alias(buf, "etr-buf (nc)", mem.NormalNC)
//	m.Copy(aux.VA, nc.VA, size, 16)
//	// cacheable policy: dma_sync_single_for_cpu, then a cached copy
//	m.DC(soc.IVAC, buf.VA+off, n); m.DSB()
//	m.Copy(aux.VA, buf.VA+off, n, 16)
//
// Scatter-gather sync (MODEL.md section 2): for each entry call
// DC(CVAC, ...) (toward the device) or DC(IVAC, ...) (back to the CPU;
// CIVAC on partial first/last lines) over its lines, then DSB per entry
// (before) or once after the loop (after). Single-buffer calls wait once
// per buffer.
//
// Showing it: the machine reports hardware events (package hwevent: line
// reads with their writer and staleness, fills, drops and write-backs, DC
// ops with their completion, DSB waits, DMA bursts, Normal-NC
// transactions) to one observer, for watched physical ranges (WatchPhys)
// and cache sets (WatchSets); without an observer the per-line path pays
// only a nil check. scenario.NewRecording is the adapter that turns them
// into a timeline's cells and cache windows. Hazards returns the
// correctness events (stale reads, stale device reads, data destroyed) as
// neutral records; hwview.HazardsOf puts them in words.
package soc
