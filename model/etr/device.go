package etr

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/soc"
)

// ETR AXI write burst: TMC AXICTL.WrBurstLen 0xF (16 beats, the driver's
// default max_burst_size) of a 64-bit trace memory interface.
const etrBurst = 16 * 8

// Device is the TMC in ETR configuration, circular-buffer mode, as a
// non-coherent DMA master of the machine. It owns the pointer registers;
// the machine carries its writes (DRAM bandwidth, line versions, caches
// left as they are).
type Device struct {
	m   *soc.Machine
	id  soc.DeviceID
	buf soc.Buffer // the flat buffer's frames (DBALO/DBAHI = buf.PA(0))

	// written is the trace written since the session started (Start).
	// Invariant: ptr == AfterWriting(buf.Size, written).
	written uint64
	ptr     Pointers
}

// NewDevice adds the ETR to m, writing at rate bytes per second into the
// buffer Program gives it.
func NewDevice(m *soc.Machine, rate float64) (*Device, error) {
	id, err := m.AddDevice(soc.DeviceConfig{Name: "etr", Burst: etrBurst, Bandwidth: rate})
	if err != nil {
		return nil, err
	}
	return &Device{m: m, id: id}, nil
}

// ID returns the ETR's machine device.
func (d *Device) ID() soc.DeviceID { return d.id }

// Program sets the flat buffer (DBALO/DBAHI and RSZ).
func (d *Device) Program(buf soc.Buffer) { d.buf = buf }

// Writer returns the writer id the ETR's data carries in line versions.
func (d *Device) Writer() uint8 { return d.m.DeviceWriter(d.id) }

// Start begins a session: the driver programs RRP = RWP = base and clears
// STS.FULL (tmc_etr_enable_hw), so every session writes from the base.
func (d *Device) Start() {
	d.written = 0
	d.ptr = Pointers{}
}

// Pointers returns RRP, RWP and STS.FULL as offsets from the base.
func (d *Device) Pointers() Pointers { return d.ptr }

// Written returns the bytes written this session.
func (d *Device) Written() uint64 { return d.written }

// Trace has the ETR write n more bytes of trace (whole 16-byte frames) in
// circular order, step bytes at a time: each step is DMA bursts into the
// buffer's frames, the core idles until it has landed, then progress (if
// not nil) sees the pointers at that time.
func (d *Device) Trace(n, step uint64, progress func(p Pointers, t sim.Time)) error {
	size := d.buf.Size
	if size == 0 || len(d.buf.Pages) == 0 {
		return fmt.Errorf("etr: empty buffer")
	}
	step = max(step, FrameAlign)
	for left := n; left > 0; {
		pos := d.written % size
		k := min(left, step, size-pos)
		// One DMA stream per physically contiguous run of the buffer.
		for off := pos; off < pos+k; {
			run := mem.RunAt(d.buf.Pages, off, pos+k).N
			done, err := d.m.DeviceWrite(d.id, d.buf.PA(off), run)
			if err != nil {
				return fmt.Errorf("etr: %w", err)
			}
			d.m.WaitUntil(done)
			off += run
		}
		left -= k
		d.written += k
		d.ptr = AfterWriting(size, d.written)
		if progress != nil {
			progress(d.ptr, d.m.Now())
		}
	}
	return nil
}
