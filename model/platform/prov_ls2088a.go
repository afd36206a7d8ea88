package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the LS2088A table.
const (
	srcEDN       = "NXP (Ben Eckermann), EDN Asia 'How to sculpt a 16-core 2 GHz comms processor'"
	srcRCW       = "nxp-qoriq/rcw ls2088ardb/FFFFFFFF_PP_HH_0x2a_0x41/rcw_2000.rcw"
	srcA72TRM    = "Cortex-A72 TRM (100095)"
	srcMMU500    = "CoreLink MMU-500 TRM (DDI 0517)"
	whyA72Walk   = "walk cache sizes not in the " + srcA72TRM + " text found"
	whyTCUWalk   = srcMMU500 + " §2.4: MMU-500 TCU walk cache sizes are integration options, not published for the LS2088A"
	srcA72L1ITLB = srcA72TRM + " §5.2 (and Arm's published feature list): '48-entry fully associative L1 instruction TLB with native support for 4 KiB, 64 KiB, and 1 MB page sizes'"
)

// ls2088aProvenance: NXP LS2088A's Cortex-A72 cores and MMU-500 (ls2088a,
// cortexA72TLB, LS2088ASMMU).
var ls2088aProvenance = append(append(ls2088aCore, cortexA72TLBProvenance...), ls2088aSMMU...)

// ls2088aCore: the LS2088A's clocks, caches and memory path.
var ls2088aCore = []provenance.Entry{
	measured("clocks.cpu", srcEDN+": 'eight Arm Cortex-A72 cores, each running at 2.0 GHz'; "+srcRCW+": 'Core -- 2000 MHz'"),
	measured("clocks.platform", srcRCW+": 'Platform -- 800 MHz' (the CCN-504 and the MMU-500; 700 MHz is the 1.8 GHz bin's)"),
	measured("clocks.dram", srcRCW+": 'DDR -- 2133 MHz' (2133 MT/s, half that clock)"),
	measured("core.load_issue", "Cortex-A72 has one load and one store AGU pipe ("+srcA72TRM+"; chipsandcheese's A72 article: 'two AGU pipes')"),
	measured("core.store_issue", "one store AGU pipe ("+srcA72TRM+"; chipsandcheese's A72 article: 'two AGU pipes')"),
	measured("core.mlp", srcA72TRM+" §6.4: 'up to six 64-byte cache line requests can be outstanding'"),
	assumed("core.write_stream_after", 1, 8, "when write streaming starts after full-line store misses (not in the A72 TRM text found)"),
	measured("l1d.size", srcA72TRM+": 32 KiB L1 data cache"),
	measured("l1d.ways", srcA72TRM+": 2-way (Juno's device tree: 0x8000 bytes in 256 sets)"),
	measured("l1d.line_bytes", srcA72TRM+": 64-byte lines"),
	measured("l1d.policy", srcA72TRM+": LRU L1D replacement"),
	measured("l1d.latency", "Cortex-A72 software optimization guide: 4-cycle load-to-use"),
	measured("l2.size", srcEDN+": 'For each pair of Arm cores, we allocated 1 MB of L2 cache'"),
	measured("l2.ways", srcA72TRM+", L2 memory system: '16-way set-associative cache structure'"),
	measured("l2.line_bytes", srcA72TRM+": 'Fixed line length of 64 bytes'"),
	measured("l2.policy", srcA72TRM+": 'pseudo-least-recently-used or pseudo-random' (programmable; PLRU taken)"),
	assumed("l2.latency", 15, 25, "A72 L2 load-to-use (published microbenchmarks; none retrieved for the LS2088A)"),
	measured("l3.size", srcEDN+": 'the LS2088A has 1 MB of L3 platform cache' (the CCN-504's)"),
	assumed("l3.ways", 8, 16, "CCN-504 L3 associativity not in the sources found"),
	measured("l3.line_bytes", "CCN-504 64-byte lines (the A72's line)"),
	assumed("l3.policy", 0, 2, "CCN-504 L3 replacement not in the sources found; range 0 (lru) .. 2 (random)"),
	assumed("l3.latency", 40, 80, "core load-to-use of an L3 hit across the CCN-504 at the 800 MHz platform clock"),
	assumed("prefetch.streams", 2, 8, "streams the A72 data prefetcher tracks"),
	assumed("prefetch.degree", 2, 16, "lines ahead"),
	assumed("prefetch.confirm", 1, 4, "misses before a stream is trusted"),
	assumed("prefetch.max_stride", 1, 8, "lines"),
	measured("prefetch.page_lines", srcA72TRM+" §6.4.9: the prefetcher is VA-based by default and crosses pages ('Disable VA based prefetch ... restricted to within the page boundary', reset: enabled)"),
	assumed("prefetch.inflight", 2, 8, "prefetch fills share the six L1 fill buffers the demand misses use ("+srcA72TRM+" §6.4)"),
	assumed("dram.latency", 80, 130, "core load-to-use from DDR4-2133; no LS2088A measurement found"),
	derived("dram.bandwidth", "2 controllers x 2133 MT/s x 8 bytes (two 64-bit DDR4 controllers, interleaved; LS2088A fact sheet)"),
	measured("dram.min_burst", "JEDEC DDR4: burst of 8 x 64 bit"),
	measured("nc.inflight", srcA72TRM+" §6.4: the six fill buffers also serve Non-cacheable reads"),
	assumed("nc.read_bytes", 16, 64, whyNCBurst),
	assumed("nc.device_inflight", 1, 2, "Device reads one at a time"),
	assumed("nc.latency", 0, 20, "a Normal-NC read takes the DRAM path"),
	assumed("maint.issue", 1, 4, "cycles per DC op"),
	assumed("maint.clean_latency", 80, 200, "about one DRAM round trip to the point of coherency"),
	derived("maint.inval_latency", "= maint.clean_latency (the same trip)"),
	assumed("maint.inflight", 5, 16, "DC ops outstanding; the A72's issuing capability was not found (the A53 family's is 5)"),
	assumed("maint.ivac_cleans", 0, 1, "no Cortex-A72 statement found either way; its A53/A32/A35 and A76 neighbours clean a dirty line on DC IVAC, and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)"),
	assumed("maint.dsb", 10, 100, "DSB with nothing outstanding"),
	derived("tlb.linear", srcLinear),
	assumed("mem.bytes", 2<<30, 16<<30, "the LS2088A RDB takes DDR4 DIMMs on its two controllers; how much is fitted is not in the sources found (Linux fsl-ls208xa.dtsi lists only the first 2 GiB DRAM window, which U-Boot fixes up from the DIMMs); 8 GiB is taken inside that range. It sets how much the AUX scenarios may allocate and the free memory they allocate from; the model once kept 1 GiB, which refused trbe-aux's and spe-aux's own defaults"),
	derived("mem.max_order", srcMaxOrder),
}

