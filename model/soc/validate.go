package soc

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/bytesize"
	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// Each unit's configuration validates itself, naming its field as the
// board's JSON names it ("mlp", "latency"); Config.Validate composes
// them under the unit's name ("core.mlp", "dram.latency") and checks
// what holds between units (an L2 at least as large as the L1, one line
// size).

// intField is an integer field and its allowed range.
type intField struct {
	name      string
	v, lo, hi int
}

func checkInts(fs ...intField) error {
	for _, f := range fs {
		if f.v < f.lo || f.v > f.hi {
			return fmt.Errorf("%s: %d is out of range; allowed %d..%d", f.name, f.v, f.lo, f.hi)
		}
	}
	return nil
}

// timeField is a time field allowed 0..1ms.
type timeField struct {
	name string
	v    sim.Time
}

func checkTimes(fs ...timeField) error {
	for _, f := range fs {
		if f.v < 0 || f.v > sim.Millisecond {
			return fmt.Errorf("%s: %v is out of range; allowed 0..1ms", f.name, f.v)
		}
	}
	return nil
}

// in names err's field inside unit ("core" + "mlp: ..." -> "core.mlp: ...").
func in(unit string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s.%w", unit, err)
}

// Validate checks the core's issue and miss handling.
func (c *CoreConfig) Validate() error {
	if err := checkTimes(timeField{"load_issue", c.LoadIssue}, timeField{"store_issue", c.StoreIssue}); err != nil {
		return err
	}
	return checkInts(intField{"mlp", c.MLP, 1, 256}, intField{"write_stream_after", c.WriteStreamAfter, 0, 1 << 20})
}

// Validate checks the prefetcher.
func (c *PrefetchConfig) Validate() error {
	if err := checkInts(
		intField{"streams", c.Streams, 0, 64},
		intField{"degree", c.Degree, 0, 256},
		intField{"confirm", c.Confirm, 0, 64},
		intField{"max_stride", c.MaxStride, 0, 4096},
		intField{"inflight", c.Inflight, 0, 256},
	); err != nil {
		return err
	}
	if c.PageLines > 1<<30 {
		return fmt.Errorf("page_lines: %d is out of range; allowed 0..%d", c.PageLines, 1<<30)
	}
	if c.Streams > 0 && c.Inflight == 0 {
		return fmt.Errorf("inflight: 0 with %d streams; allowed 1..256", c.Streams)
	}
	return nil
}

// Validate checks main memory.
func (c *DRAMConfig) Validate() error {
	if c.Latency <= 0 || c.Latency > sim.Millisecond {
		return fmt.Errorf("latency: %v is out of range; allowed 1ps..1ms", c.Latency)
	}
	if !(c.Bandwidth >= 1e6 && c.Bandwidth <= 1e13) {
		return fmt.Errorf("bandwidth: %g GB/s is out of range; allowed 0.001..10000 GB/s", c.Bandwidth/1e9)
	}
	return checkInts(intField{"min_burst", c.MinBurst, 1, 4096})
}

// Validate checks the Normal-NC and Device path.
func (c *NCConfig) Validate() error {
	if err := checkInts(
		intField{"inflight", c.Inflight, 1, 256},
		intField{"device_inflight", c.DeviceInflight, 1, 256},
		intField{"read_bytes", c.ReadBytes, 0, 4096},
	); err != nil {
		return err
	}
	return checkTimes(timeField{"latency", c.Latency})
}

// Validate checks cache maintenance and the barrier.
func (c *MaintConfig) Validate() error {
	if err := checkTimes(timeField{"issue", c.Issue}, timeField{"clean_latency", c.CleanLatency},
		timeField{"inval_latency", c.InvalLatency}, timeField{"dsb", c.DSB}); err != nil {
		return err
	}
	return checkInts(intField{"inflight", c.Inflight, 1, 4096})
}

// Validate checks the translation hardware when Enabled: each TLB, the
// walk caches and the linear map's leaf sizes.
func (t *TLBConfig) Validate() error {
	if !t.Enabled {
		return nil
	}
	for _, c := range []struct {
		name string
		cfg  mmu.TLBConfig
	}{{"l1", t.L1}, {"l2", t.L2}, {"trace", t.Trace}} {
		if err := c.cfg.Validate(c.name); err != nil {
			return err
		}
	}
	if t.L1I.Entries != 0 {
		if err := t.L1I.Validate("l1i"); err != nil {
			return err
		}
	}
	if err := t.Walk.Validate(); err != nil {
		return in("walk", err)
	}
	if t.Linear&mmu.Size4K == 0 || t.Linear&mmu.Size64K != 0 {
		return fmt.Errorf("linear: %v; allowed 4K with any of 2M, 1G", t.Linear)
	}
	return nil
}

// Validate checks every unit, then what holds between them; the error
// names the field by its path ("l2.ways", "dram.latency") and the
// allowed range. New calls it.
func (c *Config) Validate() error {
	for _, f := range []struct {
		name string
		v    sim.Freq
	}{{"cpu", c.Clocks.CPU}, {"platform", c.Clocks.Platform}, {"dram", c.Clocks.DRAM}} {
		if !(f.v >= 10*sim.MHz && f.v <= 10*sim.GHz) {
			return fmt.Errorf("clocks.%s: %g MHz is out of range; allowed 10..10000 MHz", f.name, float64(f.v)/1e6)
		}
	}
	l1, l2, l3 := c.L1D, c.L2, c.L3 // named as the board names them
	for _, l := range []struct {
		c    *cache.Config
		name string
	}{{&l1, "l1d"}, {&l2, "l2"}, {&l3, "l3"}} {
		if l.c.Name == "" {
			l.c.Name = l.name
		}
	}
	levels := []*cache.Config{&l1, &l2}
	if c.L3.Size != 0 || c.L3.Ways != 0 {
		levels = append(levels, &l3)
	}
	for _, l := range levels {
		if err := l.Validate(); err != nil {
			return err
		}
	}
	for _, l := range levels[1:] {
		if l.LineBytes != l1.LineBytes {
			return fmt.Errorf("%s.line_bytes: %d; must equal %s.line_bytes (%d)", l.Name, l.LineBytes, l1.Name, l1.LineBytes)
		}
	}
	if l2.Size < l1.Size {
		return fmt.Errorf("%s.size: %s is smaller than %s.size (%s); allowed %s or more", l2.Name, bytesize.Format(int64(l2.Size)),
			l1.Name, bytesize.Format(int64(l1.Size)), bytesize.Format(int64(l1.Size)))
	}
	for _, u := range []struct {
		name string
		v    interface{ Validate() error }
	}{{"core", &c.Core}, {"prefetch", &c.Prefetch}, {"dram", &c.DRAM}, {"nc", &c.NC}, {"maint", &c.Maint}, {"tlb", &c.TLB}} {
		if err := in(u.name, u.v.Validate()); err != nil {
			return err
		}
	}
	if c.MemBytes < 1<<20 || c.MemBytes > 1<<40 || c.MemBytes%mem.PageSize != 0 {
		return fmt.Errorf("mem.bytes: %s is out of range; allowed 1MiB..1TiB in whole 4KiB pages", bytesize.Format(int64(c.MemBytes)))
	}
	return checkInts(intField{"mem.max_order", c.MaxOrder, 0, 20})
}
