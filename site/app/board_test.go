package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/site/control"
)

// onBoard is the panel for query with the boards the page gives it: the
// presets' parameters and the machine's own check.
func onBoard(t *testing.T, query string) *App {
	t.Helper()
	a := New(catalog.Registry(), query)
	require.Empty(t, a.Messages)
	a.Hardware = Hardware{Params: platform.Parameters}
	return a
}

func field(t *testing.T, gs []BoardGroup, path string) (BoardGroup, BoardField) {
	t.Helper()
	for _, g := range gs {
		for _, f := range g.Fields {
			if f.Param.Path == path {
				return g, f
			}
		}
	}
	require.Failf(t, "no field", "%s is not in the Board section", path)
	return BoardGroup{}, BoardField{}
}

// The section lists every parameter of the preset once, grouped by unit
// in the schema's order, each with its provenance, then the scenario's
// constants (fixed unless its runs take them as overrides).
func TestBoardGroupsEveryParameterByUnit(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	gs := a.BoardGroups()
	var ids []string
	n := 0
	for _, g := range gs {
		ids = append(ids, g.ID)
		n += len(g.Fields)
	}
	want, err := platform.Parameters("juno-r2")
	require.NoError(t, err)
	assert.Equal(t, []string{"clocks", "core", "l1d", "l2", "l3", "prefetch", "dram", "nc", "maint",
		"tlb.l1", "tlb.l1i", "tlb.l2", "tlb.trace", "tlb.walk", "tlb", "mem", "etr"}, ids)
	assert.Equal(t, len(want)+len(a.Spec.Constants), n, "every parameter once")

	g, l2 := field(t, gs, "l2.size")
	assert.Equal(t, "L2 cache", g.Title)
	assert.Equal(t, "hw.l2.size", l2.Key)
	assert.Equal(t, provenance.Measured, l2.Param.Kind)
	assert.Contains(t, l2.Param.Source, "juno-r2.dts")
	assert.Equal(t, "1MiB", l2.Text)
	assert.False(t, l2.Own)
	assert.False(t, l2.Fixed)
	_, lat := field(t, gs, "l2.latency")
	assert.Equal(t, provenance.Assumed, lat.Param.Kind)
	assert.Equal(t, "range [12, 21] cycles: no A53 L2 latency measurement found", lat.Param.Describe())
	_, dram := field(t, gs, "dram.latency")
	assert.Equal(t, provenance.Fitted, dram.Param.Kind)
	g, width := field(t, gs, "etr.width")
	assert.Equal(t, "The scenario's own constants", g.Title)
	assert.True(t, width.Fixed, "a scenario's constant is shown, not edited")
	assert.Equal(t, "16 B", width.Text)
}

// An edit becomes the override hw.<path> with the text it shows, is marked
// as the user's and changes the runs' key (so the sides re-run) and the
// headline chart's; the preset's own value, a reset or a reset of all
// drop it.
func TestABoardEditIsTheUsersUntilReset(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	req0, err := a.Plan()
	require.NoError(t, err)
	head0 := a.HeadlineKey()

	require.True(t, a.SetBoard("l2.size", "2MiB"), "an edit asks for a run")
	assert.Equal(t, scenario.Value{Num: 2 << 20, Text: "2MiB"}, a.State.Params["hw.l2.size"])
	_, f := field(t, a.BoardGroups(), "l2.size")
	assert.True(t, f.Own)
	assert.Equal(t, "2MiB", f.Text)
	assert.Equal(t, "1MiB", f.Param.Text, "the preset's value stays beside it")
	assert.Equal(t, 1, a.BoardOwn())
	req1, err := a.Plan()
	require.NoError(t, err)
	assert.NotEqual(t, req0.Key, req1.Key, "the runs' key names the board")
	assert.NotEqual(t, head0, a.HeadlineKey(), "the headline chart's key names the board")
	assert.False(t, a.SetBoard("l2.size", "2048k"), "the same value again is no change")

	require.True(t, a.SetBoard("dram.latency", "0.1us"))
	assert.Equal(t, "100ns", a.State.Params.Text("hw.dram.latency"))
	require.True(t, a.ResetBoard("dram.latency"))
	assert.NotContains(t, a.State.Params, "hw.dram.latency")
	assert.Equal(t, 1, a.BoardOwn())

	require.True(t, a.SetBoard("l2.size", "1MiB"), "the preset's own value drops the override")
	assert.NotContains(t, a.State.Params, "hw.l2.size")
	assert.Equal(t, head0, a.HeadlineKey())

	require.True(t, a.SetBoard("l2.ways", "8"))
	require.True(t, a.SetBoard("clocks.cpu", "1.2GHz"))
	assert.Equal(t, "1200MHz", a.State.Params.Text("hw.clocks.cpu"))
	require.True(t, a.ResetBoard(""))
	assert.Zero(t, a.BoardOwn())
	assert.False(t, a.ResetBoard(""), "nothing left to reset")
}

