package etr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/timeline"
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
// and is left out here for the policies that never sync it for the device
// (TestBarrierLineWrittenBack), as is the merged form's first session
// after allocation (TestAllocationZeroesWrittenBack).
func TestCorrectPoliciesNeverStaleOrLost(t *testing.T) {
	for _, kv := range sweep(testing.Short()) {
		for _, pol := range []PolicyID{Coherent, TwoChunks, WholeWhenFull, SyncBoth} {
			for _, barrier := range []string{"false", "true"} {
				if barrier == "true" && (pol == TwoChunks || pol == WholeWhenFull) {
					continue // the old barrier line is written back: TestBarrierLineWrittenBack
				}
				if pol == WholeWhenFull && kv[len(kv)-1] != PriorSteady {
					continue // the allocation's dirty zero lines: TestAllocationZeroesWrittenBack
				}
				args := append(append([]string(nil), kv...), ParamBarrier, barrier)
				r := runWith(t, string(pol), args...)
				{
					s, l := metric(t, r, MetricStale), metric(t, r, MetricLost)
					assert.EqualValues(t, 0, s, "%s %v: stale %v, lost %v, hazards %v", pol, args, s, l, r.Hazards)
					assert.EqualValues(t, 0, l, "%s %v: stale %v, lost %v, hazards %v", pol, args, s, l, r.Hazards)
					assert.Len(t, r.Hazards, 0, "%s %v: stale %v, lost %v, hazards %v", pol, args, s, l, r.Hazards)
				}
				data, copied := metric(t, r, "data_bytes"), metric(t, r, "copied_bytes")
				assert.Equal(t, data, copied+metric(t, r, MetricTruncated), "%s %v: copied %v + truncated %v != data %v", pol, args, copied, metric(t, r, MetricTruncated), data)
			}
		}
	}
}

// Without barriers every correct policy is correct on every preset (the
// merged form once its allocation's zero lines are gone); with them, the
// policy that also syncs for the device is, on every preset, prior state
// and trace amount.
func TestCorrectPoliciesOtherPresets(t *testing.T) {
	for _, preset := range []string{"neoverse-n1", "dimensity-9500", "juno-r2", "juno-r2-a72", "ls2088a"} {
		for _, pol := range []PolicyID{Coherent, TwoChunks, WholeWhenFull, SyncBoth} {
			for _, laps := range []string{"0.3", "1", "1.3", "2.5"} {
				for _, barrier := range []string{"false", "true"} {
					if barrier == "true" && pol != SyncBoth && pol != Coherent {
						continue // TestBarrierLineWrittenBack
					}
					for _, prior := range []string{PriorSteady, PriorCached} {
						if pol == WholeWhenFull && prior != PriorSteady {
							continue // TestAllocationZeroesWrittenBack
						}
						for _, size := range []string{"256KiB", "512KiB"} {
							r := runWith(t, string(pol), ParamPreset, preset, ParamBuffer, size, ParamLaps, laps, ParamBarrier, barrier, ParamPrior, prior)
							assert.Zero(t, metric(t, r, MetricStale), "%s %s %s laps %s barrier %s %s", preset, pol, size, laps, barrier, prior)
							assert.Zero(t, metric(t, r, MetricLost), "%s %s %s laps %s barrier %s %s", preset, pol, size, laps, barrier, prior)
							assert.Zero(t, metric(t, r, "dram_lost_bytes"), "%s %s %s laps %s barrier %s %s", preset, pol, size, laps, barrier, prior)
							assert.Empty(t, r.Hazards, "%s %s %s laps %s barrier %s %s", preset, pol, size, laps, barrier, prior)
						}
					}
				}
			}
		}
	}
}

