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
	// replayPass is one pass of the traced program replayed on its own
	// (mmu.Loop): beside each trace burst that misses the unit's L1 TLB
	// (the others are made at once), and for SPE beside each batch of dd's
	// blocks (fitted to trbe-aux's default, 0.35 s of CPU for the pair
	// against 0.30 s with the one-page loop it replaced).
	replayPass = 25e-9
	// speReplay is a batch of dd's blocks between two SPE bursts: the
	// loop's replayed pass after the burst used the L2 TLB, then the
	// quiet passes at once, and the counter samples (fitted to spe-aux
	// aux=64KiB bs=8KiB interval=256 on ls2088a, count=1M and 2M with one
	// iteration: 0.18 s of CPU per million blocks for the pair).
	speReplay = 130e-9
	// loopMiss is a simulated translation of the program that misses its
	// L1 TLB and hits the L2 TLB; loopWalk one that walks (a footprint
	// past the L2 TLB's room per set, every pass; fitted to trbe-aux
	// code=64MiB against its default).
	loopMiss = 216e-9
	loopWalk = 800e-9
)

// simulatedPasses is how many passes of the traced program a session
// simulates before they replay (mmu.Loop: two passes alike after the
// first from cold TLBs).
const simulatedPasses = 3

// work is what one simulated iteration of c costs, in the terms above:
// pages of the AUX buffer, first bursts into a page, further bursts, the
// program's replayed passes, and its simulated translations.
type work struct {
	pages, writes, bursts, replays, loop float64
	loopCost                             float64 // loopMiss or loopWalk
}

// thrashes reports whether the program's pages overflow the L2 TLB's
// room: more of them in a set (its code's and its data's, spread over
// the sets, and the trace unit's entry) than the set has ways, so every
// pass walks.
func (c config) thrashes() bool {
	sets := uint64(c.hw.TLB.L2.Entries / c.hw.TLB.L2.Ways)
	code, data := c.code/mem.PageSize, c.dataPages()
	return int((code+sets-1)/sets+(data+sets-1)/sets)+1 > c.hw.TLB.L2.Ways
}

// dataPages is the program's data pages: the branch test's, or dd's buffer.
func (c config) dataPages() uint64 {
	if c.unit == TRBE {
		return c.ws / mem.PageSize
	}
	return c.bufPages()
}

func (c config) work() work {
	pages := float64(c.aux / mem.PageSize)
	w := work{pages: pages, loopCost: loopMiss}
	steps := float64(c.code/mem.PageSize + c.dataPages())
	var passes, replays float64
	if c.unit == TRBE {
		bursts := float64(c.aux / c.burst)
		w.writes, w.bursts = pages, bursts-pages
		passes, replays = bursts, pages // a pass per burst, replayed on its own beside a page's first
	} else {
		// SPE writes a record per sample over dd's blocks; passes between
		// bursts are made at once.
		bytes := c.speBytes()
		bursts := bytes / float64(c.burst)
		w.writes = min(bytes/float64(mem.PageSize), pages)
		w.bursts = max(bursts-w.writes, 0)
		passes, replays = float64(c.count), bursts+countSamples
	}
	w.replays, w.loop = replays, simulatedPasses*steps
	if c.thrashes() {
		w.replays, w.loop, w.loopCost = 0, passes*steps, loopWalk
	}
	return w
}

// seconds is the estimated native time of both policies.
func (c config) seconds() float64 {
	w := c.work()
	replay := replayPass
	if c.unit == SPE {
		replay = speReplay
	}
	iter := w.pages*pageSetup + w.writes*pageWrite + w.bursts*burstSame + w.replays*replay + w.loop*w.loopCost
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
		name = c.heavierFootprint()
		allowed = c.largest(name)
	case c.unit == SPE && w.replays*speReplay > w.pages*pageSetup+w.writes*pageWrite+w.bursts*burstSame:
		name, allowed = ParamCount, c.largest(ParamCount)
	case w.bursts*burstSame > w.pages*(pageSetup+pageWrite):
		name, allowed = ParamBurst, c.smallestBurst()
	default:
		allowed = c.largest(ParamAUX)
	}
	return fmt.Errorf("%s: this setting (AUX %s, %s bursts, %s, %d iterations) is about %.1f s of simulation natively; allowed at most %.1f s "+
		"(the first %d iterations are simulated, the rest repeat them): %s",
		name, scenario.FormatBytes(int64(c.aux)), scenario.FormatBytes(int64(c.burst)), c.workload(), c.iters, est, maxRunSeconds,
		fullIterations, allowed)
}

// heavierFootprint names the parameter of the program's larger footprint:
// its code, or its data (the branch test's, or dd's buffer).
func (c config) heavierFootprint() string {
	if c.code/mem.PageSize >= c.dataPages() {
		return ParamCode
	}
	if c.unit == TRBE {
		return ParamWorkingSet
	}
	return ParamBS
}

// workload names the traced program's size in an error.
func (c config) workload() string {
	if c.unit == TRBE {
		return fmt.Sprintf("branch test code %s and data %s", scenario.FormatBytes(int64(c.code)), scenario.FormatBytes(int64(c.ws)))
	}
	return fmt.Sprintf("dd bs=%s count=%d, code %s", scenario.FormatBytes(int64(c.bs)), c.count, scenario.FormatBytes(int64(c.code)))
}

// largest says the largest power-of-two AUX buffer, footprint (in 4 KiB
// pages) or dd block, or dd count, that fits the bound with the other
// parameters as they are.
func (c config) largest(name string) string {
	for v := uint64(1) << 40; v >= 1; v /= 2 {
		t := c
		switch name {
		case ParamAUX:
			t.aux = v
		case ParamCode:
			t.code = v
		case ParamWorkingSet:
			t.ws = v
		case ParamBS:
			t.bs = v
		default:
			t.count = int(min(v, 1<<30))
		}
		if (name != ParamCount && v < mem.PageSize) || t.seconds() > maxRunSeconds {
			continue
		}
		if name == ParamCount {
			return fmt.Sprintf("at most %d with these settings, or fewer iterations", t.count)
		}
		return fmt.Sprintf("at most %s with these settings, or fewer iterations", scenario.FormatBytes(int64(v)))
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
