package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/provenance"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// onBoard is the panel for query with the boards the page gives it: the
// presets' parameters and the machine's own check.
func onBoard(t *testing.T, query string) *App {
	t.Helper()
	a := New(catalog.Registry(), query)
	require.Empty(t, a.Messages)
	a.Hardware = Hardware{Params: platform.Parameters, Check: func(preset string, hw map[string]float64) error {
		b, err := platform.BoardWith(preset, hw)
		if err != nil {
			return err
		}
		return b.Config.Validate()
	}}
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
	assert.Equal(t, "a size such as 2MiB or 64KiB", l2.Takes)
	assert.False(t, l2.Own)
	assert.False(t, l2.Fixed)
	_, lat := field(t, gs, "l2.latency")
	assert.Equal(t, provenance.Assumed, lat.Param.Kind)
	assert.Equal(t, "range [12, 21] cycles: no A53 L2 latency measurement found", lat.Param.Describe())
	_, dram := field(t, gs, "dram.latency")
	assert.Equal(t, provenance.Fitted, dram.Param.Kind)
	g, width := field(t, gs, "etr.width")
	assert.Equal(t, "The scenario's own constants", g.Title)
	assert.True(t, width.Fixed, "etr's runs take no constant as an override")

	sg := onBoard(t, "?scenario=sg-sync")
	_, k := field(t, sg.BoardGroups(), "sg-sync.kernel.map")
	assert.False(t, k.Fixed, "an overridable constant is editable")
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
	assert.Equal(t, "100 ns", a.State.Params.Text("hw.dram.latency"))
	require.True(t, a.ResetBoard("dram.latency"))
	assert.NotContains(t, a.State.Params, "hw.dram.latency")
	assert.Equal(t, 1, a.BoardOwn())

	require.True(t, a.SetBoard("l2.size", "1MiB"), "the preset's own value drops the override")
	assert.NotContains(t, a.State.Params, "hw.l2.size")
	assert.Equal(t, head0, a.HeadlineKey())

	require.True(t, a.SetBoard("l2.ways", "8"))
	require.True(t, a.SetBoard("clocks.cpu", "1.2GHz"))
	assert.Equal(t, "1200 MHz", a.State.Params.Text("hw.clocks.cpu"))
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
		{"l2.size", "lots", `hw.l2.size: "lots" is not a size such as 2MiB or 64KiB`},
		{"l2.size", "3MiB", "hw.l2.size: 3145728 gives 3072 sets; the set count must be a power of two"},
		{"l2.ways", "0", "hw.l2.ways: 0 is out of range; allowed 1..4096"},
		{"l2.policy", "fifo", `hw.l2.policy: "fifo" is not allowed; allowed lru, plru or random`},
		{"dram.latency", "-5ns", `hw.dram.latency: "-5ns" is out of range`},
		{"nope", "1", "hw.nope: not a hardware value this scenario's runs take"},
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

func TestParseHardwareTakesUnits(t *testing.T) {
	p := func(path, unit, text string) *provenance.Param {
		return &provenance.Param{Entry: provenance.Entry{Path: path}, Unit: unit, Text: text}
	}
	for _, c := range []struct {
		p     *provenance.Param
		text  string
		v     float64
		shown string
	}{
		{p("l2.size", "B", "1MiB"), "2MiB", 2 << 20, "2MiB"},
		{p("l2.size", "B", "1MiB"), "512k", 512 << 10, "512KiB"},
		{p("dram.latency", "ns", "124 ns"), "95ns", 95, "95 ns"},
		{p("dram.latency", "ns", "124 ns"), "0.1 us", 100, "100 ns"},
		{p("dram.latency", "ns", "124 ns"), "95", 95, "95 ns"},
		{p("clocks.cpu", "MHz", "950 MHz"), "1.2GHz", 1200, "1200 MHz"},
		{p("clocks.cpu", "MHz", "950 MHz"), "800 MHz", 800, "800 MHz"},
		{p("dram.bandwidth", "GB/s", "6.4 GB/s"), "800MB/s", 0.8, "0.8 GB/s"},
		{p("l2.latency", "cycles", "15 cycles"), "21 cycles", 21, "21 cycles"},
		{p("l2.ways", "", "16"), "8", 8, "8"},
		{p("l2.policy", "", "plru"), "Random", 2, "random"},
		{p("maint.ivac_cleans", "", "true"), "false", 0, "false"},
		{p("tlb.l1.sizes", "", "4K|64K|1M"), "4K, 64K, 2M", 1<<12 | 1<<16 | 1<<21, "4K|64K|2M"},
		{p("tlb.linear", "", "4K|2M|1G"), "4K|2M", 1 | 4, "4K|2M"},
	} {
		v, shown, err := ParseHardware(c.p, c.text)
		require.NoError(t, err, "%s %q", c.p.Path, c.text)
		assert.InDelta(t, c.v, v, 1e-9, "%s %q", c.p.Path, c.text)
		assert.Equal(t, c.shown, shown, "%s %q", c.p.Path, c.text)
	}
	for _, c := range []struct {
		p    *provenance.Param
		text string
	}{
		{p("l2.size", "B", "1MiB"), "2 lines"},
		{p("dram.latency", "ns", "124 ns"), "95 cycles"},
		{p("clocks.cpu", "MHz", "950 MHz"), ""},
		{p("tlb.l1.sizes", "", "4K"), "3K"},
		{p("tlb.linear", "", "4K"), "16K"},
		{p("maint.ivac_cleans", "", "true"), "maybe"},
	} {
		_, _, err := ParseHardware(c.p, c.text)
		if assert.Error(t, err, "%s %q", c.p.Path, c.text) {
			assert.Contains(t, err.Error(), "hw."+c.p.Path+": ")
		}
	}
}
