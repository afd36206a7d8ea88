//go:build !js

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseBench(t *testing.T) {
	out := []byte(`goos: linux
pkg: github.com/dmaviz/dmaviz/model/etr
BenchmarkETRDefault/coherent-2         	       1	  60955307 ns/op	    225176 events	        89.15 x_plain
BenchmarkCopy4MiB 	       3	   5410182 ns/op	  24235620 lines/s	        22.10 x_plain	  512 B/op	  3 allocs/op
BenchmarkCopy4MiB 	       4	   5000000 ns/op
--- FAIL: BenchmarkBroken
PASS
ok  	github.com/dmaviz/dmaviz/model/etr	0.402s
`)
	got := parseBench(out)
	require.Len(t, got, 2, "two benchmarks (the second Copy4MiB line replaces the first)")
	assert.Equal(t, "ETRDefault/coherent", got[0].name, "the -GOMAXPROCS suffix goes")
	assert.Equal(t, map[string]float64{"ns/op": 60955307, "events": 225176, "x_plain": 89.15}, got[0].values)
	assert.Equal(t, "Copy4MiB", got[1].name, "a js/wasm line has no suffix")
	assert.Equal(t, map[string]float64{"ns/op": 5000000}, got[1].values)
}
