// Package trace writes runs as Chrome trace-event JSON, the format
// ui.perfetto.dev and chrome://tracing open: each side (A, B) is a process,
// each agent that did work (the CPU, the ETR, a DMA device, the API calls)
// a thread whose operations are complete ("X") slices, and the recorded
// values (pointers, gauges) and the bytes each kind of cell update touched
// so far are counter ("C") tracks. Timestamps are simulated time in
// microseconds with three decimals (nanosecond resolution; displayTimeUnit
// is "ns"). The package is pure Go so the CLI and the page's "Download
// trace" share it.
//
// A side writes at most MaxEvents events: when its slices or counter
// samples would exceed their share, consecutive slices of a track are
// merged (the merged slice spans them, its args give the count and the
// busy time) and counter samples are thinned to the last value per time
// bucket. The metadata says whether and how a side was aggregated.
package trace

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// MaxEvents bounds the events written per side.
const MaxEvents = 100_000

// Meta describes the run for the trace's metadata.
type Meta struct {
	Scenario string
	Title    string
	// Params are the run's parameters in the spec's order, canonical text.
	Params [][2]string
}

// event is one trace event. Fields are written in this order, so the
// output is byte-stable.
type event struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   json.Number    `json:"ts"`
	Dur  *json.Number   `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// ns is simulated time rounded to whole nanoseconds.
func ns(t sim.Time) int64 { return int64(math.Round(float64(t) / float64(sim.Nanosecond))) }

// us prints n nanoseconds as microseconds with three decimals.
func us(n int64) json.Number {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n/1000, 10) + "." + strconv.FormatInt(1000+n%1000, 10)[1:]
	if neg {
		s = "-" + s
	}
	return json.Number(s)
}

// SideInfo is what the metadata says about one side.
type SideInfo struct {
	Pid        int                `json:"pid"`
	Side       string             `json:"side"`
	Policy     string             `json:"policy"`
	EndUS      json.Number        `json:"end_us"`
	Events     int                `json:"events"`
	Aggregated bool               `json:"aggregated"`
	Note       string             `json:"aggregation,omitempty"`
	PMU        map[string]float64 `json:"pmu_totals"`
}

// Write writes the trace of sides (A first) to w.
func Write(w io.Writer, meta Meta, sides ...*scenario.Result) error {
	var all []event
	var infos []SideInfo
	for i, r := range sides {
		if r == nil {
			continue
		}
		evs, info := side(i+1, string(rune('A'+i)), r, MaxEvents)
		all = append(all, evs...)
		infos = append(infos, info)
	}
	params := map[string]string{}
	for _, p := range meta.Params {
		params[p[0]] = p[1]
	}
	doc := struct {
		TraceEvents     []event        `json:"traceEvents"`
		DisplayTimeUnit string         `json:"displayTimeUnit"`
		Metadata        map[string]any `json:"metadata"`
	}{all, "ns", map[string]any{
		"generator":           "dmaviz",
		"scenario":            meta.Scenario,
		"title":               meta.Title,
		"params":              params,
		"time":                "simulated; ts and dur in microseconds, three decimals (ns resolution)",
		"max_events_per_side": MaxEvents,
		"sides":               infos,
	}}
	b := bufio.NewWriter(w)
	enc := json.NewEncoder(b)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return b.Flush()
}

// side returns one side's events: process and thread names, slices, then
// counters.
func side(pid int, label string, r *scenario.Result, budget int) ([]event, SideInfo) {
	info := SideInfo{Pid: pid, Side: label, Policy: r.Policy, EndUS: us(ns(r.End)), PMU: map[string]float64{}}
	for _, m := range r.Metrics {
		if m.Group == "pmu" {
			info.PMU[m.Name] = scenario.Finite(m.Value)
		}
	}
	evs := []event{
		{Name: "process_name", Ph: "M", Ts: "0", Pid: pid, Args: map[string]any{"name": label + ": " + r.Policy}},
		{Name: "process_sort_index", Ph: "M", Ts: "0", Pid: pid, Args: map[string]any{"sort_index": pid}},
		{Name: "process_labels", Ph: "M", Ts: "0", Pid: pid, Args: map[string]any{"labels": r.Scenario + " " + r.Preset}},
	}
	tl := r.Timeline
	if tl == nil {
		info.Events = len(evs)
		return evs, info
	}
	// Tracks in order of first appearance: deterministic, and the order
	// the scenario recorded its agents in.
	tids := map[string]int{}
	var lanes []string
	byLane := map[string][]timeline.Phase{}
	for _, p := range tl.Phases {
		if _, ok := tids[p.Lane]; !ok {
			tids[p.Lane] = len(lanes) + 1
			lanes = append(lanes, p.Lane)
		}
		byLane[p.Lane] = append(byLane[p.Lane], p)
	}
	for _, l := range lanes {
		evs = append(evs,
			event{Name: "thread_name", Ph: "M", Ts: "0", Pid: pid, Tid: tids[l], Args: map[string]any{"name": l}},
			event{Name: "thread_sort_index", Ph: "M", Ts: "0", Pid: pid, Tid: tids[l], Args: map[string]any{"sort_index": tids[l]}})
	}
	counters := counterSeries(tl)
	samples := 0
	for _, c := range counters {
		samples += len(c.points)
	}
	// Half the budget for slices, half for counters, each side of the
	// split free to use what the other leaves.
	room := budget - len(evs)
	sliceRoom := max(room/2, room-samples)
	slices := 0
	for _, l := range lanes {
		slices += len(byLane[l])
	}
	var notes []string
	for _, l := range lanes {
		ps := byLane[l]
		group := 1
		if slices > sliceRoom {
			share := max(sliceRoom*len(ps)/slices, 1)
			group = (len(ps) + share - 1) / share
		}
		if group > 1 {
			info.Aggregated = true
			notes = append(notes, l+": "+strconv.Itoa(group)+" consecutive operations per slice")
		}
		evs = appendSlices(evs, pid, tids[l], ps, group)
	}
	shares := fairShares(counters, budget-len(evs))
	for ci, c := range counters {
		pts := c.points
		if len(pts) > shares[ci] {
			pts = thin(pts, shares[ci], ns(tl.End))
			info.Aggregated = true
			notes = append(notes, c.name+": thinned to the last value per time bucket")
		}
		for _, p := range pts {
			evs = append(evs, event{Name: c.name, Cat: c.cat, Ph: "C", Ts: us(p.t), Pid: pid, Args: map[string]any{"value": p.v}})
		}
	}
	for i, n := range notes {
		if i > 0 {
			info.Note += "; "
		}
		info.Note += n
	}
	info.Events = len(evs)
	return evs, info
}

// appendSlices writes a track's phases as X events, group consecutive
// phases per slice.
func appendSlices(evs []event, pid, tid int, ps []timeline.Phase, group int) []event {
	for i := 0; i < len(ps); i += group {
		j := min(i+group, len(ps))
		start, end := ns(ps[i].Start), ns(ps[j-1].End)
		if end < start {
			end = start
		}
		d := us(end - start)
		e := event{Name: ps[i].Label, Cat: ps[i].Kind, Ph: "X", Ts: us(start), Dur: &d, Pid: pid, Tid: tid,
			Args: map[string]any{"kind": ps[i].Kind}}
		if j-i > 1 {
			var busy int64
			kinds := map[string]bool{}
			for _, p := range ps[i:j] {
				busy += ns(p.End) - ns(p.Start)
				kinds[p.Kind] = true
			}
			e.Name = strconv.Itoa(j-i) + " operations (aggregated)"
			e.Cat = "aggregated"
			e.Args = map[string]any{"count": j - i, "busy_us": us(busy), "first": ps[i].Label, "last": ps[j-1].Label, "kinds": len(kinds)}
		}
		evs = append(evs, e)
	}
	return evs
}

// fairShares splits room samples among the counters: a counter that needs
// less than an equal share keeps all its samples, and what it leaves goes
// to the others (at least two samples each: the first and the last).
func fairShares(cs []series, room int) []int {
	shares := make([]int, len(cs))
	left := make([]int, 0, len(cs))
	for i := range cs {
		left = append(left, i)
	}
	for len(left) > 0 {
		equal := max(room/len(left), 2)
		var next []int
		for _, i := range left {
			if n := len(cs[i].points); n <= equal {
				shares[i] = n
				room -= n
			} else {
				next = append(next, i)
			}
		}
		if len(next) == len(left) {
			for _, i := range next {
				shares[i] = equal
			}
			break
		}
		left = next
	}
	return shares
}
