package auxmap

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// Per-page narration of the 4 KiB-PTE policies: the averaged figure the
// metrics table shows, the sessions it averages, and why they differ.

// perPage is the per-page figure the narration quotes: for TRBE, which
// writes the whole buffer each session, l2d_tlb_refill per iteration (the
// metric) over the buffer's pages; for SPE, its own walks per iteration
// (walks_by_trace_unit) over the pages it writes in one.
func (r *run) perPage(t counts, pages int) float64 {
	n := float64(max(1, len(r.iters)))
	if r.c.unit == TRBE {
		return float64(t.l2Refill) / n / float64(max(1, pages))
	}
	written := float64(t.traceTranslations) / n * float64(r.c.burst) / 4096
	return float64(t.traceWalks) / n / max(1, written)
}

// sessions lists each distinct per-session l2d_tlb_refill count with the
// sessions (1-based) that saw it, in order of first appearance.
func (r *run) sessions() string {
	var vals []uint64
	who := map[uint64][]string{}
	for i, it := range r.iters {
		v := it.l2Refill
		if _, ok := who[v]; !ok {
			vals = append(vals, v)
		}
		who[v] = append(who[v], fmt.Sprint(i+1))
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprintf("%s in session %s", count(float64(v)), strings.Join(who[v], ", "))
	}
	return strings.Join(parts, "; ")
}

// pageStep explains the 4 KiB-PTE figure.
func (r *run) pageStep(t counts, unit string, pages int) scenario.Step {
	n := float64(max(1, len(r.iters)))
	head := fmt.Sprintf("vmap built %d PTEs of 4 KiB. ", r.vmap.Pages)
	if r.c.unit == TRBE {
		head += fmt.Sprintf("TRBE writes all %d pages every session, yet l2d_tlb_refill averages %s per iteration over the %d sessions (the metrics table's figure): "+
			"%.2f refills per page, not 1. Per session it is %s. ",
			pages, count(float64(t.l2Refill)/n), len(r.iters), r.perPage(t, pages), r.sessions())
	} else {
		head += fmt.Sprintf("SPE writes %s of sample records per iteration, and its own walks (walks_by_trace_unit) average %s: "+
			"%.2f walks per page it writes, not 1. ", r.speWritten(t), count(float64(t.traceWalks)/n), r.perPage(t, pages))
	}
	if r.mmu.L2.Config().Coalesce == 0 {
		return scenario.Step{Title: "4 KiB PTEs: one entry per page", Text: head +
			"This preset's L2 TLB does not coalesce pages (none is documented for its core), so each 4 KiB page written needs an L2 TLB entry and a walk of its own."}
	}
	text := head + "The Cortex-A76 / Neoverse N1 L2 TLB folds the pages of an aligned 16 KiB VA group into one coalesced entry when their PTEs map " +
		"physically consecutive pages (its entry holds a PA, a coalesced bit and four valid bits; the PA need not be 16 KiB aligned): " +
		"a page whose group already has a coalesced entry without it gets a 4 KiB entry of its own. With order-0 pages the share of " +
		"consecutive pages comes from how the buddy allocator hands them out: split from a free block of order 2 or more they come out in a row; " +
		fmt.Sprintf("taken from the scattered order-0 and order-1 free blocks of fragmented memory (fragmentation %.2f: that share of free memory "+
			"in blocks below 4 MiB, spread evenly over the orders) they do not.", r.c.frag)
	if r.c.unit == TRBE && r.policy == Order0 && len(r.iters) > 2 && r.iters[1].l2Refill != r.iters[2].l2Refill {
		text += " The sessions differ because each one's page list depends on how the last one was freed: rb_free_aux frees the buffer page by page " +
			"in list order, each freed page merges with a free buddy, and the free lists hand out the blocks freed last first, splitting merged ones " +
			"into consecutive pages. So session 2 gets session 1's frames in another order and session 3 in yet another; from then on the free lists " +
			"come back to the same state every second session, so the page lists alternate (the model simulates three sessions and repeats the " +
			"last two in turn; a test checks that against simulating every session)."
	}
	text += fmt.Sprintf(" The last simulated session's buffer has %d of %d groups wholly consecutive and needs %d entries for one pass.",
		r.coalescable(), pages/4, r.entriesPerPass())
	return scenario.Step{Title: "4 KiB PTEs: one entry per page, or per four", Text: text}
}