// ls2088aSMMU: the LS2088A's MMU-500 and its port to the interconnect
// (LS2088ASMMU). One parameter is fitted, smmu.link_cycles, to the bit-off
// 140; the bit-on 50 is a prediction.
var ls2088aSMMU = []provenance.Entry{
	assumed("smmu.clock", 400, 800, "the MMU-500 runs on the 800 MHz platform clock (its clock on the LS2088A is not in the sources found)"),
	assumed("smmu.tbu.tlb_entries", 32, 2048, "chosen at integration, the LS2088A's not published; a published MMU-500 integration (Intel Stratix 10 HPS TRM) has 32- and 128-entry TBU micro TLBs and a 512-entry macro TLB in the TCU, and the model's one TBU TLB stands for both"),
	assumed("smmu.tbu.tlb_ways", 2, 8, srcMMU500+" §2.4.5 gives 4-way for its walk and IPA-to-PA caches; the TBU TLB's text was not retrieved"),
	measured("smmu.tbu.hit_cycles", srcMMU500+" §2.1: 'best-case hit latency of this caching is two clocks'"),
	assumed("smmu.tbu.register_slices", 0, 1, "without the TBU register slices ("+srcMMU500+" §2.1: 'three clocks' with them)"),
	measured("smmu.tbu.reads", srcMMU500+" §2.3.5: '128 outstanding transactions each for write and read'"),
	measured("smmu.tbu.writes", srcMMU500+" §2.3.5: '128 outstanding transactions each for write and read'"),
	measured("smmu.tbu.walks", srcMMU500+" §2.3.5: 'only eight such parallel PTWs for a TBU'"),
	fitted("smmu.link_cycles", FigSMMUOff, "MODEL.md section 4: a miss is the hit lookup (2), two trips (2 x link), the stream match (8) and the read below the SMMU: the port (4) and, at the scenario's paper setting, a snoop of the core's cluster, which holds the frame's rewritten header line (31.6 cycles: soc.IOTimes of this preset), so (140 - 2 - 8 - 35.6) / 2 = 47.2; 47 is the integer whose run comes closest (TestLS2088ALinkFit)"),
	assumed("smmu.tcu.issue_cycles", 1, 4, "the TCU takes one request every 2 cycles"),
	assumed("smmu.tcu.match_cycles", 2, 16, "SMR compare and S2CR read in the TCU"),
	assumed("smmu.bypass_bytes", 4<<10, 1<<30, "the range one cached bypass entry covers: 4 KiB, 64 KiB, 2 MiB or 1 GiB"),
	assumed("smmu.tcu.walk.l0.entries", 0, 16, whyTCUWalk),
	assumed("smmu.tcu.walk.l1.entries", 8, 64, whyTCUWalk+" (upper levels)"),
	assumed("smmu.tcu.walk.l1.ways", 4, 4, whyTCUWalk),
	assumed("smmu.tcu.walk.l2.entries", 16, 256, whyTCUWalk+" (level-2 table entries)"),
	assumed("smmu.tcu.walk.l2.ways", 4, 4, whyTCUWalk),
	assumed("smmu.bus.port", 0, 20, "TBU master port to the CCN-504's I/O bridge and back (a register slice each way)"),
}

