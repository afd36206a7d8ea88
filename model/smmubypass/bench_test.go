package smmubypass

import (
	"testing"
	"time"
)

// Each benchmark also reports how many times slower it is than a plain Go
// loop doing one small step (an RNG step and a table update) per modelled
// transaction in the same run (x_plain), so native and WASM runs compare
// against a baseline measured alongside them.

var sink uint64

// plainLoop is the baseline: n steps of work a transaction costs at the
// least (a random number, a table slot, a time update).
func plainLoop(n int) {
	var tab [512]uint64
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		tab[x&511] += uint64(i)
	}
	sink += tab[x&511]
}

func report(b *testing.B, txns int) {
	simNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.StopTimer()
	plainLoop(txns)
	t0 := time.Now()
	for i := 0; i < max(b.N, 1); i++ {
		plainLoop(txns)
	}
	plainNs := float64(time.Since(t0).Nanoseconds()) / float64(max(b.N, 1))
	b.ReportMetric(simNs/plainNs, "x_plain")
	b.ReportMetric(float64(txns), "txns")
}

// BenchmarkDefaultRun is one default run (100,000 packets) of each side
// with the timeline recorded, without the working-set chart.
func BenchmarkDefaultRun(b *testing.B) {
	s := New()
	spec := s.Spec()
	p, _ := spec.Defaults()
	c, err := parse(spec, p)
	if err != nil {
		b.Fatal(err)
	}
	txns := 0
	for i := 0; i < b.N; i++ {
		txns = 0
		for _, pol := range []string{PolicyOff, PolicyOn} {
			res, err := runConfig(c, pol, true, nil)
			if err != nil {
				b.Fatal(err)
			}
			nic, _ := res.Metric("nic_reads")
			eng, _ := res.Metric("engine_reads")
			txns += int(2*nic + eng) // the NIC writes as many transactions as it reads
		}
	}
	report(b, txns)
}

// BenchmarkRun is Scenario.Run of one side (with the charts' extra runs).
func BenchmarkRun(b *testing.B) {
	s := New()
	p, _ := s.Spec().Defaults()
	for i := 0; i < b.N; i++ {
		if _, err := s.Run(b.Context(), p, PolicyOn, nil); err != nil {
			b.Fatal(err)
		}
	}
}
