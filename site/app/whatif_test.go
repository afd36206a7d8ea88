package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The headline chart can vary a value of the board in place of the
// scenario's parameter: over the multiples of the current value the board
// takes, marked at the current value; names and zeros are not offered.
func TestTheHeadlineCanVaryABoardValue(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	paths := a.WhatIfPaths()
	assert.Contains(t, paths, "l2.size")
	assert.Contains(t, paths, "l2.latency")
	assert.NotContains(t, paths, "l2.policy", "a name has no multiples")
	assert.NotContains(t, paths, "l3.size", "juno-r2's L3 size is 0")
	own := a.HeadlineKey()

	assert.False(t, a.SetHeadlineVary("l2.policy"))
	assert.Contains(t, a.Messages, "the chart cannot vary l2.policy on juno-r2's board")
	require.True(t, a.SetHeadlineVary("l2.latency"))
	assert.False(t, a.SetHeadlineVary("l2.latency"), "no change")
	assert.NotEqual(t, own, a.HeadlineKey())
	assert.Contains(t, a.HeadlineKey(), "buffer=16KiB", "the scenario's parameter is held")

	req, ok := a.NextHeadline()
	require.True(t, ok)
	require.NotNil(t, req.Board)
	var texts []string
	for _, v := range req.Board.Values {
		texts = append(texts, v.Text)
	}
	assert.Equal(t, []string{"3.75", "7.5", "15", "30", "60"}, texts)
	ch, err := req.Run(t.Context(), func() {}, nil)
	require.NoError(t, err)
	require.NotNil(t, ch)
	assert.Equal(t, "l2.latency (cycles)", ch.XLabel)
	require.Len(t, ch.Series, 2)
	b := ch.Series[1].Points
	require.Len(t, b, 5)
	assert.Less(t, b[0].Y, b[4].Y, "the cached copy is slower with a slower L2")
	require.True(t, a.SetHeadline(req.Key, ch, false))
	assert.Equal(t, 15.0, a.HeadlineChart().Mark, "marked at the preset's value")
	require.True(t, a.SetBoard("l2.latency", "30"))
	require.NotNil(t, a.HeadlineChart(), "the chart stays for the user's value")
	assert.Equal(t, 30.0, a.HeadlineChart().Mark, "marked at the user's value")

	// Another preset without the value, or another scenario, varies the
	// scenario's parameter again.
	require.True(t, a.SetHeadlineVary(""))
	assert.Equal(t, "", a.HeadlineVary())
	require.True(t, a.SetHeadlineVary("l2.size"))
	require.True(t, a.SetScenario("sg-sync"))
	assert.Equal(t, "", a.HeadlineVary())
}
