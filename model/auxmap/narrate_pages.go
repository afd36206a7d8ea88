package auxmap

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/platform"
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
		in := "session "
		if len(who[v]) > 1 {
			in = "sessions "
		}
		parts[i] = fmt.Sprintf("%s in %s%s", count(float64(v)), in, strings.Join(who[v], ", "))
	}
	return strings.Join(parts, "; ")
}

// pageSteps explain the 4 KiB-PTE figure: the averaged per-page figure
// and why it is below 1, then (TRBE, when the sessions differ) the
// sessions it averages and why they differ.
func (r *run) pageSteps(t counts, pages, groups, entries int) []scenario.Step {
	n := float64(max(1, len(r.iters)))
	head := ""
	if r.c.unit == TRBE {
		head = fmt.Sprintf("vmap built %s PTEs of 4 KiB and TRBE writes them all every session, yet l2d_tlb_refill averages %s per iteration "+
			"over the %d sessions (the table's figure): %.2f refills per page, not 1. ",
			count(float64(r.vmap.Pages)), count(float64(t.l2Refill)/n), len(r.iters), r.perPage(t, pages))
	} else {
		head = fmt.Sprintf("vmap built %s PTEs of 4 KiB. SPE writes %s of sample records per iteration, and its own walks (walks_by_trace_unit) "+
			"average %s: %.2f walks per page it writes, not 1. ", count(float64(r.vmap.Pages)), r.speWritten(t), count(float64(t.traceWalks)/n), r.perPage(t, pages))
	}
	if r.mmu.L2.Config().Coalesce == 0 {
		return []scenario.Step{{Title: "4 KiB PTEs: one entry per page", Text: head +
			"This preset's L2 TLB does not coalesce pages (none is documented for its core), so each 4 KiB page written needs an L2 TLB entry and a walk of its own."}}
	}
	steps := []scenario.Step{{Title: "4 KiB PTEs: 1 to 4 pages per entry", Text: head +
		"The A76/N1 L2 TLB holds an aligned 16 KiB VA group in one coalesced entry when its PTEs map consecutive physical pages " +
		"(not necessarily 16 KiB aligned); pages that entry does not cover get 4 KiB entries."}}
	if r.policy == Order0 {
		steps = append(steps, scenario.Step{Title: "Where consecutive order-0 pages come from", Text: fmt.Sprintf(
			"Order-0 pages split from a free block of order 2 or more come out consecutive; those from scattered order-0 and order-1 free "+
				"blocks do not (fragmentation %g: that share of the %s of free memory is below 4 MiB, each order holding %g times the one below; "+
				"memory size and ratio are assumed). In the last simulated session %s of the %s groups are wholly consecutive.",
			r.c.frag, scenario.FormatBytes(int64(r.c.hw.MemBytes)), r.c.ratio, count(float64(groups)), count(float64(pages/4)))})
	}
	if r.c.unit != TRBE || len(r.iters) < 3 || r.iters[1].l2Refill == r.iters[2].l2Refill {
		return steps
	}
	text := fmt.Sprintf("l2d_tlb_refill per session: %s (the table shows the mean). ", r.sessions())
	if r.policy == Order0 {
		text += "rb_free_aux frees page by page; freed pages merge with free buddies and the free lists hand back the last freed first, " +
			"so each session gets the last one's frames in another order, and from session 2 on the lists alternate. "
	}
	text += fmt.Sprintf("(%d simulated, the last two repeated; the last needs %s entries per pass.)",
		r.simulated, count(float64(entries)))
	return append(steps, scenario.Step{Title: "Why the sessions differ", Text: text})
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
func (r *run) contiguityStep(t counts, pages int) scenario.Step {
	n := float64(max(1, len(r.iters)))
	text := fmt.Sprintf("The chunks are contiguous (%d), but vmap maps them page by page: at most four pages per L2 TLB entry, never a large mapping's 16 or 512. ",
		len(r.buf.Chunks))
	if r.mmu.L2.Config().Coalesce == 0 {
		return scenario.Step{Title: "Contiguity without large vmap", Text: text +
			"This preset's L2 TLB does not coalesce, so contiguity buys nothing: the refills stay at the order-0 level. This is the earlier SPE attempt " +
			"that changed nothing: \"we're vmapping pages individually anyway\"."}
	}
	walks := float64(t.traceWalks) / n
	if r.c.unit == TRBE {
		text += fmt.Sprintf("TRBE's walks are nearly all of l2d_tlb_refill, so it shows: %s walks per iteration, a floor of %s (a quarter of "+
			"the pages) plus up to two per group a chunk boundary cuts. Without coalescing (C1-Ultra class) it buys nothing: the earlier SPE "+
			"attempt's \"we're vmapping pages individually anyway\".",
			count(walks), count(float64(pages/4)))
	} else {
		text += fmt.Sprintf("SPE writes %s per iteration, so its walks (%s per iteration) are %.1f %% of l2d_tlb_refill (%s); the rest is dd's own "+
			"code and buffer pages, which the policy does not touch. Contiguity cuts SPE's part by at most four: the earlier SPE attempt's "+
			"\"we're vmapping pages individually anyway\".",
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
func (r *run) platformStep(unit string) scenario.Step {
	title := "Which core: N1 L2 TLB, C1-Ultra trace TLB"
	if r.c.preset != DefaultPreset {
		co := "does not coalesce pages (none is documented for its core)"
		if r.mmu.L2.Config().Coalesce > 0 {
			co = "coalesces up to four physically consecutive 4 KiB pages per entry"
		}
		return scenario.Step{Title: "Which core", Text: r.lacksWords() + fmt.Sprintf("Preset %s: its L2 TLB has %d entries and %s; %s's one-entry L1 TLB refills from it "+
			"(the C1-Ultra TRM's design, assumed for every preset). %s; the before figure is calibrated on the default preset, %s: "+
			"the fragmentation is fitted so that its L2 TLB gives it. Here that fragmentation gives a prediction.",
			r.c.preset, r.mmu.L2.Config().Entries, co, unit, r.figureWords(), DefaultPreset)}
	}
	tail := ": every page written would need its own refill"
	if r.c.unit == TRBE {
		tail = ": 1 refill per page, not the published 0.62"
	}
	calibrated := fmt.Sprintf(" Its before figure is calibrated: the fragmentation is fitted to it, given the assumed %s of memory and "+
		"free-memory shape.", scenario.FormatBytes(int64(r.c.hw.MemBytes)))
	if r.c.unit == SPE {
		calibrated = "" // no SPE figure: figureWords says so
	}
	lack := "TRBE is Armv9, which Neoverse N1 lacks"
	if r.c.unit == SPE {
		lack = "SPE's one-entry L1 TLB is documented for C1-Ultra, not Neoverse N1"
	}
	return scenario.Step{Title: title, Text: fmt.Sprintf("%s. %s, so the default (%s) pairs an "+
		"A76/N1-class L2 TLB (%d entries, %d-way, coalescing up to four consecutive pages: A76 TRM) with a one-entry %s L1 TLB, assumed after "+
		"the C1-Ultra TRM.%s A C1-Ultra-class preset alone (dimensity-9500) documents no coalescing%s.",
		r.figureWords(), lack, DefaultPreset, r.mmu.L2.Config().Entries, r.mmu.L2.Config().Ways, unit, calibrated, tail)}
}

// lacksWords says, on a preset whose core has no such trace unit, that
// the run is a what-if: the unit writing through this core's TLBs.
func (r *run) lacksWords() string {
	name := "TRBE"
	if r.c.unit == SPE {
		name = "SPE"
	}
	has, source := platform.TraceUnit(r.c.preset, name)
	if has {
		return ""
	}
	return fmt.Sprintf("%s's core has no %s (%s): this run is a what-if, %s writing through this core's TLBs. ", r.c.preset, name, source, name)
}

// figureWords says which published figure the default platform answers:
// TRBE's, whose platform is not named; SPE has none of its own.
func (r *run) figureWords() string {
	if r.c.unit == SPE {
		return "No SPE figure is published; the platform is the one chosen for trbe-aux's TRBE figure, whose platform is not named"
	}
	return "The published TRBE figure's platform is not named"
}

// speWritten is what SPE writes per iteration, in words.
func (r *run) speWritten(t counts) string {
	b := float64(t.traceTranslations) / float64(max(1, len(r.iters))) * float64(r.c.burst)
	return fmt.Sprintf("about %.1f MiB", b/(1<<20))
}
