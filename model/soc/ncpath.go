package soc

import (
	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
)

// NCPath is the core's path for Normal-NC and Device accesses: each load
// is its own bus read (split into nc.read_bytes transactions), each
// store a posted write, bypassing the caches; nc.inflight (Device:
// nc.device_inflight) transactions may be outstanding, and each pays
// nc.latency on top of DRAM's.
type NCPath struct {
	cfg NCConfig
	// nc and dev are the outstanding Normal-NC and Device transactions.
	// Invariant: each holds exactly its configured number of completion
	// times, as a min-heap.
	nc, dev sim.Pool
}

// NCState is the NC path's state as plain data (for views and golden
// tests): transactions outstanding at the core's time.
type NCState struct {
	NCInFlight, DeviceInFlight int
}

// newNCPath builds an idle path of a validated configuration.
func newNCPath(c NCConfig) NCPath {
	return NCPath{cfg: c, nc: sim.NewPool(c.Inflight), dev: sim.NewPool(c.DeviceInflight)}
}

// Snapshot returns the path's state at time now.
func (p *NCPath) Snapshot(now sim.Time) NCState {
	return NCState{NCInFlight: p.nc.Busy(now), DeviceInFlight: p.dev.Busy(now)}
}

// queue is the pool of outstanding transactions for attr.
func (p *NCPath) queue(attr mem.Attr) *sim.Pool {
	if attr == mem.Device {
		return &p.dev
	}
	return &p.nc
}

// split says how an access of width bytes goes out: per transactions of
// size bytes each (a load wider than nc.read_bytes is split; a store is
// one posted write).
func (p *NCPath) split(width int, write bool) (per uint64, size int) {
	if rb := p.cfg.ReadBytes; !write && rb > 0 && width > rb {
		return uint64((width + rb - 1) / rb), rb
	}
	return 1, width
}
