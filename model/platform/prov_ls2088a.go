package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the LS2088A table.
const (
	srcEDN       = "NXP, EDN Asia 'How to sculpt a 16-core 2 GHz comms processor'"
	srcRCW       = "nxp-qoriq/rcw ls2088ardb rcw_2000.rcw: 'Core -- 2000 MHz, Platform -- 800 MHz, DDR -- 2133 MHz'"
	srcA72TRM    = "Cortex-A72 TRM (100095)"
	srcMMU500    = "CoreLink MMU-500 TRM (DDI 0517)"
	srcA72L1ITLB = srcA72TRM + " §5.2 (and Arm's published feature list): '48-entry fully associative L1 instruction TLB with native support for 4 KiB, 64 KiB, and 1 MB page sizes'"
	whyA72A76    = "the A72 preset inherits the A76's value (not in the A72 TRM)"
	whyTCUWalk   = srcMMU500 + " §2.4 'Page table walk cache': sizes are an integration option, not published for the LS2088A"
)

// ls2088aProvenance: NXP LS2088A's Cortex-A72 cores and MMU-500 (ls2088a,
// cortexA72TLB, LS2088ASMMU).
var ls2088aProvenance = append(ls2088aCore, cortexA72TLBProvenance...)

// ls2088aCore: the LS2088A's clocks, caches, memory path and SMMU.
var ls2088aCore = []provenance.Entry{
	measured("clocks.cpu", srcEDN+": 'eight Arm Cortex-A72 cores, each running at 2.0 GHz'; "+srcRCW),
	assumed("clocks.platform", 700, 800, srcRCW+" (700 MHz is the 1.8 GHz bin's platform clock)"),
	measured("clocks.dram", srcRCW),
	assumed("core.load_issue", 0.5, 1, "chipsandcheese on the A72: two AGU pipes, one for loads and one for stores; 0.5 takes two loads a cycle"),
	measured("core.store_issue", "chipsandcheese on the A72: one store AGU pipe"),
	measured("core.mlp", srcA72TRM+" §6.4: 'For Normal memory, up to six 64-byte cache line requests can be outstanding at a time'"),
	assumed("core.write_stream_after", 1, 8, "threshold not documented"),
	measured("l1d.size", srcA72TRM+": 32 KiB L1 data cache (Juno r2 dts A72: d-cache-size = <0x8000>)"),
	measured("l1d.ways", srcA72TRM+": 2-way (Juno r2 dts A72: 256 sets of 64 B)"),
	measured("l1d.line_bytes", srcA72TRM+": 64-byte lines"),
	measured("l1d.policy", srcA72TRM+": LRU replacement"),
	measured("l1d.latency", "Cortex-A72 software optimization guide: 4-cycle load-to-use"),
	measured("l2.size", srcEDN+": 'For each pair of Arm cores, we allocated 1 MB of L2 cache'"),
	measured("l2.ways", srcA72TRM+": 16-way set-associative L2 (Juno r2 dts A72_L2: 2 MiB in 2048 sets)"),
	measured("l2.line_bytes", srcA72TRM+": 64-byte lines"),
	assumed("l2.policy", 0, 2, whyPolicy),
	assumed("l2.latency", 15, 25, "no LS2088A or A72 L2 latency measurement retrieved"),
	assumed("l3.size", 1<<20, 8<<20, srcEDN+": '1 MB of L3 platform cache'; the 8 MiB has no source"),
	assumed("l3.ways", 8, 16, "not documented"),
	measured("l3.line_bytes", srcModelLine),
	assumed("l3.policy", 0, 2, whyPolicy),
	assumed("l3.latency", 40, 80, "the CCN-504 L3 at the platform clock; no measurement found"),
	assumed("prefetch.streams", 1, 8, "not documented"),
	assumed("prefetch.degree", 4, 16, "not documented"),
	assumed("prefetch.confirm", 1, 3, "not documented"),
	assumed("prefetch.max_stride", 2, 8, "not documented"),
	assumed("prefetch.page_lines", 0, 64, srcA72TRM+" §6.4.9: a 'hybrid mechanism' of PA and VA prefetching; VA-based prefetch (reset default) crosses pages"),
	assumed("prefetch.inflight", 4, 8, srcA72TRM+" §6.4: line fills share six fill buffers"),
	assumed("dram.latency", 80, 130, "no LS2088A DRAM latency found; MODEL.md's 90-120 ns for a non-server part"),
	measured("dram.bandwidth", "LS2088A fact sheet: two 64-bit DDR4-2133 controllers, 17 GB/s each, interleaved"),
	measured("dram.min_burst", "JEDEC DDR4: burst of 8 on a 64-bit channel"),
	assumed("nc.inflight", 6, 8, srcA72TRM+" §6.4: fill buffers serve 'cache line fills and Non-cacheable reads' (six)"),
	assumed("nc.read_bytes", 16, 64, whyNCBurst),
	assumed("nc.device_inflight", 1, 4, "not documented"),
	assumed("nc.latency", 0, 20, "Normal-NC skips the cache lookups but may take a slower path; no source"),
	assumed("maint.issue", 1, 5, "no DC-op throughput published for the A72"),
	assumed("maint.clean_latency", 50, 150, "about one DRAM round trip through the CCN-504; no source"),
	derived("maint.inval_latency", "= maint.clean_latency (the same maintenance path to the point of coherency)"),
	assumed("maint.inflight", 5, 32, "multi-cluster, so maintenance is broadcast (BROADCASTINNER); the A72's issuing capability not retrieved"),
	assumed("maint.ivac_cleans", 0, 1, "no A72 statement found; the A53/A32/A35 and A76 families clean a dirty line on DC IVAC, and under KVM every core does"),
	assumed("maint.dsb", 10, 100, "a DSB with nothing outstanding; no source"),
	derived("tlb.linear", srcLinear),
	assumed("mem.bytes", 1<<30, 16<<30, "the model's buddy size: the board has 8-16 GiB, the scenario's buffers are small (no timing effect)"),
	derived("mem.max_order", srcMaxOrder),
	derived("smmu.clock", "= clocks.platform (the MMU-500's TBUs and TCU on the platform clock, assumed)"),
	assumed("smmu.tbu.tlb_entries", 64, 2048, srcMMU500+": the TBU TLB size is an integration option; the LS2088A's is not published"),
	assumed("smmu.tbu.tlb_ways", 2, 8, srcMMU500+" §2.4.5 gives 4-way for the walk cache; the TBU TLB's associativity was not retrieved"),
	measured("smmu.tbu.hit_cycles", srcMMU500+" §2.1: 'best-case hit latency of this caching is two clocks'"),
	assumed("smmu.tbu.register_slices", 0, 1, srcMMU500+" §2.1: 'three clocks when the TBU address slave register slices are specified' (an integration option)"),
	measured("smmu.tbu.reads", srcMMU500+" §2.3.5: '128 outstanding transactions each for write and read'"),
	measured("smmu.tbu.writes", srcMMU500+" §2.3.5: '128 outstanding transactions each for write and read'"),
	measured("smmu.tbu.walks", srcMMU500+" §2.3.5: 'only eight such parallel PTWs for a TBU'"),
	fitted("smmu.link_cycles", FigSMMUOff, "the TBU-TCU trip solved from 140 = 2 + 2 x link + match + issue + read latency"),
	assumed("smmu.tcu.issue_cycles", 1, 4, "the TCU's request rate is not published"),
	assumed("smmu.tcu.match_cycles", 2, 16, "SMR compare and S2CR read in the TCU; not published"),
	assumed("smmu.bypass_bytes", 4<<10, 1<<30, "how large an identity entry a cached bypass makes is not documented (4 KiB .. 1 GiB)"),
	assumed("smmu.tcu.walk.l0.entries", 0, 16, whyTCUWalk),
	assumed("smmu.tcu.walk.l1.entries", 8, 64, whyTCUWalk),
	assumed("smmu.tcu.walk.l1.ways", 4, 4, whyTCUWalk),
	assumed("smmu.tcu.walk.l2.entries", 8, 64, whyTCUWalk),
	assumed("smmu.tcu.walk.l2.ways", 4, 4, whyTCUWalk),
	fitted("smmu.bus.read_latency", FigSMMUOn, "50 cycles with SMTNMB_TLBEN on = the 2-cycle TBU hit + this"),
	assumed("smmu.bus.write_latency", 10, 60, "a posted write's response from the interconnect; no source"),
}

