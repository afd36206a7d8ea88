package etr

import (
	"reflect"
	"strings"
	"testing"
)

// Each policy's dma_sync_single_for_cpu calls for the window shapes that
// matter: empty, no wrap, exactly full, wrapped.
func TestPolicySyncRanges(t *testing.T) {
	const size = 1 << 20
	noWrap := Window{0, 3000}
	full := Window{0, size}
	wrap := Window{size / 4, size}
	for _, tc := range []struct {
		id                   PolicyID
		empty, nowrap, whole []Range
		wrapped              []Range
	}{
		{Coherent, nil, nil, nil, nil},
		{NoSync, nil, nil, nil, nil},
		{TwoChunks, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{size / 4, 3 * size / 4}, {0, size / 4}}},
		{WholeWhenFull, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{0, size}}},
		{WrongWrap, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{size / 4, 3 * size / 4}}},
	} {
		p, err := LookupPolicy(string(tc.id))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			w    Window
			want []Range
		}{{Window{}, tc.empty}, {noWrap, tc.nowrap}, {full, tc.whole}, {wrap, tc.wrapped}} {
			if got := p.Syncs(c.w, size); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: syncs for %+v = %+v, want %+v", tc.id, c.w, got, c.want)
			}
		}
	}
}

// The correct cacheable policies sync every byte of the data; the wrong
// wrap sync misses exactly the head part.
func TestCorrectPoliciesCoverTheData(t *testing.T) {
	const size = 64 << 10
	for written := uint64(0); written <= 3*size; written += 4096 + 16 {
		w := AfterWriting(size, written).Window(size)
		for _, id := range []PolicyID{TwoChunks, WholeWhenFull, WrongWrap} {
			p, _ := LookupPolicy(string(id))
			covered := make([]bool, size)
			for _, r := range p.Syncs(w, size) {
				for i := r.Off; i < r.End(); i++ {
					covered[i] = true
				}
			}
			missed := uint64(0)
			for _, c := range w.Chunks(size) {
				for i := c.Off; i < c.End(); i++ {
					if !covered[i] {
						missed++
					}
				}
			}
			want := uint64(0)
			if id == WrongWrap && w.Wraps(size) {
				want = w.Offset + w.Len - size
			}
			if missed != want {
				t.Fatalf("%s, %d written: %d data bytes not synced, want %d", id, written, missed, want)
			}
		}
	}
}

func TestUnknownPolicy(t *testing.T) {
	_, err := LookupPolicy("cached-maybe")
	if err == nil || !strings.Contains(err.Error(), "cached-maybe") || !strings.Contains(err.Error(), string(WholeWhenFull)) {
		t.Fatalf("error %v", err)
	}
	if _, err := New().Run(nil, "nope"); err == nil || !strings.Contains(err.Error(), "policy") {
		t.Fatalf("Run with unknown policy: %v", err)
	}
}

func TestSpecPoliciesMatchTable(t *testing.T) {
	spec := New().Spec()
	if len(spec.Policies) != len(Policies()) {
		t.Fatal("spec and policy table differ")
	}
	for i, p := range Policies() {
		sp := spec.Policies[i]
		if sp.ID != string(p.ID) || sp.Bug != p.Bug || sp.Title == "" || sp.Help == "" {
			t.Errorf("policy %d: spec %+v, table %+v", i, sp, p)
		}
	}
	if spec.DefaultA != string(Coherent) || spec.DefaultB != string(WholeWhenFull) || spec.DefaultPreset != "juno-r2" {
		t.Errorf("defaults %s / %s / %s", spec.DefaultA, spec.DefaultB, spec.DefaultPreset)
	}
	for _, d := range spec.Params {
		switch d.Name {
		case "scenario", "a", "b", "t", "speed", "align", "panel", "embed", "zoom":
			t.Errorf("parameter %q uses a reserved URL key", d.Name)
		}
	}
}
