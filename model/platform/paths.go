package platform

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// schema lists every hardware parameter in display order (built by init:
// a clock's setter walks the schema for the parameters counted in its
// cycles).
var schema []param

func init() { schema = buildSchema() }

func buildSchema() []param {
	var s []param
	s = append(s,
		freq("clocks.cpu", unitCycles, func(b *Board) []*sim.Freq { return []*sim.Freq{&b.Clocks.CPU} }),
		freq("clocks.platform", unitPCyc, func(b *Board) []*sim.Freq {
			if b.SMMU != nil {
				return []*sim.Freq{&b.Clocks.Platform, &b.SMMU.Clock}
			}
			return []*sim.Freq{&b.Clocks.Platform}
		}),
		freq("clocks.dram", "dram cycles", func(b *Board) []*sim.Freq { return []*sim.Freq{&b.Clocks.DRAM} }),
		cycles("core.load_issue", func(b *Board) *sim.Time { return &b.Core.LoadIssue }),
		cycles("core.store_issue", func(b *Board) *sim.Time { return &b.Core.StoreIssue }),
		count("core.mlp", unitNone, func(b *Board) *int { return &b.Core.MLP }),
		count("core.write_stream_after", unitLines, func(b *Board) *int { return &b.Core.WriteStreamAfter }),
	)
	for _, lv := range []struct {
		name string
		c    func(b *Board) *cache.Config
	}{
		{"l1d", func(b *Board) *cache.Config { return &b.L1D }},
		{"l2", func(b *Board) *cache.Config { return &b.L2 }},
		{"l3", func(b *Board) *cache.Config { return &b.L3 }},
	} {
		c := lv.c
		var has func(b *Board) bool
		if lv.name == "l3" {
			has = func(b *Board) bool { return b.L3.Size > 0 }
		}
		size := count(lv.name+".size", unitBytes, func(b *Board) *int { return &c(b).Size })
		geometry := []param{
			count(lv.name+".ways", unitNone, func(b *Board) *int { return &c(b).Ways }),
			count(lv.name+".line_bytes", unitBytes, func(b *Board) *int { return &c(b).LineBytes }),
			policy(lv.name+".policy", func(b *Board) *cache.Policy { return &c(b).Policy }),
			cycles(lv.name+".latency", func(b *Board) *sim.Time { return &c(b).Latency }),
		}
		for i := range geometry {
			geometry[i].has = has
		}
		setSize, name := size.put, lv.name
		size.put = func(b *Board, v float64) error { // a new level takes its name
			if err := setSize(b, v); err != nil {
				return err
			}
			if c(b).Name == "" {
				c(b).Name = name
			}
			return nil
		}
		s = append(s, size) // an L3 of size 0 is the claim that there is none
		s = append(s, geometry...)
	}
	s = append(s,
		count("prefetch.streams", unitNone, func(b *Board) *int { return &b.Prefetch.Streams }),
		count("prefetch.degree", unitLines, func(b *Board) *int { return &b.Prefetch.Degree }),
		count("prefetch.confirm", unitNone, func(b *Board) *int { return &b.Prefetch.Confirm }),
		count("prefetch.max_stride", unitLines, func(b *Board) *int { return &b.Prefetch.MaxStride }),
		count64("prefetch.page_lines", unitLines, func(b *Board) *uint64 { return &b.Prefetch.PageLines }),
		count("prefetch.inflight", unitNone, func(b *Board) *int { return &b.Prefetch.Inflight }),
		nanos("dram.latency", func(b *Board) *sim.Time { return &b.DRAM.Latency }),
		bandwidth("dram.bandwidth", func(b *Board) *float64 { return &b.DRAM.Bandwidth }),
		count("dram.min_burst", unitBytes, func(b *Board) *int { return &b.DRAM.MinBurst }),
		count("nc.inflight", unitNone, func(b *Board) *int { return &b.NC.Inflight }),
		count("nc.read_bytes", unitBytes, func(b *Board) *int { return &b.NC.ReadBytes }),
		count("nc.device_inflight", unitNone, func(b *Board) *int { return &b.NC.DeviceInflight }),
		nanos("nc.latency", func(b *Board) *sim.Time { return &b.NC.Latency }),
		cycles("maint.issue", func(b *Board) *sim.Time { return &b.Maint.Issue }),
		nanos("maint.clean_latency", func(b *Board) *sim.Time { return &b.Maint.CleanLatency }),
		nanos("maint.inval_latency", func(b *Board) *sim.Time { return &b.Maint.InvalLatency }),
		count("maint.inflight", unitNone, func(b *Board) *int { return &b.Maint.Inflight }),
		flag("maint.ivac_cleans", func(b *Board) *bool { return &b.Maint.IVACCleans }),
		cycles("maint.dsb", func(b *Board) *sim.Time { return &b.Maint.DSB }),
	)
	for _, t := range []struct {
		name string
		c    func(b *Board) *mmu.TLBConfig
	}{
		{"tlb.l1", func(b *Board) *mmu.TLBConfig { return &b.TLB.L1 }},
		{"tlb.l1i", func(b *Board) *mmu.TLBConfig { return &b.TLB.L1I }},
		{"tlb.l2", func(b *Board) *mmu.TLBConfig { return &b.TLB.L2 }},
		{"tlb.trace", func(b *Board) *mmu.TLBConfig { return &b.TLB.Trace }},
	} {
		c := t.c
		s = append(s,
			count(t.name+".entries", unitNone, func(b *Board) *int { return &c(b).Entries }),
			count(t.name+".ways", unitNone, func(b *Board) *int { return &c(b).Ways }),
			entrySizes(t.name+".sizes", func(b *Board) *mmu.EntrySizes { return &c(b).Sizes }),
			cycles(t.name+".hit", func(b *Board) *sim.Time { return &c(b).Hit }),
			count(t.name+".coalesce", unitPages, func(b *Board) *int { return &c(b).Coalesce }),
		)
	}
	s = append(s, walkCaches("tlb.walk", func(b *Board) *mmu.Config { return &b.TLB.Walk }, nil)...)
	s = append(s,
		linear("tlb.linear", func(b *Board) *mmu.Size { return &b.TLB.Linear }),
		count64("mem.bytes", unitBytes, func(b *Board) *uint64 { return &b.MemBytes }),
		count("mem.max_order", unitNone, func(b *Board) *int { return &b.MaxOrder }),
	)
	return append(s, smmuSchema()...)
}

