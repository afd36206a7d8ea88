package etr

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/hwview"
	"github.com/dmaviz/dmaviz/model/scenario"
)

func bytes(n uint64) string { return scenario.FormatBytes(int64(n)) }

func (r *run) narrateTrace() {
	cached := 0
	for off := uint64(0); off < r.c.size; off += r.m.LineBytes() {
		if r.cached(r.buf.PA(off) >> lineShift(r.m)) {
			cached++
		}
	}
	prior := map[string]string{
		PriorSteady: "left there by the previous session's copy through the same mapping",
		PriorCold:   "what the allocation left: " + r.allocWords(),
		PriorCached: "the CPU read the whole buffer through the cacheable map before the session",
	}[r.c.prior]
	if cached == 0 && r.c.prior == PriorSteady && r.pol.NC {
		prior = "the previous session read it only through the Normal-NC alias, which allocates nothing"
	}
	copies := fmt.Sprintf("%d of the buffer's lines are in the CPU caches (%s); those copies are now older than DRAM.", cached, prior)
	if cached == 0 {
		copies = fmt.Sprintf("None of the buffer's lines is in the CPU caches (%s), so no cached copy goes stale.", prior)
	}
	r.step(r.m.Now(), "Trace arrives",
		fmt.Sprintf("The session starts with RRP = RWP = base. The ETR writes %s of trace (%s of the %s buffer) by DMA at %.0f MB/s. It is not coherent: its writes go to DRAM and leave the CPU caches as they are. %s",
			bytes(r.c.written), lapsText(r.c.laps), bytes(r.c.size), r.c.rate/1e6, copies))
}

// narrateStop adds the stop step; a policy that calls no sync has its
// sync text there too (nothing on the stage would change under a step of
// its own).
func (r *run) narrateStop(p path) {
	full := "not set, so the data runs from RRP to RWP"
	if p.ptr.Full {
		full = "set, so the whole buffer holds data and the oldest byte is at RWP"
	}
	r.step(r.m.Now(), "Stop and read the pointers",
		fmt.Sprintf("tmc_update_etr_buffer stops the ETR (flush and stop), then reads RRP = base+%#x, RWP = base+%#x and STS.FULL, which is %s: offset = RRP - base = %#x, length = %s. The data %s.%s",
			p.ptr.RRP, p.ptr.RWP, full, p.window.Offset, bytes(p.window.Len), wrapWords(p.window, r.c.size), noSyncText(r, p)))
}

// noSyncText is the stop step's closing sentence when the policy calls
// no sync ("" when it does: the sync has a step of its own).
func noSyncText(r *run, p path) string {
	if len(p.syncs) != 0 {
		return ""
	}
	return " " + r.syncText(p)
}

func wrapWords(w Window, size uint64) string {
	if w.Len == 0 {
		return "is empty: nothing to copy"
	}
	if w.Wraps(size) {
		return fmt.Sprintf("wraps: the tail part [%#x, %#x) then the head part [0, %#x)", w.Offset, size, w.Offset+w.Len-size)
	}
	return fmt.Sprintf("is one range [%#x, %#x)", w.Offset, w.Offset+w.Len)
}

// narrateSync adds the step of a policy's dma_sync_single_for_cpu calls.
func (r *run) narrateSync(p path) { r.step(r.m.Now(), "Sync for the CPU", r.syncText(p)) }

// syncText says what the policy's sync does, or that there is none.
func (r *run) syncText(p path) string {
	var text string
	switch {
	case r.pol.NC:
		text = "Nothing to sync: the buffer came from dma_alloc_coherent, cleaned and invalidated once and zeroed through the Normal-NC alias, and the CPU reads it only through that alias, which never allocates in the caches."
	case len(p.syncs) == 0 && p.window.Len == 0:
		text = "No data, no sync."
	case len(p.syncs) == 0:
		text = "The driver does not call dma_sync_single_for_cpu (bug): any line of the buffer still in the caches keeps the data it had before the ETR wrote."
	default:
		var synced uint64
		for _, s := range p.syncs {
			synced += s.Len
		}
		text = fmt.Sprintf("dma_sync_single_for_cpu %s: DC IVAC on each of its %d lines (DC CIVAC on a partial first or last line), many in flight, then DSB SY waits for all of them. Cached copies are dropped, so the copy will fetch what the ETR wrote.",
			syncWords(p.syncs), synced/r.m.LineBytes())
		if r.pol.ID == WrongWrap && p.window.Wraps(r.c.size) {
			text += fmt.Sprintf(" But the data wraps and only [%#x, %#x) was synced: the head part [0, %#x) keeps whatever the caches hold (bug).",
				p.window.Offset, r.c.size, p.window.Offset+p.window.Len-r.c.size)
		}
	}
	return text
}

