package etr

import "github.com/dmaviz/dmaviz/model/dmaapi"

// alloc is tmc_etr_alloc_flat_buf as the policy has it (Policy.Alloc),
// zeroing included: what the allocation leaves in the caches is where the
// first session starts (prior=cold).
func (r *run) alloc() error {
	size := r.c.size
	var err error
	switch r.pol.Alloc {
	case AllocCoherent:
		var cb dmaapi.Coherent
		if cb, err = r.api.AllocCoherent("etr-buf", size); err != nil {
			return err
		}
		r.buf, r.nc, r.src = cb.Linear, cb.NC, cb.NC
		r.mp = dmaapi.Mapping{VA: r.buf.VA, Dev: r.buf.VA, Len: r.buf.Size, Dir: dmaapi.FromDevice}
		return nil
	case AllocPagesMapped:
		if r.buf, err = r.api.AllocPagesZeroed("etr-buf", size); err != nil {
			return err
		}
		r.src = r.buf
		r.mp, err = r.api.MapPage(r.buf, 0, r.buf.Size, dmaapi.FromDevice)
		return err
	}
	if r.buf, r.mp, err = r.api.AllocNoncoherent("etr-buf", size, dmaapi.FromDevice); err != nil {
		return err
	}
	r.src = r.buf
	if r.pol.SyncForDevice {
		// The fix: give the zeroed buffer to the device before it writes.
		return r.api.SyncSingleForDevice(r.mp, 0, r.buf.Size)
	}
	return nil
}

// held reports whether line (physical line number) is in any cache level
// and whether some level holds it dirty.
func (r *run) held(line uint64) (held, dirty bool) { return r.m.Holds(line) }

// noteZeroDirty records which of the buffer's lines the allocation left
// dirty in the caches (its zero-fill, where nothing cleaned it).
func (r *run) noteZeroDirty() {
	lb, shift := r.m.LineBytes(), lineShift(r.m)
	for off := uint64(0); off < r.buf.Size; off += lb {
		if _, dirty := r.held(r.buf.PA(off) >> shift); dirty {
			if r.zeroDirty == nil {
				r.zeroDirty = make([]bool, r.buf.Size/lb)
			}
			r.zeroDirty[off/lb] = true
		}
	}
}
