package sgsync

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dmaviz/dmaviz/model/dmaapi"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// kernelCost is the DMA API's own work per scatterlist entry, in core
// cycles, paid on every path (a coherent device included) and under both
// policies (dmaapi.EntryCost says what runs); assumed, provenance.go
// gives the ranges and why.
var kernelCost = dmaapi.EntryCost{Map: 52, Unmap: 52, Sync: 52, IOMMUMap: 78}

// kernelPath is one field of kernelCost by its constant's path.
type kernelPath struct {
	path string
	f    func(*dmaapi.EntryCost) *float64
}

// kernelPaths name kernelCost's fields as hardware overrides
// ("hw.sg-sync.kernel.map=104"), in cycles.
var kernelPaths = []kernelPath{
	{"sg-sync.kernel.map", func(e *dmaapi.EntryCost) *float64 { return &e.Map }},
	{"sg-sync.kernel.unmap", func(e *dmaapi.EntryCost) *float64 { return &e.Unmap }},
	{"sg-sync.kernel.sync", func(e *dmaapi.EntryCost) *float64 { return &e.Sync }},
	{"sg-sync.kernel.iommu_map", func(e *dmaapi.EntryCost) *float64 { return &e.IOMMUMap }},
}

// maxKernelCycles bounds an overridden per-entry cost (a run stays
// bounded: 2560 entries x 100000 cycles is 0.1 s at 2.6 GHz).
const maxKernelCycles = 100000

// kernelWith is kernelCost with the overrides own (the scenario's own
// hardware overrides by path); an unknown path or a value out of range
// is an error naming it.
func kernelWith(own map[string]float64) (dmaapi.EntryCost, error) {
	k := kernelCost
	for path, v := range own {
		i := slices.IndexFunc(kernelPaths, func(p kernelPath) bool { return p.path == path })
		if i < 0 {
			names := make([]string, len(kernelPaths))
			for j, p := range kernelPaths {
				names[j] = scenario.HardwarePrefix + p.path
			}
			return k, fmt.Errorf("%s%s: not a constant of sg-sync; allowed: %s", scenario.HardwarePrefix, path, strings.Join(names, ", "))
		}
		if math.IsNaN(v) || v < 0 || v > maxKernelCycles {
			return k, fmt.Errorf("%s%s: %g cycles is out of range; allowed 0..%d", scenario.HardwarePrefix, path, v, maxKernelCycles)
		}
		*kernelPaths[i].f(&k) = v
	}
	return k, nil
}
