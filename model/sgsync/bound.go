package sgsync

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Bounded runs: every setting the schema allows must finish within the
// page's time budget, so a run's work is estimated before it
// starts, in work units, and limited in two ways. A unit is one cache line
// handled by the device or by cache maintenance (cleaned, invalidated, read
// or written by the device); a CPU access of a line (the CPU's reads and
// writes, and SWIOTLB's bounce copies, which the CPU does) counts
// cpuLineUnits, as it goes through every cache level and trains the
// prefetcher, which fills the lines ahead into L2.
//
// The iterations simulated are capped by what fits maxRunUnits after the
// CPU's earlier use of the buffer (at least minSimulated, at most
// maxSimulated); the rest are extrapolated as usual. A setting whose
// minimum simulation does not fit is refused by parse, naming total and the
// largest total allowed with the other settings: the list is then too
// large for the path, CPU use and direction chosen (SWIOTLB copies every
// line twice per iteration, cpu=writes writes it, bidirectional moves it
// both ways).

// cpuLineUnits is a CPU line access in units: measured natively on the
// neoverse-n1 preset (64 MiB list, 1 MiB entries, one iteration), a line
// the device or maintenance handles costs about 30 ns and a CPU access
// 190-320 ns (cpu=none against cpu=reads and cpu=writes, the same list).
const cpuLineUnits = 8

// maxRunUnits (15 Mi) is one run's (one policy's) budget: the slowest
// corner the schema then allows (a 64 MiB list the CPU reads, one
// iteration, neoverse-n1) runs A and B in about 1.2 s natively, leaving
// room under the 2 s bound on a busy machine. A 64 MiB list fits when the
// CPU does not touch it (cpu=none); the default CPU use and direction
// allow about 30 MiB.
const maxRunUnits = 15 << 20

// steadyTolerance is how much an iteration's times (each call's time, DSB
// and DC stall) may differ from the previous one's, relatively, for it to
// count as steady; counts must repeat exactly. The CPU's copies (the
// SWIOTLB bounce) and a random-replacement L3 make times wander by a few
// tenths of a percent from one iteration to the next.
const steadyTolerance = 0.005

// lineOps estimates the work units done once (the CPU's earlier use of
// the buffer; a persistent mapping's map and unmap) and those of one
// iteration, as iteration performs them.
func lineOps(c config) (prior, perIter int64) {
	lines := int64(0)
	for _, s := range c.sizes {
		lines += int64((c.offset%blockBytes+s+blockBytes-1)/blockBytes) + 1
	}
	var cpu, other int64 // CPU accesses and other line operations, per line
	if c.cpu == cpuWrites {
		cpu += 2 // read and write the buffer before the map
	} else if c.cpu == cpuReads && c.dir == toDevice {
		cpu++
	}
	if c.path == pathSWIOTLB {
		cpu += 2 // copy into the bounce slots (read, write)
	}
	if c.path != pathCoherent {
		other++ // clean
	}
	other++ // the device reads or writes
	if c.dir == bidirectional {
		other++
	}
	if c.dir != toDevice {
		if c.path != pathCoherent {
			other++ // invalidate
		}
		if c.path == pathSWIOTLB {
			cpu += 2 // copy back
		}
		if c.cpu != cpuNone {
			cpu++ // the CPU reads the data
		}
	}
	if c.cpu != cpuNone {
		prior = cpuLineUnits * lines
	}
	if c.persistent { // the one map before the iterations and unmap after
		var once, onceCPU int64
		if c.path == pathSWIOTLB {
			onceCPU += 2
			if c.dir != toDevice {
				onceCPU += 2
			}
		}
		if c.path != pathCoherent {
			once++
			if c.dir != toDevice {
				once++
			}
		}
		prior += (once + cpuLineUnits*onceCPU) * lines
	}
	return prior, (other + cpuLineUnits*cpu) * lines
}

// minSimulated is the fewest iterations a run simulates: two (or all, if
// fewer). The first differs from the steady state in ways a second
// corrects: SWIOTLB's first map copies into bounce slots the CPU has not
// touched yet, a skipped unmap leaves stale lines only from the second
// transfer on, and the prefetcher starts cold.
func minSimulated(c config) int { return min(2, c.iterations) }

// simulationCap is how many iterations the run may simulate.
func simulationCap(c config) int {
	if c.fullSim {
		return c.iterations
	}
	prior, per := lineOps(c)
	k := int((c.runBudget() - prior) / max(per, 1))
	return min(max(k, minSimulated(c)), maxSimulated, c.iterations)
}

// runBudget is maxRunUnits, or the budget a test set.
func (c config) runBudget() int64 {
	if c.budget > 0 {
		return c.budget
	}
	return maxRunUnits
}

// checkBudget refuses a setting whose minimum simulation exceeds the budget.
func checkBudget(c config) error {
	prior, per := lineOps(c)
	need := prior + int64(minSimulated(c))*per
	if need <= maxRunUnits {
		return nil
	}
	// The largest total that fits, in whole MiB (or KiB) below it.
	fit := uint64(float64(c.total) * float64(maxRunUnits) / float64(need))
	unit := uint64(1 << 20)
	if fit < 4<<20 {
		unit = 64 << 10
	}
	fit = max(fit/unit*unit, 4<<10)
	return fmt.Errorf("total: %s is more than one run may simulate with path %s, cpu=%s and direction %s "+
		"(about %.1f M units of work, allowed %.1f M, so that a run ends within a second or two; a CPU access of a line counts %d, a line the device or cache maintenance handles 1); allowed at most about %s with these settings, more where each line is handled fewer times (cpu=none, direction to-device, path direct)",
		scenario.FormatBytes(int64(c.total)), pathIDs[c.path], cpuIDs[c.cpu], dirIDs[c.dir],
		float64(need)/(1<<20), float64(maxRunUnits)/(1<<20), cpuLineUnits, scenario.FormatBytes(int64(fit)))
}

// Parameter values as the URL spells them.
var (
	pathIDs = [...]string{"direct", "iommu", "swiotlb", "coherent"}
	dirIDs  = [...]string{"from-device", "to-device", "bidirectional"}
	cpuIDs  = [...]string{"reads", "writes", "none"}
)

// steadyCalls reports whether an iteration's calls repeat the previous
// one's: counts exactly, times within steadyTolerance.
func steadyCalls(a, b [numCalls]callStat) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x.n != y.n || x.dc != y.dc || x.dsb != y.dsb ||
			!near(float64(x.t), float64(y.t)) || !near(float64(x.stall), float64(y.stall)) {
			return false
		}
	}
	return true
}

// timeCounters are the steady counters compared within steadyTolerance.
var timeCounters = map[soc.Counter]bool{soc.DSBStall: true, soc.DCStall: true}

func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= steadyTolerance*max(a, b)
}
