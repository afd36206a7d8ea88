package sgsync

import (
	"math"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Chart sweep: entry sizes 512 B .. 1 MiB. Each point times dma_map_sg and
// dma_unmap_sg under both policies on the same machine, over chartK1 and
// chartK2 entries of that size, and extends the time linearly to the
// list's entry count: after the first entry every entry adds the same
// time under either policy (per entry: its ops and a full drain; batched:
// its ops at the issue rate), the property the iteration extrapolation
// relies on as well, and a test checks it against a full list.
const (
	chartMin = 512
	chartMax = 1 << 20
	chartK1  = 2
	chartK2  = 4
)

// savingChart answers the next question: how does the saving change with
// entry size, everything else as in c?
func savingChart(c config) scenario.Chart {
	ch := scenario.Chart{ID: "saving-vs-entry-size", Title: "Time saved by one DSB per list, by SG entry size",
		XLabel: "entry size (B)", YLabel: "time saved (%)", LogX: true, Mark: float64(c.entry)}
	mapS := scenario.Series{Name: "dma_map_sg"}
	unmapS := scenario.Series{Name: "dma_unmap_sg"}
	// One machine for every point: each gets its own list.
	cc := c
	cc.cpu, cc.iterations, cc.fullSim, cc.sizes = cpuNone, 1, false, []uint64{mem.PageSize}
	r, err := setup(cc, policy{}, false)
	for s := uint64(chartMin); s <= chartMax && err == nil; s *= 2 {
		if c.path == pathSWIOTLB && s > swiotlbMax {
			break
		}
		a, b, ok := chartPoint(r, c, s)
		if !ok {
			continue
		}
		for i, ser := range []*scenario.Series{&mapS, &unmapS} {
			if a[i] > 0 {
				ser.Points = append(ser.Points, timeline.Point{X: float64(s), Y: 100 * (1 - b[i]/a[i])})
			}
		}
	}
	ch.Series = []scenario.Series{mapS, unmapS}
	return ch
}

// chartPoint returns the map and unmap times per call (ps) for entry size
// s under per-entry-dsb (a) and batched-dsb (b).
func chartPoint(r *run, c config, s uint64) (a, b [2]float64, ok bool) {
	n := float64(c.total) / float64(s)
	k2 := min(int(math.Ceil(n)), chartK2)
	sizes := entrySizes(min(c.total, uint64(k2)*s), s, false, 0)
	l, err := buildList(r.m, "chart", sizes, c.offset, c.scatter, r.m.RNG())
	if err != nil {
		return a, b, false
	}
	r.list = l
	if c.path == pathSWIOTLB {
		// A device with its own pool for this point's list.
		cfg := r.api.Config()
		cfg.PoolBytes = bounceBytes(sizes)
		if r.api, err = dmaapi.New(r.m, r.dev, cfg); err != nil {
			return a, b, false
		}
		r.api.Listener = r
		r.bounce = bounceList(r.api.Pool(), &r.list)
	}
	all, bounce := r.list.entries, r.bounce.entries
	timeOf := func(pol policy, k int) [2]float64 {
		r.pol = pol
		r.api.SetWait(pol.wait())
		r.list.entries, r.segList = all[:k], nil
		if len(bounce) > 0 {
			r.bounce.entries = bounce[:k]
		}
		r.cur = [numCalls]callStat{}
		if r.mapSG() != nil || r.unmapSG() != nil {
			ok = false
		}
		return [2]float64{float64(r.cur[callMap].t), float64(r.cur[callUnmap].t)}
	}
	ok = true
	for pi, pol := range []policy{{perEntry: true}, {}} {
		// A run starts with empty TLBs: the first entries' translations
		// walk the page tables, a cost later entries do not pay, so the
		// slope comes from two calls with the TLBs warm.
		r.m.InvalidateTLBs()
		t2 := timeOf(pol, k2)
		out := t2
		if n > float64(k2) {
			t1 := timeOf(pol, chartK1)
			w2 := t2
			if r.m.Translating() {
				w2 = timeOf(pol, k2)
			}
			for i := range out {
				out[i] = t2[i] + (n-float64(k2))*(w2[i]-t1[i])/float64(k2-chartK1)
			}
		}
		if pi == 0 {
			a = out
		} else {
			b = out
		}
	}
	return a, b, ok
}