// smmuSchema is the SMMU's part of the schema (boards with an SMMU).
func smmuSchema() []param {
	s := []param{
		freq("smmu.clock", unitPCyc, func(b *Board) []*sim.Freq { return []*sim.Freq{&b.SMMU.Clock} }),
		count("smmu.tbu.tlb_entries", unitNone, func(b *Board) *int { return &b.SMMU.TLBEntries }),
		count("smmu.tbu.tlb_ways", unitNone, func(b *Board) *int { return &b.SMMU.TLBWays }),
		count("smmu.tbu.hit_cycles", unitPCyc, func(b *Board) *int { return &b.SMMU.HitCycles }),
		flag("smmu.tbu.register_slices", func(b *Board) *bool { return &b.SMMU.RegisterSlices }),
		count("smmu.tbu.reads", unitNone, func(b *Board) *int { return &b.SMMU.Reads }),
		count("smmu.tbu.writes", unitNone, func(b *Board) *int { return &b.SMMU.Writes }),
		count("smmu.tbu.walks", unitNone, func(b *Board) *int { return &b.SMMU.Walks }),
		count("smmu.link_cycles", unitPCyc, func(b *Board) *int { return &b.SMMU.LinkCycles }),
		count("smmu.tcu.issue_cycles", unitPCyc, func(b *Board) *int { return &b.SMMU.TCUIssueCycles }),
		count("smmu.tcu.match_cycles", unitPCyc, func(b *Board) *int { return &b.SMMU.MatchCycles }),
		count64("smmu.bypass_bytes", unitBytes, func(b *Board) *uint64 { return &b.SMMU.BypassBytes }),
	}
	s = append(s, walkCaches("smmu.tcu.walk", func(b *Board) *mmu.Config { return &b.SMMU.WalkCache }, nil)...)
	s = append(s,
		duration("smmu.bus.port", unitPCyc, func(b *Board) *sim.Time { return &b.SMMU.Bus.Port }, smmuPeriod, 2),
	)
	for i := range s {
		s[i].has = withSMMU(s[i].has)
	}
	return s
}

