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
	measured("clocks.dram", srcMediaTek+": LPDDR5X at 10667 MT/s (a 5333 MHz half-rate clock)"),
	assumed("core.load_issue", 0.25, 0.5, "C1-Ultra load pipes not documented in the sources found (3 assumed)"),
	assumed("core.store_issue", 0.33, 1, "C1-Ultra store pipes not documented in the sources found (2 assumed)"),
	assumed("core.mlp", 20, 64, "the A76's L2 already tracks 46 misses (Table A7-1); X-class cores more"),
	assumed("core.write_stream_after", 1, 8, "Cortex-A76 TRM A6.2.6: write streaming 'depending on different thresholds' (values unstated)"),
	measured("l1d.size", srcMediaTek+": 'doubled the L1 cache' over the Dimensity 9400's X925 (64 KiB)"),
	assumed("l1d.ways", 4, 8, "not documented"),
	measured("l1d.line_bytes", srcModelLine),
	assumed("l1d.policy", 0, 1, "range 0 (lru) .. 1 (plru): the A76/A77 TRMs give pseudo-LRU (A76 A6.1.2); C1-Ultra not found"),
	assumed("l1d.latency", 4, 5, "A76/N1 class measured 4 (MODEL.md, AnandTech Graviton2); the C1-Ultra is unmeasured"),
	measured("l2.size", srcMediaTek+": '2MB of L2 cache for the Ultra core'"),
	assumed("l2.ways", 8, 16, "not documented"),
	measured("l2.line_bytes", srcModelLine),
	assumed("l2.policy", 0, 1, "range 0 (lru) .. 1 (plru), as l1d.policy"),
	assumed("l2.latency", 9, 15, "MODEL.md gives 9-11 cycles for A76/N1; a 2 MiB X-class L2 is likely slower"),
	measured("l3.size", srcMediaTek+": 'increased the L3 cache from 12MB to 16MB' (the 10 MB SLC beyond it is not modelled)"),
	assumed("l3.ways", 8, 16, "not documented (a power-of-two number of sets in 16 MiB: 8 or 16 ways)"),
	measured("l3.line_bytes", srcModelLine),
	assumed("l3.policy", 1, 2, whyPolicyPR),
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
	assumed("nc.read_bytes", 16, 64, whyNCBurst),
	assumed("nc.device_inflight", 1, 8, "not documented"),
	assumed("nc.latency", 0, 20, "Normal-NC skips the cache lookups but may take a slower path; no source"),
	assumed("maint.issue", 1, 5, "0.38-1.9 ns at 2.6 GHz; no DC-op throughput published for any A76-class core (software optimization guides searched)"),
	assumed("maint.clean_latency", 20, 110, "one maintenance round trip to the point of coherency through the DSU; the DRAM latency is the upper end"),
	derived("maint.inval_latency", "= maint.clean_latency: A76-family DC IVAC is 'treated as DC CIVAC' (TRM 100798 A6.2.4) and the unmap's lines are clean, so it is the same CMO"),
	assumed("maint.inflight", 22, 64, "Cortex-A76 TRM Table A7-1: read issuing capability 22/34/46 by L2 transaction-queue size, the largest for an X-class core; the C1-Ultra manual was not found"),
	measured("maint.ivac_cleans", srcA76IVAC+" (family wording; the C1-Ultra manual not found)"),
	fitted("maint.dsb", FigSGMap, "D = (B0 - q A0)/(q N - 1), q = 1 - 0.6461, N = 2560 DSBs per per-entry call, A0/B0 = per-entry/batched dma_map_sg at maint.dsb 0 (317.44/215.08 us): 113.52 ns (sgsync TestMaintDSBIsFittedToTheMapFigure)"),
	measured("tlb.l1.entries", "MODEL.md TLB table: Cortex-X4/X925/C1-Ultra L1 DTLB 96 entries"),
	assumed("tlb.l1.ways", 8, 96, "fully associative as the A76's"),
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
	assumed("tlb.walk.l1.entries", 0, 64, whyC1TLB+" (the A76 preset's upper-level walk cache)"),
	assumed("tlb.walk.l1.ways", 4, 4, whyC1TLB),
	assumed("tlb.walk.l2.entries", 16, 256, whyC1TLB),
	assumed("tlb.walk.l2.ways", 4, 4, whyC1TLB),
	derived("tlb.linear", srcLinear),
	assumed("mem.bytes", 8<<30, 24<<30, "a phone's RAM (no timing effect)"),
	derived("mem.max_order", srcMaxOrder),
}
