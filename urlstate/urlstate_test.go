package urlstate

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
)

func codec() *Codec { return &Codec{Registry: catalog.Registry(), DefaultScenario: "demo"} }

func TestRoundTrip(t *testing.T) {
	c := codec()
	st := c.Default()
	type head struct{ Scenario, A, B, Buffer string }
	require.Equal(t, head{"demo", "noncacheable", "cacheable-sync", "4KiB"}, head{st.Scenario, st.A, st.B, st.Params.Text("buffer")}, "default state (the lesson size) %+v", st)
	require.Equal(t, scenario.SizeLesson, st.Size)
	spec, _ := c.Registry.Get("demo")
	require.NoError(t, spec.Spec().Set(st.Params, "buffer", "256KiB"))
	require.NoError(t, spec.Spec().Set(st.Params, "preset", "neoverse-n1"))
	st.B = "cacheable-no-sync"
	st.Cursor = 12*sim.Microsecond + 500*sim.Nanosecond + 3
	st.Speed = -3
	st.Align = play.AlignProgress
	st.Collapsed = true
	st.Embed = true
	st.ZoomFirst, st.ZoomCount = 1024, 64
	q := c.Encode(st)
	want := "scenario=demo&a=noncacheable&b=cacheable-no-sync&size=lesson&buffer=256KiB&preset=neoverse-n1&t=12.500003us&speed=-3&align=progress&panel=collapsed&embed=1&zoom=1024%3A64"
	require.Equal(t, want, q, "Encode")
	got, msgs := c.Decode("?" + q)
	require.Empty(t, msgs, "messages decoding %q", q)
	require.Equal(t, st, got, "round trip")
	// Defaults leave view settings out.
	require.Equal(t, "scenario=demo&a=noncacheable&b=cacheable-sync&size=lesson&buffer=4KiB&preset=juno-r2", c.Encode(c.Default()), "default encoding")
}

// size=lesson|paper chooses what the parameters the URL does not name
// take; without it a bare visit opens at the lesson size and a URL naming
// any parameter at the paper size (the defaults), as it did before sizes;
// a named parameter overrides either.
func TestSizes(t *testing.T) {
	c := &Codec{Registry: catalog.Registry()}
	for _, tc := range []struct {
		query string
		size  scenario.Size
		want  map[string]string // parameter values
	}{
		{"scenario=etr", scenario.SizeLesson, map[string]string{"buffer": "16KiB", "aux": "16KiB", "laps": "1.5", "rate": "4000"}},
		{"scenario=etr&a=coherent&embed=1&t=3us", scenario.SizeLesson, map[string]string{"buffer": "16KiB"}},
		{"scenario=etr&buffer=1MiB", scenario.SizePaper, map[string]string{"buffer": "1MiB", "aux": "4MiB", "laps": "1", "rate": "1000"}},
		{"scenario=etr&size=paper", scenario.SizePaper, map[string]string{"buffer": "4MiB", "aux": "4MiB", "laps": "1"}},
		{"scenario=etr&size=lesson&buffer=64KiB", scenario.SizeLesson, map[string]string{"buffer": "64KiB", "aux": "16KiB", "laps": "1.5"}},
		{"scenario=sg-sync&size=lesson", scenario.SizeLesson, map[string]string{"total": "16KiB", "entry": "2KiB", "cpu": "writes", "iterations": "1"}},
	} {
		st, msgs := c.Decode(tc.query)
		require.Empty(t, msgs, tc.query)
		assert.Equal(t, tc.size, st.Size, tc.query)
		for k, v := range tc.want {
			assert.Equal(t, v, st.Params.Text(k), "%s: %s", tc.query, k)
		}
		again, msgs := c.Decode(c.Encode(st))
		require.Empty(t, msgs, tc.query)
		assert.Equal(t, st, again, "%s: round trip through %s", tc.query, c.Encode(st))
		assert.Contains(t, c.Encode(st), "&size="+tc.size.String()+"&", "%s: the link names its size", tc.query)
	}
	st, msgs := c.Decode("scenario=etr&size=huge")
	require.Len(t, msgs, 1)
	assert.Equal(t, KeySize, msgs[0].Key)
	assert.Contains(t, msgs[0].Text, `size: "huge" is not allowed; allowed paper or lesson; using lesson`)
	assert.Equal(t, scenario.SizeLesson, st.Size)
	st, _ = c.Decode("scenario=etr&size=huge&laps=2")
	assert.Equal(t, scenario.SizePaper, st.Size, "a bad size falls back as if absent")
}