func smmuPeriod(b *Board) float64 { return float64(sim.Second) / float64(b.SMMU.Clock) }

// withSMMU restricts has to boards with an SMMU.
func withSMMU(has func(b *Board) bool) func(b *Board) bool {
	return func(b *Board) bool { return b.SMMU != nil && (has == nil || has(b)) }
}

// walkCaches is a walker's three walk caches: "<prefix>.l<N>.entries"
// (0: none at that level) and ".ways" where there are entries.
func walkCaches(prefix string, c func(b *Board) *mmu.Config, has func(b *Board) bool) []param {
	var s []param
	for l := range 3 {
		lvl := prefix + ".l" + string(rune('0'+l))
		entries := count(lvl+".entries", unitNone, func(b *Board) *int { return &c(b).WalkCache[l].Entries })
		setEntries := entries.put
		entries.put = func(b *Board, v float64) error { // a new walk cache is fully associative
			if err := setEntries(b, v); err != nil {
				return err
			}
			if w := &c(b).WalkCache[l]; w.Ways == 0 && w.Entries > 0 {
				w.Ways = w.Entries
			}
			return nil
		}
		ways := count(lvl+".ways", unitNone, func(b *Board) *int { return &c(b).WalkCache[l].Ways })
		entries.has = has
		ways.has = func(b *Board) bool { return (has == nil || has(b)) && c(b).WalkCache[l].Entries > 0 }
		s = append(s, entries, ways)
	}
	return s
}

func bandwidth(path string, f func(b *Board) *float64) param {
	return param{path: path, unit: unitGBs,
		get: func(b *Board) float64 { return *f(b) / 1e9 },
		put: func(b *Board, v float64) error {
			if !(v > 0) {
				return errRange(v, unitGBs, "> 0")
			}
			*f(b) = v * 1e9
			return nil
		}}
}

func linear(path string, f func(b *Board) *mmu.Size) param {
	return param{path: path, unit: unitNone,
		get: func(b *Board) float64 { return float64(*f(b)) },
		put: func(b *Board, v float64) error {
			if err := whole(v, 1, 15); err != nil {
				return errRange(v, unitNone, "a mask of 1 (4K), 2 (64K), 4 (2M), 8 (1G)")
			}
			*f(b) = mmu.Size(v)
			return nil
		},
		name: func(v float64) string { return mmu.Size(v).String() },
		parseName: func(s string) (float64, bool) {
			if n, err := strconv.ParseUint(s, 10, 4); err == nil {
				return float64(n), true
			}
			var m mmu.Size
			for part := range strings.SplitSeq(s, "|") {
				bit := slices.Index([]string{"4K", "64K", "2M", "1G"}, strings.ToUpper(strings.TrimSpace(part)))
				if bit < 0 {
					return 0, false
				}
				m |= 1 << bit
			}
			return float64(m), true
		},
		names: "leaf sizes such as 4K|2M|1G"}
}

// paramByPath returns the schema entry for path, or nil.
func paramByPath(path string) *param {
	for i := range schema {
		if schema[i].path == path {
			return &schema[i]
		}
	}
	return nil
}

// Paths lists every schema path, sorted.
func Paths() []string {
	out := make([]string, len(schema))
	for i := range schema {
		out[i] = schema[i].path
	}
	sort.Strings(out)
	return out
}

// Unit returns the unit of the parameter at path ("" for a count or an
// unknown path).
func Unit(path string) string {
	if p := paramByPath(path); p != nil {
		return p.unit
	}
	return ""
}

// IsPath reports whether path is a schema path (a preset parameter), as
// opposed to a scenario's constant ("<scenario>.<name>").
func IsPath(path string) bool { return paramByPath(path) != nil }

func errRange(v float64, unit, allowed string) error {
	return fmt.Errorf("%s is out of range; allowed %s", strings.TrimSpace(FormatValue(v, unit)), allowed)
}
