package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/render"
	"github.com/dmaviz/dmaviz/site/control"
)

func TestBadURLValuesBecomeMessagesAndDefaults(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&buffer=huge&a=nope&speed=99")
	require.Equal(t, "demo", a.State.Scenario, "scenario")
	require.NotNil(t, a.Spec, "no spec for the scenario")
	joined := strings.Join(a.Messages, "\n")
	for _, key := range []string{"buffer", "a:", "speed"} {
		assert.Contains(t, joined, key, "messages do not name %q", key)
	}
	assert.Equal(t, a.Spec.DefaultA, a.State.A, "bad values did not fall back to defaults: A")
	assert.Equal(t, a.Spec.Param("buffer").Default, a.Texts["buffer"], "bad values did not fall back to defaults: buffer")
}

func TestSetParamKeepsTheRunningValueOnError(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&buffer=16KiB")
	require.False(t, a.SetParam("buffer", "1GiB"), "an out-of-range value asked for a run")
	msg := a.Errors["buffer"]
	require.Contains(t, msg, "buffer", "the error does not name the field")
	require.Contains(t, msg, "4KiB..4MiB", "the error does not name the range")
	require.Equal(t, "1GiB", a.Texts["buffer"], "what the field shows")
	require.Equal(t, "16KiB", a.State.Params.Text("buffer"), "the running value")
	require.True(t, a.SetParam("buffer", "64k"), "a valid change did not ask for a run")
	require.Empty(t, a.Errors["buffer"], "after a valid value: error")
	require.Equal(t, "64KiB", a.Texts["buffer"], "after a valid value: text")
	require.False(t, a.SetParam("buffer", "65536"), "the same value asked for another run")
}

// TestAChangeToBAloneKeepsA: changing B's policy re-runs B only, and A's
// result is the same object, unchanged; swapping A and B re-runs nothing;
// a parameter change re-runs both; a failed run keeps nothing.
func TestAChangeToBAloneKeepsA(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo")
	run := func() (Request, *scenario.Result, *scenario.Result) {
		t.Helper()
		req, err := a.Plan()
		require.NoError(t, err)
		ra, rb, err := req.Run(t.Context(), nil)
		require.NoError(t, err)
		a.SetResults(req, ra, rb, nil)
		return req, ra, rb
	}
	req, ra, rb := run()
	assert.Equal(t, [2]bool{true, true}, req.Sides(), "the first run simulates both sides")
	before := fmt.Sprint(ra.Metrics, ra.Checks, ra.End, len(ra.Narration))
	other := ""
	for _, p := range a.Spec.Policies {
		if p.ID != a.State.A && p.ID != a.State.B {
			other = p.ID
		}
	}
	require.NotEmpty(t, other, "demo needs a third policy for this test")

	require.True(t, a.SetPolicy(1, other))
	req, ra2, rb2 := run()
	assert.Equal(t, [2]bool{false, true}, req.Sides(), "a change to B alone simulates A again")
	assert.Same(t, ra, ra2, "A's result was replaced")
	assert.Same(t, ra, a.A)
	assert.Equal(t, before, fmt.Sprint(ra.Metrics, ra.Checks, ra.End, len(ra.Narration)), "A's result changed")
	assert.NotSame(t, rb, rb2)
	assert.Equal(t, other, rb2.Policy)

	require.True(t, a.SwapPolicies())
	req, ra3, rb3 := run()
	assert.Equal(t, [2]bool{false, false}, req.Sides(), "swapping A and B simulates something")
	assert.Same(t, rb2, ra3, "after the swap A shows B's result")
	assert.Same(t, ra, rb3, "after the swap B shows A's result")

	require.True(t, a.SetParam("buffer", "64KiB"))
	req, _, _ = run()
	assert.Equal(t, [2]bool{true, true}, req.Sides(), "a parameter change re-runs both sides")

	a.SetResults(req, nil, nil, errors.New("boom"))
	assert.Nil(t, a.A, "failed run: earlier results kept")
	assert.Empty(t, a.Rows(), "failed run: earlier rows kept")
	req, err := a.Plan()
	require.NoError(t, err)
	assert.Equal(t, [2]bool{true, true}, req.Sides(), "after a failure nothing is kept")
}

func TestQueryCarriesTheViewAndLinksLeaveEmbedMode(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=demo&embed=1")
	snap := control.Snapshot{Cursor: 1500 * sim.Nanosecond, Speed: 2, Zoom: render.Zoom{First: 8, Count: 16}}
	q := a.Query(snap)
	for _, want := range []string{"scenario=demo", "t=1.5us", "speed=2", "zoom=8%3A16", "embed=1"} {
		assert.Contains(t, q, want, "query")
	}
	assert.NotContains(t, a.LinkQuery(snap), "embed", "link query")
	assert.True(t, a.State.Embed, "LinkQuery left embed mode on the page itself")
	b := New(catalog.Registry(), q)
	assert.Empty(t, b.Messages, "round trip: messages")
	assert.Equal(t, 16, b.State.ZoomCount, "round trip: zoom count in %+v", b.State)
	assert.Equal(t, snap.Cursor, b.State.Cursor, "round trip: cursor in %+v", b.State)
}

