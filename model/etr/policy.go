package etr

import (
	"fmt"
	"strings"
)

// PolicyID names one way of getting the trace out of the ETR buffer.
type PolicyID string

// The policies. Coherent and SyncBoth are correct everywhere; TwoChunks
// (the patch as posted; v1 and v3 allocate this way) and WholeWhenFull
// (as merged) are correct for the trace the ETR wrote, but their
// cacheable barrier packet can later be written back over new trace (see
// TestBarrierLineWrittenBack), and the merged form's dma_alloc_noncoherent
// leaves its zero-fill dirty in the cache for the first session (see
// TestAllocationZeroesWrittenBack); NoSync and WrongWrap are the bugs
// kept for teaching.
const (
	Coherent      PolicyID = "coherent"
	TwoChunks     PolicyID = "cached-sync-two-chunks"
	WholeWhenFull PolicyID = "cached-sync-whole-when-full"
	SyncBoth      PolicyID = "cached-sync-for-cpu-and-device"
	NoSync        PolicyID = "cached-no-sync"
	WrongWrap     PolicyID = "cached-wrong-wrap-sync"
)

// Alloc is how tmc_etr_alloc_flat_buf gets the buffer.
type Alloc uint8

const (
	// AllocCoherent is dma_alloc_coherent: the linear alias cleaned and
	// invalidated, then zeroed through the Normal-NC alias (the driver
	// before the patch).
	AllocCoherent Alloc = iota
	// AllocNoncoherent is dma_alloc_noncoherent(DMA_FROM_DEVICE), as
	// merged (commit 0abd076217a3, the series' v4): zeroed through the
	// cacheable map and not cleaned, so zero lines stay dirty in the cache.
	AllocNoncoherent
	// AllocPagesMapped is the patch's v1 and v3: alloc_pages(__GFP_ZERO)
	// then dma_map_page(DMA_FROM_DEVICE), whose arch_sync_dma_for_device
	// cleans every line (DC CVAC): the zero lines are written back and
	// left clean before the ETR starts.
	AllocPagesMapped
)

// Policy is how the driver allocates the ETR buffer and makes the device's
// data visible to the CPU before the copy. It is data plus one function:
// the dma_sync_single_for_cpu calls the driver makes for a data window.
type Policy struct {
	ID    PolicyID
	Title string
	Help  string
	Bug   bool
	// NC says the CPU reads the buffer through dma_alloc_coherent's
	// Normal-NC alias (no cache allocation, so nothing to sync); otherwise
	// through the cacheable linear map. Invariant: NC == (Alloc == AllocCoherent).
	NC    bool
	Alloc Alloc
	// Syncs returns the ranges of the buffer (size bytes) the driver passes
	// to dma_sync_single_for_cpu, in call order, for the window it read
	// from the pointers. Each call is DC IVAC per line (DC CIVAC on a
	// partial first or last line) and one DSB SY.
	Syncs func(w Window, size uint64) []Range
	// SyncForDevice: the driver calls dma_sync_single_for_device over the
	// whole buffer once after allocating it (before the ETR first writes
	// it) and over the barrier packet after writing it (before the ETR
	// restarts), so no dirty line of the buffer is left in the cache
	// while the ETR writes.
	SyncForDevice bool
}

var policies = []Policy{
	{ID: Coherent, Title: "coherent (Normal-NC)", NC: true, Alloc: AllocCoherent,
		Help:  "dma_alloc_coherent: the CPU copies through a Normal-NC alias, every load its own DRAM read; nothing to sync, always correct",
		Syncs: func(Window, uint64) []Range { return nil }},
	{ID: TwoChunks, Title: "cacheable + sync, two chunks on wrap", Alloc: AllocPagesMapped,
		Help:  "the patch as posted (v1, v3): alloc_pages(__GFP_ZERO) + dma_map_page(DMA_FROM_DEVICE), which cleans the zeroed lines, then dma_sync_single_for_cpu over the data; on a wrap two calls, the tail [offset, size) then the head [0, offset+len-size)",
		Syncs: func(w Window, size uint64) []Range { return w.Chunks(size) }},
	{ID: WholeWhenFull, Title: "cacheable + sync, whole buffer on wrap", Alloc: AllocNoncoherent,
		Help:  "as merged: dma_alloc_noncoherent (zeroed through the cache, never cleaned) + dma_sync_single_for_cpu over [offset, offset+len), or over the whole buffer in one call when the data wraps (which implies FULL)",
		Syncs: syncWholeWhenFull},
	{ID: SyncBoth, Title: "cacheable + sync for CPU and device", Alloc: AllocNoncoherent,
		Help:  "the merged form plus dma_sync_single_for_device: over the whole buffer once after dma_alloc_noncoherent (its zero lines are cleaned before the ETR writes) and over the barrier packet after writing it, so no dirty line can ever be written back over new trace",
		Syncs: syncWholeWhenFull, SyncForDevice: true},
	{ID: NoSync, Title: "cacheable, no sync (bug)", Bug: true, Alloc: AllocNoncoherent,
		Help:  "cacheable buffer without dma_sync_single_for_cpu: lines the CPU cached before the ETR wrote them are read stale",
		Syncs: func(Window, uint64) []Range { return nil }},
	{ID: WrongWrap, Title: "cacheable, wrap-blind sync (bug)", Bug: true, Alloc: AllocNoncoherent,
		Help:  "syncs only [offset, offset+len) clipped at the end of the buffer: on a wrap the head part [0, offset+len-size) stays stale",
		Syncs: syncWrongWrap},
}

// syncWholeWhenFull is tmc_etr_sync_flat_buf as merged: the driver always
// starts at the base, so a wrap only happens when the buffer is full, and
// then the whole buffer is synced in one go.
func syncWholeWhenFull(w Window, size uint64) []Range {
	if w.Len == 0 {
		return nil
	}
	if w.Wraps(size) {
		return []Range{{0, size}}
	}
	return []Range{{w.Offset, w.Len}}
}

func syncWrongWrap(w Window, size uint64) []Range {
	if w.Len == 0 {
		return nil
	}
	return []Range{{w.Offset, min(w.Len, size-w.Offset)}}
}

// Policies returns every policy in declaration order.
func Policies() []Policy { return append([]Policy(nil), policies...) }

// LookupPolicy returns the policy with the given id, or an error naming
// the known ones.
func LookupPolicy(id string) (*Policy, error) {
	ids := make([]string, len(policies))
	for i := range policies {
		if string(policies[i].ID) == id {
			p := policies[i]
			return &p, nil
		}
		ids[i] = string(policies[i].ID)
	}
	return nil, fmt.Errorf("policy %q is not one of %s for scenario etr", id, strings.Join(ids, ", "))
}