// cortexA72TLBProvenance: the Cortex-A72's translation hardware
// (cortexA72TLB), which inherits what the A72 TRM does not give from the
// A76.
var cortexA72TLBProvenance = []provenance.Entry{
	measured("tlb.l1.entries", srcA72TRM+": '32-entry fully associative L1 data TLB'"),
	measured("tlb.l1.ways", srcA72TRM+": '32-entry fully associative L1 data TLB'"),
	assumed("tlb.l1.sizes", sizes(k4, k16, k64, m2, m512), sizes(k4, k16, k64, m2, m512), whyA72A76+"; the A72's are 4K, 64K and 1M"),
	assumed("tlb.l1.hit", 0, 0, whyA72A76),
	assumed("tlb.l1.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l1i.entries", srcA72L1ITLB),
	measured("tlb.l1i.ways", srcA72L1ITLB),
	measured("tlb.l1i.sizes", srcA72L1ITLB),
	assumed("tlb.l1i.hit", 0, 1, whyL1IHit),
	assumed("tlb.l1i.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l2.entries", srcA72TRM+" §5.2.3: 'a 1024-entry 4-way set-associative structure'"),
	measured("tlb.l2.ways", srcA72TRM+" §5.2.3: 'a 1024-entry 4-way set-associative structure'"),
	assumed("tlb.l2.sizes", sizes(k4, k16, k64, m2, m32, m512, g1), sizes(k4, k16, k64, m2, m32, m512, g1), whyA72A76+"; §5.2.3 gives 4K, 64K, 1M, 2M, 16M, 512M and 1G"),
	assumed("tlb.l2.hit", 2, 8, srcA72TRM+" §5.2.3: accesses 'take a variable number of cycles'"),
	assumed("tlb.l2.coalesce", 0, 4, whyA72A76+"; §5.2.3 documents no coalescing"),
	assumed("tlb.trace.entries", 1, 1, whyTraceShape),
	derived("tlb.trace.ways", traceWays),
	derived("tlb.trace.sizes", traceSizes),
	assumed("tlb.trace.hit", 0, 0, whyTraceShape),
	assumed("tlb.trace.coalesce", 0, 0, whyTraceShape),
	assumed("tlb.walk.l0.entries", 0, 16, whyA72A76),
	assumed("tlb.walk.l1.entries", 8, 64, whyA72A76),
	assumed("tlb.walk.l1.ways", 4, 4, whyA72A76),
	assumed("tlb.walk.l2.entries", 8, 64, whyA72A76),
	assumed("tlb.walk.l2.ways", 4, 4, whyA72A76),
}
