package sgsync

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// device is the DMA master: a generic SG-capable engine (assumed figures;
// its speed does not enter the API call times).
var device = soc.DeviceConfig{Name: "dma", Burst: 256, Bandwidth: 16e9, SnoopLatency: 10 * sim.Nanosecond}

// run is one simulation of one policy.
type run struct {
	cfg     config
	pol     policy
	m       *soc.Machine
	dev     soc.DeviceID
	list    sgList
	bounce  sgList // SWIOTLB slots, parallel to list.entries (for the view)
	api     *dmaapi.Device
	sg      dmaapi.SG    // the list as mapped last
	segList []dmaapi.Seg // the list's segments (segs)

	cur   [numCalls]callStat // calls of the current iteration
	stale staleCount
	view  *view           // records the first iteration; nil after it
	steps []scenario.Step // the first iteration's narration
	pace  *scenario.Pacer // nil when not paced
	// worked is how many entries of the current DMA API call were counted
	// as work (pace.go).
	worked int
}

// Run simulates one policy. It counts the cache lines it touches and
// gives way every scenario.PaceQuantum of them.
func (s *Scenario) Run(ctx context.Context, p scenario.Params, policyID string, pace *scenario.Pacer) (*scenario.Result, error) {
	pace = pace.Bind(ctx)
	spec := s.Spec()
	if _, err := spec.Policy(policyID); err != nil {
		return nil, err
	}
	c, err := parse(spec, p)
	if err != nil {
		return nil, err
	}
	c.pace = pace
	pace.Plan(planWork(c))
	res, err := runConfig(c, policyID)
	if err != nil {
		return nil, err
	}
	res.Scenario = spec.ID
	ch := savingChart(c)
	// The chart times the calls alone, for lists of uniform entries at
	// offset 0: the CPU's use, the iterations and the entry mix do not
	// enter it.
	ch.Fixed = spec.Held(p, "entry", "entry-mix", "entry-offset", "cpu", "iterations")
	res.Charts = []scenario.Chart{ch}
	return res, nil
}

// runConfig is Run without the chart.
func runConfig(c config, policyID string) (*scenario.Result, error) {
	r, err := setup(c, policyOf(policyID), true)
	if err != nil {
		return nil, err
	}
	out, err := r.simulate()
	if err != nil {
		return nil, err
	}
	res := r.result(out)
	res.Policy, res.Preset, res.Seed = policyID, c.preset, c.seed
	return res, nil
}

// memBytes sizes the machine's memory for the list, its gaps and the
// bounce pool (the size changes no timing; a small buddy is fast to build).
func memBytes(c config, preset uint64) uint64 {
	need := 2 * bounceBytes(c.sizes)
	for _, s := range c.sizes {
		need += (uint64(1)<<orderFor((c.offset+s+mem.PageSize-1)>>mem.PageShift) + 2) << mem.PageShift
	}
	n := uint64(256 << 20)
	for n < 4*need {
		n *= 2
	}
	return min(n, preset)
}

