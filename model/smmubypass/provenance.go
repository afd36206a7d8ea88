package smmubypass

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// whyL3fwd: the workload parameters of the published figure.
const whyL3fwd = "the published figure names DPDK l3fwd traffic on the LS2088A; how it was run (rate, sizes, ring) is not published"

// withProvenance adds the scenario's workload constants with their
// provenance and classifies its figures from the tables.
func withProvenance(sp *scenario.Spec) *scenario.Spec {
	sp.AddParamConstants(
		provenance.Assume("smmu-bypass.cpu-work", 60, 300, "l3fwd's per-packet work besides the route lookup on a Cortex-A72; not published"),
		provenance.Assume("smmu-bypass.line-rate", 1, 10, whyL3fwd+" (the LS2088A's 10G ports bound it)"),
		provenance.Assume("smmu-bypass.packet", 64, 1518, whyL3fwd),
		provenance.Assume("smmu-bypass.ring", 32, 1024, whyL3fwd+" (packets in flight)"),
		provenance.Assume("smmu-bypass.burst", 64, 256, whyL3fwd+" (the NIC's DMA burst)"),
	)
	sp.OnBoard = true
	sp.Reads = []string{"smmu.tcu.", "smmu.bus.", "smmu.link_cycles", "smmu-bypass.packet", "clocks.platform", "smmu.tbu.", "smmu.bypass_bytes", "smmu-bypass."}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
