package trace

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/etr"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sgsync"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
)

// parsed is a trace as a reader sees it: every field decoded loosely, so a
// missing one shows as absent rather than zero.
type parsed struct {
	TraceEvents     []map[string]any `json:"traceEvents"`
	DisplayTimeUnit string           `json:"displayTimeUnit"`
	Metadata        struct {
		Scenario string            `json:"scenario"`
		Params   map[string]string `json:"params"`
		Sides    []struct {
			Pid        int    `json:"pid"`
			Policy     string `json:"policy"`
			Events     int    `json:"events"`
			Aggregated bool   `json:"aggregated"`
			Note       string `json:"aggregation"`
		} `json:"sides"`
	} `json:"metadata"`
}

type slice struct {
	name      string
	ts, dur   float64
	pid, tid  int
	threadKey [2]int
}

// runTrace runs the scenario's default pair and returns the parsed trace
// and the two results.
func runTrace(t *testing.T, s scenario.Scenario) (*parsed, [2]*scenario.Result) {
	t.Helper()
	spec := s.Spec()
	p, err := spec.Defaults()
	require.NoError(t, err)
	var res [2]*scenario.Result
	for i, pol := range []string{spec.DefaultA, spec.DefaultB} {
		res[i], err = s.Run(t.Context(), p, pol, nil)
		require.NoError(t, err)
	}
	meta := Meta{Scenario: spec.ID, Title: spec.Title}
	for _, d := range spec.Params {
		meta.Params = append(meta.Params, [2]string{d.Name, p.Text(d.Name)})
	}
	var b bytes.Buffer
	require.NoError(t, Write(&b, meta, res[0], res[1]))
	var doc parsed
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	return &doc, res
}

// check asserts the structural rules every trace keeps and returns the
// slices by (pid, tid) and the thread names.
func check(t *testing.T, doc *parsed) (map[[2]int][]slice, map[[2]int]string) {
	t.Helper()
	assert.Equal(t, "ns", doc.DisplayTimeUnit)
	tracks := map[[2]int][]slice{}
	names := map[[2]int]string{}
	counters := map[[2]any][]float64{} // (pid, name) -> values, cumulative only
	perPid := map[int]int{}
	for _, e := range doc.TraceEvents {
		pid := int(e["pid"].(float64))
		perPid[pid]++
		switch e["ph"] {
		case "X":
			for _, k := range []string{"ph", "ts", "dur", "pid", "tid", "name"} {
				require.Contains(t, e, k, "slice %v", e)
			}
			s := slice{name: e["name"].(string), ts: e["ts"].(float64), dur: e["dur"].(float64), pid: pid, tid: int(e["tid"].(float64))}
			require.GreaterOrEqual(t, s.dur, 0.0, "%v", e)
			k := [2]int{s.pid, s.tid}
			tracks[k] = append(tracks[k], s)
		case "M":
			if e["name"] == "thread_name" {
				names[[2]int{pid, int(e["tid"].(float64))}] = e["args"].(map[string]any)["name"].(string)
			}
		case "C":
			if e["cat"] == "cumulative" {
				k := [2]any{pid, e["name"]}
				counters[k] = append(counters[k], e["args"].(map[string]any)["value"].(float64))
			}
		}
	}
	for k, ss := range tracks {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].ts < ss[j].ts })
		for i := 1; i < len(ss); i++ {
			// Three-decimal timestamps: "no overlap" to within a picosecond.
			require.LessOrEqual(t, ss[i-1].ts+ss[i-1].dur, ss[i].ts+1e-6, "track %v: %+v overlaps %+v", k, ss[i-1], ss[i])
		}
		assert.NotEmpty(t, names[k], "track %v has no name", k)
	}
	assert.NotEmpty(t, counters, "no cumulative counters")
	for k, vs := range counters {
		for i := 1; i < len(vs); i++ {
			require.GreaterOrEqual(t, vs[i], vs[i-1], "cumulative counter %v decreases", k)
		}
	}
	for pid, n := range perPid {
		assert.LessOrEqual(t, n, MaxEvents, "pid %d", pid)
	}
	return tracks, names
}

// track returns the slices of the thread named name in pid.
func track(tracks map[[2]int][]slice, names map[[2]int]string, pid int, name string) []slice {
	for k, n := range names {
		if k[0] == pid && n == name {
			return tracks[k]
		}
	}
	return nil
}

