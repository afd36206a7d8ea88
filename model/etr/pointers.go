package etr

// This file is the ETR's circular-buffer bookkeeping as plain arithmetic,
// kept apart from the machine so every edge (empty, exactly full, one byte
// past full, several laps) is testable on its own.

// Pointers is what the driver reads from the TMC at stop, as offsets from
// the buffer base (DBALO/DBAHI).
type Pointers struct {
	// RRP is the RAM read pointer minus the base. Every session starts with
	// RRP = RWP = base; while the buffer is not full RRP stays at base, and
	// once it is full the hardware moves RRP with RWP, so RRP marks the
	// oldest byte. Invariant: RRP == 0 when !Full, RRP == RWP when Full.
	RRP uint64
	// RWP is the RAM write pointer minus the base: where the next byte goes.
	// Invariant: RWP < size.
	RWP uint64
	// Full is STS.FULL (bit 0): the write pointer wrapped at least once, so
	// older trace was overwritten by the ring itself.
	Full bool
}

// AfterWriting returns the pointers after the ETR wrote written bytes into
// a buffer of size bytes in circular mode, starting at the base. size must
// be > 0.
func AfterWriting(size, written uint64) Pointers {
	if written < size {
		return Pointers{RRP: 0, RWP: written}
	}
	rwp := written % size
	return Pointers{RRP: rwp, RWP: rwp, Full: true}
}

// Window is the trace data the driver takes from the ETR buffer, as
// tmc_etr_sync_flat_buf computes it: Offset = RRP - base, Len = FULL ? size
// : RWP - RRP. The data runs from Offset for Len bytes, through the end of
// the buffer and back to the base when Offset+Len > size (a wrap, which only
// exists when the buffer is full, because every session starts at the base).
type Window struct {
	Offset, Len uint64
}

// Window returns the data window for a buffer of size bytes.
func (p Pointers) Window(size uint64) Window {
	if p.Full {
		return Window{Offset: p.RRP, Len: size}
	}
	return Window{Offset: p.RRP, Len: p.RWP - p.RRP}
}

// Wraps reports whether the window runs past the end of a buffer of size
// bytes back to the base.
func (w Window) Wraps(size uint64) bool { return w.Offset+w.Len > size }

// Chunks splits the window into at most two buffer ranges in data order:
// the tail part [Offset, min(Offset+Len, size)) and, on a wrap, the head
// part [0, Offset+Len-size).
func (w Window) Chunks(size uint64) []Range {
	if w.Len == 0 {
		return nil
	}
	if !w.Wraps(size) {
		return []Range{{w.Offset, w.Len}}
	}
	return []Range{{w.Offset, size - w.Offset}, {0, w.Offset + w.Len - size}}
}

// Range is a byte range [Off, Off+Len) of a buffer.
type Range struct {
	Off, Len uint64
}

// End returns Off + Len.
func (r Range) End() uint64 { return r.Off + r.Len }

// Overwritten returns how many bytes of trace the ring overwrote itself:
// everything written beyond one buffer's worth. It is behaviour, not a
// bug: STS.FULL reports it and the driver marks the wrap with barrier
// packets.
func Overwritten(size, written uint64) uint64 {
	if written <= size {
		return 0
	}
	return written - size
}
