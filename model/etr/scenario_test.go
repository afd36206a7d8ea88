package etr

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The same parameters give the same result, timeline included.
func TestDeterministic(t *testing.T) {
	for _, pol := range []PolicyID{Coherent, WholeWhenFull, WrongWrap} {
		a := runWith(t, string(pol), ParamBuffer, "256KiB", ParamLaps, "1.7", ParamAUX, "128KiB")
		b := runWith(t, string(pol), ParamBuffer, "256KiB", ParamLaps, "1.7", ParamAUX, "128KiB")
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs differ", pol)
		}
	}
	a, b := runWith(t, string(WholeWhenFull)), runWith(t, string(WholeWhenFull))
	if !reflect.DeepEqual(a.Metrics, b.Metrics) || len(a.Timeline.Events) != len(b.Timeline.Events) {
		t.Error("default runs differ")
	}
}

// Bad parameters are errors that name the parameter, never panics.
func TestBadParams(t *testing.T) {
	s := New()
	spec := s.Spec()
	val := func(name, text string) scenario.Value {
		v, err := spec.Param(name).Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name  string
		p     scenario.Params
		field string
	}{
		{"unknown parameter", scenario.Params{"bufer": {Num: 1}}, "bufer"},
		{"reserved key", scenario.Params{"speed": {Num: 1}}, "speed"},
		{"buffer not whole pages", scenario.Params{ParamBuffer: {Num: 65537}}, ParamBuffer},
		{"buffer too small", scenario.Params{ParamBuffer: {Num: 4096}}, ParamBuffer},
		{"buffer too large", scenario.Params{ParamBuffer: {Num: 1 << 30}}, ParamBuffer},
		{"aux not power of two pages", scenario.Params{ParamAUX: {Num: 12 << 10}}, ParamAUX},
		{"aux not whole pages", scenario.Params{ParamAUX: {Num: 5000}}, ParamAUX},
		{"negative laps", scenario.Params{ParamLaps: {Num: -1}}, ParamLaps},
		{"too many laps", scenario.Params{ParamLaps: {Num: 100}}, ParamLaps},
		{"width not a choice", scenario.Params{ParamWidth: {Text: "3"}}, ParamWidth},
		{"rate zero", scenario.Params{ParamRate: {Num: 0}}, ParamRate},
		{"prior unknown", scenario.Params{ParamPrior: {Text: "warm"}}, ParamPrior},
		{"preset unknown", scenario.Params{ParamPreset: {Text: "pentium"}}, ParamPreset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Run(tc.p, string(WholeWhenFull))
			if err == nil {
				t.Fatalf("accepted: %+v", res.Metrics[0])
			}
			if !strings.HasPrefix(err.Error(), tc.field+":") {
				t.Fatalf("error %q does not name %s first", err, tc.field)
			}
		})
	}
	// 64-byte loads on a preset with 64-byte lines are fine; every choice runs.
	for _, c := range spec.Param(ParamWidth).Choices {
		if _, err := s.Run(scenario.Params{ParamWidth: {Text: c.Value}, ParamBuffer: val(ParamBuffer, "64KiB")}, string(Coherent)); err != nil {
			t.Errorf("width %s: %v", c.Value, err)
		}
	}
}

