package platform

import "github.com/dmaviz/dmaviz/model/provenance"

// Sources of the Juno r2 A72 table.
const srcA72SOG = "Cortex-A72 Software Optimization Guide"

// junoR2A72Provenance: the Juno r2 board's Cortex-A72 cluster
// (junoR2A72, cortexA72TLB). It fits nothing of its own.
var junoR2A72Provenance = append(junoR2A72Core, cortexA72TLBProvenance...)

var junoR2A72Core = []provenance.Entry{
	assumed("clocks.cpu", 1000, 1200, "SCP-firmware config_dvfs.c cpu_group_big_r2 OPPs 600/1000/1200 (sustained 1000)"),
	measured("clocks.platform", srcJunoCCI),
	assumed("clocks.dram", 667, 800, srcJunoDDR),
	measured("core.load_issue", "the A72 has one load and one store pipeline ("+srcA72SOG+" 2.1; chipsandcheese A72: one load AGU, one store AGU)"),
	measured("core.store_issue", "one store pipeline ("+srcA72SOG+" 2.1)"),
	measured("core.mlp", srcA72TRM+" 6.4: 'up to six 64-byte cache line requests can be outstanding'"),
	assumed("core.write_stream_after", 1, 8, "the A72's write streaming threshold is not published"),
	measured("l1d.size", srcJunoDTS+" A72_0: d-cache-size = <0x8000>"),
	derived("l1d.ways", "l1d.size / (d-cache-sets 256 x l1d.line_bytes) = 2 ("+srcJunoDTS+")"),
	measured("l1d.line_bytes", srcJunoDTS+": d-cache-line-size = <64>"),
	measured("l1d.policy", srcA72TRM+" 6.4: LRU replacement"),
	measured("l1d.latency", srcA72SOG+": 4-cycle load-to-use"),
	measured("l2.size", srcJunoDTS+" A72_L2: cache-size = <0x200000>"),
	derived("l2.ways", "l2.size / (2048 sets ("+srcJunoDTS+") x l2.line_bytes) = 16"),
	measured("l2.line_bytes", srcA72TRM+": 64-byte lines"),
	assumed("l2.policy", 1, 2, whyPolicyPR),
	assumed("l2.latency", 15, 25, "no Juno A72 L2 latency measurement found"),
	measured("l3.size", srcJunoDTS+": the A72 cluster's L2 is the last level (no L3 node; the CCI-400 holds no cache)"),
	assumed("prefetch.streams", 1, 8, "not documented"),
	derived("prefetch.degree", "= prefetch.inflight (as juno-r2)"),
	assumed("prefetch.confirm", 1, 3, "not documented"),
	assumed("prefetch.max_stride", 1, 8, "not documented"),
	measured("prefetch.page_lines", srcA72TRM+" 6.4.9: VA-based prefetch (the reset default) crosses pages"),
	assumed("prefetch.inflight", 1, 6, "bounded by the six fill buffers ("+srcA72TRM+" 6.4)"),
	derived("dram.latency", "= juno-r2's dram.latency: the same board's DRAM, fitted there to the ETR figure's coherent time"),
	assumed("dram.bandwidth", 3.2, 12.8, junoBandwidth),
	assumed("dram.min_burst", 32, 64, junoBurst),
	measured("nc.inflight", srcA72TRM+" 6.4: the six fill buffers also serve Non-cacheable reads"),
	assumed("nc.read_bytes", 16, 64, "as juno-r2: "+whyNCBurst),
	assumed("nc.device_inflight", 1, 4, "Device reads one at a time"),
	assumed("nc.latency", 0, 20, "the NC path is the DRAM path without cache lookups; no source"),
	assumed("maint.issue", 1, 8, "no DC-op throughput published for the A72"),
	assumed("maint.clean_latency", 40, 150, "one CCI-400 snoop round trip, as juno-r2 (same interconnect, broadcast maintenance)"),
	derived("maint.inval_latency", "= maint.clean_latency (maint.ivac_cleans)"),
	assumed("maint.inflight", 5, 16, "the A72's outstanding maintenance is not published (the A53's is 5)"),
	assumed("maint.ivac_cleans", 0, 1, "no A72 statement found either way; its A53/A32/A35 and A76 neighbours clean, and every core does under KVM (HCR_EL2.{DC,VM} != 00, Arm ARM DC IVAC)"),
	assumed("maint.dsb", 10, 150, "as juno-r2"),
	derived("tlb.linear", srcLinear),
	measured("mem.bytes", srcJunoMem),
	derived("mem.max_order", srcMaxOrder),
}
