package urlstate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dmaviz/dmaviz/model/catalog"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/play"
)

func codec() *Codec { return &Codec{Registry: catalog.Registry(), DefaultScenario: "demo"} }

func TestRoundTrip(t *testing.T) {
	c := codec()
	st := c.Default()
	if st.Scenario != "demo" || st.A != "noncacheable" || st.B != "cacheable-sync" || st.Params.Text("buffer") != "16KiB" {
		t.Fatalf("default state %+v", st)
	}
	spec, _ := c.Registry.Get("demo")
	if err := spec.Spec().Set(st.Params, "buffer", "256KiB"); err != nil {
		t.Fatal(err)
	}
	if err := spec.Spec().Set(st.Params, "preset", "neoverse-n1"); err != nil {
		t.Fatal(err)
	}
	st.B = "cacheable-no-sync"
	st.Cursor = 12*sim.Microsecond + 500*sim.Nanosecond + 3
	st.Speed = -3
	st.Align = play.AlignProgress
	st.Collapsed = true
	st.Embed = true
	st.ZoomFirst, st.ZoomCount = 1024, 64
	q := c.Encode(st)
	want := "scenario=demo&a=noncacheable&b=cacheable-no-sync&buffer=256KiB&preset=neoverse-n1&t=12.500003us&speed=-3&align=progress&panel=collapsed&embed=1&zoom=1024%3A64"
	if q != want {
		t.Fatalf("Encode = %s\nwant     %s", q, want)
	}
	got, msgs := c.Decode("?" + q)
	if len(msgs) != 0 {
		t.Fatalf("messages %v", msgs)
	}
	if !reflect.DeepEqual(got, st) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, st)
	}
	// Defaults leave view settings out.
	if q := c.Encode(c.Default()); q != "scenario=demo&a=noncacheable&b=cacheable-sync&buffer=16KiB&preset=juno-r2" {
		t.Fatalf("default encoding %s", q)
	}
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
		{"a=cacheable-sync&a=noncacheable", "a", []string{"2 times"}, func(s State) bool { return s.A == "cacheable-sync" }},
	}
	for _, tc := range cases {
		st, msgs := c.Decode(tc.query)
		if len(msgs) != 1 || msgs[0].Key != tc.key {
			t.Errorf("%s: messages %v, want one for key %s", tc.query, msgs, tc.key)
			continue
		}
		for _, m := range tc.mention {
			if !strings.Contains(msgs[0].Text, m) {
				t.Errorf("%s: message %q does not mention %q", tc.query, msgs[0].Text, m)
			}
		}
		if !tc.check(st) {
			t.Errorf("%s: did not fall back: %+v", tc.query, st)
		}
	}
	// A bad value does not spoil the good ones next to it.
	st, msgs := c.Decode("buffer=8KiB&speed=x&b=cacheable-no-sync")
	if len(msgs) != 1 || st.Params.Text("buffer") != "8KiB" || st.B != "cacheable-no-sync" {
		t.Fatalf("mixed query: %+v %v", st, msgs)
	}
	if _, msgs := c.Decode("%zz=1&buffer=8KiB"); len(msgs) == 0 {
		t.Fatal("bad escape not reported")
	}
}

func TestNoParameterShadowsAReservedKey(t *testing.T) {
	for _, s := range catalog.Registry().All() {
		for _, d := range s.Spec().Params {
			for _, k := range ReservedKeys() {
				if d.Name == k {
					t.Errorf("scenario %s: parameter %q is a reserved URL key", s.Spec().ID, k)
				}
			}
		}
	}
}

func TestTimeFormat(t *testing.T) {
	for _, c := range []struct {
		t sim.Time
		s string
	}{{0, "0"}, {999, "999ps"}, {1000, "1ns"}, {12_500_000, "12.5us"}, {3*sim.Millisecond + 1000, "3.000001ms"}, {2 * sim.Second, "2s"}} {
		if got := FormatTime(c.t); got != c.s {
			t.Errorf("FormatTime(%d) = %q, want %q", c.t, got, c.s)
		}
		if back, err := ParseTime(c.s); err != nil || back != c.t {
			t.Errorf("ParseTime(%q) = %d, %v", c.s, back, err)
		}
	}
	for _, bad := range []string{"", "us", ".us", "1.2345ns", "-3us", "+3us", "1e3ns", "99999999999s", "5 parsecs"} {
		if v, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) = %d, want an error", bad, v)
		}
	}
	if v, err := ParseTime("5ms"); err != nil || v != 5*sim.Millisecond {
		t.Errorf("5ms = %d %v", v, err)
	}
	if v, err := ParseTime(".5us"); err != nil || v != 500*sim.Nanosecond {
		t.Errorf(".5us = %d %v", v, err)
	}
}

func TestEmptyRegistry(t *testing.T) {
	c := &Codec{}
	st, msgs := c.Decode("scenario=demo")
	if len(msgs) == 0 || st.Scenario != "" {
		t.Fatalf("empty registry: %+v %v", st, msgs)
	}
	_ = c.Encode(st)
}

// FuzzDecode checks that decoding never panics and that what it decodes,
// encoded again, decodes to the same state without messages.
func FuzzDecode(f *testing.F) {
	c := codec()
	for _, s := range []string{"", "scenario=demo&buffer=64KiB&t=3us", "a=%zz&&&=", "buffer=1e400", "t=9223372036854775807", "t=9223372s",
		"speed=-8&align=progress&panel=collapsed&embed=1", "zoom=3:4", "zoom=0:2147483647", "buffer=-0", "buffer=4.5KiB", "preset=neoverse-n1&preset="} {
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
