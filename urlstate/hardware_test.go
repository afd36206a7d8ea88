package urlstate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/catalog"
)

// A link's hw.* keys set the board: each value with its unit, written
// back canonically in the board's order, and decoded again to the same
// state.
func TestHardwareKeysRoundTrip(t *testing.T) {
	c := &Codec{Registry: catalog.Registry()}
	st, msgs := c.Decode("scenario=etr&hw.dram.latency=95ns&hw.l2.size=2MB&hw.clocks.cpu=1.2GHz&hw.l2.ways=8&hw.l2.policy=random&hw.tlb.l2.sizes=4K|2M")
	require.Empty(t, msgs)
	assert.Equal(t, 2097152.0, st.Params["hw.l2.size"].Num)
	assert.Equal(t, "2MiB", st.Params["hw.l2.size"].Text)
	assert.Equal(t, 1200.0, st.Params["hw.clocks.cpu"].Num)
	assert.Equal(t, 95.0, st.Params["hw.dram.latency"].Num)
	assert.Equal(t, 2.0, st.Params["hw.l2.policy"].Num)
	assert.Equal(t, map[string]float64{"dram.latency": 95, "l2.size": 2 << 20, "clocks.cpu": 1200, "l2.ways": 8, "l2.policy": 2, "tlb.l2.sizes": 4<<10 | 2<<20}, st.Params.Hardware())
	q := c.Encode(st)
	assert.Contains(t, q, "&preset=juno-r2&hw.clocks.cpu=1200MHz&hw.l2.size=2MiB&hw.l2.ways=8&hw.l2.policy=random&hw.dram.latency=95ns&hw.tlb.l2.sizes=4K%7C2M", "in the board's order, canonical")
	again, msgs := c.Decode(q)
	require.Empty(t, msgs)
	assert.Equal(t, st, again)
	assert.Equal(t, q, c.Encode(again))
}

// A bad hw.* key is one message naming it and what it allows; the board
// keeps the preset's value there and takes the good keys.
func TestHardwareKeyMessages(t *testing.T) {
	c := &Codec{Registry: catalog.Registry()}
	for _, tc := range []struct{ query, want string }{
		{"hw.l2.sise=2MiB", "hw.l2.sise: unknown hardware parameter; known in l2: l2.size, l2.ways, l2.line_bytes, l2.policy, l2.latency"},
		{"hw.quux.x=1", "hw.quux.x: unknown hardware parameter; units are clocks, core, l1d, l2"},
		{"hw.l2.size=3x", `hw.l2.size: "3x" is not a size such as 64B, 32KiB, 2MiB; using juno-r2's value`},
		{"hw.dram.latency=fast", `hw.dram.latency: "fast" is not a time such as 95ns or 0.1us`},
		{"hw.l2.policy=fifo", `hw.l2.policy: "fifo" is not allowed; allowed lru, plru or random`},
		{"hw.l2.ways=0", "hw.l2.ways: 0 is out of range; allowed 1.."},
		{"hw.clocks.cpu=1MHz", "hw.clocks.cpu: 1 MHz is out of range; allowed 10..10000"},
		{"hw.smmu.clock=700MHz", "hw.smmu.clock: juno-r2's board has no such unit"},
	} {
		st, msgs := c.Decode("scenario=etr&" + tc.query)
		if assert.Len(t, msgs, 1, tc.query) {
			assert.Contains(t, msgs[0].Text, tc.want, tc.query)
			assert.Less(t, len(msgs[0].Text), 300, tc.query)
		}
		assert.Empty(t, st.Params.Hardware(), "%s: a refused key is left out", tc.query)
	}
	st, msgs := c.Decode("scenario=etr&hw.l2.size=2MiB&hw.l2.ways=0")
	require.Len(t, msgs, 1)
	assert.Equal(t, map[string]float64{"l2.size": 2 << 20}, st.Params.Hardware(), "the good key stays")
	_, msgs = c.Decode("scenario=demo&hw.l2.size=2MiB")
	require.Len(t, msgs, 1)
	assert.Equal(t, "hw.l2.size: scenario demo runs on no board, so it takes no hw.* keys", msgs[0].Text)
}