func TestBadValuesFallBackWithMessages(t *testing.T) {
	c := codec()
	def := c.Default()
	cases := []struct {
		query, key string
		mention    []string // the message must contain each
		check      func(State) bool
	}{
		{"scenario=etx", "scenario", []string{"scenario", "etx", "demo"}, func(s State) bool { return s.Scenario == "demo" }},
		{"a=fast", "a", []string{"fast", "noncacheable, cacheable-sync, cacheable-no-sync"}, func(s State) bool { return s.A == def.A }},
		{"b=", "b", []string{"allowed"}, func(s State) bool { return s.B == def.B }},
		{"buffer=1GiB", "buffer", []string{"buffer", "4KiB..4MiB"}, func(s State) bool { return s.Params.Text("buffer") == "16KiB" }},
		{"buffer=lots", "buffer", []string{"buffer", "4KiB..4MiB"}, func(s State) bool { return s.Params.Int("buffer") == 16<<10 }},
		{"preset=pdp11", "preset", []string{"preset", "juno-r2, neoverse-n1"}, func(s State) bool { return s.Params.Text("preset") == "juno-r2" }},
		{"t=soon", "t", []string{"t:", "12.5us"}, func(s State) bool { return s.Cursor == 0 }},
		{"t=-5us", "t", []string{"t:"}, func(s State) bool { return s.Cursor == 0 }},
		{"speed=99", "speed", []string{"speed", "-8..8"}, func(s State) bool { return s.Speed == 0 }},
		{"align=left", "align", []string{"align", "time or progress"}, func(s State) bool { return s.Align == play.AlignTime }},
		{"panel=gone", "panel", []string{"open or collapsed"}, func(s State) bool { return !s.Collapsed }},
		{"embed=yes", "embed", []string{"0 or 1"}, func(s State) bool { return !s.Embed }},
		{"zoom=5:0", "zoom", []string{"first:count"}, func(s State) bool { return s.ZoomCount == 0 }},
		{"zoom=-1:5", "zoom", []string{"first:count"}, func(s State) bool { return s.ZoomCount == 0 }},
		{"zoom=12", "zoom", []string{"first:count"}, func(s State) bool { return s.ZoomCount == 0 }},
		{"colour=red", "colour", []string{"unknown key", "buffer, preset"}, func(s State) bool { return true }},
		{"size=big", "size", []string{"size", "paper or lesson"}, func(s State) bool { return s.Size == scenario.SizeLesson }},
		{"a=cacheable-sync&a=noncacheable", "a", []string{"2 times"}, func(s State) bool { return s.A == "cacheable-sync" }},
	}
	for _, tc := range cases {
		st, msgs := c.Decode(tc.query)
		if !assert.Len(t, msgs, 1, "%s: want one message", tc.query) || !assert.Equal(t, tc.key, msgs[0].Key, "%s: the message's key", tc.query) {
			continue
		}
		for _, m := range tc.mention {
			assert.Contains(t, msgs[0].Text, m, "%s: the message does not mention %q", tc.query, m)
		}
		assert.True(t, tc.check(st), "%s: did not fall back: %+v", tc.query, st)
	}
	// A bad value does not spoil the good ones next to it.
	st, msgs := c.Decode("buffer=8KiB&speed=x&b=cacheable-no-sync")
	require.Len(t, msgs, 1, "mixed query: messages")
	require.Equal(t, "8KiB", st.Params.Text("buffer"), "mixed query: buffer")
	require.Equal(t, "cacheable-no-sync", st.B, "mixed query: B")
	_, msgs = c.Decode("%zz=1&buffer=8KiB")
	require.NotEmpty(t, msgs, "bad escape not reported")
}

