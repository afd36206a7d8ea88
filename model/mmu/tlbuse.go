package mmu

import "math/bits"

// A TLB's record of its uses, for a Loop that replays a program's passes:
// which sets changed since a given moment (tick, stamp, log), and whether
// an entry still holds a translation.

// touch marks entry e most recently used and its set used now.
func (t *TLB) touch(e int) {
	t.arr.Touch(e)
	t.used(e)
}

// used records that entry e's set changed (tick, stamp, log).
func (t *TLB) used(e int) {
	t.tick++
	set := e / t.cfg.Ways
	t.stamp[set] = t.tick
	t.log[t.tick%tlbLog] = int32(set)
}

// tlbLog is how many of the last uses' sets a TLB remembers.
const tlbLog = 64

// Tick is the count of uses that changed an entry or the LRU order so
// far; SetUsed(set) is the tick of the set's last one. A set whose
// SetUsed is above a tick read earlier was used since.
func (t *TLB) Tick() uint64 { return t.tick }

// SetUsed returns the tick of set's last use (0: never).
func (t *TLB) SetUsed(set int) uint64 { return t.stamp[set] }

// Holds reports whether entry e holds the translation of va in space
// (its key is va's at its size and it covers va): a lookup of va finds e
// while no larger entry covers va.
func (t *TLB) Holds(e int, space uint16, va uint64) bool {
	if e < 0 || e >= len(t.ent) {
		return false
	}
	k, ok := t.arr.Key(e)
	ent := &t.ent[e]
	return ok && ent.Space == space && va-ent.VA < ent.Bytes && k == tlbKey(space, va, uint8(bits.TrailingZeros64(ent.Bytes))) && ent.Covers(va)
}

// Miss is Lookup for a caller that knows the lookup finds nothing (no
// entry of its space is held): counted as Lookup does.
func (t *TLB) Miss() {
	t.Stats.Lookups++
	t.groupOK = false
}