// setup builds the machine, the device, the list (and bounce pool), and
// the view when record is set.
func setup(c config, pol policy, record bool) (*run, error) {
	hw, err := platform.LookupWith(c.preset, c.over)
	if err != nil {
		return nil, err
	}
	hw.MemBytes = memBytes(c, hw.MemBytes)
	if c.hw != nil {
		c.hw(&hw)
	}
	m, err := soc.New(hw, c.seed)
	if err != nil {
		return nil, err
	}
	r := &run{cfg: c, pol: pol, m: m, pace: c.pace}
	// Building a large machine, list and view takes a while in one piece:
	// give way between the pieces.
	if err := r.pace.Point(); err != nil {
		return nil, err
	}
	dc := device
	dc.Coherent = c.path == pathCoherent
	if r.dev, err = m.AddDevice(dc); err != nil {
		return nil, err
	}
	acfg := dmaapi.Config{Coherent: dc.Coherent, Wait: pol.wait(), OmitClean: pol.skipDevice, CopyWidth: 16, Entry: c.kernel}
	switch c.path {
	case pathIOMMU:
		acfg.Path, acfg.IOMMU = dmaapi.IOMMU, defaultIOMMU
	case pathSWIOTLB:
		acfg.Path, acfg.PoolBytes = dmaapi.SWIOTLB, bounceBytes(c.sizes)
	}
	if r.api, err = dmaapi.New(m, r.dev, acfg); err != nil {
		return nil, fmt.Errorf("total: %w", err)
	}
	r.api.Listener = r
	pool := r.api.Pool()
	if r.list, err = buildList(m, "sg", c.sizes, c.offset, c.scatter, m.RNG().Split()); err != nil {
		return nil, err
	}
	lo, hi := r.list.lo, r.list.hi
	if c.path == pathSWIOTLB {
		r.bounce = bounceList(pool, &r.list)
		lo, hi = min(lo, r.bounce.lo), max(hi, r.bounce.hi)
	}
	if err := r.pace.Point(); err != nil {
		return nil, err
	}
	if err := m.Track(physRange(lo, hi)); err != nil {
		return nil, err
	}
	r.stale.lo, r.stale.hi = lo, hi
	if err := r.pace.Point(); err != nil {
		return nil, err
	}
	if record {
		ops := int64(0)
		for _, e := range r.list.entries {
			ops += int64((e.len+2*m.LineBytes()-2)/m.LineBytes()) + 1
		}
		r.view = newView(m, lo, hi, ops)
	}
	r.note("start")
	// Beforehand the CPU has used the buffer: its lines are cached (clean;
	// cpu=writes dirties them again before every map).
	if c.cpu != cpuNone {
		if err := r.warm(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// warm is the CPU's use of the buffer before the first transfer: it reads
// every entry. The view records, as each entry's read ends, the entry's
// cells cached (one event per entry, not per line: at the stage's
// resolution for a list of thousands of entries) and the cache window as
// it fills.
func (r *run) warm() error {
	m, v := r.m, r.view
	t0 := m.Now()
	if v != nil {
		r.view = nil // no DMA API call runs: nothing else to record
		m.WatchKinds(hwevent.Kinds(hwevent.Fill, hwevent.Drop, hwevent.Update))
	}
	for i, e := range r.list.entries {
		if _, err := m.Read(r.list.va(e), e.len, 16); err != nil {
			return err
		}
		if err := r.work(e.len); err != nil {
			return err
		}
		if v != nil {
			v.cachedEntry(&r.list, i, m.Now())
			if i == 0 {
				v.step(m.Now(), "The CPU reads the buffer first", "Before this transfer the CPU uses the buffer: it reads it "+
					"entry by entry, and each line it reads fills the CPU caches (clean). This time is not part of any DMA API call.")
			}
		}
	}
	if v != nil {
		r.view = v
		v.phase("cpu", "read", "CPU used the buffer before", t0, m.Now())
		m.WatchKinds(hwview.RecordingKinds)
	}
	return nil
}

// outcome is a finished workload: per-call totals over every iteration
// and the machine's counters, both with the extrapolated iterations.
type outcome struct {
	calls     [numCalls]callStat
	counters  []soc.CounterValue // names, units and groups
	totals    []float64          // raw counts (ps for time counters)
	simulated int
	perIter   sim.Time // core time of one steady-state iteration
	stale     float64  // stale_bytes (staleCount), extrapolated
	timeline  *timeline.Timeline
	fates     scenario.Fates // what became of the copies the first transfer outdated
}

// iteration is one transfer: CPU use, map (or sync for the device),
// the DMA, unmap (or sync for the CPU), CPU use.
func (r *run) iteration() error {
	r.m.ResetStaleLines()
	defer r.endTransfer()
	if r.cfg.cpu == cpuWrites || (r.cfg.cpu == cpuReads && r.cfg.dir == toDevice) {
		if err := r.cpuUse(r.cfg.cpu == cpuWrites); err != nil {
			return err
		}
	}
	r.note("toward the device")
	var err error
	if r.cfg.persistent {
		err = r.syncForDevice()
	} else {
		err = r.mapSG()
	}
	if err != nil {
		return err
	}
	r.note("transfer")
	if err := r.transfer(); err != nil {
		return err
	}
	r.note("back to the cpu")
	if !r.pol.skipUnmap {
		if r.cfg.persistent {
			err = r.syncForCPU()
		} else {
			err = r.unmapSG()
		}
		if err != nil {
			return err
		}
	}
	if r.cfg.cpu != cpuNone && r.cfg.dir != toDevice {
		r.note("cpu reads")
		if err := r.cpuUse(false); err != nil {
			return err
		}
	}
	if r.pol.skipUnmap && !r.cfg.persistent {
		// The driver tears the mapping down later without its sync
		// (DMA_ATTR_SKIP_CPU_SYNC): the slots come back, their data is
		// never copied.
		return r.api.UnmapSG(r.sg, dmaapi.SkipCPUSync)
	}
	return nil
}

func (r *run) counts(cs []soc.CounterValue) []uint64 {
	out := make([]uint64, len(cs))
	for i, c := range cs {
		out[i] = r.m.Count(c.Counter)
	}
	return out
}

// simulate runs the iterations, extrapolating from the first one that
// repeats its predecessor (see the package comment).
func (r *run) simulate() (*outcome, error) {
	m := r.m
	out := &outcome{counters: m.Counters()}
	if r.cfg.persistent {
		if err := r.mapSG(); err != nil {
			return nil, err
		}
		out.calls[callMap].add(r.cur[callMap], 1)
		r.cur = [numCalls]callStat{}
	}
	prev, prevT := r.counts(out.counters), m.Now()
	fates0 := hwview.Fates(m.Fates())
	loopStart := r.pace.Done()
	var lastCalls [numCalls]callStat
	var lastDelta []uint64
	lastStale := ^uint64(0)
	k := 0
	for k < r.cfg.iterations {
		k++
		r.cur = [numCalls]callStat{}
		if err := r.iteration(); err != nil {
			return nil, err
		}
		if k == 1 {
			r.replan(r.pace.Done() - loopStart)
			out.fates = hwview.Fates(m.Fates()).Sub(fates0)
		}
		if k == 1 && r.view != nil {
			r.note("end")
			out.timeline = r.view.finish(m)
			r.steps, r.view = r.view.steps, nil
		}
		now := r.counts(out.counters)
		delta := make([]uint64, len(now))
		for i := range now {
			delta[i] = now[i] - prev[i]
		}
		for i := range r.cur {
			out.calls[i].add(r.cur[i], 1)
		}
		repeats := k >= 2 && steadyCalls(r.cur, lastCalls) && sameDeltas(out.counters, delta, lastDelta) && r.stale.last == lastStale
		lastStale = r.stale.last
		out.perIter = m.Now() - prevT
		lastCalls, lastDelta, prev, prevT = r.cur, delta, now, m.Now()
		if !r.cfg.fullSim && (repeats || k >= simulationCap(r.cfg)) {
			break
		}
	}
	out.simulated = k
	rest := int64(r.cfg.iterations - k)
	for i := range lastCalls {
		out.calls[i].add(lastCalls[i], rest)
	}
	if r.cfg.persistent && !r.pol.skipUnmap {
		r.cur = [numCalls]callStat{}
		if err := r.unmapSG(); err != nil {
			return nil, err
		}
		out.calls[callUnmap].add(r.cur[callUnmap], 1)
	}
	final := r.counts(out.counters)
	out.totals = make([]float64, len(final))
	for i := range final {
		out.totals[i] = float64(final[i]) + float64(rest)*float64(lastDelta[i])
	}
	out.stale = float64(r.stale.sum) + float64(rest)*float64(r.stale.last)
	return out, nil
}

// steadyCounters are the counters an iteration must repeat exactly (with
// every call's time) to count as steady: the maintenance, the barriers
// and the correctness figures. The CPU's own reads are not among them: a
// random-replacement L3 keeps lines prefetched past an entry's end for a
// varying number of iterations, so cache refill counts wander by a fraction
// of a percent from one iteration to the next without touching any call.
var steadyCounters = []soc.Counter{soc.DCOps, soc.DCCVAC, soc.DCIVAC, soc.DCCIVAC, soc.DSBCount, soc.DSBStall,
	soc.DCStall, soc.StaleLinesRead, soc.DeviceStaleLines, soc.LostBytes, soc.DMAReadBytes, soc.DMAWriteBytes}

// sameDeltas compares two iterations' deltas of the steady counters (the
// stall times within steadyTolerance, the rest exactly).
func sameDeltas(cs []soc.CounterValue, a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for _, c := range steadyCounters {
			if cs[i].Counter != c {
				continue
			}
			if timeCounters[c] && !near(float64(a[i]), float64(b[i])) || !timeCounters[c] && a[i] != b[i] {
				return false
			}
		}
	}
	return true
}
