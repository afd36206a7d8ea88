package smmu

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/cache"
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

func testConfig() Config {
	return Config{Clock: 1 * sim.GHz, TLBEntries: 8, TLBWays: 2, HitCycles: 2, Reads: 128, Writes: 128, Walks: 8,
		LinkCycles: 10, TCUIssueCycles: 1, MatchCycles: 5, BypassBytes: 4 << 10,
		Bus: BusConfig{Port: 5 * sim.Nanosecond}}
}

// machine is a small soc machine for the SMMU to sit on: DRAM at bw
// bytes per second (64-byte bursts), nothing else used.
func machine(t *testing.T, bw float64) *soc.Machine {
	t.Helper()
	clk := sim.Clocks{CPU: 1 * sim.GHz, Platform: 1 * sim.GHz, DRAM: 1 * sim.GHz}
	m, err := soc.New(soc.Config{Name: "test", Clocks: clk,
		Core:     soc.CoreConfig{LoadIssue: sim.Nanosecond, StoreIssue: sim.Nanosecond, MLP: 4},
		L1D:      cache.Config{Name: "l1d", Size: 32 << 10, Ways: 4, LineBytes: 64, Policy: cache.LRU, Latency: 4 * sim.Nanosecond},
		L2:       cache.Config{Name: "l2", Size: 256 << 10, Ways: 8, LineBytes: 64, Policy: cache.LRU, Latency: 10 * sim.Nanosecond},
		DRAM:     soc.DRAMConfig{Latency: 100 * sim.Nanosecond, Bandwidth: bw, MinBurst: 64},
		NC:       soc.NCConfig{Inflight: 2, DeviceInflight: 1},
		Maint:    soc.MaintConfig{Issue: sim.Nanosecond, CleanLatency: 50 * sim.Nanosecond, InvalLatency: 60 * sim.Nanosecond, Inflight: 64},
		MemBytes: 64 << 20, MaxOrder: 10}, 1)
	require.NoError(t, err)
	return m
}

// bench is a test rig's machine and sink: the outcomes by tag, and every
// bus ask's time in call order.
type bench struct {
	s    *SMMU
	m    *soc.Machine
	asks []sim.Time
	outs map[int32]Outcome
}

func (b *bench) Done(t sim.Time, x *Txn, o *Outcome) { b.outs[x.Tag] = *o }

// read and write are an uncontended access below the SMMU on the test
// machine: the port, then DRAM (no cache holds the line) or the home
// node's write acknowledgement (soc.IOTimes).
func (b *bench) read() sim.Time  { return b.s.cfg.Bus.Port + b.m.IOTimes().DRAM }
func (b *bench) write() sim.Time { return b.s.cfg.Bus.Port + b.m.IOTimes().Write }

// run runs every queued step (in time order).
func (b *bench) run(t *testing.T) {
	t.Helper()
	for b.m.RunNext(sim.Never) {
	}
	require.NoError(t, b.s.Err())
}

// until runs the queued steps due by at.
func (b *bench) until(at sim.Time) {
	for b.m.RunNext(at) {
	}
}

// access issues one transaction at at, runs the queue and returns its
// outcome.
func (b *bench) access(t *testing.T, tbu *TBU, at sim.Time, x Txn) Outcome {
	t.Helper()
	x.Tag = int32(len(b.outs) + 1000)
	tbu.Issue(at, x)
	b.run(t)
	o, ok := b.outs[x.Tag]
	require.True(t, ok, "transaction %+v never completed", x)
	return o
}

func TestSMRMatching(t *testing.T) {
	for _, c := range []struct {
		smr  SMR
		sid  uint16
		want bool
	}{
		{SMR{ID: 0x10, Valid: true}, 0x10, true},
		{SMR{ID: 0x10, Valid: true}, 0x11, false},
		{SMR{ID: 0x10, Mask: 0x0f, Valid: true}, 0x1f, true},
		{SMR{ID: 0x10, Mask: 0x0f, Valid: true}, 0x20, false},
		{SMR{ID: 0x10, Mask: 0x01, Valid: true}, 0x11, true},
		{SMR{ID: 0x10, Mask: 0x01, Valid: true}, 0x12, false},
		{SMR{ID: 0x10, Mask: 0x0f}, 0x10, false}, // not valid
	} {
		assert.Equal(t, c.want, c.smr.Matches(c.sid), "%+v sid %#x", c.smr, c.sid)
	}
}

