package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the Juno r2 table.
const (
	srcJunoDTS = "Linux arch/arm64/boot/dts/arm/juno-r2.dts"
	srcA53TRM  = "Cortex-A53 TRM, ARM DDI 0500"
	// Shared by both Juno clusters (the board's).
	srcJunoCCI    = "SCP-firmware module/juno_soc_clock (CCICLK_CONTROL_CLOCK 533 MHz); TF-A docs/perf/psci-performance-juno.rst 'AXI subsystem 533'"
	srcJunoDDR    = "DDR3L-1600 I/O clock; the DMC-400's speed on Juno r2 is not published (SCP-firmware config_juno_dmc400.c shows two DDR PHYs only)"
	junoBandwidth = "two DMC-400 channels (SCP-firmware); width and rate not published"
	junoBurst     = "DDR3 burst of 8 on a 64-bit channel (32 B on a 32-bit one); channel width not published"
	srcJunoMem    = "V2M-Juno r2: 8 GiB DDR3L; Linux arch/arm64/boot/dts/arm/juno-base.dtsi memory@80000000: 0x7f000000 + 0x180000000 bytes (8 GiB less the 16 MiB the firmware reserves for the secure world)"
	junoDRAMFit   = "the board's DRAM round trip as Normal-NC reads see it, solved in one dimension (secant on the etr scenario's coherent update time at its defaults, TestJunoR2DRAMLatencyFit) with nc.inflight (4, measured) and the copy's 16-byte loads fixed; plausible range [100, 180] ns"
)

