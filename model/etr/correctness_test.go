package etr

import (
	"fmt"
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// sweep is the parameter grid the correctness tests walk: buffer sizes
// below, at and above the juno-r2 L2, trace amounts at every pointer edge,
// every prior state, an AUX ring large enough and one that truncates.
func sweep(short bool) [][]string {
	sizes := []string{"64KiB", "1MiB"}
	laps := []string{"0", "0.3", "1", "1.000244140625", "1.5", "3.7"} // 1+16/64KiB: one frame past full
	auxes := []string{"4MiB", "16KiB"}
	priors := []string{PriorSteady, PriorCold, PriorCached}
	if short {
		sizes, laps = sizes[:1], []string{"0.3", "1", "1.5"}
	}
	var out [][]string
	for _, s := range sizes {
		for _, l := range laps {
			for _, a := range auxes {
				for _, p := range priors {
					out = append(out, []string{ParamBuffer, s, ParamLaps, l, ParamAUX, a, ParamPrior, p})
				}
			}
		}
	}
	return out
}

// Correct policies lose nothing and read nothing stale, whatever the
// buffer, the trace amount, the AUX space and the caches' prior state. The
// barrier packet is written through the CPU's mapping (as the driver does)
// and is left out here: see TestBarrierLineWrittenBack for what it does.
func TestCorrectPoliciesNeverStaleOrLost(t *testing.T) {
	for _, kv := range sweep(testing.Short()) {
		for _, pol := range []PolicyID{Coherent, TwoChunks, WholeWhenFull} {
			for _, barrier := range []string{"false", "true"} {
				if barrier == "true" && pol == TwoChunks {
					continue // its CIVAC on a partial edge line cleans the old barrier line: TestBarrierLineWrittenBack
				}
				args := append(append([]string(nil), kv...), ParamBarrier, barrier)
				r := runWith(t, string(pol), args...)
				if s, l := metric(t, r, MetricStale), metric(t, r, MetricLost); s != 0 || l != 0 || len(r.Hazards) != 0 {
					t.Errorf("%s %v: stale %v, lost %v, hazards %v", pol, args, s, l, r.Hazards)
				}
				data, copied := metric(t, r, "data_bytes"), metric(t, r, "copied_bytes")
				if copied+metric(t, r, MetricTruncated) != data {
					t.Errorf("%s %v: copied %v + truncated %v != data %v", pol, args, copied, metric(t, r, MetricTruncated), data)
				}
			}
		}
	}
}

// On presets whose IVAC only invalidates, the merged form is correct even
// with barrier packets; without barriers every correct policy is correct
// on every preset.
func TestCorrectPoliciesOtherPresets(t *testing.T) {
	for _, preset := range []string{"neoverse-n1", "dimensity-9500"} {
		for _, pol := range []PolicyID{Coherent, TwoChunks, WholeWhenFull} {
			for _, laps := range []string{"0.3", "1.3"} {
				r := runWith(t, string(pol), ParamPreset, preset, ParamBuffer, "256KiB", ParamLaps, laps, ParamBarrier, "false")
				if s, l := metric(t, r, MetricStale), metric(t, r, MetricLost); s != 0 || l != 0 {
					t.Errorf("%s %s laps %s: stale %v lost %v", preset, pol, laps, s, l)
				}
			}
		}
	}
}

// A finding of the model, not a hard-coded case: the driver writes the
// barrier packet through the cacheable mapping and never gives that line
// back to the device. If the line is still dirty in the cache when the next
// session's sync runs, a cleaning op writes the old barrier back over the
// new trace: DC CIVAC on a partial edge line (two chunks on juno-r2), or DC
// IVAC itself on cores where it cleans (neoverse-n1). The damage is the one
// line at the previous barrier, detected from line versions.
func TestBarrierLineWrittenBack(t *testing.T) {
	for _, tc := range []struct {
		preset string
		pol    PolicyID
	}{{"juno-r2", TwoChunks}, {"neoverse-n1", WholeWhenFull}} {
		// 512 KiB, 1.3 laps: the barrier sits at 0x26660, mid-line; the
		// buffer fits in L2, so the previous session's barrier line stays.
		r := runWith(t, string(tc.pol), ParamPreset, tc.preset, ParamBuffer, "512KiB", ParamLaps, "1.3")
		off := uint64(metric(t, r, "offset"))
		if off%64 == 0 {
			t.Fatalf("offset %#x is line aligned; the case needs a partial line", off)
		}
		if s, l := metric(t, r, MetricStale), metric(t, r, MetricLost); s != 64 || l != 48 {
			t.Errorf("%s %s: stale %v lost %v, want the one 64-byte line (48 bytes of trace besides the new barrier)", tc.preset, tc.pol, s, l)
		}
		if metric(t, r, "dram_lost_bytes") != 64 {
			t.Errorf("%s %s: dram_lost_bytes %v, want 64", tc.preset, tc.pol, metric(t, r, "dram_lost_bytes"))
		}
		found := false
		for _, h := range r.Hazards {
			if h.Addr <= off && off < h.Addr+uint64(h.Bytes) && h.Grid == 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s: no hazard at the barrier line %#x: %+v", tc.preset, tc.pol, off, r.Hazards)
		}
		// Without the barrier packet there is nothing to write back.
		r = runWith(t, string(tc.pol), ParamPreset, tc.preset, ParamBuffer, "512KiB", ParamLaps, "1.3", ParamBarrier, "false")
		if s, l := metric(t, r, MetricStale), metric(t, r, MetricLost); s != 0 || l != 0 {
			t.Errorf("%s %s without barrier: stale %v lost %v", tc.preset, tc.pol, s, l)
		}
	}
}

// runTraced runs one policy and returns, per buffer line, whether it was in
// a CPU cache when the session started (before the ETR wrote anything) and
// whether the copy read it stale.
func runTraced(t *testing.T, pol PolicyID, kv ...string) (r *run, cachedBefore, stale []bool) {
	t.Helper()
	spec := New().Spec()
	p, _ := spec.Defaults()
	for i := 0; i+1 < len(kv); i += 2 {
		if err := spec.Set(p, kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	c, err := parse(spec, p)
	if err != nil {
		t.Fatal(err)
	}
	policy, _ := LookupPolicy(string(pol))
	if r, err = newRun(c, policy); err != nil {
		t.Fatal(err)
	}
	if err := r.prior(); err != nil {
		t.Fatal(err)
	}
	lb := r.m.LineBytes()
	cachedBefore = make([]bool, c.size/lb)
	for i := range cachedBefore {
		cachedBefore[i] = r.cached(r.buf.PA(uint64(i)*lb) >> lineShift(r.m))
	}
	r.startRecording()
	if err := r.session(); err != nil {
		t.Fatal(err)
	}
	return r, cachedBefore, r.obs.stale
}

// Bug policies read stale data exactly where the machine says the CPU got a
// line older than the ETR's write: only lines that were cached before the
// session and that no sync covered; with the whole buffer in L2, exactly
// all of those.
func TestBugPoliciesStaleExactlyWhereCachedAndUnsynced(t *testing.T) {
	for _, tc := range []struct {
		pol  PolicyID
		laps string
	}{{NoSync, "0.6"}, {NoSync, "1.5"}, {WrongWrap, "1.5"}, {WrongWrap, "2.25"}} {
		t.Run(fmt.Sprintf("%s/%s", tc.pol, tc.laps), func(t *testing.T) {
			r, before, stale := runTraced(t, tc.pol, ParamBuffer, "256KiB", ParamLaps, tc.laps, ParamPrior, PriorCached, ParamBarrier, "false")
			lb := r.m.LineBytes()
			size := r.c.size
			synced := make([]bool, len(stale))
			for _, s := range r.path.syncs {
				for off := s.Off &^ (lb - 1); off < s.End(); off += lb {
					synced[off/lb] = true
				}
			}
			inData := make([]bool, len(stale))
			for _, ch := range r.path.take.Chunks(size) {
				for off := ch.Off &^ (lb - 1); off < ch.End(); off += lb {
					inData[off/lb] = true
				}
			}
			n := 0
			for i := range stale {
				want := before[i] && !synced[i] && inData[i]
				if stale[i] != want {
					t.Fatalf("line %d: stale %v, want %v (cached before %v, synced %v, in data %v)", i, stale[i], want, before[i], synced[i], inData[i])
				}
				if stale[i] {
					n++
				}
			}
			res := r.result()
			if n == 0 || metric(t, res, MetricStale) != float64(n)*float64(lb) {
				t.Fatalf("%d stale lines, stale_bytes %v", n, metric(t, res, MetricStale))
			}
			if tc.pol == WrongWrap {
				head := r.path.window.Offset + r.path.window.Len - size
				if uint64(n)*lb != head {
					t.Fatalf("wrong-wrap: %d stale bytes, want the head part %d", uint64(n)*lb, head)
				}
			}
			// Each stale line is shown red on the buffer grid and covered by a hazard.
			var end scenario.State
			res.Timeline.StateAt(len(res.Timeline.Events), &end)
			for i, s := range stale {
				if s && end.Cells[r.ids.grid][i].State != scenario.CellStale {
					t.Fatalf("line %d read stale but drawn %v", i, end.Cells[r.ids.grid][i].State)
				}
			}
			var hz int64
			for _, h := range res.Hazards {
				hz += h.Bytes
				if h.Grid != r.ids.grid || h.Cause == "" {
					t.Fatalf("hazard %+v not located on the buffer grid", h)
				}
			}
			if hz != int64(n)*int64(lb) {
				t.Fatalf("hazards cover %d bytes, %d stale", hz, int64(n)*int64(lb))
			}
		})
	}
}

// In the default steady state at 4 MiB the copy's own fills evict the old
// lines before it reaches them, so even the bug policies read nothing
// stale; a short session (or a 1 MiB buffer) exposes them.
func TestBugPoliciesDependOnWhatIsStillCached(t *testing.T) {
	if r := runWith(t, string(NoSync)); metric(t, r, MetricStale) != 0 {
		t.Errorf("no-sync at 4 MiB steady: stale %v, want 0 (evicted before read)", metric(t, r, MetricStale))
	}
	for _, kv := range [][]string{{ParamLaps, "0.25"}, {ParamBuffer, "1MiB"}} {
		r := runWith(t, string(NoSync), kv...)
		if metric(t, r, MetricStale) == 0 || metric(t, r, MetricLost) == 0 || len(r.Hazards) == 0 {
			t.Errorf("no-sync %v: stale %v lost %v hazards %d, want the bug visible", kv, metric(t, r, MetricStale), metric(t, r, MetricLost), len(r.Hazards))
		}
	}
	r := runWith(t, string(WrongWrap), ParamBuffer, "1MiB", ParamLaps, "1.5")
	if metric(t, r, MetricStale) == 0 {
		t.Error("wrong-wrap at 1 MiB, 1.5 laps: no stale data")
	}
}
