package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// Bus is the path below the SMMU: the interconnect and DRAM. Read and
// Write take a transaction issued at at and return when it completes
// (read data back, write response).
type Bus interface {
	Read(at sim.Time, pa uint64, bytes int) sim.Time
	Write(at sim.Time, pa uint64, bytes int) sim.Time
}

// BusConfig is a latency-and-bandwidth model of the interconnect and
// DRAM as the SMMU's masters see them.
type BusConfig struct {
	// ReadLatency is an unloaded read from the TBU's downstream port to
	// data back; WriteLatency the same for a write response.
	ReadLatency, WriteLatency sim.Time
	// Bandwidth is the DRAM channel rate in bytes per second shared by
	// every transaction (walks included).
	Bandwidth float64
	// Line is the smallest transfer (a burst of Line bytes).
	Line int
}

// Validate checks the bus.
func (c *BusConfig) Validate() error {
	if c.ReadLatency < 0 || c.ReadLatency > sim.Microsecond || c.WriteLatency < 0 || c.WriteLatency > sim.Microsecond {
		return fmt.Errorf("bus.latency: %v / %v is out of range; allowed 0..1us", c.ReadLatency, c.WriteLatency)
	}
	if !(c.Bandwidth >= 1e6 && c.Bandwidth <= 1e13) {
		return fmt.Errorf("bus.bandwidth: %g B/s is out of range; allowed 1e6..1e13", c.Bandwidth)
	}
	if c.Line < 1 || c.Line > 4096 {
		return fmt.Errorf("bus.line: %d is out of range; allowed 1..4096", c.Line)
	}
	return nil
}

// Memory is a Bus of one shared channel: a transfer occupies it for
// bytes/Bandwidth, a read's data is never back before ReadLatency.
type Memory struct {
	cfg  BusConfig
	free sim.Time // when the channel is next free
	// Reads, Writes and Bytes count what it carried.
	Reads, Writes, Bytes uint64
}

// NewMemory returns an idle bus.
func NewMemory(c BusConfig) (*Memory, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Memory{cfg: c}, nil
}

func (m *Memory) occupy(bytes int) sim.Time {
	n := (bytes + m.cfg.Line - 1) / m.cfg.Line * m.cfg.Line
	m.Bytes += uint64(n)
	return sim.Time(float64(n) / m.cfg.Bandwidth * 1e12)
}

// Read implements Bus.
func (m *Memory) Read(at sim.Time, _ uint64, bytes int) sim.Time {
	m.Reads++
	x := m.occupy(bytes)
	start := max(at+m.cfg.ReadLatency-x, m.free)
	m.free = start + x
	return start + x
}

// Write implements Bus.
func (m *Memory) Write(at sim.Time, _ uint64, bytes int) sim.Time {
	m.Writes++
	x := m.occupy(bytes)
	start := max(at+m.cfg.WriteLatency-x, m.free)
	m.free = start + x
	return start + x
}

// pool is a bounded set of outstanding operations as the completion
// times of its slots: an operation takes the slot that frees first
// (completions come back out of order).
// Invariant: t is a binary min-heap; len(t) never changes.
type pool struct{ t []sim.Time }

func newPool(n int) pool { return pool{t: make([]sim.Time, max(n, 1))} }

// slot returns when an operation asked for at at may start.
func (p *pool) slot(at sim.Time) sim.Time { return max(at, p.t[0]) }

// done gives the earliest-free slot to an operation completing at t.
func (p *pool) done(t sim.Time) {
	h := p.t
	n, i := len(h), 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h[r] < h[l] {
			c = r
		}
		if h[c] >= t {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = t
}

// busy counts the slots still in flight at now.
func (p *pool) busy(now sim.Time) int {
	n := 0
	for _, t := range p.t {
		if t > now {
			n++
		}
	}
	return n
}
