//go:build !js

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPick(t *testing.T) {
	all, err := pick("")
	require.NoError(t, err)
	assert.Len(t, all, len(shots), "no -only: every shot")
	seen := map[string]bool{}
	for _, s := range shots {
		assert.False(t, seen[s.name], "shot %s listed twice (one file would overwrite the other)", s.name)
		seen[s.name] = true
	}
	got, err := pick("smmu-1024x768, screenshot")
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "smmu-1024x768", got[0].name)
	assert.Equal(t, "screenshot", got[1].name)
	_, err = pick("screenshot,nope")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `-only: no shot named "nope"`)
}
