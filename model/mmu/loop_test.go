package mmu

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

// reqPort is a requester as a LoopPort.
type reqPort struct{ r *Requester }

func (p reqPort) TranslateCost(va uint64, write bool, at sim.Time) (sim.Time, error) {
	p.r.At = at
	return p.r.TranslateCost(va, write)
}

func (p reqPort) Requester() *Requester { return p.r }

// loopRig is a core with instruction and data L1 TLBs running a loop over
// code and data pages, and a trace unit writing a buffer of 4 KiB pages
// between passes: a burst per pass, bursts bursts per page.
type loopRig struct {
	u            *MMU
	fetch, data  *Requester
	trace        *Requester
	code, dat    Area
	buf          Area
	codeN, dataN int
	steps        []LoopStep
	t            sim.Time
}

func newLoopRig(t *testing.T, codeN, dataN int) *loopRig {
	k, _, _ := kernel(t, 256*MiB)
	u, err := NewMMU(a76L2, DefaultConfig(), k.PT, &FixedPort{Mem: k.PT.mem}, 1)
	require.NoError(t, err)
	g := &loopRig{u: u, codeN: codeN, dataN: dataN}
	g.fetch, err = u.Requester("l1i", 1, TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 64*KiB), Hit: 1}, false)
	require.NoError(t, err)
	g.data, err = u.Requester("l1d", 1, TLBConfig{Entries: 8, Ways: 8, Sizes: Sizes(4*KiB, 64*KiB)}, true)
	require.NoError(t, err)
	g.trace, err = u.Requester("trbe", 9, TLBConfig{Entries: 1, Ways: 1, Sizes: a76L2.Sizes}, false)
	require.NoError(t, err)
	// Code in consecutive pages (coalesced groups), data and the buffer
	// scattered (every other page).
	g.code, _, err = k.Vmap(run(0x100_0000, codeN), PageKernel, VmapMainline)
	require.NoError(t, err)
	var scattered []uint64
	for i := range dataN {
		scattered = append(scattered, 0x200_0000+uint64(2*i)*PageSize)
	}
	g.dat, _, err = k.Vmap(scattered, PageKernel, VmapMainline)
	require.NoError(t, err)
	var buf []uint64
	for i := range 512 {
		buf = append(buf, 0x400_0000+uint64(2*i)*PageSize)
	}
	g.buf, _, err = k.Vmap(buf, PageKernel, VmapMainline)
	require.NoError(t, err)
	for i := range codeN {
		g.steps = append(g.steps, LoopStep{Port: reqPort{g.fetch}, VA: g.code.VA + uint64(i)*PageSize})
		if i%4 == 0 && i/4 < dataN {
			g.steps = append(g.steps, LoopStep{Port: reqPort{g.data}, VA: g.dat.VA + uint64(i/4)*PageSize, Write: true})
		}
	}
	return g
}

// burst is the trace unit's write to the buffer's page.
func (g *loopRig) burst(page int) {
	g.trace.At = g.t
	c, _ := g.trace.TranslateCost(g.buf.VA+uint64(page%512)*PageSize, true)
	g.t += c + 100
}

// counts is everything the rig counts, and the L2 TLB's entries.
func (g *loopRig) counts() string {
	s := fmt.Sprintf("t=%d l2=%+v", g.t, g.u.L2.Stats)
	for _, r := range []*Requester{g.fetch, g.data, g.trace} {
		s += fmt.Sprintf(" %s=%+v/%+v", r.Name, r.Stats, r.L1.Stats)
	}
	return s + fmt.Sprint(g.u.L2.Entries())
}

// A loop replaying its steady passes counts, times and leaves the L2 TLB
// exactly as translating every pass does, with a trace unit using the L2
// TLB between passes (evicting the loop's entries where sets are full),
// through a TLB invalidation, and with Repeat while nothing else ran.
func TestLoopReplayMatchesTranslatingEveryPass(t *testing.T) {
	for _, c := range []struct {
		name               string
		code, data, bursts int
		passes             int
		between            int // trace bursts between passes
		tracePages         int // the buffer pages the trace unit cycles through
		// minSimulated: passes that must be simulated (the first of each
		// session, and those after an eviction); the rest replay.
		minSimulated, maxSimulated uint64
	}{
		{"code past the L1, sets with room", 24, 4, 1, 600, 1, 512, 6, 6},
		{"trace hits its L1 between passes", 24, 4, 4, 600, 1, 512, 6, 6},
		{"all L1 hits", 6, 2, 2, 300, 1, 512, 6, 6},
		{"sets full: the trace evicts the loop's entries", 200, 8, 1, 400, 1, 512, 50, 200},
		{"more trace lookups between passes than the L2 TLB logs", 24, 4, 1, 300, 80, 2, 6, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, got := newLoopRig(t, c.code, c.data), newLoopRig(t, c.code, c.data)
			loop := NewLoop(got.u.L2, got.u.Space, got.steps)
			for k := 0; k < c.passes; k++ {
				if k == c.passes/2 { // a session's end: TLBI VMALLE1
					for _, g := range []*loopRig{ref, got} {
						g.u.InvalidateAll()
						g.fetch.InvalidateAll()
						g.data.InvalidateAll()
					}
				}
				for _, s := range ref.steps {
					s.Port.Requester().At = ref.t
					cost, err := s.Port.TranslateCost(s.VA, s.Write, ref.t)
					require.NoError(t, err)
					ref.t += cost
				}
				cost, ok := loop.Repeat(1)
				if !ok {
					var err error
					cost, err = loop.Pass(got.t)
					require.NoError(t, err)
				}
				got.t += cost
				loop.Flush()
				for b := range c.between {
					// bursts per page through the first tracePages pages;
					// with more than one burst between passes, the last
					// one to a new page (a fill, evicting by LRU order).
					page := ((k*c.between + b) / c.bursts) % c.tracePages
					if c.between > 1 && b == c.between-1 {
						page = 2 + k
					}
					ref.burst(page)
					got.burst(page)
				}
				require.Equal(t, ref.counts(), got.counts(), "after pass %d", k)
			}
			t.Logf("%d passes, %d replayed", loop.Passes, loop.Replayed)
			assert.Equal(t, uint64(c.passes), loop.Passes)
			sims := loop.Passes - loop.Replayed
			assert.GreaterOrEqual(t, sims, c.minSimulated)
			assert.LessOrEqual(t, sims, c.maxSimulated)
		})
	}
}