func TestDecide(t *testing.T) {
	regs := Regs{SMR: []SMR{{ID: 0x10, Valid: true}, {ID: 0x20, Mask: 0xf, Valid: true}, {ID: 0x24, Valid: true}, {ID: 0x30, Valid: true}},
		S2CR: []S2CR{{Type: Translate, CBNDX: 0}, {Type: Bypass}, {Type: Bypass}, {Type: Fault}}}
	for _, c := range []struct {
		cr0   uint32
		sid   uint16
		route Route
		fault FaultKind
		smr   int
	}{
		{0, 0x10, RouteTranslate, FaultNone, 0},
		{0, 0x21, RouteBypass, FaultNone, 1},
		{0, 0x24, RouteFault, FaultSMCF, 1}, // SMR1 (mask) and SMR2 both match
		{0, 0x30, RouteFault, FaultS2CR, 3},
		{0, 0x40, RouteUnmatched, FaultNone, -1},
		{CR0USFCFG, 0x40, RouteFault, FaultUSF, -1},
		{CR0ClientPD | CR0USFCFG, 0x40, RouteDisabled, FaultNone, -1},
	} {
		regs.CR0 = c.cr0
		d := regs.Decide(c.sid)
		assert.Equal(t, c.route, d.Route, "sid %#x cr0 %#x", c.sid, c.cr0)
		assert.Equal(t, c.fault, d.Fault, "sid %#x", c.sid)
		assert.Equal(t, c.smr, d.SMR, "sid %#x", c.sid)
	}
	require.NoError(t, regs.Validate(1))
	require.ErrorContains(t, regs.Validate(0), "s2cr[0].cbndx")
}

// rig is an SMMU with one stage-1 bank mapping 64 KiB at iova 0x100000,
// SID 1 translated, SID 2 unmatched.
func rig(t *testing.T, cfg Config, acr, cr0 uint32) (*SMMU, *TBU, *bench) {
	t.Helper()
	b, err := mem.NewBuddy(64<<20, 10)
	require.NoError(t, err)
	tm := mmu.NewMemory()
	pt, err := mmu.NewPageTable("cb0", tm, b, nil, false)
	require.NoError(t, err)
	_, err = pt.MapRange(0x100000, 0x800000, 64<<10, mmu.PageKernel, mmu.Size4K)
	require.NoError(t, err)
	bus := &bench{m: machine(t, 1e12), outs: map[int32]Outcome{}}
	bus.m.SetPortHook(func(at sim.Time, _ uint64, _ int, _ bool) { bus.asks = append(bus.asks, at) })
	s, err := New(cfg, Regs{CR0: cr0, ACR: acr, SMR: []SMR{{ID: 1, Valid: true}}, S2CR: []S2CR{{Type: Translate}}}, bus.m, bus)
	require.NoError(t, err)
	bus.s = s
	_, err = s.AddContextBank(1, pt, tm)
	require.NoError(t, err)
	require.NoError(t, s.Check())
	tbu, err := s.AddTBU("tbu0")
	require.NoError(t, err)
	return s, tbu, bus
}

