package smmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// nestedRig is an SMMU (no walk caches) with one nested bank: stage 1
// maps 64 KiB at IOVA 0x100000 to IPA 0x200000 (its tables at IPAs below
// 32 MiB), stage 2 maps IPA 0..32 MiB to PA 32..64 MiB with 4 KiB pages,
// and IOVA 0x300000 to IPA 48 MiB, which stage 2 does not map. SID 1
// translates through it.
func nestedRig(t *testing.T) (*SMMU, *TBU, *bench) {
	t.Helper()
	ipas, err := mem.NewBuddy(32<<20, 10)
	require.NoError(t, err)
	tm1 := mmu.NewMemory()
	s1, err := mmu.NewPageTable("s1", tm1, ipas, nil, false)
	require.NoError(t, err)
	_, err = s1.MapRange(0x100000, 0x200000, 64<<10, mmu.PageKernel, mmu.Size4K)
	require.NoError(t, err)
	_, err = s1.MapRange(0x300000, 48<<20, 4<<10, mmu.PageKernel, mmu.Size4K)
	require.NoError(t, err)
	pas, err := mem.NewBuddy(64<<20, 10)
	require.NoError(t, err)
	tm2 := mmu.NewMemory()
	s2, err := mmu.NewPageTable("s2", tm2, pas, nil, false)
	require.NoError(t, err)
	_, err = s2.MapRange(0, 32<<20, 32<<20, mmu.PageKernel, mmu.Size4K)
	require.NoError(t, err)
	bus := &bench{m: machine(t, 1e12), outs: map[int32]Outcome{}}
	bus.m.SetPortHook(func(at sim.Time, _ uint64, _ int, _ bool) { bus.asks = append(bus.asks, at) })
	s, err := New(testConfig(), Regs{SMR: []SMR{{ID: 1, Valid: true}}, S2CR: []S2CR{{Type: Translate}}}, bus.m, bus)
	require.NoError(t, err)
	bus.s = s
	cb, err := s.AddNestedContextBank(s1, tm1, s2, tm2)
	require.NoError(t, err)
	require.Equal(t, 0, cb)
	require.NoError(t, s.Check())
	tbu, err := s.AddTBU("tbu0")
	require.NoError(t, err)
	return s, tbu, bus
}

// A full nested walk without walk caches reads 24 descriptors, each
// through the bus in turn: a 4-level stage-2 walk of each of the 4
// stage-1 descriptor addresses and the descriptor itself (4 x 5), then a
// 4-level stage-2 walk of the output IPA (4). The data goes to the PA
// both stages give; a second read in the page hits in the TBU.
func TestNestedWalkReads24Descriptors(t *testing.T) {
	s, tbu, bus := nestedRig(t)
	o := bus.access(t, tbu, 0, Txn{SID: 1, Addr: 0x100040, Bytes: 64})
	require.False(t, o.Aborted)
	assert.True(t, o.Walked)
	assert.Equal(t, uint64(32<<20+0x200040), o.PA, "IOVA 0x100040 -> IPA 0x200040 -> PA 32 MiB + 0x200040")
	assert.Equal(t, uint64(24), s.TCUStats().WalkReads)
	assert.Len(t, bus.asks, 25, "24 descriptor reads through the bus, then the data")
	for i := 1; i < len(bus.asks); i++ {
		assert.Greater(t, bus.asks[i], bus.asks[i-1], "read %d waits for the one before it", i)
	}
	b := s.Bank(0)
	assert.True(t, b.Nested())
	assert.Equal(t, uint64(4), b.Walker().Stats.Reads, "stage 1: one descriptor per level")
	assert.Equal(t, uint64(20), b.S2Walker().Stats.Reads, "stage 2: five walks of 4 levels")
	// A one-stage bank's walk reads 4 (TestTranslateWalkAndFault): the
	// nested one costs about six times the bus time.
	assert.Greater(t, o.Done, 24*bus.read())

	o2 := bus.access(t, tbu, o.Done, Txn{SID: 1, Addr: 0x100080, Bytes: 64})
	assert.True(t, o2.Hit)
	assert.Equal(t, uint64(32<<20+0x200080), o2.PA)
	assert.Equal(t, uint64(24), s.TCUStats().WalkReads, "a hit walks nothing")
}

// An output IPA stage 2 does not map is a translation fault of stage 2,
// with the context bank and input address; no panic, no data access.
func TestNestedStage2Fault(t *testing.T) {
	s, tbu, bus := nestedRig(t)
	o := bus.access(t, tbu, 0, Txn{SID: 1, Addr: 0x300000, Bytes: 64})
	assert.True(t, o.Aborted)
	f, n := s.Faults()
	require.Equal(t, uint64(1), n)
	assert.Equal(t, FaultTF, f[0].Kind)
	assert.Equal(t, 2, f[0].Stage)
	assert.Equal(t, 0, f[0].CB)
	assert.Equal(t, uint64(0x300000), f[0].Addr)
	assert.Equal(t, "2.202us StreamID 0x1: FSR.TF (translation fault) in context bank 0 (level 2 of stage 2) at 0x300000", f[0].String())
	// 20 reads for stage 1; stage 2 maps IPA 0..32 MiB, so for 48 MiB its
	// level-0, level-1 and level-2 tables exist and the level-2 entry
	// (24) is invalid: 3 more reads.
	assert.Equal(t, 2, f[0].Level)
	assert.Len(t, bus.asks, 23)
}
