package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// nestedPort is a nested bank's stage-1 port: a stage-1 descriptor sits
// at an IPA, so each read first walks stage 2 for its address (the s2
// walker's reads are noted on rec, its port) and then reads the
// descriptor at the PA found, noted on rec too. A stage-2 fault reads as
// an invalid descriptor: the stage-1 walk stops there, and s2fault says
// why.
type nestedPort struct {
	mem1    *mmu.Memory // the stage-1 descriptors, by IPA
	s2      *mmu.Walker
	rec     *descPort
	s2fault bool
	level   int // the stage-2 level of the fault
}

func (p *nestedPort) Read64(ipa uint64) (uint64, sim.Time) {
	r := p.s2.Walk(ipa)
	if !r.OK {
		p.s2fault, p.level = true, r.Fault.Level
		return 0, 0
	}
	v, _ := p.mem1.Read64(ipa)
	p.rec.note(r.Leaf.PA + (ipa - r.Leaf.VA))
	return v, 0
}

func (p *nestedPort) Write64(ipa, v uint64) sim.Time { return p.mem1.Write64(ipa, v) }

func (p *descPort) note(pa uint64) {
	if p.n < maxWalkReads {
		p.pas[p.n] = pa
		p.n++
	}
}

// AddNestedContextBank adds a bank translating in two stages: s1 (its
// descriptors in tables1, at IPAs) maps the input address to an IPA, s2
// (descriptors in tables2, at PAs) maps IPAs to PAs. One walker does
// both, as the TCU does: every stage-1 descriptor address and the final
// IPA are walked through stage 2, so a walk with no walk-cache hits reads
// 4 x (4 + 1) + 4 = 24 descriptors, each through the interconnect. It
// returns the bank's index (CBNDX).
func (s *SMMU) AddNestedContextBank(s1 *mmu.PageTable, tables1 *mmu.Memory, s2 *mmu.PageTable, tables2 *mmu.Memory) (int, error) {
	if err := s.bankRoom(); err != nil {
		return -1, err
	}
	if s1 == nil || tables1 == nil || s2 == nil || tables2 == nil {
		return -1, fmt.Errorf("context bank %d: a nested bank needs a stage-1 and a stage-2 table", len(s.banks))
	}
	cb := &ContextBank{Stage: 1, PT: s1, S2: s2}
	cb.port = descPort{mem: tables2}
	w2, err := mmu.NewWalker(s.cfg.WalkCache, s2, &cb.port)
	if err != nil {
		return -1, err
	}
	cb.s2 = w2
	cb.nest = nestedPort{mem1: tables1, s2: w2, rec: &cb.port}
	w1, err := mmu.NewWalker(s.cfg.WalkCache, s1, &cb.nest)
	if err != nil {
		return -1, err
	}
	cb.walker = w1
	return s.addBank(cb), nil
}

// S2Walker is a nested bank's stage-2 walker (nil for a single stage).
func (c *ContextBank) S2Walker() *mmu.Walker { return c.s2 }

// Nested reports whether the bank translates in two stages.
func (c *ContextBank) Nested() bool { return c.s2 != nil }

// nestedLeaf finishes a nested walk of addr whose stage-1 result is *r:
// the output IPA is walked through stage 2 and *r becomes the combined
// translation (the smaller of the two leaves' sizes), or a fault. It
// returns the stage that faulted (1 when none did). In a traced walk the
// levels of the reads are not told apart (-1).
func (c *ContextBank) nestedLeaf(addr uint64, r *mmu.Result, w *walk) int8 {
	for i := range w.levels {
		w.levels[i] = -1
	}
	if !r.OK {
		if c.nest.s2fault {
			r.Fault.Level = c.nest.level
			return 2
		}
		return 1
	}
	l1 := r.Leaf
	ipa := l1.PA + (addr - l1.VA)
	r2 := c.s2.Walk(ipa)
	if !r2.OK {
		*r = mmu.Result{Fault: r2.Fault}
		return 2
	}
	l2 := r2.Leaf
	pa := l2.PA + (ipa - l2.VA)
	b, lvl := l1.Bytes, l1.Level
	if l2.Bytes < b {
		b, lvl = l2.Bytes, l2.Level
	}
	r.Leaf = mmu.Leaf{VA: addr &^ (b - 1), PA: pa &^ (b - 1), Bytes: b, Level: lvl, Prot: l1.Prot}
	return 1
}
