package etr

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// run runs policy with the defaults changed by kv ("name", "value", ...).
func runWith(t testing.TB, policy string, kv ...string) *scenario.Result {
	t.Helper()
	s := New()
	spec := s.Spec()
	p, err := spec.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := spec.Set(p, kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Run(p, policy)
	if err != nil {
		t.Fatalf("%s %v: %v", policy, kv, err)
	}
	return res
}

func metric(t testing.TB, r *scenario.Result, name string) float64 {
	t.Helper()
	v, ok := r.Metric(name)
	if !ok {
		t.Fatalf("%s: no metric %s", r.Policy, name)
	}
	return v
}

// The published figure, from the model with the juno-r2 preset and the
// scenario's defaults (4 MiB buffer filled by the trace, AUX large enough):
// tmc_update_etr_buffer within 10 % of 8148.32 us (coherent) and 2463.98 us
// (cacheable + sync), and the ratio within 10 % of 3.31.
func TestFigureJunoR2(t *testing.T) {
	spec := New().Spec()
	a := runWith(t, spec.DefaultA)
	b := runWith(t, spec.DefaultB)
	ua, ub := metric(t, a, MetricUpdate), metric(t, b, MetricUpdate)
	t.Logf("juno-r2 4 MiB: coherent %.2f us (published %.2f), cacheable + sync %.2f us (published %.2f), ratio %.3f (published %.2f)",
		ua, FigureCoherentUS, ub, FigureCachedUS, ua/ub, FigureRatio)
	t.Logf("B breakdown: stop %.2f us, sync %.2f us, copy %.2f us", metric(t, b, "stop_us"), metric(t, b, "sync_us"), metric(t, b, "copy_us"))
	if len(spec.References) != 3 {
		t.Fatalf("%d references, want 3", len(spec.References))
	}
	for _, ref := range spec.References {
		var got float64
		switch ref.Policy {
		case string(Coherent):
			got = ua
		case string(WholeWhenFull):
			got = ub
		case "":
			var ok bool
			if got, ok = ref.Pair.Of(ua, ub); !ok || ref.Pair != scenario.PairRatio {
				t.Fatalf("pair reference %+v", ref)
			}
		default:
			t.Fatalf("reference for policy %q", ref.Policy)
		}
		if ref.Metric != MetricUpdate || ref.Source == "" || ref.Tolerance != 0.10 {
			t.Errorf("reference %+v", ref)
		}
		if !ref.Within(got) {
			t.Errorf("%s %q: simulated %.3f, published %.3f: outside %.0f %%", ref.Metric, ref.Policy, got, ref.Value, 100*ref.Tolerance)
		}
	}
	// The figure is a correct comparison: nothing stale, nothing lost,
	// 4 MiB synced and copied.
	for _, r := range []*scenario.Result{a, b} {
		if metric(t, r, MetricStale) != 0 || metric(t, r, MetricLost) != 0 {
			t.Errorf("%s: stale %v lost %v", r.Policy, metric(t, r, MetricStale), metric(t, r, MetricLost))
		}
		if metric(t, r, "copied_bytes") != 4<<20 || metric(t, r, MetricTruncated) != 0 {
			t.Errorf("%s: copied %v truncated %v", r.Policy, metric(t, r, "copied_bytes"), metric(t, r, MetricTruncated))
		}
	}
	if metric(t, b, "synced_bytes") != 4<<20 || metric(t, b, "dc_ops") != 65536 || metric(t, b, "dsb_count") != 1 {
		t.Errorf("B synced %v bytes with %v DC ops and %v DSBs", metric(t, b, "synced_bytes"), metric(t, b, "dc_ops"), metric(t, b, "dsb_count"))
	}
	if metric(t, a, "bus_read_nc") < 262144 || metric(t, a, "dc_ops") != 0 {
		t.Errorf("A: %v NC reads, %v DC ops", metric(t, a, "bus_read_nc"), metric(t, a, "dc_ops"))
	}
}
