package demo

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

func runDemo(t *testing.T, policy string, set map[string]string) *scenario.Result {
	t.Helper()
	s := New()
	p, err := s.Spec().Defaults()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if err := s.Spec().Set(p, k, v); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Run(p, policy)
	if err != nil {
		t.Fatalf("Run(%s): %v", policy, err)
	}
	return r
}

func TestPoliciesCorrectnessAndCost(t *testing.T) {
	nc := runDemo(t, PolicyNoncacheable, nil)
	sync := runDemo(t, PolicyCacheableSync, nil)
	bug := runDemo(t, PolicyCacheableNoSync, nil)
	for _, r := range []*scenario.Result{nc, sync} {
		if v, _ := r.Metric("stale_bytes"); v != 0 {
			t.Errorf("%s: stale_bytes = %v, want 0", r.Policy, v)
		}
		if len(r.Hazards) != 0 {
			t.Errorf("%s: hazards %v", r.Policy, r.Hazards)
		}
	}
	// 16 KiB fits in the 32 KiB L1D, so without a sync every line was cached
	// before the device wrote it and every byte is read stale.
	if v, _ := bug.Metric("stale_bytes"); v != 16<<10 {
		t.Errorf("no-sync stale_bytes = %v, want %d", v, 16<<10)
	}
	if len(bug.Hazards) != 1 || bug.Hazards[0].Addr != BufferBase || bug.Hazards[0].Bytes != 16<<10 {
		t.Errorf("no-sync hazards = %+v, want one covering the buffer", bug.Hazards)
	}
	ncT, _ := nc.Metric("readout_us")
	syncT, _ := sync.Metric("readout_us")
	if !(syncT < ncT) {
		t.Errorf("cacheable+sync readout %v us not faster than Normal-NC %v us", syncT, ncT)
	}
	if v, _ := sync.Metric("dc_ops"); v != 256 {
		t.Errorf("dc_ops = %v, want 256 (one per line)", v)
	}
	for _, r := range []*scenario.Result{nc, sync, bug} {
		if v, ok := r.Metric("lost_bytes"); !ok || v != 0 {
			t.Errorf("%s: lost_bytes = %v, %v", r.Policy, v, ok)
		}
	}
}

// Staleness comes from what is still cached, not from the policy name: a
// buffer that fits in the 32 KiB L1D is read stale in full; with a 64 KiB
// buffer the copy's own fills evict (LRU) each old line before the copy
// reaches it, so nothing is stale even without a sync.
func TestStaleOnlyWhatWasCached(t *testing.T) {
	bug := runDemo(t, PolicyCacheableNoSync, map[string]string{"buffer": "24KiB"})
	if v, _ := bug.Metric("stale_bytes"); v != 24<<10 {
		t.Fatalf("24KiB: stale_bytes = %v, want %d", v, 24<<10)
	}
	bug = runDemo(t, PolicyCacheableNoSync, map[string]string{"buffer": "64KiB"})
	if v, _ := bug.Metric("stale_bytes"); v != 0 {
		t.Fatalf("64KiB: stale_bytes = %v, want 0", v)
	}
	if v, _ := bug.Metric("l1d_cache_refill"); v != 1024 {
		t.Fatalf("64KiB: refills = %v, want 1024 (every line of the copy missed)", v)
	}
}

func TestTimelineEndState(t *testing.T) {
	for _, pol := range []string{PolicyNoncacheable, PolicyCacheableSync, PolicyCacheableNoSync} {
		r := runDemo(t, pol, map[string]string{"buffer": "4KiB", "preset": "neoverse-n1"})
		tl := r.Timeline
		var st scenario.State
		tl.StateAt(len(tl.Events), &st)
		want := scenario.CellCopied
		if pol == PolicyCacheableNoSync {
			want = scenario.CellStale
		}
		for i, c := range st.Cells[0] {
			if c.State != want || tl.WriterName(c.Writer) != "dev" {
				t.Fatalf("%s: cell %d = %v by %s, want %v by dev", pol, i, c.State, tl.WriterName(c.Writer), want)
			}
		}
		if st.Values[1] != 64 {
			t.Errorf("%s: cpu pointer at end = %d, want 64", pol, st.Values[1])
		}
		marks := 0
		for _, e := range tl.Events {
			if e.Kind == scenario.EvMark {
				marks++
			}
		}
		if marks != len(r.Narration) || marks < 3 {
			t.Errorf("%s: %d marks for %d narration steps", pol, marks, len(r.Narration))
		}
		if len(tl.Phases) == 0 || tl.End != r.End {
			t.Errorf("%s: phases %d, end %v vs %v", pol, len(tl.Phases), tl.End, r.End)
		}
	}
}

func TestBadInput(t *testing.T) {
	s := New()
	p, _ := s.Spec().Defaults()
	if _, err := s.Run(p, "nope"); err == nil {
		t.Error("unknown policy accepted")
	}
	p["preset"] = scenario.Value{Text: "pdp11"}
	if _, err := s.Run(p, PolicyNoncacheable); err == nil {
		t.Error("unknown preset accepted")
	}
	p, _ = s.Spec().Defaults()
	p["zz"], p["colour"] = scenario.Value{}, scenario.Value{}
	for i := 0; i < 5; i++ {
		if _, err := s.Run(p, PolicyNoncacheable); err == nil || err.Error() != "colour: unknown parameter for scenario demo" {
			t.Fatalf("unknown parameters: %v", err)
		}
	}
	p, _ = s.Spec().Defaults()
	p["buffer"] = scenario.Value{Num: -5}
	if _, err := s.Run(p, PolicyNoncacheable); err == nil {
		t.Error("negative buffer accepted")
	}
}