// etr: the CPU's slices are tmc_update_etr_buffer, end to end, so their
// durations add up to the update_etr_buffer_us metric.
func TestETRTrace(t *testing.T) {
	doc, res := runTrace(t, etr.New())
	tracks, names := check(t, doc)
	assert.Equal(t, "etr", doc.Metadata.Scenario)
	assert.Equal(t, "4MiB", doc.Metadata.Params["buffer"])
	require.Len(t, doc.Metadata.Sides, 2)
	assert.Equal(t, "coherent", doc.Metadata.Sides[0].Policy)
	for i, r := range res {
		cpu := track(tracks, names, i+1, "cpu")
		require.NotEmpty(t, cpu, "side %d has no cpu track", i)
		var sum float64
		for _, s := range cpu {
			sum += s.dur
		}
		want, ok := r.Metric(etr.MetricUpdate)
		require.True(t, ok)
		assert.InDelta(t, want, sum, 0.001*float64(len(cpu)), "side %d: cpu slices %.3f us, metric %.3f us", i, sum, want)
		assert.NotEmpty(t, track(tracks, names, i+1, "etr"), "side %d has no etr track", i)
	}
	// The PMU counter tracks end at the run's own counts (both count from
	// the start of tmc_update_etr_buffer).
	last := map[[2]any]float64{}
	for _, e := range doc.TraceEvents {
		if e["ph"] == "C" {
			last[[2]any{int(e["pid"].(float64)), e["name"]}] = e["args"].(map[string]any)["value"].(float64)
		}
	}
	for i, r := range res {
		n := 0
		for _, m := range r.Metrics {
			if m.Group != "pmu" {
				continue
			}
			name := "pmu: " + m.Name
			if m.Unit != "" {
				name += " (" + m.Unit + ")"
			}
			v, ok := last[[2]any{i + 1, name}]
			require.True(t, ok, "side %d has no counter track for %s", i, m.Name)
			assert.InDelta(t, m.Value, v, 1e-6*max(1, m.Value), "side %d %s", i, m.Name)
			n++
		}
		assert.Positive(t, n)
	}

	// B syncs: its CPU track has the DC IVAC batch and the DSB wait.
	var kinds []string
	for _, s := range track(tracks, names, 2, "cpu") {
		kinds = append(kinds, s.name)
	}
	assert.Contains(t, kinds, "DC IVAC per line")
	assert.Contains(t, kinds, "DSB SY")
}

// sg-sync: the api track's dma_map_sg slices add up to map_sg_us.
func TestSGSyncTrace(t *testing.T) {
	doc, res := runTrace(t, sgsync.New())
	tracks, names := check(t, doc)
	for i, r := range res {
		api := track(tracks, names, i+1, "api")
		var sum float64
		for _, s := range api {
			if s.name == "dma_map_sg" {
				sum += s.dur
			}
		}
		want, _ := r.Metric("map_sg_us")
		assert.InDelta(t, want, sum, 0.002, "side %d", i)
	}
}

// A run with more operations than the budget is aggregated into bounded
// slices that keep the busy time, and says so.
func TestAggregation(t *testing.T) {
	rec := timeline.NewRecorder()
	const n = 30000
	var busy int64
	for i := 0; i < n; i++ {
		start := sim.Time(i) * 10 * sim.Nanosecond
		rec.Phase(timeline.Phase{Lane: "cpu", Kind: "dc", Label: "DC CIVAC", Start: start, End: start + 7*sim.Nanosecond})
		busy += 7
	}
	g := rec.AddGrid(timeline.GridSpec{ID: "g", CellBytes: 64, Cells: n})
	for i := 0; i < n; i++ {
		rec.Cells(sim.Time(i)*10*sim.Nanosecond, g, i, 1, timeline.CellCopied, timeline.WriterCPU)
	}
	r := &scenario.Result{Policy: "p", End: n * 10 * sim.Nanosecond, Timeline: rec.Finish(n * 10 * sim.Nanosecond)}
	evs, info := side(1, "A", r, 2000)
	assert.LessOrEqual(t, len(evs), 2000)
	assert.True(t, info.Aggregated)
	assert.Contains(t, info.Note, "cpu: ")
	var gotBusy float64
	var last float64 = -1
	for _, e := range evs {
		switch e.Ph {
		case "X":
			require.Equal(t, "aggregated", e.Cat)
			b, err := e.Args["busy_us"].(json.Number).Float64()
			require.NoError(t, err)
			gotBusy += b
		case "C":
			v := e.Args["value"].(float64)
			require.GreaterOrEqual(t, v, last)
			last = v
		}
	}
	assert.InDelta(t, float64(busy)/1000, gotBusy, 1e-6)
	assert.Equal(t, float64(n*64), last, "the thinned counter keeps the final total")
}

func TestMicroseconds(t *testing.T) {
	assert.Equal(t, json.Number("0.000"), us(0))
	assert.Equal(t, json.Number("1.234"), us(1234))
	assert.Equal(t, json.Number("8148.320"), us(8148320))
	assert.Equal(t, json.Number("-0.005"), us(-5))
	assert.Equal(t, int64(2), ns(1500*sim.Picosecond))
}