// A finding of the model, not a hard-coded case: the driver writes the
// barrier packet through the cacheable mapping and, as merged, never gives
// that line back to the device. If the line is still dirty in the cache
// when the next session's sync runs, a cleaning op writes the old barrier
// back over the new trace: DC CIVAC on a partial edge line (two chunks),
// or DC IVAC itself, which cleans a dirty line on every modelled core
// (Cortex-A53 TRM 6.2.4, A76 TRM A6.2.4; any core under KVM). The damage
// is the one line at the previous barrier, detected from line versions;
// the hazard and the narration say which line, when and why. The policy
// that syncs the barrier for the device loses nothing there.
func TestBarrierLineWrittenBack(t *testing.T) {
	const ivac = "cleaned by DC IVAC, which behaves as DC CIVAC on this core"
	for _, tc := range []struct {
		preset, laps, why string
		pol               PolicyID
	}{
		{"juno-r2", "1.3", "cleaned by DC CIVAC", TwoChunks},
		{"juno-r2", "1.3", ivac, WholeWhenFull}, // the merged driver on the A53: lost before DC IVAC cleaned
		{"juno-r2-a72", "1.3", ivac, WholeWhenFull},
		{"neoverse-n1", "1.3", ivac, WholeWhenFull},
		{"neoverse-n1", "1.3", "cleaned by DC CIVAC", TwoChunks}, // the partial edge line's CIVAC comes first
	} {
		name := fmt.Sprintf("%s %s", tc.preset, tc.pol)
		// 512 KiB, 1.3 laps: the barrier sits at 0x26660, mid-line; the
		// buffer fits in L2, so the previous session's barrier line stays.
		kv := []string{ParamPreset, tc.preset, ParamBuffer, "512KiB", ParamLaps, tc.laps}
		r := runWith(t, string(tc.pol), kv...)
		off := uint64(metric(t, r, "offset"))
		require.NotZero(t, off%64, "%s: offset %#x is line aligned; the case needs a partial line", name, off)
		assert.Equal(t, 64.0, metric(t, r, MetricStale), "%s: the one 64-byte line", name)
		assert.Equal(t, 48.0, metric(t, r, MetricLost), "%s: 48 bytes of trace besides the new barrier", name)
		assert.Equal(t, 64.0, metric(t, r, "dram_lost_bytes"), name)
		line := off &^ 63
		var wb *scenario.Hazard
		for i, h := range r.Hazards {
			// Addr is physical; the buffer's page offsets are its PA's.
			if h.Addr&4095 == line&4095 && strings.Contains(h.Cause, fmt.Sprintf("buffer line +%#x", line)) &&
				strings.Contains(h.Cause, "written back over the trace") {
				wb = &r.Hazards[i]
			}
		}
		require.NotNil(t, wb, "%s: no write-back hazard at the barrier line %#x: %+v", name, line, r.Hazards)
		assert.Equal(t, 0, wb.Grid, name)
		assert.Contains(t, wb.Cause, fmt.Sprintf("buffer line +%#x", line), name)
		assert.Contains(t, wb.Cause, fmt.Sprintf("previous session's barrier packet (offset %#x)", off), name)
		assert.Contains(t, wb.Cause, "("+tc.why+")", name)
		var step *scenario.Step
		for i, s := range r.Narration {
			if strings.Contains(s.Title, "written back over new trace") {
				step = &r.Narration[i]
			}
		}
		require.NotNil(t, step, "%s: no narration step for the write-back", name)
		assert.Equal(t, wb.T, step.T, "%s: narrated when it happened", name)
		assert.Contains(t, step.Text, tc.why, name)
		assert.Greater(t, step.T, sim.Time(0))

		// Without the barrier packet there is nothing to write back; with
		// the sync for the device the line is clean before the ETR writes.
		for _, fix := range [][]string{{ParamBarrier, "false"}, nil} {
			pol := tc.pol
			if fix == nil {
				pol = SyncBoth
			}
			r := runWith(t, string(pol), append(append([]string(nil), kv...), fix...)...)
			assert.Zero(t, metric(t, r, MetricStale), "%s %v", pol, fix)
			assert.Zero(t, metric(t, r, MetricLost), "%s %v", pol, fix)
			assert.Empty(t, r.Hazards, "%s %v", pol, fix)
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
		require.NoError(t, spec.Set(p, kv[i], kv[i+1]))
	}
	c, err := parse(spec, p)
	require.NoError(t, err)
	policy, _ := LookupPolicy(string(pol))
	{
		r, err = newRun(c, policy)
		require.NoError(t, err)
	}
	require.NoError(t, r.prior())
	lb := r.m.LineBytes()
	cachedBefore = make([]bool, c.size/lb)
	for i := range cachedBefore {
		cachedBefore[i] = r.cached(r.buf.PA(uint64(i)*lb) >> lineShift(r.m))
	}
	r.startRecording()
	require.NoError(t, r.session())
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
				require.Equal(t, want, stale[i], "line %d: stale %v, want %v (cached before %v, synced %v, in data %v)", i, stale[i], want, before[i], synced[i], inData[i])
				if stale[i] {
					n++
				}
			}
			res := r.result()
			require.NotEqualValues(t, 0, n, "%d stale lines, stale_bytes %v", n, metric(t, res, MetricStale))
			require.Equal(t, float64(n)*float64(lb), metric(t, res, MetricStale), "%d stale lines, stale_bytes %v", n, metric(t, res, MetricStale))
			if tc.pol == WrongWrap {
				head := r.path.window.Offset + r.path.window.Len - size
				require.Equal(t, head, uint64(n)*lb, "wrong-wrap: %d stale bytes, want the head part %d", uint64(n)*lb, head)
			}
			// Each stale line is shown red on the buffer grid and covered by a hazard.
			var end timeline.State
			res.Timeline.StateAt(len(res.Timeline.Events), &end)
			for i, s := range stale {
				require.False(t, s && end.Cells[r.ids.grid][i].State != timeline.CellStale, "line %d read stale but drawn %v", i, end.Cells[r.ids.grid][i].State)
			}
			var hz int64
			for _, h := range res.Hazards {
				hz += h.Bytes
				require.EqualValues(t, r.ids.grid, h.Grid, "hazard %+v not located on the buffer grid", h)
				require.NotEqualValues(t, "", h.Cause, "hazard %+v not located on the buffer grid", h)
			}
			require.Equal(t, int64(n)*int64(lb), hz, "hazards cover %d bytes, %d stale", hz, int64(n)*int64(lb))
		})
	}
}

