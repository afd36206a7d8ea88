package etr

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each policy's dma_sync_single_for_cpu calls for the window shapes that
// matter: empty, no wrap, exactly full, wrapped.
func TestPolicySyncRanges(t *testing.T) {
	const size = 1 << 20
	noWrap := Window{0, 3000}
	full := Window{0, size}
	wrap := Window{size / 4, size}
	for _, tc := range []struct {
		id                   PolicyID
		empty, nowrap, whole []Range
		wrapped              []Range
	}{
		{Coherent, nil, nil, nil, nil},
		{NoSync, nil, nil, nil, nil},
		{TwoChunks, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{size / 4, 3 * size / 4}, {0, size / 4}}},
		{WholeWhenFull, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{0, size}}},
		{WrongWrap, nil, []Range{{0, 3000}}, []Range{{0, size}}, []Range{{size / 4, 3 * size / 4}}},
	} {
		p, err := LookupPolicy(string(tc.id))
		require.NoError(t, err)
		for _, c := range []struct {
			w    Window
			want []Range
		}{{Window{}, tc.empty}, {noWrap, tc.nowrap}, {full, tc.whole}, {wrap, tc.wrapped}} {
			{
				got := p.Syncs(c.w, size)
				assert.Equal(t, c.want, got, "%s: syncs for %+v = %+v, want %+v", tc.id, c.w, got, c.want)
			}
		}
	}
}

// The correct cacheable policies sync every byte of the data; the wrong
// wrap sync misses exactly the head part.
func TestCorrectPoliciesCoverTheData(t *testing.T) {
	const size = 64 << 10
	for written := uint64(0); written <= 3*size; written += 4096 + 16 {
		w := AfterWriting(size, written).Window(size)
		for _, id := range []PolicyID{TwoChunks, WholeWhenFull, WrongWrap} {
			p, _ := LookupPolicy(string(id))
			covered := make([]bool, size)
			for _, r := range p.Syncs(w, size) {
				for i := r.Off; i < r.End(); i++ {
					covered[i] = true
				}
			}
			missed := uint64(0)
			for _, c := range w.Chunks(size) {
				for i := c.Off; i < c.End(); i++ {
					if !covered[i] {
						missed++
					}
				}
			}
			want := uint64(0)
			if id == WrongWrap && w.Wraps(size) {
				want = w.Offset + w.Len - size
			}
			require.Equal(t, want, missed, "%s, %d written: %d data bytes not synced, want %d", id, written, missed, want)
		}
	}
}

func TestUnknownPolicy(t *testing.T) {
	_, err := LookupPolicy("cached-maybe")
	require.Error(t, err, "error %v", err)
	require.Contains(t, err.Error(), "cached-maybe", "error %v", err)
	require.Contains(t, err.Error(), string(WholeWhenFull), "error %v", err)
	{
		_, err := New().Run(t.Context(), nil, "nope", nil)
		require.Error(t, err, "Run with unknown policy: %v", err)
		require.Contains(t, err.Error(), "policy", "Run with unknown policy: %v", err)
	}
}

func TestSpecPoliciesMatchTable(t *testing.T) {
	spec := New().Spec()
	require.Len(t, spec.Policies, len(Policies()), "spec and policy table differ")
	for i, p := range Policies() {
		sp := spec.Policies[i]
		assert.EqualValues(t, string(p.ID), sp.ID, "policy %d: spec %+v, table %+v", i, sp, p)
		assert.EqualValues(t, p.Bug, sp.Bug, "policy %d: spec %+v, table %+v", i, sp, p)
		assert.NotEqualValues(t, "", sp.Title, "policy %d: spec %+v, table %+v", i, sp, p)
		assert.NotEqualValues(t, "", sp.Help, "policy %d: spec %+v, table %+v", i, sp, p)
	}
	assert.EqualValues(t, string(Coherent), spec.DefaultA, "defaults %s / %s / %s", spec.DefaultA, spec.DefaultB, spec.DefaultPreset)
	assert.EqualValues(t, string(WholeWhenFull), spec.DefaultB, "defaults %s / %s / %s", spec.DefaultA, spec.DefaultB, spec.DefaultPreset)
	assert.EqualValues(t, "juno-r2", spec.DefaultPreset, "defaults %s / %s / %s", spec.DefaultA, spec.DefaultB, spec.DefaultPreset)
	for _, d := range spec.Params {
		switch d.Name {
		case "scenario", "a", "b", "t", "speed", "align", "panel", "embed", "zoom":
			assert.Fail(t, fmt.Sprintf("parameter %q uses a reserved URL key", d.Name))
		}
	}
}
