package scenario

import (
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// Result is everything one run of one policy produced. It is plain data:
// views, the panel and the CLI read it; nothing in it points back into the
// model.
type Result struct {
	Scenario string
	Policy   string
	Preset   string
	Seed     uint64
	// End is the simulated time at which the run finished.
	End sim.Time
	// Metrics are the figures a kernel developer would measure: durations
	// (names end in _us, values in microseconds), PMU counters under their
	// Linux event names (l1d_tlb_refill, bus_access...), model counters
	// (dc_ops, dsb_count...). Ordered as the scenario wants them shown.
	Metrics []Metric
	// Checks are correctness figures that are zero when the policy is
	// correct: at least stale_bytes and lost_bytes.
	Checks []Metric
	// Hazards locate each detected problem (a stale read, lost data).
	Hazards []Hazard
	// NoHazard, for a Bug policy whose checks are all zero, says in one
	// sentence why the bug did not bite at this setting, from what the
	// run counted (Fates); empty otherwise.
	NoHazard string
	// Fates counts what became of the cached copies the run made older
	// than memory; nil for a scenario that does not count them.
	Fates *Fates
	// Narration is the classroom commentary, ordered by time.
	Narration []Step
	// Timeline is the recorded state the player scrubs over.
	Timeline *timeline.Timeline
	// Charts answer the question a reader asks next (e.g. how the saving
	// changes with entry size). They are computed by the scenario from
	// extra model runs, not drawn from the timeline.
	Charts []Chart
}

// Chart is a small x/y line chart.
type Chart struct {
	ID     string // stable id, e.g. "saving-vs-entry-size"
	Title  string
	XLabel string // with unit, e.g. "entry size (B)"
	YLabel string // with unit, e.g. "time saved (%)"
	LogX   bool   // x axis on a log scale (sizes)
	Series []Series
	// Mark is the x value of the current setting, drawn as a marker; NaN or
	// 0 for none.
	Mark float64
	// Published are published figures drawn as points on the chart (e.g.
	// the measured time at the setting the figure was taken at).
	Published []ChartRef
	// Fixed lists the parameters the chart holds while it varies the
	// others, "name=value" (Spec.Held), so a reader sees what every point
	// shares (a 32 MiB buffer with a 4 MiB AUX area).
	Fixed []string
}

// ChartRef is one published figure on a chart, beside series Series.
type ChartRef struct {
	Series int
	X, Y   float64
	Label  string // e.g. "published 8148.32"
	Source string
}

// Series is one named line of a Chart.
type Series struct {
	Name   string
	Points []timeline.Point
}

// Metric is one named number.
type Metric struct {
	Name  string // stable id, e.g. "update_etr_buffer_us", "l2d_tlb_refill"
	Label string // human label
	Unit  string // "us", "B", "", "%", "cycles"...
	Value float64
	// Group sorts metrics into sections: "time", "pmu", "model".
	Group string
}

// Metric returns the named metric (or check) and whether it exists.
func (r *Result) Metric(name string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	for _, m := range r.Checks {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// Clean reports whether the run read no stale data and lost none: every
// check is zero and no hazard was located.
func (r *Result) Clean() bool {
	for _, m := range r.Checks {
		if m.Value != 0 {
			return false
		}
	}
	return len(r.Hazards) == 0
}

// Hazard is one detected correctness problem.
type Hazard struct {
	T    sim.Time
	Addr uint64 // physical (or IO-virtual) address of the first byte
	// AddrKind names what Addr is, e.g. "IOVA" ("": a physical address).
	AddrKind string
	Bytes    int64
	// Cause says what happened in words, e.g. "CPU read a line cached
	// before the device wrote it (no dma_sync_single_for_cpu)".
	Cause string
	Grid  int // grid index in the timeline, -1 if none
	Cell  int // first cell in that grid
}

// Step is one narration caption, attached to a point in time.
type Step struct {
	T     sim.Time
	Title string
	Text  string
}
