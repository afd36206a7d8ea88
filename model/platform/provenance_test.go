package platform

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dmaviz/dmaviz/model/provenance"
)

// Every parameter of every preset's board has exactly one provenance
// entry, the entry is complete (a source, a figure or a range holding the
// value), and no entry names a parameter the board does not have.
func TestEveryPresetParameterHasProvenance(t *testing.T) {
	for _, name := range Names() {
		p, err := find(name)
		require.NoError(t, err)
		b := p.board()
		has := map[string]bool{}
		for i := range schema {
			s := &schema[i]
			if !s.applies(&b) {
				continue
			}
			has[s.path] = true
			e := p.entry(s.path)
			if !assert.NotEmpty(t, e.Path, "%s: %s has no provenance", name, s.path) {
				continue
			}
			assert.NoError(t, e.Check(s.get(&b)), "%s", name)
		}
		seen := map[string]bool{}
		for _, e := range p.table {
			assert.True(t, has[e.Path], "%s: provenance for %s, which the board does not have (or is not a schema path)", name, e.Path)
			assert.False(t, seen[e.Path], "%s: %s has two provenance entries", name, e.Path)
			seen[e.Path] = true
		}
	}
}

// Parameters returns every parameter of a board with its value and kind,
// and the kinds add up to the parameter count.
func TestParametersListsValuesAndKinds(t *testing.T) {
	ps, err := Parameters("juno-r2")
	require.NoError(t, err)
	byPath := map[string]provenance.Param{}
	for _, p := range ps {
		byPath[p.Path] = p
	}
	assert.Equal(t, 950.0, byPath["clocks.cpu"].Value)
	assert.Equal(t, "950 MHz", byPath["clocks.cpu"].Text)
	assert.Equal(t, 15.0, byPath["l2.latency"].Value, "l2.latency in CPU cycles")
	assert.Equal(t, 123.752, byPath["dram.latency"].Value, "dram.latency in ns")
	assert.Equal(t, "random", byPath["l1d.policy"].Text)
	assert.Equal(t, provenance.Fitted, byPath["dram.latency"].Kind)
	assert.Equal(t, FigETRCoherent, byPath["dram.latency"].Figure)
	assert.NotContains(t, byPath, "l3.ways", "juno-r2 has no L3: only its size (0) is a parameter")
	assert.NotContains(t, byPath, "smmu.link_cycles")
	n := 0
	for _, c := range provenance.Counts(ps) {
		n += c
	}
	assert.Equal(t, len(ps), n)
	_, err = Parameters("pentium")
	assert.ErrorContains(t, err, "juno-r2")
}

// Each preset's kinds, as `preset show` counts them (the report's "before"
// column; a change of kind shows here).
func TestProvenanceCounts(t *testing.T) {
	for _, name := range Names() {
		ps, err := Parameters(name)
		require.NoError(t, err)
		c := provenance.Counts(ps)
		t.Logf("%-15s %3d parameters: measured %d, derived %d, assumed %d, fitted %d", name, len(ps),
			c[provenance.Measured], c[provenance.Derived], c[provenance.Assumed], c[provenance.Fitted])
	}
}

// The schema reaches every field of the machine's and the SMMU's
// configuration: changing any field a preset sets changes some schema
// parameter's value, so a new field without a schema path (and so without
// provenance) fails here.
func TestSchemaCoversEveryConfigField(t *testing.T) {
	// Not hardware parameters: names, the translation model's switch, and
	// the kernel's vmap choice that scenarios set.
	skip := map[string]bool{"Name": true, "TLB.Enabled": true, "TLB.LargeVmap": true,
		"L1D.Name": true, "L2.Name": true, "L3.Name": true}
	fresh := func() Board {
		b, err := LookupBoard("ls2088a")
		require.NoError(t, err)
		return b
	}
	b0 := fresh()
	before := values(&b0)
	var names []string
	walkLeaves(reflect.ValueOf(&b0).Elem(), "", func(name string, _ reflect.Value) { names = append(names, name) })
	checked := 0
	for _, name := range names {
		if skip[strings.TrimPrefix(strings.TrimPrefix(name, "Config."), "SMMU.")] {
			continue
		}
		if strings.HasSuffix(name, "WalkCache[0].Ways") {
			continue // no level-0 walk cache (0 entries): the model ignores its ways
		}
		b := fresh()
		walkLeaves(reflect.ValueOf(&b).Elem(), "", func(n string, v reflect.Value) {
			if n == name {
				nudge(v)
			}
		})
		checked++
		assert.False(t, reflect.DeepEqual(before, values(&b)), "%s: no schema parameter reads it", name)
	}
	assert.Greater(t, checked, 60, "fields checked: %v", names)
}

// walkLeaves calls fn for every settable number, bool or string below v,
// named by its field path ("Config.TLB.Walk.WalkCache[2].Entries").
func walkLeaves(v reflect.Value, name string, fn func(name string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkLeaves(v.Elem(), name, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			n := f.Name
			if name != "" {
				n = name + "." + f.Name
			}
			walkLeaves(v.Field(i), n, fn)
		}
	case reflect.Array:
		for i := range v.Len() {
			walkLeaves(v.Index(i), fmt.Sprintf("%s[%d]", name, i), fn)
		}
	default:
		fn(name, v)
	}
}

// nudge changes a leaf to another valid-looking value.
func nudge(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int64: // a sim.Time: 1 ns, more than the getters' rounding
		v.SetInt(v.Int() + 1000)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float()*1.5 + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	}
}

// values reads every schema parameter of b.
func values(b *Board) map[string]float64 {
	out := map[string]float64{}
	for i := range schema {
		if s := &schema[i]; s.applies(b) {
			out[s.path] = s.get(b)
		}
	}
	return out
}