func TestNoParameterShadowsAReservedKey(t *testing.T) {
	for _, s := range catalog.Registry().All() {
		for _, d := range s.Spec().Params {
			assert.NotContains(t, ReservedKeys(), d.Name, "scenario %s: parameter %q is a reserved URL key", s.Spec().ID, d.Name)
		}
	}
}

func TestTimeFormat(t *testing.T) {
	for _, c := range []struct {
		t sim.Time
		s string
	}{{0, "0"}, {999, "999ps"}, {1000, "1ns"}, {12_500_000, "12.5us"}, {3*sim.Millisecond + 1000, "3.000001ms"}, {2 * sim.Second, "2s"}} {
		assert.Equal(t, c.s, FormatTime(c.t), "FormatTime(%d)", c.t)
		back, err := ParseTime(c.s)
		assert.NoError(t, err, "ParseTime(%q)", c.s)
		assert.Equal(t, c.t, back, "ParseTime(%q)", c.s)
	}
	for _, bad := range []string{"", "us", ".us", "1.2345ns", "-3us", "+3us", "1e3ns", "99999999999s", "5 parsecs"} {
		v, err := ParseTime(bad)
		assert.Error(t, err, "ParseTime(%q) = %d, want an error", bad, v)
	}
	v, err := ParseTime("5ms")
	assert.NoError(t, err, "ParseTime(5ms)")
	assert.Equal(t, 5*sim.Millisecond, v, "ParseTime(5ms)")
	v, err = ParseTime(".5us")
	assert.NoError(t, err, "ParseTime(.5us)")
	assert.Equal(t, 500*sim.Nanosecond, v, "ParseTime(.5us)")
}

func TestEmptyRegistry(t *testing.T) {
	c := &Codec{}
	st, msgs := c.Decode("scenario=demo")
	require.NotEmpty(t, msgs, "empty registry: no message")
	require.Empty(t, st.Scenario, "empty registry: scenario")
	_ = c.Encode(st)
}

// FuzzDecode checks that decoding never panics and that what it decodes,
// encoded again, decodes to the same state without messages.
func FuzzDecode(f *testing.F) {
	c := codec()
	for _, s := range []string{"", "scenario=demo&buffer=64KiB&t=3us", "a=%zz&&&=", "buffer=1e400", "t=9223372036854775807", "t=9223372s",
		"speed=-8&align=progress&panel=collapsed&embed=1", "zoom=3:4", "zoom=0:2147483647", "buffer=-0", "buffer=4.5KiB", "preset=neoverse-n1&preset=",
		"scenario=etr&hw.l2.size=2MiB&hw.dram.latency=95ns", "scenario=etr&hw.clocks.cpu=1.1GHz&hw.l2.latency=15.5", "scenario=etr&hw.l2.ways=0&hw.l1d.size=4MiB",
		"scenario=sg-sync&hw.tlb.l2.sizes=4K|2M&hw.maint.dsb=1e3", "scenario=smmu-bypass&hw.smmu.tbu.tlb_entries=64&hw.dram.bandwidth=3e-300GB/s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		st, _ := c.Decode(q)
		again, msgs := c.Decode(c.Encode(st))
		if len(msgs) != 0 {
			t.Fatalf("re-decoding %q gave messages %v", c.Encode(st), msgs)
		}
		if !reflect.DeepEqual(again, st) {
			t.Fatalf("not stable:\n%+v\n%+v", st, again)
		}
	})
}