func TestBypassCachingBitOffOn(t *testing.T) {
	cfg := testConfig()
	for _, c := range []struct {
		acr       uint32
		wantHits  uint64
		wantTCU   uint64
		firstHit  bool
		secondHit bool
	}{
		{0, 0, 4, false, false},
		{ACRSMTNMBTLBEN, 3, 1, false, true},
		{ACRS2CRBTLBEN, 0, 4, false, false}, // S2CRB covers S2CR bypass, not unmatched streams
	} {
		_, tbu, b := rig(t, cfg, c.acr, 0)
		var outs []Outcome
		at := sim.Time(0)
		for i := 0; i < 4; i++ {
			o := b.access(t, tbu, at, Txn{SID: 2, Addr: 0x4000 + uint64(i)*64, Bytes: 64})
			outs = append(outs, o)
			at = o.Done
		}
		assert.Equal(t, RouteUnmatched, outs[0].Route)
		assert.Equal(t, c.firstHit, outs[0].Hit, "acr %#x", c.acr)
		assert.Equal(t, c.secondHit, outs[1].Hit, "acr %#x", c.acr)
		assert.Equal(t, c.wantHits, tbu.Stats.Hits, "acr %#x", c.acr)
		assert.Equal(t, c.wantTCU, tbu.Stats.TCURequests, "acr %#x", c.acr)
		assert.Equal(t, uint64(0x4000), outs[0].PA)
		// A miss costs the TCU round trip on top of the hit.
		miss, hit := outs[0].Done-0, outs[len(outs)-1].Done-outs[len(outs)-2].Done
		if c.secondHit {
			assert.Equal(t, cfg.Cycles(2)+b.read(), hit, "a hit: the lookup, then the bus")
			assert.Greater(t, miss, hit+cfg.Cycles(2*cfg.LinkCycles))
		}
	}
}

func TestTranslateWalkAndFault(t *testing.T) {
	s, tbu, bus := rig(t, testConfig(), 0, 0)
	o := bus.access(t, tbu, 0, Txn{SID: 1, Addr: 0x100040, Bytes: 64})
	require.False(t, o.Aborted)
	assert.True(t, o.Walked)
	assert.Equal(t, uint64(0x800040), o.PA)
	assert.Equal(t, uint64(4), s.Bank(0).Walker().Stats.Reads, "a cold 4-level walk reads 4 descriptors")
	assert.Len(t, bus.asks, 5, "4 descriptor reads through the bus, then the data")
	o2 := bus.access(t, tbu, o.Done, Txn{SID: 1, Addr: 0x100080, Bytes: 64})
	assert.True(t, o2.Hit)
	// Outside the mapping: a translation fault with bank and address, no panic.
	o3 := bus.access(t, tbu, o2.Done, Txn{SID: 1, Addr: 0x900000, Bytes: 64})
	assert.True(t, o3.Aborted)
	f, n := s.Faults()
	require.Equal(t, uint64(1), n)
	assert.Equal(t, FaultTF, f[0].Kind)
	assert.Equal(t, 0, f[0].CB)
	assert.Equal(t, uint64(0x900000), f[0].Addr)
	assert.Equal(t, uint16(1), f[0].SID)
}

func TestUnidentifiedStreamAndConflictFaults(t *testing.T) {
	s, tbu, bus := rig(t, testConfig(), ACRSMTNMBTLBEN, CR0USFCFG)
	o := bus.access(t, tbu, 0, Txn{SID: 7, Addr: 0x4000, Bytes: 64})
	assert.True(t, o.Aborted)
	assert.Empty(t, bus.asks, "an aborted transaction reaches no memory")
	s.Regs.SMR = append(s.Regs.SMR, SMR{ID: 0, Mask: 1, Valid: true})
	s.Regs.S2CR = append(s.Regs.S2CR, S2CR{Type: Bypass})
	o = bus.access(t, tbu, o.Done, Txn{SID: 1, Addr: 0x100000, Bytes: 64})
	assert.True(t, o.Aborted)
	f, n := s.Faults()
	require.Equal(t, uint64(2), n)
	assert.Equal(t, FaultUSF, f[0].Kind)
	assert.Equal(t, uint16(7), f[0].SID)
	assert.Equal(t, FaultSMCF, f[1].Kind)
	assert.Contains(t, f[1].String(), "SMCF")
}