// The timeline shows the session: pointers on the buffer grid (so the
// stage draws the ring), the synced span, the AUX ring receiving pages,
// cache windows, the phases of the breakdown, narration in time order,
// and a bounded number of events at the seed's size.
func TestTimelineShowsTheSession(t *testing.T) {
	a, b := runWith(t, string(Coherent)), runWith(t, string(WholeWhenFull))
	for _, r := range []*scenario.Result{a, b} {
		tl := r.Timeline
		if len(tl.Grids) != 2 || tl.Grids[0].Cells != 65536 || tl.Grids[0].CellBytes != 64 || tl.Grids[1].CellBytes != 4096 {
			t.Fatalf("%s: grids %+v", r.Policy, tl.Grids)
		}
		if len(tl.Caches) != 2 || tl.Caches[0].ID != "l1d" || tl.Caches[1].ID != "l2" {
			t.Fatalf("%s: caches %+v", r.Policy, tl.Caches)
		}
		ptrs := map[string]int{}
		for _, v := range tl.Values {
			ptrs[v.ID] = v.Grid
		}
		if ptrs["rrp"] != 0 || ptrs["rwp"] != 0 || ptrs["full"] != 0 || ptrs["head"] != 1 || ptrs["tail"] != 1 {
			t.Fatalf("%s: values %+v", r.Policy, tl.Values)
		}
		if n := len(tl.Events); n > 400000 || len(tl.Keyframes) > scenario.MaxKeyframes {
			t.Fatalf("%s: %d events, %d keyframes", r.Policy, n, len(tl.Keyframes))
		}
		var end scenario.State
		tl.StateAt(len(tl.Events), &end)
		want := scenario.CellCopied
		if r.Policy == string(Coherent) {
			want = scenario.CellUncachedRead
		}
		for i, c := range end.Cells[0] {
			if c.State != want && !(i == 0 && c.State == scenario.CellCopied) {
				t.Fatalf("%s: cell %d is %v at the end, want %v", r.Policy, i, c.State, want)
			}
		}
		for i, c := range end.Cells[1] {
			if c.State != scenario.CellCPUWritten {
				t.Fatalf("%s: AUX page %d is %v, want cpu-written", r.Policy, i, c.State)
			}
		}
		if len(r.Narration) < 5 {
			t.Fatalf("%s: %d narration steps", r.Policy, len(r.Narration))
		}
		for i := 1; i < len(r.Narration); i++ {
			if r.Narration[i].T < r.Narration[i-1].T || r.Narration[i].Title == "" || r.Narration[i].Text == "" {
				t.Fatalf("%s: narration %+v", r.Policy, r.Narration)
			}
		}
		marks := 0
		for _, e := range tl.Events {
			if e.Kind == scenario.EvMark {
				marks++
			}
		}
		if marks != len(r.Narration) {
			t.Fatalf("%s: %d marks, %d steps", r.Policy, marks, len(r.Narration))
		}
		if r.End != tl.End || r.End <= 0 {
			t.Fatalf("%s: end %v, timeline end %v", r.Policy, r.End, tl.End)
		}
	}
	kinds := func(r *scenario.Result) map[string]bool {
		k := map[string]bool{}
		for _, p := range r.Timeline.Phases {
			k[p.Kind] = true
		}
		return k
	}
	for _, k := range []string{"dma-write", "stop", "nc-read"} {
		if !kinds(a)[k] {
			t.Errorf("coherent: no %s phase", k)
		}
	}
	for _, k := range []string{"dma-write", "stop", "invalidate", "dsb-wait", "barrier", "copy"} {
		if !kinds(b)[k] {
			t.Errorf("cacheable: no %s phase", k)
		}
	}
	// Both sides start the session at time 0 and trace for the same time
	// (within what DRAM still had queued from the previous session).
	pa, pb := a.Timeline.Phases[0], b.Timeline.Phases[0]
	if pa.Start != 0 || pb.Start != 0 || pa.Kind != "dma-write" || pb.Kind != "dma-write" || (pa.End-pb.End).Microseconds() > 1 || (pb.End-pa.End).Microseconds() > 1 {
		t.Errorf("trace phases differ: %d..%d / %d..%d", a.Timeline.Phases[0].Start, a.Timeline.Phases[0].End, b.Timeline.Phases[0].Start, b.Timeline.Phases[0].End)
	}
}

// A 64 MiB buffer is shown with several lines per cell, and stays fast
// enough to record.
func TestLargeBufferCoarseCells(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB run")
	}
	r := runWith(t, string(WholeWhenFull), ParamBuffer, "64MiB", ParamAUX, "64MiB")
	g := r.Timeline.Grids[0]
	if g.Cells != 65536 || g.CellBytes != 1024 {
		t.Fatalf("grid %+v", g)
	}
	if metric(t, r, "copied_bytes") != 64<<20 || metric(t, r, MetricStale) != 0 || metric(t, r, MetricLost) != 0 {
		t.Fatalf("copied %v stale %v lost %v", metric(t, r, "copied_bytes"), metric(t, r, MetricStale), metric(t, r, MetricLost))
	}
}