func syncWords(rs []Range) string {
	s := ""
	for i, rg := range rs {
		if i > 0 {
			s += ", then "
		}
		s += fmt.Sprintf("over [%#x, %#x)", rg.Off, rg.End())
	}
	return s
}

func (r *run) narrateCopy(p path) {
	how := fmt.Sprintf("Each %d-byte load looks in the caches first; a miss fills the whole line from DRAM and the prefetcher runs ahead into L2, so the copy moves at cached speed (and a line still cached from before the ETR wrote is read as it is).", r.c.width)
	if r.pol.NC {
		how = fmt.Sprintf("Each %d-byte load through the Normal-NC alias is its own bus read to DRAM: no line fill, no prefetch, only a few in flight.", r.c.width)
	}
	trunc := ""
	if p.take.Truncated {
		trunc = fmt.Sprintf(" The AUX ring has only %s free, so only the newest %s are kept (from offset %#x) and the record is marked TRUNCATED; %s of the oldest trace are dropped.",
			bytes(r.ring.Space()), bytes(p.take.Len), p.take.Offset, bytes(p.take.Dropped))
	}
	r.step(r.m.Now(), "Copy to the AUX ring",
		fmt.Sprintf("tmc_etr_sync_perf_buffer copies %s page by page into the perf AUX ring at its head. %s%s", bytes(p.take.Len), how, trunc))
}

func (r *run) narrateResult(p path, stale, lost float64) {
	verdict := "Every byte of trace reached the AUX ring as the ETR wrote it."
	if stale > 0 || lost > 0 {
		verdict = fmt.Sprintf("The CPU read %s of stale data and %s of trace reached the AUX ring wrong: the red, hatched lines on the buffer grid, listed as hazards.",
			bytes(uint64(stale)), bytes(uint64(lost)))
		if !r.pol.Bug && r.wroteBack() {
			verdict += " This is not a bug policy: the driver syncs every byte for the CPU, yet DC IVAC (which cleans a dirty line on this core) wrote a dirty line of the buffer back over new trace, a line the driver itself dirtied through the cacheable mapping and never gave back to the device. Syncing it for the device (cached-sync-for-cpu-and-device) is the fix."
		}
	} else if r.prevBarrier && !p.prevBarrierHeld && !r.pol.Bug {
		verdict += fmt.Sprintf(" The previous session's barrier packet (offset %#x) left a dirty line that nothing synced for the device, but it was no longer cached when this session's sync ran (the copy's fills evicted it, writing it back while the ETR was stopped), so nothing was lost this time; with a buffer that stays in the caches (try 1 MiB) DC IVAC writes it back over new trace.",
			r.prevBarrierAt)
	}
	r.step(p.end, "Result",
		fmt.Sprintf("tmc_update_etr_buffer took %.1f us: stop %.1f us, sync %.1f us, copy %.1f us (%s at %.0f MB/s). %s",
			(p.end-p.start).Microseconds(), (p.stopped-p.start).Microseconds(), (p.synced-p.stopped).Microseconds(),
			(p.end-p.barriered).Microseconds(), bytes(p.take.Len), mbps(p.take.Len, p.end-p.barriered), verdict))
}

// lapsText is a number of laps of the ring: "1 lap", "0.25 laps".
func lapsText(l float64) string {
	if l == 1 {
		return "1 lap"
	}
	return fmt.Sprintf("%.3g laps", l)
}

// allocWords says what the policy's allocation left of the buffer in the
// caches.
func (r *run) allocWords() string {
	n := 0
	for _, d := range r.zeroDirty {
		if d {
			n++
		}
	}
	switch {
	case r.pol.NC:
		return "nothing, dma_alloc_coherent cleaned and invalidated the lines and zeroed the buffer through the Normal-NC alias"
	case n > 0:
		return fmt.Sprintf("%d dirty zero lines, as dma_alloc_noncoherent zeroes the buffer through the cacheable mapping (DC ZVA, until write streaming takes over) and nothing cleans them before the ETR writes", n)
	case r.pol.Alloc == AllocPagesMapped:
		return "clean zero lines at most: alloc_pages(__GFP_ZERO) zeroed the pages through the cacheable mapping and dma_map_page cleaned them (DC CVAC)"
	}
	return "no dirty line: the driver synced the zeroed buffer for the device"
}

// wroteBack reports whether a dirty CPU line was written back over the
// trace of this session (a hazard the machine detected on the buffer).
func (r *run) wroteBack() bool {
	for _, e := range r.m.Hazards() {
		if e.T >= r.path.start {
			if _, ok := r.writeBackCause(hwview.HazardOf(e)); ok {
				return true
			}
		}
	}
	return false
}
