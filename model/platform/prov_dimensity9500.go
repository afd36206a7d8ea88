package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the Dimensity 9500 table.
const (
	srcSGLetter = "batched DMA sync cover letter (linux-arm-kernel, 2025-December/1088875)"
	srcMediaTek = "MediaTek Dimensity 9500 launch (C1-Ultra at 4.21 GHz)"
	whyC1TLB    = "C1-Ultra TRM not retrieved: as the Cortex-A76"
)

// dimensity9500Provenance: the Dimensity 9500's C1-Ultra big core
// (dimensity9500, cortexX925TLB).
var dimensity9500Provenance = []provenance.Entry{
	measured("clocks.cpu", srcSGLetter+": 'pinning the task to CPU7 and fixing the CPU frequency at 2.6 GHz'"),
	assumed("clocks.platform", 1000, 2200, "DSU and interconnect clock not published"),
	assumed("clocks.dram", 4800, 5333, srcMediaTek+": LPDDR5X up to 10667 MT/s (5333 MHz); 4800 MHz is LPDDR5X-9600"),
	assumed("core.load_issue", 0.25, 0.5, "C1-Ultra load pipes not documented in the sources found (3 assumed)"),
	assumed("core.store_issue", 0.33, 1, "C1-Ultra store pipes not documented in the sources found (2 assumed)"),
	assumed("core.mlp", 20, 64, "the A76's L2 already tracks 46 misses (Table A7-1); X-class cores more"),
	assumed("core.write_stream_after", 1, 8, "Cortex-A76 TRM A6.2.6: write streaming 'depending on different thresholds' (values unstated)"),
	assumed("l1d.size", 64<<10, 128<<10, srcMediaTek+": the L1 cache doubled from the Dimensity 9400's X925 (64 KiB)"),
	assumed("l1d.ways", 4, 8, "not documented"),
	measured("l1d.line_bytes", srcModelLine),
	assumed("l1d.policy", 0, 2, "the A76/A77 TRMs give pseudo-LRU (A76 A6.1.2); C1-Ultra not found"),
	measured("l1d.latency", "MODEL.md: L1D hit 4 cycles on A76/N1-class cores (AnandTech Graviton2: '4 cycles')"),
	measured("l2.size", srcMediaTek+": '2MB of L2 cache for the Ultra core'"),
	assumed("l2.ways", 8, 16, "not documented"),
	measured("l2.line_bytes", srcModelLine),
	assumed("l2.policy", 0, 2, whyPolicy),
	assumed("l2.latency", 9, 15, "MODEL.md gives 9-11 cycles for A76/N1; a 2 MiB X-class L2 is likely slower"),
	measured("l3.size", srcMediaTek+": 'increased the L3 cache from 12MB to 16MB' (the 10 MB SLC beyond it is not modelled)"),
	assumed("l3.ways", 8, 16, "not documented (a power-of-two number of sets in 16 MiB: 8 or 16 ways)"),
	measured("l3.line_bytes", srcModelLine),
	assumed("l3.policy", 0, 2, whyPolicy),
	assumed("l3.latency", 26, 60, "WikiChip: the A76's DSU L3 takes 26-31 cycles at 2-4 MiB; a 16 MiB L3 is likely slower"),
	assumed("prefetch.streams", 4, 16, "not documented"),
	assumed("prefetch.degree", 8, 32, "not documented"),
	assumed("prefetch.confirm", 1, 3, "not documented"),
	assumed("prefetch.max_stride", 4, 16, "not documented"),
	measured("prefetch.page_lines", "Cortex-A76 TRM 'Data prefetching' (the family's prefetcher): 'The load side prefetcher uses the virtual address', so streams cross pages"),
	assumed("prefetch.inflight", 16, 64, "bounded by the L2 transaction queue (A76: 46)"),
	assumed("dram.latency", 90, 130, "MODEL.md: mobile LPDDR about 90-120 ns; no Dimensity 9500 measurement found"),
	assumed("dram.bandwidth", 20, 60, "peak 10667 MT/s x 8 B = 85.3 GB/s ("+srcMediaTek+"); one core's share unknown"),
	measured("dram.min_burst", "LPDDR5X x16 channel, BL32: 64 B per burst"),
	assumed("nc.inflight", 4, 46, "bounded by the L2 transaction queue (Cortex-A76 TRM Table A7-1: 22/34/46)"),
	assumed("nc.device_inflight", 1, 8, "not documented"),
	assumed("nc.latency", 0, 20, "Normal-NC skips the cache lookups but may take a slower path; no source"),
	fitted("maint.issue", FigSGMap, "MODEL.md's about 1 ns per DC op at 2.6 GHz, chosen with maint.clean_latency so that the drain is 117x the issue"),
	fitted("maint.clean_latency", FigSGMap, "117 ns = 64 x 1 ns x 0.6461 / 0.3539: the map reduction by construction"),
	fitted("maint.inval_latency", FigSGUnmap, "128 ns: the unmap reduction by construction"),
	fitted("maint.inflight", FigSGMap, "256, so that batched issue never waits for a slot (>= latency / issue)"),
	measured("maint.ivac_cleans", srcA76IVAC),
	fitted("maint.dsb", FigSGMap, "0, so that the drain is the ops' latency"),
	measured("tlb.l1.entries", "MODEL.md TLB table: Cortex-X4/X925/C1-Ultra L1 DTLB 96 entries"),
	assumed("tlb.l1.ways", 96, 96, "fully associative assumed"),
	assumed("tlb.l1.sizes", sizes(k4, k16, k64, m2, m512), sizes(k4, k16, k64, m2, m512), whyC1TLB),
	assumed("tlb.l1.hit", 0, 1, whyC1TLB+" (a single cycle, inside the load latency)"),
	assumed("tlb.l1.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l2.entries", "MODEL.md TLB table: Cortex-X4/X925/C1-Ultra L2 TLB 2048 entries, 8-way"),
	measured("tlb.l2.ways", "MODEL.md TLB table: Cortex-X4/X925/C1-Ultra L2 TLB 2048 entries, 8-way"),
	assumed("tlb.l2.sizes", sizes(k4, k16, k64, m2, m32, m512, g1), sizes(k4, k16, k64, m2, m32, m512, g1), whyC1TLB),
	assumed("tlb.l2.hit", 3, 6, whyC1TLB),
	assumed("tlb.l2.coalesce", 0, 4, "coalescing not documented for the X925/C1-Ultra (the A76 coalesces 4)"),
	measured("tlb.trace.entries", "MODEL.md: 'The C1-Ultra manual gives SPE and TRBE each a one-entry L1 TLB'"),
	derived("tlb.trace.ways", traceWays),
	derived("tlb.trace.sizes", traceSizes),
	assumed("tlb.trace.hit", 0, 0, "a trace unit's L1 TLB hit is taken as free"),
	assumed("tlb.trace.coalesce", 0, 0, whyNoCoalesce),
	assumed("tlb.walk.l0.entries", 0, 16, whyC1TLB+" (no level-0 walk cache)"),
	assumed("tlb.walk.l1.entries", 8, 64, whyC1TLB),
	assumed("tlb.walk.l1.ways", 4, 4, whyC1TLB),
	assumed("tlb.walk.l2.entries", 8, 64, whyC1TLB),
	assumed("tlb.walk.l2.ways", 4, 4, whyC1TLB),
	derived("tlb.linear", srcLinear),
	assumed("mem.bytes", 8<<30, 24<<30, "a phone's RAM (no timing effect)"),
	derived("mem.max_order", srcMaxOrder),
}
