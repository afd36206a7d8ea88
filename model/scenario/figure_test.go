package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Classify marks a reference calibrated exactly when a preset parameter
// or a scenario constant is fitted to its id.
func TestClassifyFromProvenance(t *testing.T) {
	sp := &Spec{ID: "s", References: []Reference{
		{Metric: "t_us", Policy: "a"},
		{Metric: "t_us", Pair: PairRatio},
		{Metric: "n", Pair: PairChange},
	}}
	assert.Equal(t, "s/t_us/a", FigureID("s", &sp.References[0]))
	assert.Equal(t, "s/t_us/ratio", FigureID("s", &sp.References[1]))
	assert.Equal(t, "s/n/change", FigureID("s", &sp.References[2]))
	sp.Constants = []provenance.Param{{Entry: provenance.Fit("s.frag", "s/n/change", "solved")}}
	sp.Classify([]provenance.Entry{
		provenance.Fit("dram.latency", "s/t_us/a", "solved"),
		provenance.Assume("l2.latency", 1, 2, "why"),
		provenance.Fit("core.mlp", "other/t_us/a", "solved"),
	})
	assert.Equal(t, []string{"dram.latency"}, sp.References[0].Fitted)
	assert.Equal(t, Calibrated, sp.References[0].Kind())
	assert.Empty(t, sp.References[1].Fitted)
	assert.Equal(t, Prediction, sp.References[1].Kind())
	assert.Equal(t, []string{"s.frag"}, sp.References[2].Fitted)
}
