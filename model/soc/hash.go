package soc

import (
	"encoding/binary"
	"hash/fnv"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Hash returns a 64-bit FNV-1a digest of the machine's whole observable
// state: time, counters, every cache entry (tag, dirty, version, ready
// time), line versions, queues and hazards. Two runs with the same inputs
// and seed must give the same hash on every platform (native and
// WebAssembly); the determinism tests compare it.
func (m *Machine) Hash() uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(m.core.now))
	put(uint64(m.core.busy))
	put(uint64(m.dram.free))
	put(uint64(m.maint.done))
	put(uint64(m.dram.posted))
	for _, v := range m.cnt {
		put(v)
	}
	for _, c := range m.hier.lv {
		for e := 0; e < c.Entries(); e++ {
			k, ok := c.Key(e)
			if !ok {
				put(0)
				continue
			}
			d := uint64(0)
			if c.Meta[e].Dirty {
				d = 1
			}
			put(k + 1)
			put(d | uint64(c.Meta[e].Ver)<<1)
			put(uint64(c.Meta[e].Ready))
		}
	}
	for _, q := range []*sim.Pool{&m.core.mshr, &m.core.pfq, &m.nc.nc, &m.nc.dev, &m.maint.q} {
		q.Times(func(t sim.Time) { put(uint64(t)) }) // in time order
	}
	for i := range m.ver.Mem {
		put(uint64(m.ver.Mem[i]) | uint64(m.ver.Latest[i])<<32)
		put(uint64(m.ver.MemWriter[i]) | uint64(m.ver.LatestWriter[i])<<8)
	}
	for _, hz := range m.chk.hazards {
		put(uint64(hz.T))
		put(hz.Addr)
		put(hz.Bytes)
		put(uint64(hz.Kind) | uint64(hz.Flags)<<8 | uint64(hz.Why)<<24)
	}
	put(m.buddy.FreePages())
	return h.Sum64()
}
