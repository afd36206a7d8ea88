package auxmap

import (
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

const srcSPETest = "tools/perf/tests/shell/test_arm_spe.sh: 'dd if=/dev/zero of=/dev/null count=100000'"

// withProvenance adds the scenario's constants with their provenance and
// classifies its figures from the tables.
func (s *Scenario) withProvenance(sp *scenario.Spec) *scenario.Spec {
	id := sp.ID + "."
	sp.AddParamConstants(
		provenance.Assume(id+ParamShape, 0.5, 2, "the published run's /proc/buddyinfo is not given; 0.5 puts half the small free memory at order 0, 2 half at order 9"),
		provenance.Assume(id+ParamBurst, 64, 4096, "the TRMs do not say how TRBE or SPE batch their writes; a unit translates at least once per page it writes"),
	)
	if s.unit == TRBE {
		sp.AddParamConstants(
			provenance.Fit(id+ParamFrag, sp.ID+"/"+MetricL2Refill+"/"+Order0, "the share of free memory in small blocks that gives 161,884.9 refills with order-0 pages on the default preset: "+
				"the one-dimensional solve in TestFragmentationSolvesTheBeforeFigure (0.255: 162,127.2), resting on the preset's assumed memory size (mem.bytes) and the assumed order ratio"),
			provenance.Assume(id+ParamRate, 100, 4000, "about a byte of trace per taken branch, a taken branch every one or two cycles; the published run's rate is not given (it sets the session's length, not the translations per page)"),
			provenance.Assume(id+ParamCode, 64<<10, 4<<20, "the published 'sparse branch test' is not described; such a test spreads its branch targets over many pages to defeat the branch predictors"),
			provenance.Assume(id+ParamWorkingSet, 4<<10, 1<<20, "a branch test keeps little data (its loop state and branch conditions); the published test's footprint was not found"),
		)
	} else {
		for _, c := range []struct {
			e    provenance.Entry
			unit string
			v    float64
		}{
			{provenance.Assume(id+"record", 32, 80, "an SPE record: header, PC, data VA (and PA), latency counters, events, data source, timestamp; PMSIDR_EL1.MaxSize bounds it, the size perf sees is not published"), "B", speRecord},
			{provenance.Assume(id+"dd_syscall_ops", 1000, 10000, "a dd block's operations besides clearing its buffer: two system calls (read of /dev/zero, write of /dev/null) and dd's loop; no published count"), "ops", ddSyscallOps},
			{provenance.Derive(id+"clear_user_ops", "3 operations per 8 bytes: arch/arm64/lib/clear_user.S's loop (sttr, subs, b.pl), which read_zero runs (drivers/char/mem.c); later versions store 16 or 64 bytes per iteration, so an upper bound"), "ops/8 B", clearOpsPer8B},
			{provenance.Assume(id+"ops_per_cycle", 0.5, 2, "the rate the core runs dd at: system-call-heavy code on an out-of-order core"), "ops/cycle", opsPerCycle},
		} {
			sp.Constants = append(sp.Constants, provenance.Param{Entry: c.e, Unit: c.unit, Value: c.v, Text: platform.FormatValue(c.v, c.unit)})
		}
		sp.AddParamConstants(
			provenance.Assume(id+ParamFrag, 0, 1, "trbe-aux's fitted value (no SPE figure)"),
			provenance.Assume(id+ParamInterval, 256, 4096, "perf sets sample_period from the PMU's min_interval (PMSIDR_EL1.INTERVAL, 256..4096), else 4096 (tools/perf/arch/arm64/util/arm-spe.c); the per-core value of N1, A76 and C1 was not found"),
			provenance.Measure(id+ParamBS, srcSPETest+" (no bs=: GNU dd's DEFAULT_BLOCKSIZE, 512 B)"),
			provenance.Measure(id+ParamCount, srcSPETest),
			provenance.Assume(id+ParamCode, 8<<10, 64<<10, "a few 4 KiB pages of user text: dd's loop and libc's read and write"),
		)
	}
	sp.OnBoard = true
	sp.Reads = []string{"mem.bytes", "tlb.", id}
	sp.Classify(platform.Provenance(sp.DefaultPreset))
	return sp
}
