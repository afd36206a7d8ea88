package catalog

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

func TestEveryScenarioRegisters(t *testing.T) {
	r := &scenario.Registry{}
	for _, s := range all() {
		if err := r.Register(s); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := len(Registry().All()), len(all()); got != want {
		t.Fatalf("Registry has %d scenarios, want %d", got, want)
	}
	if _, err := Registry().Get("demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := Registry().Get("no-such"); err == nil {
		t.Fatal("unknown id accepted")
	}
}

func TestSpecsAreComplete(t *testing.T) {
	for _, s := range Registry().All() {
		spec := s.Spec()
		t.Run(spec.ID, func(t *testing.T) {
			if spec.Title == "" || spec.Explanation == "" {
				t.Error("missing title or explanation")
			}
			p, err := spec.Defaults()
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{spec.DefaultA, spec.DefaultB} {
				if _, err := spec.Policy(id); err != nil {
					t.Errorf("default policy: %v", err)
				}
			}
			if spec.DefaultPreset != "" {
				d := spec.Param("preset")
				if d == nil || d.Kind != scenario.KindChoice {
					t.Fatalf("DefaultPreset %q but no preset choice parameter", spec.DefaultPreset)
				}
				if _, err := d.Parse(spec.DefaultPreset); err != nil {
					t.Errorf("DefaultPreset: %v", err)
				}
			}
			seen := map[string]bool{}
			for _, d := range spec.Params {
				if seen[d.Name] || d.Name == "" {
					t.Errorf("parameter name %q empty or repeated", d.Name)
				}
				seen[d.Name] = true
			}
			for _, ref := range spec.References {
				if ref.Source == "" {
					t.Errorf("reference for %s has no source", ref.Metric)
				}
			}
			for _, id := range []string{spec.DefaultA, spec.DefaultB} {
				res, err := s.Run(p, id)
				if err != nil {
					t.Fatalf("Run(defaults, %s): %v", id, err)
				}
				for _, c := range []string{"stale_bytes", "lost_bytes"} {
					if _, ok := res.Metric(c); !ok {
						t.Errorf("%s: no %s check", id, c)
					}
				}
				if res.Timeline == nil || len(res.Timeline.Keyframes) == 0 {
					t.Errorf("%s: no timeline", id)
				}
			}
		})
	}
}
