package etr

import "github.com/dmaviz/dmaviz/model/mem"

// AUX is the perf AUX ring buffer as the ETR driver sees it through its
// perf_output_handle: the page list the driver copies into, and the
// producer/consumer positions. Positions only grow (perf's aux_head and
// aux_tail); the byte they stand for is the position modulo Size.
type AUX struct {
	// Size is the ring size in bytes: a power-of-two number of pages, as
	// perf requires for the AUX area.
	Size uint64
	// Head is how far the driver has produced (perf_aux_output_end
	// advances it by the bytes copied). Invariant: Tail <= Head <= Tail+Size.
	Head uint64
	// Tail is how far user space (the perf tool) has consumed.
	Tail uint64
}

// Space is handle->size: the bytes the driver may write before it would
// overwrite data user space has not consumed.
func (a AUX) Space() uint64 { return a.Size - (a.Head - a.Tail) }

// Take is the part of the ETR data the driver copies out, after the AUX
// space check in tmc_update_etr_buffer.
type Take struct {
	Window
	// Truncated says the data did not fit the AUX space: only the newest
	// Len bytes are copied, starting Dropped bytes after the oldest one.
	Truncated bool
	// Dropped is how many of the oldest bytes were left behind.
	Dropped uint64
}

// FrameAlign is tmc_get_memwidth_mask for a 32-, 64- or 128-bit trace
// memory interface: moved offsets must stay on a 16-byte frame boundary.
const FrameAlign = 16

// Keep applies tmc_update_etr_buffer's rule to the data window w of a
// buffer of size bytes when space bytes are free in the AUX ring: if the
// data is larger, keep only the newest space&^(FrameAlign-1) bytes, move
// the offset forward (wrapping at the end of the buffer) and mark the
// record truncated.
func Keep(w Window, size, space uint64) Take {
	if w.Len <= space {
		return Take{Window: w}
	}
	n := space &^ (FrameAlign - 1)
	off := w.Offset + w.Len - n
	if off >= size {
		off -= size
	}
	return Take{Window: Window{Offset: off, Len: n}, Truncated: true, Dropped: w.Len - n}
}

// Piece is one memcpy of tmc_etr_sync_perf_buffer: Len bytes from ETR
// buffer offset Src to AUX ring offset Dst. A piece never crosses the end
// of the ETR buffer nor an AUX page.
type Piece struct {
	Src, Dst, Len uint64
}

// Pieces splits the copy of t into the AUX ring of auxSize bytes starting
// at position head, page by page, as tmc_etr_sync_perf_buffer does, and
// calls fn for each piece in order. It stops at the first error fn
// returns.
func Pieces(t Take, bufSize, auxSize, head uint64, fn func(Piece) error) error {
	src, dst := t.Offset, head%auxSize
	for left := t.Len; left > 0; {
		n := min(left, bufSize-src, mem.PageSize-dst%mem.PageSize)
		if err := fn(Piece{Src: src, Dst: dst, Len: n}); err != nil {
			return err
		}
		left -= n
		src += n
		if src >= bufSize {
			src -= bufSize
		}
		dst += n
		if dst >= auxSize {
			dst -= auxSize
		}
	}
	return nil
}