// A value the board cannot take is refused with a message naming the
// field and what it allows; the field keeps the text, the runs keep the
// value they had.
func TestABadBoardValueNamesTheFieldAndWhatItTakes(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	require.True(t, a.SetBoard("l2.size", "2MiB"))
	for _, c := range []struct{ path, text, msg string }{
		{"l2.size", "lots", `hw.l2.size: "lots" is not a size such as 64B, 32KiB, 2MiB`},
		{"l2.size", "3MiB", "hw.l2.size: 3MiB gives 3072 sets of 1KiB (ways x line_bytes), not a power of two; allowed a power-of-two number of sets"},
		{"l2.ways", "0", "hw.l2.ways: 0 is out of range; allowed 1..4096"},
		{"l2.policy", "fifo", `hw.l2.policy: "fifo" is not allowed; allowed lru, plru or random`},
		{"dram.latency", "-5ns", `hw.dram.latency: -5 ns is out of range; allowed 0..1 s`},
		{"nope", "1", "hw.nope: not a value of juno-r2's board"},
	} {
		assert.False(t, a.SetBoard(c.path, c.text), "%s=%s asked for a run", c.path, c.text)
		assert.Contains(t, a.Errors["hw."+c.path], c.msg)
	}
	assert.Equal(t, "2MiB", a.State.Params.Text("hw.l2.size"), "the running value")
	_, f := field(t, a.BoardGroups(), "l2.size")
	assert.Equal(t, "3MiB", f.Text, "the field keeps what was typed")
	assert.NotEmpty(t, f.Err)
	assert.NotContains(t, a.State.Params, "hw.l2.ways")

	require.True(t, a.ResetBoard("l2.size"))
	_, f = field(t, a.BoardGroups(), "l2.size")
	assert.Empty(t, f.Err, "a reset clears the message")
	assert.Equal(t, "1MiB", f.Text)
}

// Another preset keeps the user's values it has and drops the others; the
// lesson and paper sizes keep them all.
func TestTheBoardFollowsThePresetAndTheSize(t *testing.T) {
	a := onBoard(t, "?scenario=etr&preset=dimensity-9500")
	require.True(t, a.SetBoard("l3.ways", "8"), a.Errors["hw.l3.ways"])
	require.True(t, a.SetBoard("l2.size", "4MiB"), a.Errors["hw.l2.size"])
	require.True(t, a.SetParam("preset", "juno-r2"))
	assert.NotContains(t, a.State.Params, "hw.l3.ways", "juno-r2 has no L3")
	require.Len(t, a.Messages, 1)
	assert.Equal(t, "hw.l3.ways: juno-r2's board does not take 8; using its own value", a.Messages[0])
	assert.Contains(t, a.State.Params, "hw.l2.size")
	assert.Equal(t, "juno-r2", a.Preset())
	a.SetSize(scenario.SizeLesson)
	assert.Contains(t, a.State.Params, "hw.l2.size", "a size change keeps the board")
}

// The runs take the edited board: a smaller L2 changes the copy's time.
func TestARunTakesTheEditedBoard(t *testing.T) {
	a := onBoard(t, "?scenario=etr&size=lesson")
	run := func() float64 {
		t.Helper()
		req, err := a.Plan()
		require.NoError(t, err)
		ra, rb, err := req.Run(t.Context(), nil)
		require.NoError(t, err)
		a.SetResults(req, ra, rb, nil)
		v, ok := rb.Metric("update_etr_buffer_us")
		require.True(t, ok)
		return v
	}
	before := run()
	require.True(t, a.SetBoard("l2.latency", "60 cycles"))
	assert.NotEqual(t, before, run(), "the cached copy does not see a slower L2")
}

// Values are typed with their unit, a larger or smaller one, or none;
// enumerations by name. The field then shows the canonical text a link
// carries.
func TestBoardValuesTakeUnits(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	for _, c := range []struct{ path, text, shown string }{
		{"l2.size", "2MiB", "2MiB"},
		{"l2.size", "512k", "512KiB"},
		{"dram.latency", "95ns", "95ns"},
		{"dram.latency", "0.1 us", "100ns"},
		{"clocks.cpu", "1.2GHz", "1200MHz"},
		{"dram.bandwidth", "800MB/s", "0.8GB/s"},
		{"l2.latency", "21 cycles", "21"},
		{"l2.policy", "random", "random"},
		{"maint.ivac_cleans", "false", "false"},
	} {
		require.True(t, a.SetBoard(c.path, c.text), "%s %q: %s", c.path, c.text, a.Errors["hw."+c.path])
		_, f := field(t, a.BoardGroups(), c.path)
		assert.Equal(t, c.shown, f.Text, "%s %q", c.path, c.text)
		assert.Equal(t, c.shown, a.State.Params.Text("hw."+c.path), "%s %q", c.path, c.text)
	}
	for _, c := range []struct{ path, text string }{
		{"l2.size", "2 lines"}, {"dram.latency", "95 furlongs"}, {"clocks.cpu", ""}, {"maint.ivac_cleans", "maybe"},
	} {
		assert.False(t, a.SetBoard(c.path, c.text), "%s %q", c.path, c.text)
		assert.True(t, strings.HasPrefix(a.Errors["hw."+c.path], "hw."+c.path+": "), a.Errors["hw."+c.path])
	}
}

// The URL carries the user's values as hw.<path> keys and a link with
// them opens the same board.
func TestTheLinkCarriesTheBoard(t *testing.T) {
	a := onBoard(t, "?scenario=etr")
	require.True(t, a.SetBoard("l2.size", "2MiB"))
	q := a.Query(control.Snapshot{})
	assert.Contains(t, q, "hw.l2.size=2MiB")
	b := onBoard(t, "?"+q)
	_, f := field(t, b.BoardGroups(), "l2.size")
	assert.True(t, f.Own)
	assert.Equal(t, "2MiB", f.Text)
	require.True(t, a.ResetBoard(""))
	assert.NotContains(t, a.Query(control.Snapshot{}), "hw.")
}
