// Command corners checks that every setting a scenario's schema allows runs
// in bounded time and memory natively: it walks each scenario's parameter
// corners (every min/max combination of its size-like parameters, the
// others at their defaults), then, from the slowest corners, tries every
// value of each choice parameter in turn, keeping the slowest (one pass of
// coordinate ascent), and runs each setting as the page does (A, then B,
// the default pair). Settings the scenario refuses are counted, not timed.
//
// Settings run one at a time and are judged by the CPU time the process
// spends on them (user and system, the collector included), which another
// program on a busy machine does not inflate as it does wall time; the wall
// time is printed beside it. It prints the worst setting of each scenario
// with both, the ratio to the scenario's default setting measured in the
// same run, and the live heap it leaves (both results held, as the page
// holds them); with -json it writes the same for cmd/benchreport, which
// times those settings in the page. It exits 1 when a worst CPU time is
// past -bound. make bench runs it; it is a benchmark-style check (one
// machine, one run), not a unit test.
//
//	go run ./cmd/corners [-bound 2s] [-scenario sg-sync] [-top 3] [-json file] [-cpuprofile f]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/dmaviz/dmaviz/cmd/internal/corners"
	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// extra are settings known to be heavy that lie inside the ranges rather
// than at a corner: the smallest entry a 64 MiB list allows (32768
// entries), which once froze the page; for smmu-bypass, whose packets are
// bounded jointly with the packet size, burst and engine rate (no corner
// of packets is allowed at its maximum), the most packets allowed at the
// default and at the heaviest mixes (64 B frames, a jumbo or a 1500 B
// frame in 64 B bursts at 100 Gbit/s; a fast engine missing in the TBU at
// a slow line rate), the nested context bank faulting on every engine
// read (engine-outside-mapping) beside 9 KiB frames in 4 KiB bursts at
// 0.1 Gbit/s, which an earlier sweep's coordinate ascent found near the
// bound and does not always reach, and 9 KiB frames in 4 KiB bursts one
// at a time (every line of them looked up in the core's caches below the
// SMMU), a sweep's worst before the lines were weighed.
var extra = map[string][]string{
	"sg-sync": {"total=64MiB&entry=2KiB&path=swiotlb&cpu=writes&direction=bidirectional&iterations=100000&entry-offset=4095"},
	"smmu-bypass": {
		"packets=152016",
		"packets=164690&packet=64&burst=64&line-rate=100&ring=4096&engine-rate=0",
		"packets=4136&packet=9216&burst=64&line-rate=100&ring=1024&engine-rate=0",
		"packets=22739&packet=1500&burst=64&line-rate=100&ring=4096&engine-rate=0",
		"packets=1571&line-rate=0.1&engine-rate=20&ws=256MiB&engine-streams=128",
		"packets=1539&line-rate=0.1&engine-rate=20&ws=16MiB&engine-streams=128",
		"packets=73150&line-rate=100&engine-rate=20&ws=256MiB&engine-streams=128&packet=64&burst=64&ring=4096",
		"engine-stage=nested&smmu-setup=engine-outside-mapping&packet=9KiB&packets=100&cpu-work=100000&burst=4KiB&engine-rate=2.16&engine-streams=128&ring=1&ws=16KiB&line-rate=0.1&flows=65536",
		"packets=61973&burst=4KiB&cpu-work=0&engine-rate=0&engine-streams=1&flows=1&line-rate=0.1&packet=9KiB&ring=1&rx-burst=1&ws=16KiB",
	},
}