// In the default steady state at 4 MiB the copy's own fills evict the old
// lines before it reaches them, so even the bug policies read nothing
// stale; a short session (or a 1 MiB buffer) exposes them.
func TestBugPoliciesDependOnWhatIsStillCached(t *testing.T) {
	{
		r := runWith(t, string(NoSync))
		assert.EqualValues(t, 0, metric(t, r, MetricStale), "no-sync at 4 MiB steady: stale %v, want 0 (evicted before read)", metric(t, r, MetricStale))
	}
	for _, kv := range [][]string{{ParamLaps, "0.25"}, {ParamBuffer, "1MiB"}} {
		r := runWith(t, string(NoSync), kv...)
		assert.NotEqualValues(t, 0, metric(t, r, MetricStale), "no-sync %v: stale %v lost %v hazards %d, want the bug visible", kv, metric(t, r, MetricStale), metric(t, r, MetricLost), len(r.Hazards))
		assert.NotEqualValues(t, 0, metric(t, r, MetricLost), "no-sync %v: stale %v lost %v hazards %d, want the bug visible", kv, metric(t, r, MetricStale), metric(t, r, MetricLost), len(r.Hazards))
		assert.NotEqualValues(t, 0, len(r.Hazards), "no-sync %v: stale %v lost %v hazards %d, want the bug visible", kv, metric(t, r, MetricStale), metric(t, r, MetricLost), len(r.Hazards))
	}
	r := runWith(t, string(WrongWrap), ParamBuffer, "1MiB", ParamLaps, "1.5")
	assert.NotEqualValues(t, 0, metric(t, r, MetricStale), "wrong-wrap at 1 MiB, 1.5 laps: no stale data")
}
