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

// Validate checks every field; the error names the field and its range.
func (c *Config) Validate() error {
	if !(c.Clock >= 10*sim.MHz && c.Clock <= 10*sim.GHz) {
		return fmt.Errorf("clock: %g Hz is out of range; allowed 10 MHz..10 GHz", float64(c.Clock))
	}
	for _, f := range []struct {
		name      string
		v, lo, hi int
	}{
		{"tlb.entries", c.TLBEntries, 1, 4096},
		{"tlb.ways", c.TLBWays, 1, 4096},
		{"hit_cycles", c.HitCycles, 1, 64},
		{"reads", c.Reads, 1, 1024},
		{"writes", c.Writes, 1, 1024},
		{"walks", c.Walks, 1, 64},
		{"link_cycles", c.LinkCycles, 0, 1000},
		{"tcu_issue_cycles", c.TCUIssueCycles, 0, 1000},
		{"match_cycles", c.MatchCycles, 0, 1000},
	} {
		if err := rangeErr(f.name, f.v, f.lo, f.hi); err != nil {
			return err
		}
	}
	if b := c.BypassBytes; b != 4<<10 && b != 64<<10 && b != 2<<20 && b != 1<<30 {
		return fmt.Errorf("bypass_bytes: %d; allowed 4KiB, 64KiB, 2MiB, 1GiB", b)
	}
	if err := c.tlbConfig().Validate("tlb"); err != nil {
		return err
	}
	if err := c.WalkCache.Validate(); err != nil {
		return err
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