func main() {
	bound := flag.Duration("bound", 2*time.Second, "fail when a scenario's worst setting takes more CPU time (A and B)")
	only := flag.String("scenario", "", "check only this scenario")
	one := flag.String("setting", "", "run only this setting (name=value&...) of -scenario")
	jsonFile := flag.String("json", "", "write each scenario's worst setting and its figures to this file (JSON)")
	top := flag.Int("top", 3, "slowest corners to start the choice search from")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the sweep")
	flag.BoolVar(&verbose, "v", false, "print every setting run")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corners:", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *one != "" {
		s, err := catalog.Registry().Get(*only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corners:", err)
			os.Exit(2)
		}
		verbose = true
		w := &sweepResult{seen: map[string]bool{}, scenario: s, spec: s.Spec()}
		w.try(strings.Split(*one, "&"))
		return
	}
	judged := "CPU time"
	if cpuTime() < 0 {
		judged = "wall time (no CPU time on this system)"
	}
	fmt.Printf("worst setting per scenario, natively (A then B, default pair, one setting at a time), judged by %s; bound %v\n", judged, *bound)
	over := false
	var worst []corners.Worst
	for _, s := range catalog.Registry().All() {
		spec := s.Spec()
		if *only != "" && spec.ID != *only {
			continue
		}
		base := (&sweepResult{seen: map[string]bool{}, scenario: s, spec: spec}).baseline()
		w := sweep(s, *top)
		r := corners.Worst{Scenario: spec.ID, Query: w.worst.query, CPU: w.worst.cpu.Seconds(), Wall: w.worst.wall.Seconds(),
			DefaultCPU: base.cpu.Seconds(), DefaultWall: base.wall.Seconds(), HeapMiB: mib(w.worst.heap),
			Ran: w.ran, Refused: w.refused, Offered: w.offered, SweepSeconds: w.total.Seconds(), Over: w.worst.cpu > *bound}
		over = over || r.Over
		worst = append(worst, r)
		fmt.Printf("  %-8s worst CPU %6.2f s  wall %6.2f s  (%5.1fx its default setting's CPU, %.2f s)  live heap %6.1f MiB  %s   (%d settings run, %d refused, %d of them retried at the value offered, sweep %.0f s)\n    ?scenario=%s&%s\n",
			r.Scenario, r.CPU, r.Wall, r.CPU/r.DefaultCPU, r.DefaultCPU, r.HeapMiB, verdict(!r.Over),
			r.Ran, r.Refused, r.Offered, r.SweepSeconds, r.Scenario, r.Query)
	}
	if *jsonFile != "" {
		if err := corners.Write(*jsonFile, worst); err != nil {
			fmt.Fprintln(os.Stderr, "corners:", err)
			os.Exit(2)
		}
	}
	if over {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

var verbose bool

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

func verdict(ok bool) string {
	if ok {
		return "within"
	}
	return "OVER"
}

// timing is one setting's run: cpu is what it is judged by (the wall time
// where the system gives no CPU time).
type timing struct {
	query     string
	cpu, wall time.Duration
	heap      uint64
}

type sweepResult struct {
	worst        timing
	ran, refused int
	offered      int // refused settings retried at the value the refusal offered
	// While the corners run, refusals wait in later; then at most
	// maxRetries of them, spread evenly, are retried (tryOffered).
	deferRefused   bool
	later          []refusal
	total          time.Duration
	seen           map[string]bool
	scenario       scenario.Scenario
	spec           *scenario.Spec
	defaultA, defB string
}

// baseline times the default setting (the median of three by CPU time).
func (w *sweepResult) baseline() timing {
	var ts []timing
	for i := 0; i < 3; i++ {
		w.seen = map[string]bool{}
		t, ok := w.try(nil)
		if !ok {
			return timing{cpu: time.Nanosecond, wall: time.Nanosecond}
		}
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].cpu < ts[j].cpu })
	return ts[1]
}

// sizeLike reports whether a parameter scales the work: the numeric ones
// (a seed does not: it only picks which frames and sizes).
func sizeLike(d *scenario.Param) bool {
	switch d.Kind {
	case scenario.KindInt, scenario.KindFloat, scenario.KindBytes:
		return d.Name != "seed"
	}
	return false
}

// minMax lists every min/max combination of the size-like parameters as
// name=value texts.
func minMax(spec *scenario.Spec) [][]string {
	out := [][]string{nil}
	for i := range spec.Params {
		d := &spec.Params[i]
		if !sizeLike(d) {
			continue
		}
		var next [][]string
		for _, c := range out {
			for _, v := range []float64{d.Min, d.Max} {
				next = append(next, append(append([]string(nil), c...), d.Name+"="+d.Format(v)))
			}
		}
		out = next
	}
	return out
}

// refusal is a setting a scenario refused and why.
type refusal struct {
	kv  []string
	err error
}

// maxRetries bounds the refused corners retried at their offered value
// per scenario: smmu-bypass refuses most of its 2048 corners, and each
// retry runs a setting near the work bound (about a second).
const maxRetries = 96

