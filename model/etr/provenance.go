package etr

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// withProvenance adds the scenario's constants with their provenance and
// classifies its figures from the tables.
func withProvenance(sp *scenario.Spec) *scenario.Spec {
	sp.Constants = append(sp.Constants, provenance.Param{
		Entry: provenance.Derive("etr.burst", "16 beats (TMC AXICTL.WrBurstLen 0xF, the driver's default max_burst_size) x 8 B (a 64-bit trace memory interface, assumed: Juno's ETR width not found)"),
		Unit:  "B", Value: etrBurst, Text: platform.FormatValue(etrBurst, "B")})
	sp.AddParamConstants(
		provenance.Measure("etr.width", "arm64 memcpy (arch/arm64/lib/memcpy.S) copies with LDP/STP of X-register pairs: 16 B per load and store"),
		provenance.Assume("etr.rate", 100, 2000, "the trace rate of the published run is not given; it sets how long the session lasts, not the copy"),
	)
	sp.OnBoard = true
	sp.Reads = []string{"core.", "prefetch.", "dram.", "nc.inflight", "nc.latency", "maint.", "tlb.l2.hit", "l2.latency"}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