// junoR2Provenance: Juno r2's Cortex-A53 cluster (junoR2, cortexA53TLB).
// The sources are the ones juno.go names beside each value.
var junoR2Provenance = []provenance.Entry{
	assumed("clocks.cpu", 800, 950, "SCP-firmware config_dvfs.c cpu_group_little_r2 OPPs 450/800/950 (sustained 800); the figure's OPP is unstated, the top one under a busy copy"),
	measured("clocks.platform", srcJunoCCI),
	assumed("clocks.dram", 667, 800, srcJunoDDR),
	measured("core.load_issue", srcA53TRM+" chapter 2: in-order, one load/store pipeline"),
	measured("core.store_issue", srcA53TRM+" chapter 2: in-order, one load/store pipeline"),
	derived("core.mlp", "8 data linefills per core ("+srcA53TRM+" Table 7-5, ACE read issuing capability) - prefetch.inflight"),
	assumed("core.write_stream_after", 3, 128, srcA53TRM+"D 6.2 'Read allocate mode' after a threshold of full-line writes (CPUACTLR_EL1.L1RADIS; reset value not retrieved; the A35/A7 family text says three lines, the L2's threshold is about 128)"),
	measured("l1d.size", srcJunoDTS+" A53_0: d-cache-size = <0x8000>"),
	derived("l1d.ways", "l1d.size / (d-cache-sets 128 x l1d.line_bytes) = 4 ("+srcJunoDTS+")"),
	measured("l1d.line_bytes", srcJunoDTS+": d-cache-line-size = <64>"),
	measured("l1d.policy", srcA53TRM+"D 2.1.6: data cache 'Pseudo-random cache replacement policy'"),
	measured("l1d.latency", srcA53TRM+": 3-cycle load-to-use"),
	measured("l2.size", srcJunoDTS+" A53_L2: cache-size = <0x100000>"),
	measured("l2.ways", srcA53TRM+"G §2.1.7: 'Is 16-way set associative'"),
	measured("l2.line_bytes", srcA53TRM+"G §2.1.7: 'Supports 64 byte cache lines'"),
	assumed("l2.policy", 1, 2, whyPolicyPR),
	assumed("l2.latency", 12, 21, "no A53 L2 latency measurement found"),
	measured("l3.size", srcJunoDTS+": the A53 cluster's L2 is the last level (no L3 node; the CCI-400 holds no cache)"),
	assumed("prefetch.streams", 1, 8, "number of streams not documented"),
	derived("prefetch.degree", "= prefetch.inflight (a stream cannot run further ahead than its outstanding slots while DRAM paces the misses)"),
	measured("prefetch.confirm", "Cortex-A7 TRM (DDI 0464D) §6.5.2 (same prefetcher family): 'recognizes a sequence of three data cache misses at a fixed stride'"),
	measured("prefetch.max_stride", "Cortex-A35 TRM (100236) §A6.5 (A53 family): 'fixed stride pattern that lies in four cache lines, plus or minus'"),
	assumed("prefetch.page_lines", 0, 64, "stops at 4 KiB pages (physical-address prefetch); not documented for the A53 (the A55's streams cross pages, 100442 A6.5)"),
	measured("prefetch.inflight", srcA53TRM+": CPUACTLR_EL1.L1PCTL reset value, 5 outstanding prefetches"),
	fitted("dram.latency", FigETRCoherent, junoDRAMFit),
	assumed("dram.bandwidth", 3.2, 12.8, junoBandwidth),
	assumed("dram.min_burst", 32, 64, junoBurst),
	measured("nc.inflight", srcA53TRM+" Table 7-5 (ACE master interface attributes): '4 non-cacheable or Device data reads' per core"),
	assumed("nc.read_bytes", 16, 64, "an A53 non-cacheable read may be one 128-bit beat or an INCR2/INCR4 burst (A53 ACE subset, Stratix 10 HPS TRM 3.5.10); no source says a 64-byte load issues as one burst, and Zynq US+ A53 copies with LDP Q got about 250 MB/s uncached vs 800 MB/s cached (ikwzm/udmabuf #16)"),
	assumed("nc.device_inflight", 1, 4, "Table 7-5 shares its 4 reads between Normal-NC and Device; how many Device-nGnRE reads overlap is not stated"),
	assumed("nc.latency", 0, 20, "Normal-NC skips the cache lookups but may take a slower path; no source"),
	assumed("maint.issue", 1, 8, "no DC-op throughput published for the A53"),
	assumed("maint.clean_latency", 40, 150, "one CCI-400 snoop round trip: DC ops are broadcast (BROADCASTINNER is set in big.LITTLE, "+srcA53TRM+"D §7.2.2)"),
	derived("maint.inval_latency", "= maint.clean_latency (DC IVAC executes as clean and invalidate, maint.ivac_cleans)"),
	measured("maint.inflight", srcA53TRM+" Table 7-5: '5 coherency operations' per core"),
	measured("maint.ivac_cleans", srcA53TRM+" 6.2.4 'Data cache maintenance considerations' and AMD/Xilinx UG643 (Zynq UltraScale+ A53): 'In Cortex-A53, functionality to simply invalid the cachelines is not present ... promoted to clean and invalidate'; the same-family Cortex-A32 TRM (100241) A5.5"),
	assumed("maint.dsb", 10, 150, "a DSB with nothing outstanding; the A53 may send the barrier on ACE (Table 7-5 '1 barrier operation'), a CCI round trip"),
	measured("tlb.l1.entries", srcA53TRM+"D §5.2.1: 'micro TLB of ten entries'"),
	assumed("tlb.l1.ways", 10, 10, "fully associative assumed (the TRM gives no associativity)"),
	measured("tlb.l1.sizes", srcA53TRM+": micro TLB entries of 4 KiB, 64 KiB and 1 MiB"),
	measured("tlb.l1.hit", srcA53TRM+"D §5.2.1: the micro TLB is looked up in the load pipeline"),
	assumed("tlb.l1.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l1i.entries", srcA53TRM+" §5.2.1: 'a micro TLB of ten entries ... on each of the instruction and data sides'"),
	assumed("tlb.l1i.ways", 10, 10, "fully associative assumed (the TRM gives no associativity)"),
	assumed("tlb.l1i.sizes", sizes(k4, k64, m1), sizes(k4, k64, m1), "the data micro TLB's entry sizes (4K, 64K, 1M); the TRM gives the instruction side's only as a micro TLB"),
	assumed("tlb.l1i.hit", 0, 1, whyL1IHit),
	assumed("tlb.l1i.coalesce", 0, 0, whyNoCoalesce),
	measured("tlb.l2.entries", srcA53TRM+"E §5.2.2: 'a 512-entry, 4-way, set-associative structure'"),
	measured("tlb.l2.ways", srcA53TRM+"E §5.2.2: 'a 512-entry, 4-way, set-associative structure'"),
	measured("tlb.l2.sizes", srcA53TRM+"E §5.2.2: 'all VMSAv8 block sizes, except 1GB ... split into 512MB blocks'"),
	assumed("tlb.l2.hit", 2, 8, srcA53TRM+"E §5.2.2: 'Accesses to the main TLB take a variable number of cycles'"),
	assumed("tlb.l2.coalesce", 0, 0, whyNoCoalesce),
	assumed("tlb.trace.entries", 1, 1, whyTraceShape),
	derived("tlb.trace.ways", traceWays),
	derived("tlb.trace.sizes", traceSizes),
	assumed("tlb.trace.hit", 0, 0, whyTraceShape),
	assumed("tlb.trace.coalesce", 0, 0, whyTraceShape),
	assumed("tlb.walk.l0.entries", 0, 64, srcA53TRM+"D §5.2.4: the walk cache holds stage-1 results up to the last level; upper-level caching not modelled"),
	assumed("tlb.walk.l1.entries", 0, 64, srcA53TRM+"D §5.2.4: the walk cache holds stage-1 results up to the last level; upper-level caching not modelled"),
	measured("tlb.walk.l2.entries", srcA53TRM+"D 5.2.4: walk cache of level-2 table entries, 64 entries (size not re-retrieved)"),
	measured("tlb.walk.l2.ways", srcA53TRM+"D 5.2.4: the walk cache is 4-way (not re-retrieved)"),
	derived("tlb.linear", srcLinear),
	measured("mem.bytes", srcJunoMem),
	derived("mem.max_order", srcMaxOrder),
}
