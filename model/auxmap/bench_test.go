package auxmap

import (
	"testing"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// The default runs, both policies (the speed target: under 1 s
// natively for each scenario).
func BenchmarkDefaults(b *testing.B) {
	for _, s := range []*Scenario{NewTRBE(), NewSPE()} {
		b.Run(s.Spec().ID, func(b *testing.B) {
			for b.Loop() {
				for _, pol := range []string{Order0, PreferLarge} {
					if _, err := s.Run(scenario.Params{}, pol); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
