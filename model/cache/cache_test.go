package cache

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/sim"
)

func newTest(t *testing.T, sets, ways int, p Policy) *Cache {
	t.Helper()
	c, err := New(Config{Name: "t", Size: sets * ways * 64, Ways: ways, LineBytes: 64, Policy: p}, sim.NewRNG(1))
	require.NoError(t, err)
	return c
}

type op struct {
	line  uint64
	write bool
}

func r(l uint64) op { return op{l, false} }
func w(l uint64) op { return op{l, true} }

// Set x way contents after a sequence of accesses, written as literal
// grids: "1a*" is line 0x1a dirty, "." an invalid way.
func TestGridLRU(t *testing.T) {
	cases := []struct {
		name    string
		policy  Policy
		ops     []op
		want    []string
		victims []string
	}{
		{"fill sets in order", LRU, []op{r(0), r(1), r(4), w(5)},
			[]string{
				"0 4",
				"1 5*",
				". .",
				". .",
			}, nil},
		{"lru evicts the least recently used", LRU, []op{r(0), r(4), r(0), r(8)},
			[]string{
				"0 8",
				". .",
				". .",
				". .",
			}, []string{"4"}},
		{"dirty victim reported", LRU, []op{w(2), r(6), r(0xa)},
			[]string{
				". .",
				". .",
				"a 6",
				". .",
			}, []string{"2*"}},
		{"write hit dirties in place", LRU, []op{r(3), r(7), w(3), r(0xb)},
			[]string{
				". .",
				". .",
				". .",
				"3* b",
			}, []string{"7"}},
		{"plru protects the last used way", PLRU, []op{r(0), r(4), r(0), r(8), r(0xc)},
			[]string{
				"c 8",
				". .",
				". .",
				". .",
			}, []string{"4", "0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := newTest(t, 4, 2, c.policy)
			var victims []string
			for _, o := range c.ops {
				if _, v := k.Access(o.line, o.write); v.Valid {
					s := fmt.Sprintf("%x", v.Line)
					if v.Dirty {
						s += "*"
					}
					victims = append(victims, s)
				}
			}
			{
				got := k.Grid()
				assert.Equal(t, c.want, got, "grid\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			assert.Equal(t, c.victims, victims, "victims %v, want %v", victims, c.victims)
		})
	}
}

func TestConfigValidation(t *testing.T) {
	ok := Config{Name: "l1d", Size: 32 << 10, Ways: 4, LineBytes: 64}
	require.NoError(t, ok.Validate())
	for _, c := range []struct {
		mut   func(*Config)
		field string
	}{
		{func(c *Config) { c.Ways = 0 }, "l1d.ways: 0 is out of range; allowed 1..64"},
		{func(c *Config) { c.LineBytes = 48 }, "l1d.line_bytes: 48 is not a power of two"},
		{func(c *Config) { c.Size = 0 }, "l1d.size"},
		{func(c *Config) { c.Size = 3 * 4 * 64 }, "power of two"},
		{func(c *Config) { c.Ways, c.Size, c.Policy = 5, 5*64*64, PLRU }, "plru"},
	} {
		cfg := ok
		c.mut(&cfg)
		_, err := New(cfg, sim.NewRNG(1))
		require.Error(t, err, "config %+v: error %v, want it to contain %q", cfg, err, c.field)
		assert.Contains(t, err.Error(), c.field, "config %+v: error %v, want it to contain %q", cfg, err, c.field)
	}
	{
		_, err := ParsePolicy("fifo")
		require.Error(t, err, "unknown policy accepted")
	}
}

func TestPrefetcherStride(t *testing.T) {
	p := NewPrefetcher(PrefetchConfig{Streams: 2, Degree: 4, Confirm: 2, MaxStride: 4, PageLines: 64})
	var got []string
	for _, l := range []uint64{100, 200, 101, 201, 102, 202, 103, 104} {
		if f, n, s := p.Train(l); n > 0 {
			got = append(got, fmt.Sprintf("%d:%d+%dx%d", l, f, n, s))
		}
	}
	want := []string{"102:103+4x1", "202:203+4x1", "103:107+1x1", "104:108+1x1"}
	require.Equal(t, want, got, "prefetches %v, want %v", got, want)
	// A stream stops at the 64-line page boundary.
	p = NewPrefetcher(PrefetchConfig{Streams: 1, Degree: 8, Confirm: 2, MaxStride: 4, PageLines: 64})
	p.Train(60)
	p.Train(61)
	{
		f, n, _ := p.Train(62)
		require.EqualValues(t, 63, f, "at page end: first %d count %d, want 63 1", f, n)
		require.EqualValues(t, 1, n, "at page end: first %d count %d, want 63 1", f, n)
	}
}

// Recent is Claim's hint hit: where it answers, a twin cache that Claims
// the same line instead ends in the same state.
func TestRecentMatchesClaim(t *testing.T) {
	for _, p := range []Policy{LRU, PLRU, Random} {
		a, b := newTest(t, 4, 4, p), newTest(t, 4, 4, p)
		rng := sim.NewRNG(7)
		hits := 0
		for i := 0; i < 2000; i++ {
			line := rng.Uint64n(64)
			if e := a.Recent(line); e >= 0 {
				hits++
				{
					f, hit := b.Claim(line, true)
					require.True(t, hit, "%v: Recent(%d) = %d, Claim = %d, %v", p, line, e, f, hit)
					require.Equal(t, e, f, "%v: Recent(%d) = %d, Claim = %d, %v", p, line, e, f, hit)
				}
				continue
			}
			ea, ha := a.Claim(line, true)
			eb, hb := b.Claim(line, true)
			require.Equal(t, eb, ea, "%v: Claim(%d) differs", p, line)
			require.Equal(t, hb, ha, "%v: Claim(%d) differs", p, line)
		}
		require.Equal(t, b.Grid(), a.Grid(), "%v: state differs after Recent", p)
		require.Equal(t, b.Repl, a.Repl, "%v: state differs after Recent", p)
		require.False(t, p == PLRU && hits == 0, "PLRU: Recent never hit")
	}
}
