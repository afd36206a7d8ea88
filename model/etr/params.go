package etr

import (
	"fmt"
	"math"

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
	if _, err := fmt.Sscan(full.Text(ParamWidth), &c.width); err != nil || c.width < 1 || c.width&(c.width-1) != 0 {
		return config{}, fmt.Errorf("%s: %q is not a power of two", ParamWidth, full.Text(ParamWidth))
	}
	if math.IsNaN(c.laps) || c.laps < 0 {
		return config{}, fmt.Errorf("%s: %v is out of range", ParamLaps, c.laps)
	}
	// The ETR writes whole 16-byte frames; RWP moves in frames.
	c.written = uint64(math.Round(c.laps*float64(c.size))) &^ (FrameAlign - 1)
	hw, err := platform.Lookup(c.preset)
	if err != nil {
		return config{}, err
	}
	if uint64(c.width) > uint64(hw.L1D.LineBytes) {
		return config{}, fmt.Errorf("%s: %d B is wider than the %s cache line (%d B)", ParamWidth, c.width, c.preset, hw.L1D.LineBytes)
	}
	if c.width < narrowMinWidth && c.size > narrowMaxBuffer {
		return config{}, fmt.Errorf("%s: %d B loads over a %s buffer take more than 2 s to simulate (each Normal-NC load is its own DRAM read); allowed %d B or wider above %s, or a buffer of at most %s",
			ParamWidth, c.width, scenario.FormatBytes(int64(c.size)), narrowMinWidth, scenario.FormatBytes(narrowMaxBuffer), scenario.FormatBytes(narrowMaxBuffer))
	}
	c.hw = hw
	return c, nil
}

// Narrow loads are bounded by the buffer they copy (issue 12: every
// allowed setting within 2 s natively, A then B): 4 and 8 B loads over a
// 64 MiB buffer took 2.0-2.2 s on neoverse-n1 (the coherent side's
// Normal-NC loads are each a DRAM read), 4 B over 32 MiB 1.3 s, and 16 B
// over 64 MiB 1.4-1.8 s.
const (
	narrowMinWidth  = 16
	narrowMaxBuffer = 32 << 20
)
