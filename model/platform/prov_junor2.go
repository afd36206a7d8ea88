package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the Juno r2 table.
const (
	srcJunoDTS = "Linux arch/arm64/boot/dts/arm/juno-r2.dts"
	srcA53TRM  = "Cortex-A53 TRM, ARM DDI 0500"
)

// junoR2Provenance: Juno r2's Cortex-A53 cluster (junoR2, cortexA53TLB).
// Every value today's preset sets; a value that was solved from the ETR
// figure stays fitted until a source gives it.
var junoR2Provenance = []provenance.Entry{
	measured("clocks.cpu", "SCP-firmware product/juno/scp_ramfw/config_dvfs.c cpu_group_little_r2: top OPP 950 MHz (450/800/950); the figure's frequency is unstated"),
	assumed("clocks.platform", 400, 533, "CCI-400 clock; SCP-firmware mod_juno_soc_clock.c sets CCICLK_CONTROL_CLOCK to 533 MHz"),
	assumed("clocks.dram", 667, 800, "DDR3L speed of Juno r2 not found; SCP-firmware config_juno_dmc400.c shows a DMC-400 with two PHYs"),
	measured("core.load_issue", srcA53TRM+" chapter 2: in-order, one load/store pipeline"),
	measured("core.store_issue", srcA53TRM+" chapter 2: in-order, one load/store pipeline"),
	fitted("core.mlp", FigETRCacheable, "chosen with prefetch.degree and maint.inflight so the cacheable copy matches; the TRM's Table 7-5 allows up to 8 data linefills"),
	assumed("core.write_stream_after", 3, 128, srcA53TRM+" p.6-5: write streaming after consecutive full-line writes (CPUACTLR_EL1 thresholds; reset values not retrieved)"),
	measured("l1d.size", srcJunoDTS+" A53_0: d-cache-size = <0x8000>"),
	derived("l1d.ways", "l1d.size / (d-cache-sets 128 x l1d.line_bytes) = 4 ("+srcJunoDTS+")"),
	measured("l1d.line_bytes", srcJunoDTS+": d-cache-line-size = <64>"),
	assumed("l1d.policy", 0, 2, whyPolicy),
	measured("l1d.latency", srcA53TRM+": 3-cycle load-to-use"),
	measured("l2.size", srcJunoDTS+" A53_L2: cache-size = <0x100000>"),
	measured("l2.ways", srcA53TRM+"G §2.1.7: 'Is 16-way set associative'"),
	measured("l2.line_bytes", srcA53TRM+"G §2.1.7: 'Supports 64 byte cache lines'"),
	assumed("l2.policy", 0, 2, whyPolicy),
	assumed("l2.latency", 12, 21, "no A53 L2 latency measurement found"),
	measured("l3.size", srcJunoDTS+": the A53 cluster's L2 is the last level (no L3 node; the CCI-400 holds no cache)"),
	assumed("prefetch.streams", 1, 8, "number of streams not documented"),
	fitted("prefetch.degree", FigETRCacheable, "chosen with core.mlp and maint.inflight so the cacheable copy matches"),
	measured("prefetch.confirm", "Cortex-A7 TRM (DDI 0464D) §6.5.2 (same prefetcher family): 'recognizes a sequence of three data cache misses at a fixed stride'"),
	measured("prefetch.max_stride", "Cortex-A35 TRM (100236) §A6.5 (A53 family): 'fixed stride pattern that lies in four cache lines, plus or minus'"),
	assumed("prefetch.page_lines", 0, 64, "whether the A53 prefetcher stops at 4 KiB pages is not documented (the A55's streams cross pages, 100442 §A6.5)"),
	measured("prefetch.inflight", srcA53TRM+": CPUACTLR_EL1.L1PCTL reset value, 5 outstanding prefetches"),
	fitted("dram.latency", FigETRCoherent, "solved from the coherent copy: 8148.32 us x nc.inflight (4) x 16 B / 4 MiB = 124.3 ns"),
	assumed("dram.bandwidth", 3.2, 12.8, "two DMC-400 channels (SCP-firmware); their width and rate not found"),
	assumed("dram.min_burst", 32, 64, "DDR3 burst of 8 on a 32- or 64-bit channel (channel width not found)"),
	measured("nc.inflight", srcA53TRM+" Table 7-5 (ACE master interface attributes): '4 non-cacheable or Device data reads' per core"),
	assumed("nc.device_inflight", 1, 4, "Table 7-5 shares its 4 reads between Normal-NC and Device; how many Device-nGnRE reads overlap is not stated"),
	assumed("nc.latency", 0, 20, "Normal-NC skips the cache lookups but may take a slower path; no source"),
	assumed("maint.issue", 1, 8, "no DC-op throughput published for the A53"),
	assumed("maint.clean_latency", 40, 150, "one CCI-400 snoop round trip: DC ops are broadcast (BROADCASTINNER is set in big.LITTLE, "+srcA53TRM+"D §7.2.2)"),
	derived("maint.inval_latency", "= maint.clean_latency (the same maintenance path to the point of coherency)"),
	fitted("maint.inflight", FigETRCacheable, "chosen with core.mlp and prefetch.degree so the cacheable copy matches; the TRM's Table 7-5 gives '5 coherency operations'"),
	assumed("maint.ivac_cleans", 0, 1, srcA53TRM+" §6.2.4, the same-family Cortex-A32 TRM (100241) §A5.5 and Xilinx UG643 say a dirty line is cleaned before DC IVAC invalidates it; the model's false has no source"),
	assumed("maint.dsb", 10, 150, "a DSB with nothing outstanding; the A53 may send the barrier on ACE (Table 7-5 '1 barrier operation'), a CCI round trip"),
	measured("tlb.l1.entries", srcA53TRM+"D §5.2.1: 'micro TLB of ten entries'"),
	assumed("tlb.l1.ways", 10, 10, "fully associative assumed (the TRM gives no associativity)"),
	measured("tlb.l1.sizes", srcA53TRM+": micro TLB entries of 4 KiB, 64 KiB and 1 MiB"),
	measured("tlb.l1.hit", srcA53TRM+"D §5.2.1: the micro TLB is looked up in the load pipeline"),
	assumed("tlb.l1.coalesce", 0, 0, whyNoCoalesce),
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
	measured("tlb.walk.l2.entries", srcA53TRM+": 64-entry walk cache of level-2 table entries"),
	measured("tlb.walk.l2.ways", srcA53TRM+": the walk cache is 4-way"),
	derived("tlb.linear", srcLinear),
	measured("mem.bytes", "V2M-Juno r2 TRM: 8 GB of DDR3L (no timing effect)"),
	derived("mem.max_order", srcMaxOrder),
}