func TestOutstandingLimit(t *testing.T) {
	cfg := testConfig()
	_, tbu, b := rig(t, cfg, ACRSMTNMBTLBEN, 0)
	warm := b.access(t, tbu, 0, Txn{SID: 2, Addr: 0x4000, Bytes: 64})
	at := warm.Done
	for i := 0; i < 129; i++ {
		tbu.Issue(at, Txn{SID: 2, Addr: 0x4000, Bytes: 64, Tag: int32(i)})
	}
	tbu.Issue(at, Txn{SID: 2, Addr: 0x4000, Bytes: 64, Write: true, Tag: 500})
	b.run(t)
	for i := 0; i < 128; i++ {
		require.Equal(t, at, b.outs[int32(i)].Accept, "read %d accepted at once", i+1)
	}
	assert.Greater(t, b.outs[128].Accept, at, "the 129th read waits for a slot")
	assert.Equal(t, b.outs[0].Done, b.outs[128].Accept, "it takes the first slot that frees")
	assert.Equal(t, uint64(1), tbu.Stats.OutstandingStalls)
	assert.Equal(t, b.outs[128].Accept, b.outs[500].Accept, "in-order input: a write behind it waits too, but takes a write slot")
}

func TestWalkLimitBackPressures(t *testing.T) {
	cfg := testConfig()
	_, tbu, b := rig(t, cfg, 0, 0) // bit off: every bypass is a TCU request
	for i := 0; i < 9; i++ {
		tbu.Issue(0, Txn{SID: 2, Addr: uint64(i) << 12, Bytes: 64, Tag: int32(i)})
	}
	tbu.Issue(0, Txn{SID: 2, Addr: 0, Bytes: 64, Tag: 9})
	b.run(t)
	for i := 0; i < 9; i++ {
		assert.True(t, b.outs[int32(i)].TCU)
	}
	assert.Equal(t, uint64(2), tbu.Stats.WalkStalls, "the 9th miss finds every walk slot busy, and so does the 10th when the 9th took the one that freed")
	assert.GreaterOrEqual(t, b.outs[8].Done-b.outs[0].Done, cfg.Cycles(2*cfg.LinkCycles))
	// The input is held: the one issued behind it is accepted only after the stall.
	assert.Greater(t, b.outs[9].Accept, sim.Time(0))
	assert.GreaterOrEqual(t, b.outs[9].Accept, b.outs[8].Accept)
}

// Every bus ask (descriptor reads and data) comes in non-decreasing time
// when many transactions of two streams overlap: nothing is booked ahead.
func TestBusAskedInTimeOrder(t *testing.T) {
	cfg := testConfig()
	_, tbu, b := rig(t, cfg, ACRSMTNMBTLBEN, 0)
	r := sim.NewRNG(3)
	at := sim.Time(0)
	for i := 0; i < 400; i++ {
		at += sim.Time(r.Uint64n(uint64(cfg.Cycles(20))))
		x := Txn{SID: 2, Addr: r.Uint64n(1 << 20), Bytes: 64, Write: r.Uint64n(3) == 0, Tag: int32(i)}
		if r.Uint64n(2) == 0 {
			x.SID, x.Addr = 1, 0x100000+r.Uint64n(64<<10)
		}
		b.until(at) // run the queue up to the issue time, then issue (as a master's step would)
		tbu.Issue(at, x)
	}
	b.run(t)
	require.Len(t, b.outs, 400)
	require.NotEmpty(t, b.asks)
	for i := 1; i < len(b.asks); i++ {
		require.GreaterOrEqual(t, b.asks[i], b.asks[i-1], "bus ask %d", i)
	}
	assert.Zero(t, b.m.DRAMAskReorders())
	assert.Greater(t, tbu.Stats.Walks, uint64(0))
}

func TestValidateNamesField(t *testing.T) {
	c := testConfig()
	c.Walks = 0
	require.ErrorContains(t, c.Validate(), "walks: 0 is out of range; allowed 1..64")
	c = testConfig()
	c.BypassBytes = 12345
	require.ErrorContains(t, c.Validate(), "bypass_bytes")
	c = testConfig()
	c.TLBWays = 3
	require.ErrorContains(t, c.Validate(), "tlb")
}

// Issue sets every field of a new transaction's Outcome one by one: a
// field added to Outcome must be set there too.
func TestIssueSetsEveryOutcomeField(t *testing.T) {
	assert.Equal(t, 12, reflect.TypeOf(Outcome{}).NumField(), "set the new field in TBU.Issue")
}
