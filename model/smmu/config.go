package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Config is an MMU-500's hardware (a preset fills it; every field cites
// a source or says assumed / fitted in the preset).
type Config struct {
	// Clock is the platform clock the TBUs and the TCU run at.
	Clock sim.Freq
	// TLBEntries and TLBWays size each TBU's TLB (MMU-500: configurable
	// per TBU at integration).
	TLBEntries, TLBWays int
	// HitCycles is the best-case TBU hit (2); RegisterSlices adds the
	// one cycle of the optional register slices (3).
	HitCycles      int
	RegisterSlices bool
	// Reads and Writes are the outstanding transactions one TBU accepts
	// (128 each); Walks is how many TBU misses may be at the TCU at once
	// (8); a further miss holds the TBU's input (back-pressure).
	Reads, Writes, Walks int
	// LinkCycles is one TBU->TCU (or TCU->TBU) trip over the
	// distributed translation interface.
	LinkCycles int
	// TCUIssueCycles is the TCU's request rate: it accepts one request
	// per this many cycles (shared by every TBU).
	TCUIssueCycles int
	// MatchCycles is the stream-match lookup (SMR compare, S2CR read).
	MatchCycles int
	// BypassBytes is the range one cached bypass entry covers.
	BypassBytes uint64
	// WalkCache sizes the TCU's walk caches (one set per context bank).
	WalkCache mmu.Config
	// Bus is the port from the SMMU to the interconnect; the machine's
	// memory system answers below it (soc.Machine.IOAccess).
	Bus BusConfig
}

// Cycles converts platform cycles to time.
func (c Config) Cycles(n int) sim.Time { return c.Clock.Cycles(float64(n)) }

// hit is the TBU hit time in cycles.
func (c *Config) hit() int {
	if c.RegisterSlices {
		return c.HitCycles + 1
	}
	return c.HitCycles
}

func rangeErr(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: %d is out of range; allowed %d..%d", name, v, lo, hi)
	}
	return nil
}

// Validate checks every field; the error names the field as the board
// does ("tbu.tlb_entries", "tcu.walk.l2.ways") and its range.
func (c *Config) Validate() error {
	if !(c.Clock >= 10*sim.MHz && c.Clock <= 10*sim.GHz) {
		return fmt.Errorf("clock: %g MHz is out of range; allowed 10..10000 MHz", float64(c.Clock)/1e6)
	}
	for _, f := range []struct {
		name      string
		v, lo, hi int
	}{
		{"tbu.tlb_entries", c.TLBEntries, 1, 4096},
		{"tbu.tlb_ways", c.TLBWays, 1, mmu.MaxTLBWays},
		{"tbu.hit_cycles", c.HitCycles, 1, 64},
		{"tbu.reads", c.Reads, 1, 1024},
		{"tbu.writes", c.Writes, 1, 1024},
		{"tbu.walks", c.Walks, 1, 64},
		{"link_cycles", c.LinkCycles, 0, 1000},
		{"tcu.issue_cycles", c.TCUIssueCycles, 0, 1000},
		{"tcu.match_cycles", c.MatchCycles, 0, 1000},
	} {
		if err := rangeErr(f.name, f.v, f.lo, f.hi); err != nil {
			return err
		}
	}
	if b := c.BypassBytes; b != 4<<10 && b != 64<<10 && b != 2<<20 && b != 1<<30 {
		return fmt.Errorf("bypass_bytes: %d; allowed 4KiB, 64KiB, 2MiB, 1GiB", b)
	}
	if e, w := c.TLBEntries, c.TLBWays; w > e || e%w != 0 || (e/w)&(e/w-1) != 0 {
		return fmt.Errorf("tbu.tlb_ways: %d does not give a power-of-two number of sets; allowed a divisor of the %d entries giving a power of two", w, e)
	}
	if err := c.tlbConfig().Validate("tbu.tlb"); err != nil {
		return err
	}
	if err := c.WalkCache.Validate(); err != nil {
		return fmt.Errorf("tcu.walk.%w", err)
	}
	return c.Bus.Validate()
}

// tlbConfig is the TBU TLB as an mmu.TLB: 4 KiB pages, 64 KiB runs and
// 2 MiB and 1 GiB blocks (assumed: the page and block sizes an LPAE
// stage-1 table gives), and the bypass entry size.
func (c *Config) tlbConfig() mmu.TLBConfig {
	return mmu.TLBConfig{Entries: c.TLBEntries, Ways: c.TLBWays,
		Sizes: mmu.Sizes(4<<10, 64<<10, 2<<20, 1<<30) | mmu.Sizes(max(c.BypassBytes, 4<<10)),
		Hit:   c.Cycles(c.hit())}
}

// HitCyclesWithSlices is the TBU hit time in cycles as configured:
// HitCycles, plus one with RegisterSlices.
func (c Config) HitCyclesWithSlices() int { return c.hit() }
