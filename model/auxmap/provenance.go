package auxmap

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// withProvenance adds the scenario's constants with their provenance and
// classifies its figures from the tables.
func (s *Scenario) withProvenance(sp *scenario.Spec) *scenario.Spec {
	id := sp.ID + "."
	if s.unit == TRBE {
		sp.AddParamConstants(
			provenance.Fit(id+ParamFrag, sp.ID+"/"+MetricL2Refill+"/"+Order0, "the share of free memory in small blocks that gives 161,884.9 refills with order-0 pages on the default preset (a one-dimensional solve)"),
			provenance.Assume(id+ParamRate, 100, 10000, "the trace rate of the published run is not given; it sets the session's length, not the translations per page"),
			provenance.Assume(id+ParamWorkingSet, 4<<10, 64<<10, "the published 'sparse branch test' footprint was not found; a loop of branches keeps its data in a stack page or a few"),
		)
	} else {
		sp.Constants = append(sp.Constants, provenance.Param{
			Entry: provenance.Assume(id+"record", 32, 80, "an SPE record: header, PC, latency, data source and VA packets (and PA); the size perf sees is not published"),
			Unit:  "B", Value: speRecord, Text: platform.FormatValue(speRecord, "B")})
		sp.AddParamConstants(
			provenance.Assume(id+ParamFrag, 0, 1, "as fitted for trbe-aux (no SPE figure)"),
			provenance.Assume(id+ParamInterval, 256, 4096, "perf sets sample_period from the PMU's min_interval (PMSIDR_EL1.INTERVAL), else 4096 (tools/perf/arch/arm64/util/arm-spe.c)"),
			provenance.Assume(id+ParamCopyRate, 1000, 20000, "dd's copy throughput on the core; bounded by one core's DRAM copy rate"),
		)
	}
	sp.OnBoard = true
	sp.Reads = []string{"mem.bytes", "tlb.", id}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