func sweep(s scenario.Scenario, top int) *sweepResult {
	start := time.Now()
	w := &sweepResult{seen: map[string]bool{}, scenario: s, spec: s.Spec()}
	var tried []timing
	w.deferRefused = true
	for _, c := range minMax(w.spec) {
		if t, ok := w.try(c); ok {
			tried = append(tried, t)
		}
	}
	w.deferRefused = false
	step := max(1, (len(w.later)+maxRetries-1)/maxRetries)
	for i := 0; i < len(w.later); i += step {
		if t, ok := w.tryOffered(w.later[i].kv, w.later[i].err); ok {
			tried = append(tried, t)
		}
	}
	for _, q := range extra[w.spec.ID] {
		if t, ok := w.try(strings.Split(q, "&")); ok {
			tried = append(tried, t)
		}
	}
	sort.Slice(tried, func(i, j int) bool { return tried[i].cpu > tried[j].cpu })
	for i := 0; i < min(top, len(tried)); i++ {
		w.ascend(tried[i])
	}
	w.total = time.Since(start)
	return w
}

// ascend tries every value of each choice parameter from t, one parameter
// at a time, keeping the slowest.
func (w *sweepResult) ascend(t timing) {
	cur := t
	for i := range w.spec.Params {
		d := &w.spec.Params[i]
		var vals []string
		switch d.Kind {
		case scenario.KindChoice:
			for _, c := range d.Choices {
				vals = append(vals, c.Value)
			}
		case scenario.KindBool:
			vals = []string{"false", "true"}
		default:
			continue
		}
		best := cur
		for _, v := range vals {
			q := set(cur.query, d.Name, v)
			if nt, ok := w.try(strings.Split(q, "&")); ok && nt.cpu > best.cpu {
				best = nt
			}
		}
		cur = best
	}
}

// set replaces or adds name=v in an & separated query.
func set(query, name, v string) string {
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if strings.HasPrefix(p, name+"=") {
			parts[i] = name + "=" + v
			return strings.Join(parts, "&")
		}
	}
	return strings.Join(append(parts, name+"="+v), "&")
}

// tryOffered follows a refusal that names one of the setting's size-like
// parameters and offers the largest (or smallest) value that fits ("name:
// ... at most [about] V ..."): it tries the setting with V, so that a corner
// past a scenario's work bound still times the heaviest setting allowed
// next to it. Corners whose size-like maximum is always refused would
// otherwise leave only light settings in the sweep.
func (w *sweepResult) tryOffered(kv []string, err error) (timing, bool) {
	name, msg, ok := strings.Cut(err.Error(), ": ")
	if !ok {
		return timing{}, false
	}
	if d := w.spec.Param(name); d == nil || !sizeLike(d) {
		return timing{}, false
	}
	for _, mark := range []string{"at most about ", "at most ", "at least "} {
		for rest := msg; ; {
			i := strings.Index(rest, mark)
			if i < 0 {
				break
			}
			rest = rest[i+len(mark):]
			v := strings.TrimRight(strings.Fields(rest + " ")[0], ",;:.)")
			if v == "" || w.spec.Set(scenario.Params{}, name, v) != nil {
				continue
			}
			w.offered++
			return w.try(strings.Split(set(strings.Join(kv, "&"), name, v), "&"))
		}
	}
	return timing{}, false
}

// try runs one setting (A then B), once; ok is false when it was run
// before or the scenario refused it.
func (w *sweepResult) try(kv []string) (timing, bool) {
	sort.Strings(kv)
	q := strings.Join(kv, "&")
	if w.seen[q] {
		return timing{}, false
	}
	w.seen[q] = true
	p := scenario.Params{}
	for _, e := range kv {
		name, text, _ := strings.Cut(e, "=")
		if err := w.spec.Set(p, name, text); err != nil {
			w.refused++
			return timing{}, false
		}
	}
	runtime.GC()
	c0, t0 := cpuTime(), time.Now()
	ra, rb, err := scenario.RunPair(context.Background(), w.scenario, p, w.spec.DefaultA, w.spec.DefaultB, nil, nil)
	if se, ok := errors.AsType[*scenario.SideError](err); ok {
		err = se.Err // the refusal names the parameter: tryOffered reads it
	}
	wall, cpu := time.Since(t0), cpuTime()-c0
	if c0 < 0 {
		cpu = wall
	}
	if err != nil {
		w.refused++
		if w.deferRefused {
			w.later = append(w.later, refusal{kv, err})
		} else {
			w.tryOffered(kv, err)
		}
		return timing{}, false
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(ra)
	runtime.KeepAlive(rb)
	w.ran++
	t := timing{query: q, cpu: cpu, wall: wall, heap: ms.HeapAlloc}
	if verbose {
		fmt.Printf("    CPU %6.2f s  wall %6.2f s  %6.1f MiB  %s\n", cpu.Seconds(), wall.Seconds(), mib(t.heap), q)
	}
	if t.cpu > w.worst.cpu {
		w.worst = t
	}
	return t, true
}
