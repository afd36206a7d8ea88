package etr

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
)

// config is one run's validated parameters.
type config struct {
	size    uint64 // ETR buffer bytes, whole pages
	written uint64 // trace bytes the ETR writes, whole frames
	laps    float64
	aux     uint64 // AUX ring bytes, power-of-two pages
	width   int
	rate    float64 // trace bytes per second
	prior   string
	barrier bool
	preset  string
	hw      soc.Config
}

// parse fills in defaults for absent parameters and checks every value
// and combination; errors name the parameter.
func parse(spec *scenario.Spec, p scenario.Params) (config, error) {
	full, err := spec.Resolve(p)
	if err != nil {
		return config{}, err
	}
	c := config{
		size:    uint64(full.Int(ParamBuffer)),
		laps:    full.Float(ParamLaps),
		aux:     uint64(full.Int(ParamAUX)),
		rate:    full.Float(ParamRate) * 1e6,
		prior:   full.Text(ParamPrior),
		barrier: full.Bool(ParamBarrier),
		preset:  full.Text(ParamPreset),
	}
	if c.size%mem.PageSize != 0 {
		return config{}, fmt.Errorf("%s: %s is not a whole number of 4KiB pages", ParamBuffer, scenario.FormatBytes(int64(c.size)))
	}
	if pages := c.aux / mem.PageSize; c.aux%mem.PageSize != 0 || pages&(pages-1) != 0 {
		return config{}, fmt.Errorf("%s: %s is not a power-of-two number of 4KiB pages (perf requires it); e.g. 1MiB, 4MiB", ParamAUX, scenario.FormatBytes(int64(c.aux)))
	}
	w, err := strconv.Atoi(full.Text(ParamWidth))
	c.width = w
	if err != nil || c.width < 1 || c.width&(c.width-1) != 0 {
		return config{}, fmt.Errorf("%s: %q is not a power of two", ParamWidth, full.Text(ParamWidth))
	}
	if math.IsNaN(c.laps) || c.laps < 0 {
		return config{}, fmt.Errorf("%s: %v is out of range", ParamLaps, c.laps)
	}
	// The ETR writes whole 16-byte frames; RWP moves in frames.
	c.written = uint64(math.Round(c.laps*float64(c.size))) &^ (FrameAlign - 1)
	hw, err := platform.LookupWith(c.preset, full.Hardware())
	if err != nil {
		return config{}, err
	}
	if uint64(c.width) > uint64(hw.L1D.LineBytes) {
		return config{}, fmt.Errorf("%s: %d B is wider than the %s cache line (%d B)", ParamWidth, c.width, c.preset, hw.L1D.LineBytes)
	}
	c.hw = hw
	return c, nil
}
