//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/site/app"
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

// A shot "after a policy change" changes B to a policy it did not have,
// beside an A that differs from it: otherwise it shows nothing changed.
// An embed's "-policy" shot, which has no panel, names a pair whose sides
// differ and differs from its scenario's default pair.
func TestPolicyShotsChangeB(t *testing.T) {
	n := 0
	for _, s := range shots {
		if !strings.HasSuffix(s.name, "-policy") {
			continue
		}
		n++
		a := app.New(catalog.Registry(), strings.TrimPrefix(s.query, "?"))
		require.Empty(t, a.Messages, s.name)
		if s.policyB == "" {
			def := app.New(catalog.Registry(), "scenario="+a.State.Scenario)
			assert.NotEqual(t, a.State.A, a.State.B, "%s: A and B alike", s.name)
			assert.NotEqual(t, [2]string{def.State.A, def.State.B}, [2]string{a.State.A, a.State.B}, "%s: the default pair, no change", s.name)
			continue
		}
		assert.NotEqual(t, a.State.B, s.policyB, "%s: B already has %s", s.name, s.policyB)
		assert.NotEqual(t, a.State.A, s.policyB, "%s: B changes to A's policy", s.name)
		_, err := a.Spec.Policy(s.policyB)
		assert.NoError(t, err, "%s: B's new policy", s.name)
	}
	assert.Equal(t, 3, n, "the smmu-bypass policy shots")
}
