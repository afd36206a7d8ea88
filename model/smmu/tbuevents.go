package smmu

import (
	"github.com/dmaviz/dmaviz/model/hwevent"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
)

// IsBypass reports whether a TLB entry holds a cached bypass.
func IsBypass(e mmu.TLBEntry) bool { return e.Level < 0 }

func (t *TBU) note(at sim.Time, x *Txn, e int, hit bool) {
	ev := hwevent.Event{T: at, Kind: hwevent.TLBLookup, Agent: x.Agent, Level: EventLevel, Set: -1, Way: -1, Addr: x.Addr}
	if hit {
		ev.Flags = hwevent.Hit
		ev.Set, ev.Way = int32(e/t.tlb.Ways()), int32(e%t.tlb.Ways())
	}
	if x.Write {
		ev.Flags |= hwevent.Write
	}
	t.s.emit(ev)
}

func (t *TBU) fillEvent(at sim.Time, x *Txn, e int) {
	ent, _ := t.tlb.Entry(e)
	t.s.emit(hwevent.Event{T: at, Kind: hwevent.TLBFill, Agent: x.Agent, Level: EventLevel,
		Set: int32(e / t.tlb.Ways()), Way: int32(e % t.tlb.Ways()), Addr: ent.VA, Victim: ent.PA, Bytes: ent.Bytes})
}
