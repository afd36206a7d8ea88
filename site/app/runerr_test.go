package app

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/site/control"
)

// A value the field takes must be one the run takes: the page-size rule is
// the schema's, so the field refuses it and names the rule.
func TestAFieldRefusesWhatTheRunWouldRefuse(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr")
	for _, text := range []string{"2000000B", "1000001", "65537"} {
		assert.False(t, a.SetParam("buffer", text), "%s asked for a run", text)
		assert.Contains(t, a.Errors["buffer"], "whole number of 4KiB pages", text)
		assert.Contains(t, a.Errors["buffer"], "16KiB..32MiB, whole 4KiB pages", text)
	}
	// Sizes are binary everywhere: 2mb is 2 MiB, a whole number of pages.
	require.True(t, a.SetParam("buffer", "2mb"))
	assert.Equal(t, "2MiB", a.Texts["buffer"])
	assert.Empty(t, a.Errors["buffer"])
	assert.Equal(t, "16KiB..32MiB, whole 4KiB pages", a.Spec.Param("buffer").Range())
	assert.Equal(t, "4KiB..256MiB, a power-of-two number of 4KiB pages", a.Spec.Param("aux").Range())
	assert.False(t, a.SetParam("aux", "12KiB"))
	assert.Contains(t, a.Errors["aux"], "power-of-two")
}

// A failed run clears the earlier results (metrics, hazards and stage agree)
// and the field the error names shows it; the next good run clears it.
func TestARunErrorIsShownBesideItsField(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr")
	req, err := a.Plan()
	require.NoError(t, err)
	ra, rb, err := req.Run(t.Context(), nil)
	require.NoError(t, err)
	a.SetResults(req, ra, rb, nil)
	require.NotEmpty(t, a.Rows())

	a.SetResults(req, nil, nil, errors.New("B (cached-no-sync): width: 64 B is wider than the juno-r2 cache line (32 B)"))
	assert.Empty(t, a.Rows(), "metrics of an earlier run stay beside a failed one")
	assert.Nil(t, a.A)
	assert.Equal(t, "width: 64 B is wider than the juno-r2 cache line (32 B)", a.Errors["width"])

	a.SetResults(req, ra, rb, nil)
	assert.Empty(t, a.Errors["width"], "the field keeps the error of a run that now succeeds")
}

func TestAnEmbedWithoutATimeOpensAtTheEnd(t *testing.T) {
	assert.Equal(t, control.CmdEnd, New(catalog.Registry(), "?scenario=etr&embed=1").FirstCursor().Kind)
	c := New(catalog.Registry(), "?scenario=etr&embed=1&t=2ms").FirstCursor()
	assert.Equal(t, control.CmdSeek, c.Kind)
	assert.Equal(t, int64(2_000_000_000), c.Int, "2ms in ps")
	assert.Equal(t, control.CmdSeek, New(catalog.Registry(), "?scenario=etr").FirstCursor().Kind, "the full page opens where the URL says (the start)")
}
