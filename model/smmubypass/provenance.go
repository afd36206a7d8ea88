package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// whyEngine: the second, translated master is the model's.
const whyEngine = "the second, translated master is the model's (the published measurement names none)"

// withProvenance adds the scenario's workload constants with their
// provenance and classifies its figures from the tables.
func withProvenance(sp *scenario.Spec) *scenario.Spec {
	for _, c := range []struct {
		e    provenance.Entry
		unit string
		v    float64
	}{
		{provenance.Measure("smmu-bypass.mbuf.headroom", "DPDK RTE_PKTMBUF_HEADROOM: the frame starts 128 B into its buffer"), "B", headroom},
		{provenance.Derive("smmu-bypass.mbuf.annotation_offset", "= smmu-bypass.mbuf.headroom - smmu-bypass.mbuf.annotation (the hardware annotation just before the frame)"), "B", annoOff},
		{provenance.Measure("smmu-bypass.mbuf.annotation", "DPDK DPAA2_ETH_RX_HWA_SIZE"), "B", annoBytes},
		{provenance.Measure("smmu-bypass.mbuf.data_room", "DPDK RTE_MBUF_DEFAULT_DATAROOM; a larger frame takes whole multiples"), "B", dataRoom},
		{provenance.Measure("smmu-bypass.stash_lines", "DPDK dpaa2_dev_rx_queue_setup, flc 0x14: '1 line data, 1 line annotation'"), "lines", stashLines},
		{provenance.Measure("smmu-bypass.max_chunk", "Linux MAX_PAGE_ORDER 10 with 4 KiB pages: 4 MiB, the largest physically contiguous block"), "B", maxChunk},
		{provenance.Measure("smmu-bypass.line_bytes", "the A72's and the CCN-504's 64-byte line"), "B", lineBytes},
		{provenance.Measure("smmu-bypass.l3fwd.routes", "l3fwd's built-in IPv4 routes (DPDK 16.x/17.x ipv4_l3fwd_lpm_route_array)"), "", routes},
		{provenance.Derive("smmu-bypass.l3fwd.route_stride", "tbl24 entries between N.1.1.0/24 and N+1.1.1.0/24 (2^16)"), "", routeStride},
	} {
		sp.Constants = append(sp.Constants, provenance.Param{Entry: c.e, Unit: c.unit, Value: c.v, Text: platform.FormatValue(c.v, c.unit)})
	}
	sp.AddParamConstants(
		provenance.Assume("smmu-bypass.packets", 2000, 400000, "a run control, not hardware (the averages settle after a few thousand)"),
		provenance.Measure("smmu-bypass.packet", "RFC 2544 throughput tests start at 64-byte frames, the point l3fwd is benchmarked at"),
		provenance.Measure("smmu-bypass.line-rate", "the LS2088A's DPAA2 ports are 10 Gbit/s (DPDK nics/dpaa2 guide)"),
		provenance.Measure("smmu-bypass.ring", "l3fwd RTE_TEST_RX_DESC_DEFAULT 128 (DPDK 16.x/17.x); on DPAA2 the RX queue's tail-drop threshold (dpaa2_dev_rx_queue_setup: taildrop.threshold = nb_rx_desc)"),
		provenance.Measure("smmu-bypass.rx-burst", "l3fwd MAX_PKT_BURST 32"),
		provenance.Assume("smmu-bypass.burst", 64, 256, "the DPAA2 WRIOP's DMA transaction size is not in the sources found"),
		provenance.Assume("smmu-bypass.flows", 1, 65536, "the tester's destinations; any number reads at most l3fwd's 8 route entries"),
		provenance.Assume("smmu-bypass.cpu-work", 60, 300, "l3fwd's other per-frame work on an A72 (queue-manager dequeue and enqueue, mbuf fields)"),
		provenance.Assume("smmu-bypass.ws", 256<<10, 16<<20, whyEngine),
		provenance.Assume("smmu-bypass.engine-rate", 0, 5, whyEngine),
		provenance.Assume("smmu-bypass.engine-streams", 1, 32, whyEngine),
		provenance.Measure("smmu-bypass.disable-bypass", "the published figure ran with arm-smmu.disable_bypass=0 (paperDisableBypass: it predates v5.2's default, and NXP's LS2088A needed it)"),
	)
	sp.OnBoard = true
	sp.Reads = []string{"smmu.tcu.", "smmu.bus.", "smmu.link_cycles", "l2.latency", "l3.latency", "dram.latency", "smmu-bypass.packet", "clocks.platform", "smmu.clock", "smmu.tbu.", "smmu.bypass_bytes", "smmu-bypass."}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
