package auxmap

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// maxRunSeconds bounds a setting's estimated native time (both policies,
// A then B, as the page runs them) so that every allowed setting runs
// within 2 s natively and 6 s in the page, with a margin for
// the estimate's error and a shared machine. cmd/corners times the worst
// allowed settings.
const maxRunSeconds = 1.7

// The estimate's costs per policy and per simulated iteration, fitted to
// corner timings natively on the development machine (2 cores, load about
// 1; cmd/corners -setting, A then B):
const (
	// fixedSeconds is a run pair's cost whatever its size (machine,
	// allocator, tables; fitted to spe-aux's default, 0.78 s).
	fixedSeconds = 0.3
	// pageSetup is a buffer page's rb_alloc_aux, vmap, vunmap and free
	// (fitted to spe-aux aux=4GiB against its default: 1.55 s).
	pageSetup = 140e-9
	// pageWrite is the trace unit's first burst into a page: its
	// translation, mostly a walk with order-0 pages (fitted to trbe-aux
	// aux=4GiB: 2.25 s, with pageSetup).
	pageWrite = 170e-9
	// burstSame is a further burst into a page the unit's one-entry L1
	// TLB already holds (fitted to trbe-aux aux=64MiB burst=64B: 0.45 s).
	burstSame = 20e-9
	// loopMiss is a trbe-aux loop page that misses in the core's L1 TLB:
	// a working set past its entries misses on every pass (fitted to
	// aux=64KiB burst=64B working_set=1MiB: 0.64 s with 3 iterations);
	// loopWalk is one that misses in the L2 TLB too, past its entries, and
	// walks (fitted to the same with working_set=64MiB: 27.3 s for one
	// iteration).
	loopMiss = 216e-9
	loopWalk = 800e-9
	// copyPage is one of dd's source or destination pages (a walk, the
	// L2 TLB and the copy's time; fitted to spe-aux working_set=1GiB
	// against its default: 1.90 s).
	copyPage = 475e-9
)

// work is what one simulated iteration of c costs, in the terms above:
// pages of the AUX buffer, first bursts into a page, further bursts, and
// the workload's translations.
type work struct {
	pages, writes, bursts, loop, copy float64
	loopCost                          float64 // loopMiss or loopWalk
}

func (c config) work() work {
	pages := float64(c.aux / mem.PageSize)
	w := work{pages: pages}
	if c.unit == TRBE {
		bursts := float64(c.aux / c.burst)
		w.writes, w.bursts = pages, bursts-pages
		if n := c.ws / mem.PageSize; int(n) > c.hw.TLB.L1.Entries {
			w.loop, w.loopCost = bursts*float64(n), loopMiss // one pass per burst, all misses
			if int(n) > c.hw.TLB.L2.Entries {
				w.loopCost = loopWalk
			}
		}
		return w
	}
	// SPE writes a record per sample over the copy: ws/bytesPerOp
	// operations, one sample per interval.
	bytes := float64(c.ws) / bytesPerOp / float64(c.interval) * speRecord
	bursts := bytes / float64(c.burst)
	w.writes = min(bytes/float64(mem.PageSize), pages)
	w.bursts = max(bursts-w.writes, 0)
	w.copy = 2 * float64(c.ws/mem.PageSize)
	return w
}

// seconds is the estimated native time of both policies.
func (c config) seconds() float64 {
	w := c.work()
	iter := w.pages*pageSetup + w.writes*pageWrite + w.bursts*burstSame + w.loop*w.loopCost + w.copy*copyPage
	// The first iteration is counted twice: it runs on cold caches and page
	// tables and costs about twice a later one (spe-aux aux=4GiB
	// working_set=1GiB iterations=1: 1.4-1.9 s, against 1.1 s with one
	// weight); with three the estimate is on the safe side.
	return fixedSeconds + 2*float64(min(c.iters, fullIterations)+1)*iter
}

// checkBound refuses a setting whose estimated time is past maxRunSeconds,
// naming the parameter that weighs most and the largest value of it that
// fits with the others as they are.
func (c config) checkBound() error {
	est := c.seconds()
	if est <= maxRunSeconds {
		return nil
	}
	w := c.work()
	name, allowed := ParamAUX, "a smaller "+ParamAUX
	switch {
	case w.loop*w.loopCost > w.pages*(pageSetup+pageWrite):
		name, allowed = ParamWorkingSet, c.largest(ParamWorkingSet)
	case w.copy*copyPage > w.pages*pageSetup+w.writes*pageWrite+w.bursts*burstSame:
		name, allowed = ParamWorkingSet, c.largest(ParamWorkingSet)
	case w.bursts*burstSame > w.pages*(pageSetup+pageWrite):
		name, allowed = ParamBurst, c.smallestBurst()
	default:
		allowed = c.largest(ParamAUX)
	}
	return fmt.Errorf("%s: this setting (AUX %s, %s bursts, working set %s, %d iterations) is about %.1f s of simulation natively; allowed at most %.1f s "+
		"(the first %d iterations are simulated, the rest repeat them): %s",
		name, scenario.FormatBytes(int64(c.aux)), scenario.FormatBytes(int64(c.burst)), scenario.FormatBytes(int64(c.ws)), c.iters, est, maxRunSeconds,
		fullIterations, allowed)
}

// largest says the largest power-of-two AUX buffer or working set (in
// 4 KiB pages) that fits the bound with the other parameters as they are.
func (c config) largest(name string) string {
	for v := uint64(1) << 40; v >= mem.PageSize; v /= 2 {
		t := c
		if name == ParamAUX {
			t.aux = v
		} else {
			t.ws = v
		}
		if t.seconds() <= maxRunSeconds {
			return fmt.Sprintf("at most %s with these settings, or fewer iterations", scenario.FormatBytes(int64(v)))
		}
	}
	return "lower " + ParamIterations
}

// smallestBurst says the smallest burst that fits the bound.
func (c config) smallestBurst() string {
	for b := uint64(64); b <= 4<<10; b *= 2 {
		t := c
		t.burst = b
		if t.seconds() <= maxRunSeconds {
			return fmt.Sprintf("at least %s bursts with these settings, or a smaller %s", scenario.FormatBytes(int64(b)), ParamAUX)
		}
	}
	return "a smaller " + ParamAUX
}