// count prints v with thousands separators and, when it is not whole,
// one decimal (161,468.2).
func count(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	if strings.HasSuffix(s, ".0") {
		s = s[:len(s)-2]
	}
	whole, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(whole, "-")
	whole = strings.TrimPrefix(whole, "-")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// contiguityStep explains prefer-large-4k-vmap: contiguity without large
// vmap buys at most the L2 TLB's four-page coalescing, which shows for
// TRBE (its walks are nearly all of l2d_tlb_refill) and not for SPE.
func (r *run) contiguityStep(t counts, unit string, pages int) scenario.Step {
	n := float64(max(1, len(r.iters)))
	text := fmt.Sprintf("The chunks are physically contiguous (%d chunks), but vmap still maps them page by page, so each page needs its own "+
		"translation: the most contiguity can buy is the L2 TLB's coalescing of four consecutive pages into one entry, never 512 pages per entry. ",
		len(r.buf.Chunks))
	if r.mmu.L2.Config().Coalesce == 0 {
		return scenario.Step{Title: "Contiguity without large vmap", Text: text +
			"This preset's L2 TLB does not coalesce, so contiguity buys nothing: the refills stay at the order-0 level. This is the earlier SPE attempt " +
			"that changed nothing: \"we're vmapping pages individually anyway\"."}
	}
	walks := float64(t.traceWalks) / n
	if r.c.unit == TRBE {
		text += fmt.Sprintf("Here that is a finding, not \"nothing changed\": TRBE writes all %d pages each session and its walks are nearly all of "+
			"l2d_tlb_refill, so with every aligned group inside a chunk consecutive it needs about one entry per four pages: %s walks per iteration, "+
			"against a floor of %d (a quarter of the pages: no entry covers more than four) plus at most two more entries for each group "+
			"a chunk boundary cuts. The order-0 policy's scattered pages are consecutive only in part, so on this core contiguity alone cuts the "+
			"refills by up to four times. On a core whose L2 TLB does not coalesce (the C1-Ultra-class preset) it cuts nothing: that is the earlier "+
			"SPE attempt that changed nothing, \"we're vmapping pages individually anyway\".", pages, count(walks), pages/4)
	} else {
		text += fmt.Sprintf("SPE writes only %s per iteration, so its walks (%s per iteration) are %.1f %% of l2d_tlb_refill (%s); the rest is dd's own "+
			"source and destination pages, order-0 pages the policy does not touch. Even a four-fold cut of SPE's part moves the total by "+
			"well under 1 %%: the earlier SPE attempt that changed nothing, \"we're vmapping pages individually anyway\".",
			r.speWritten(t), count(walks),
			100*float64(t.traceWalks)/float64(max(1, t.l2Refill)), count(float64(t.l2Refill)/n))
	}
	return scenario.Step{Title: "Contiguity without large vmap", Text: text}
}

// startOrder is the largest chunk order rb_alloc_aux tried: its max_order
// capped at the allocator's largest order (MAX_PAGE_ORDER).
func (r *run) startOrder() int { return min(r.buf.MaxOrder, r.m.Buddy().MaxOrder()) }

// platformStep says which core the run models and why: the default pairs
// an A76/N1-class L2 TLB with an assumed C1-Ultra-style one-entry L1 TLB
// for the trace unit (model/platform tlb.go keeps the sources).
func (r *run) platformStep(unit string, pages int) scenario.Step {
	title := "Which core: an N1-class L2 TLB, a C1-Ultra-style trace TLB"
	if r.c.preset != DefaultPreset {
		co := "does not coalesce pages (none is documented for its core)"
		if r.mmu.L2.Config().Coalesce > 0 {
			co = "coalesces up to four physically consecutive 4 KiB pages per entry"
		}
		return scenario.Step{Title: "Which core", Text: fmt.Sprintf("Preset %s: its L2 TLB has %d entries and %s; %s's one-entry L1 TLB refills from it "+
			"(the C1-Ultra TRM's design, assumed for every preset). The published TRBE figure's platform is not named; the default preset, %s, is the one "+
			"whose before figure follows from its documented L2 TLB.", r.c.preset, r.mmu.L2.Config().Entries, co, unit, DefaultPreset)}
	}
	tail := ""
	if r.c.unit == TRBE {
		tail = fmt.Sprintf(" (about %s per iteration for this buffer): the before figure would be 1 refill per page, not the published "+
			"figure's 0.62 (161,884.9 for 262,144 pages)", count(float64(pages)))
	}
	lack := "TRBE is an Armv9 feature a Neoverse N1 does not have"
	if r.c.unit == SPE {
		lack = "SPE's one-entry L1 TLB is documented for C1-Ultra, not for Neoverse N1"
	}
	return scenario.Step{Title: title, Text: fmt.Sprintf("The published TRBE figure's platform is not named, and no one documented core has everything: "+
		"%s. The default preset (%s) therefore pairs an A76/N1-class L2 TLB (%d entries, "+
		"%d-way, and up to four physically consecutive 4 KiB pages per entry: Cortex-A76 TRM) with a one-entry %s L1 TLB that refills from it, "+
		"assumed after the C1-Ultra TRM, the manual that documents TRBE's and SPE's one-entry TLBs. A C1-Ultra-class preset alone "+
		"(dimensity-9500) was not chosen: no coalescing is documented for its L2 TLB, so with order-0 pages every page the unit writes "+
		"would need a refill of its own%s.", lack, DefaultPreset, r.mmu.L2.Config().Entries, r.mmu.L2.Config().Ways, unit, tail)}
}

// speWritten is what SPE writes per iteration, in words.
func (r *run) speWritten(t counts) string {
	b := float64(t.traceTranslations) / float64(max(1, len(r.iters))) * float64(r.c.burst)
	return fmt.Sprintf("about %.1f MiB", b/(1<<20))
}