// cortexA72TLBProvenance: the Cortex-A72's translation hardware
// (cortexA72TLB), from its own manual (A72 TRM 100095 section 5.2), not
// the A76's.
var cortexA72TLBProvenance = []provenance.Entry{
	measured("tlb.l1.entries", srcA72TRM+": 32-entry L1 data TLB"),
	measured("tlb.l1.ways", srcA72TRM+": fully associative"),
	measured("tlb.l1.sizes", "A72 L1 data TLB 'native support for 4 KiB, 64 KiB, and 1 MB page sizes'"),
	assumed("tlb.l1.hit", 0, 1, "looked up in the load pipeline, inside the 4-cycle load-to-use"),
	assumed("tlb.l1.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l1i.entries", srcA72L1ITLB),
	measured("tlb.l1i.ways", srcA72L1ITLB),
	measured("tlb.l1i.sizes", srcA72L1ITLB),
	assumed("tlb.l1i.hit", 0, 1, whyL1IHit),
	assumed("tlb.l1i.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l2.entries", srcA72TRM+" §5.2.3: 'a 1024-entry 4-way set-associative structure'"),
	measured("tlb.l2.ways", srcA72TRM+" §5.2.3: 'a 1024-entry 4-way set-associative structure'"),
	measured("tlb.l2.sizes", srcA72TRM+" §5.2.3: 'supports the page sizes of 4K, 64K, 1MB and 16MB', '2MB and 1GB', '512MB'"),
	assumed("tlb.l2.hit", 2, 8, srcA72TRM+": 'a variable number of cycles'"),
	measured("tlb.l2.coalesce", srcA72TRM+" §5.2.3 documents no coalescing for the L2 TLB"),
	assumed("tlb.trace.entries", 1, 1, "the A72 has no TRBE or SPE; the model's trace ports keep the one-entry shape"),
	derived("tlb.trace.ways", traceWays),
	derived("tlb.trace.sizes", traceSizes),
	assumed("tlb.trace.hit", 0, 0, whyTraceShape),
	assumed("tlb.trace.coalesce", 0, 0, whyTraceShape),
	assumed("tlb.walk.l0.entries", 0, 16, whyA72Walk),
	assumed("tlb.walk.l1.entries", 8, 64, "walk cache of the upper levels ("+whyA72Walk+")"),
	assumed("tlb.walk.l1.ways", 4, 4, whyA72Walk),
	assumed("tlb.walk.l2.entries", 16, 128, "level-2 table entries ("+whyA72Walk+")"),
	assumed("tlb.walk.l2.ways", 4, 4, whyA72Walk),
}
