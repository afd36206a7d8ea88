package smmubypass

import (
	"testing"
)

// BenchmarkDefaultRun is one default run (100,000 packets) of each side,
// without the working-set chart.
func BenchmarkDefaultRun(b *testing.B) {
	s := New()
	spec := s.Spec()
	p, _ := spec.Defaults()
	c, err := parse(spec, p)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		for _, pol := range []string{PolicyOff, PolicyOn} {
			if _, err := runConfig(c, pol, true); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRun is Scenario.Run of one side (with the chart's extra runs).
func BenchmarkRun(b *testing.B) {
	s := New()
	p, _ := s.Spec().Defaults()
	for i := 0; i < b.N; i++ {
		if _, err := s.Run(p, PolicyOn); err != nil {
			b.Fatal(err)
		}
	}
}
