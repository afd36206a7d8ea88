package sweep

import (
	"context"
	"fmt"

	"github.com/dmaviz/dmaviz/model/scenario"
)

// fake is a scenario whose metrics are closed forms of its parameters, so
// the golden files pin the sweep's layout, not a model's figures.
type fake struct{}

func (fake) Spec() *scenario.Spec {
	return &scenario.Spec{
		ID: "fake", Title: "fake",
		Params: []scenario.Param{
			{Name: "size", Label: "Buffer size", Kind: scenario.KindBytes, Unit: "B", Default: "4KiB", Min: 1 << 10, Max: 1 << 20},
			{Name: "mode", Label: "Mode", Kind: scenario.KindChoice, Default: "a", Choices: []scenario.Choice{{Value: "a"}, {Value: "b"}}},
			{Name: "rate", Label: "Rate", Kind: scenario.KindFloat, Unit: "MB/s", Default: "1.5", Min: 0.5, Max: 8},
		},
		Policies: []scenario.Policy{{ID: "slow"}, {ID: "fast"}},
		DefaultA: "slow", DefaultB: "fast",
		References: []scenario.Reference{
			{Metric: "t_us", Policy: "slow", Value: 12, Tolerance: 0.1, Source: "fake figure"},
			{Metric: "t_us", Pair: scenario.PairRatio, Value: 3, Tolerance: 0.1, Source: "fake figure"},
		},
	}
}

func (f fake) Run(_ context.Context, p scenario.Params, policy string, _ *scenario.Pacer) (*scenario.Result, error) {
	p, err := f.Spec().Resolve(p)
	if err != nil {
		return nil, err
	}
	k := 1.0
	switch policy {
	case "slow":
		k = 3
	case "fast":
	default:
		return nil, fmt.Errorf("policy %q", policy)
	}
	if p.Text("mode") == "b" {
		k += 0.5
	}
	size := p.Float("size")
	m := []scenario.Metric{
		{Name: "t_us", Label: "time", Unit: "us", Value: size / 1024 * k * p.Float("rate") / 1.5},
		{Name: "lines", Label: "lines", Value: size / 64},
	}
	if policy == "fast" {
		m = append(m, scenario.Metric{Name: "only_fast", Label: "fast only", Value: 1})
	}
	return &scenario.Result{Scenario: "fake", Policy: policy, Metrics: m,
		Checks: []scenario.Metric{{Name: "stale_bytes", Unit: "B"}}}, nil
}