func TestSetScenarioAndPolicies(t *testing.T) {
	a := New(catalog.Registry(), "")
	assert.False(t, a.SetScenario(a.State.Scenario), "choosing the same scenario asked for a run")
	assert.False(t, a.SetScenario("nope"), "an unknown scenario was accepted")
	assert.NotEmpty(t, a.Messages, "an unknown scenario was accepted silently")
	last := a.Spec.Policies[len(a.Spec.Policies)-1].ID
	changed := a.SetPolicy(1, last)
	assert.True(t, changed || a.State.B == last, "policy B did not change to %q (B is %q)", last, a.State.B)
	assert.False(t, a.SetPolicy(0, "nope"), "an unknown policy was accepted")
	before := a.State
	if a.SwapPolicies() {
		assert.Equal(t, [2]string{before.B, before.A}, [2]string{a.State.A, a.State.B}, "swap did not exchange A and B")
	}
}

func TestEmbedCodeEscapes(t *testing.T) {
	code := EmbedCode("https://x.org/dmaviz/index.html", "scenario=demo&b=cacheable-no-sync")
	require.Contains(t, code, `src="https://x.org/dmaviz/index.html?scenario=demo&amp;b=cacheable-no-sync&amp;embed=1"`, "embed code")
	require.Equal(t, "http://h/p/index.html", PageURL("http://h/p/index.html?a=1#x"), "PageURL kept the query")
}

type panicky struct{ scenario.Scenario }

func (panicky) Run(context.Context, scenario.Params, string, *scenario.Pacer) (*scenario.Result, error) {
	panic("index out of range")
}

func TestAModelPanicBecomesAFailedRun(t *testing.T) {
	reg := catalog.Registry()
	s, _ := reg.Get("demo")
	req := Request{Scenario: panicky{s}, Policy: [2]string{"x", "y"}}
	ra, rb, err := req.Run(t.Context(), nil)
	require.ErrorContains(t, err, "internal error in scenario demo: index out of range", "Run's error")
	require.Nil(t, ra, "Run's result A after a panic")
	require.Nil(t, rb, "Run's result B after a panic")
}

// The size switch is one call: every parameter takes the size's value, the
// policies stay, the link names the size, and switching scenario keeps it.
func TestSetSize(t *testing.T) {
	a := New(catalog.Registry(), "?scenario=etr&b=cached-no-sync")
	require.Equal(t, scenario.SizeLesson, a.State.Size, "a bare visit opens at the lesson size")
	require.Equal(t, "16KiB", a.Texts["buffer"])
	assert.False(t, a.SetSize(scenario.SizeLesson), "the same size asked for a run")
	require.True(t, a.SetSize(scenario.SizePaper))
	assert.Equal(t, scenario.SizePaper, a.State.Size)
	for name, want := range map[string]string{"buffer": "4MiB", "aux": "4MiB", "laps": "1", "rate": "1000"} {
		assert.Equal(t, want, a.Texts[name], name)
		assert.Equal(t, want, a.State.Params.Text(name), name)
	}
	assert.Equal(t, "cached-no-sync", a.State.B, "the policies stay")
	assert.Contains(t, a.Query(control.Snapshot{}), "size=paper&buffer=4MiB")
	require.True(t, a.SetParam("buffer", "1MiB"))
	require.True(t, a.SetSize(scenario.SizeLesson), "back to the lesson resets the buffer")
	assert.Equal(t, "16KiB", a.Texts["buffer"])
	require.True(t, a.SetSize(scenario.SizePaper))
	require.True(t, a.SetScenario("sg-sync"))
	assert.Equal(t, scenario.SizePaper, a.State.Size, "switching scenario keeps the size")
	assert.Equal(t, "10MiB", a.State.Params.Text("total"))
}

// A visit whose URL names no time plays at once; a link to a moment, an
// embed and a reader who asked for reduced motion stay still.
func TestPlaysAtOnce(t *testing.T) {
	for _, c := range []struct {
		query   string
		reduced bool
		want    bool
	}{
		{"", false, true},
		{"?scenario=etr&buffer=1MiB", false, true},
		{"?scenario=etr&panel=collapsed", false, true},
		{"?scenario=etr", true, false},
		{"?scenario=etr&t=0", false, false},
		{"?scenario=etr&t=3us", false, false},
		{"?scenario=etr&embed=1", false, false},
		{"?scenario=etr&embed=1&autoplay=1", false, false},
	} {
		a := New(catalog.Registry(), c.query)
		assert.Equal(t, c.want, a.PlaysAtOnce(c.reduced), "%q (reduced motion %v)", c.query, c.reduced)
	}
}
