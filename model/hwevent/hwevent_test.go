package hwevent

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Event.String is the golden trace's line format: exact times, the agent,
// the kind, the address and what applies to the kind.
func TestEventString(t *testing.T) {
	for _, tc := range []struct {
		e    Event
		want string
	}{
		{Event{T: 1500, Kind: LineRead, Agent: Core, Writer: 3, Addr: 0x1040, Flags: Stale | Copy, Level: -1},
			"     1.500ns core  line-read         0x1040 writer dev1 [stale,copy]"},
		{Event{T: 2 * sim.Microsecond, End: 2*sim.Microsecond + 60*sim.Nanosecond, Kind: DCOp, Op: 2, Agent: Core, Addr: 0x2000, Level: -1},
			"  2000.000ns core  dc-op             0x2000 civac done 2060.000ns"},
		{Event{T: 7, Kind: Fill, Agent: Core, Level: 1, Set: 3, Way: 1, Addr: 0xc0, Victim: 0x40c0, Flags: VictimValid | VictimDirty},
			"     0.007ns core  fill              0xc0 L2 set 3 way 1 victim 0x40c0 [victim,victim-dirty]"},
		{Event{T: 10, Kind: WriteBack, Agent: Core, Writer: Core, Why: ReasonIVAC, Flags: Lost, Addr: 0x80, Level: -1},
			"     0.010ns core  write-back        0x80 writer core (cleaned by DC IVAC, which behaves as DC CIVAC on this core) [lost]"},
		{Event{T: 0, End: 11, Kind: DSBWait, Agent: Core, Level: -1}, "     0.000ns core  dsb-wait          until 0.011ns"},
		{Event{T: 5000, Kind: DMABurst, Agent: 2, Writer: 2, Addr: 0x100, Bytes: 128, Flags: Write, Level: -1},
			"     5.000ns dev0  dma-burst         0x100 128B writer dev0 [write]"},
	} {
		assert.Equal(t, tc.want, tc.e.String())
	}
	assert.Equal(t, "kind(99)", Kind(99).String())
}

func TestKindSetAndTee(t *testing.T) {
	s := Kinds(LineRead, DCOp)
	assert.True(t, s.Has(LineRead))
	assert.True(t, s.Has(DCOp))
	assert.False(t, s.Has(NCTransaction))
	for k := Kind(0); k < NumKinds; k++ {
		assert.True(t, AllKinds.Has(k), "%s", k)
	}
	var a, b Log
	Tee{&a, &b}.Event(&Event{Kind: Fill})
	assert.Len(t, a.Events, 1)
	assert.Equal(t, a.Events, b.Events)
}
