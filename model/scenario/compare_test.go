package scenario

import "testing"

func TestCompareAttachesReferencesToTheRightSide(t *testing.T) {
	spec := &Spec{
		ID: "x", DefaultA: "slow", DefaultB: "fast",
		References: []Reference{
			{Metric: "t_us", Policy: "slow", Value: 100, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Policy: "fast", Value: 30, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Pair: PairRatio, Value: 3.3, Tolerance: 0.1, Source: "s1"},
			{Metric: "t_us", Pair: PairChange, Value: -70, Tolerance: 3, Absolute: true, Source: "s1"},
		},
	}
	slow := &Result{Policy: "slow", Metrics: []Metric{{Name: "t_us", Value: 104}}, Checks: []Metric{{Name: "stale_bytes"}}}
	fast := &Result{Policy: "fast", Metrics: []Metric{{Name: "t_us", Value: 40}, {Name: "only_b", Value: 1}}, Checks: []Metric{{Name: "stale_bytes", Value: 64}}}

	rows := Compare(spec, nil, slow, fast)
	if len(rows) != 3 || rows[0].Name != "t_us" || rows[1].Name != "stale_bytes" || !rows[1].Check || rows[2].Name != "only_b" || rows[2].HasA {
		t.Fatalf("rows = %+v", rows)
	}
	refs := rows[0].Refs
	if len(refs) != 4 {
		t.Fatalf("refs = %+v", refs)
	}
	want := []struct {
		side string
		got  float64
		ok   bool
	}{{"A", 104, true}, {"B", 40, false}, {"A/B", 2.6, false}, {"A/B", -61.538, false}}
	for i, w := range want {
		if refs[i].Side != w.side || !near(refs[i].Got, w.got) || refs[i].OK != w.ok {
			t.Errorf("ref %d = %+v, want side %s got %.3f ok %v", i, refs[i], w.side, w.got, w.ok)
		}
	}

	// Swapped sides still compare the default pair the published way round.
	swapped := Compare(spec, nil, fast, slow)
	for _, r := range swapped[0].Refs {
		if r.Side == "A/B" && r.Pair == PairRatio && !near(r.Got, 2.6) {
			t.Errorf("swapped ratio = %v, want 2.6", r.Got)
		}
	}
	// A non-default pair gets no pair figures.
	other := &Result{Policy: "other", Metrics: []Metric{{Name: "t_us", Value: 1}}}
	for _, r := range Compare(spec, nil, slow, other)[0].Refs {
		if r.Side == "A/B" {
			t.Errorf("pair figure shown for a non-default pair: %+v", r)
		}
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-3 && d > -1e-3 }

func TestReferencesOnlyAtThePublishedSetting(t *testing.T) {
	spec := &Spec{ID: "x", DefaultA: "a", DefaultB: "b",
		Params:     []Param{{Name: "size", Kind: KindBytes, Default: "4MiB", Min: 1, Max: 1 << 30}},
		References: []Reference{{Metric: "t_us", Policy: "a", Value: 1, Tolerance: 0.1}}}
	a := &Result{Policy: "a", Metrics: []Metric{{Name: "t_us", Value: 1}}}
	b := &Result{Policy: "b", Metrics: []Metric{{Name: "t_us", Value: 2}}}
	p, _ := spec.Defaults()
	if rows := Compare(spec, p, a, b); len(rows[0].Refs) != 1 {
		t.Fatalf("defaults: %d references, want 1", len(rows[0].Refs))
	}
	if err := spec.Set(p, "size", "8MiB"); err != nil {
		t.Fatal(err)
	}
	if rows := Compare(spec, p, a, b); len(rows[0].Refs) != 0 {
		t.Fatalf("another size: %d references, want none", len(rows[0].Refs))
	}
}

func TestResolveMergesDefaultsAndRechecksValues(t *testing.T) {
	spec := &Spec{ID: "x", Params: []Param{
		{Name: "size", Kind: KindBytes, Default: "4MiB", Min: 4096, Max: 1 << 30},
		{Name: "mode", Kind: KindChoice, Default: "a", Choices: []Choice{{Value: "a"}, {Value: "b"}}},
		{Name: "on", Kind: KindBool, Default: "false"},
	}}
	full, err := spec.Resolve(Params{"size": {Num: 8192}, "on": {Num: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if full.Int("size") != 8192 || full.Text("size") != "8KiB" || full.Text("mode") != "a" || !full.Bool("on") {
		t.Fatalf("resolved %+v", full)
	}
	for _, c := range []struct {
		p    Params
		want string
	}{
		{Params{"zz": {}, "mm": {}}, "mm: unknown parameter for scenario x"},
		{Params{"size": {Num: 1}}, "size: 1B is out of range; allowed 4KiB..1GiB"},
		{Params{"mode": {Text: "c"}}, `mode: "c" is not allowed; allowed one of a, b`},
	} {
		if _, err := spec.Resolve(c.p); err == nil || err.Error() != c.want {
			t.Errorf("Resolve(%v) error %v, want %q", c.p, err, c.want)
		}
	}
}
