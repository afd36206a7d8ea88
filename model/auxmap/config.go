package auxmap

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
	"github.com/dmaviz/dmaviz/model/soc"
)

// Seed is the run's RNG seed (the fragmentation draw). Fixed, so a URL
// always shows the same run.
const Seed = 1

// config is one run's validated parameters.
type config struct {
	unit      Unit
	aux       uint64 // AUX bytes, a power-of-two number of pages
	watermark uint64
	overwrite bool
	frag      float64
	rate      float64 // trace bytes per second (TRBE)
	interval  int     // SPE sampling interval in operations
	burst     uint64
	iters     int
	ws        uint64  // trbe: loop data bytes; spe: dd copy bytes
	copyRate  float64 // spe: dd bytes per second
	preset    string
	hw        soc.Config
}

// speRecord is the bytes SPE writes per sample (assumed: a typical
// record of address, latency and event packets).
const speRecord = 64

// bytesPerOp is what the dd copy moves per operation: 16-byte loads and
// stores, so one load and one store per 16 bytes.
const bytesPerOp = 8

// parse fills in defaults and checks every value and combination; errors
// name the parameter.
func (s *Scenario) parse(p scenario.Params) (config, error) {
	full, err := s.Spec().Resolve(p)
	if err != nil {
		return config{}, err
	}
	c := config{
		unit:      s.unit,
		aux:       uint64(full.Int(ParamAUX)),
		watermark: uint64(full.Int(ParamWatermark)),
		overwrite: full.Bool(ParamOverwrite),
		frag:      full.Float(ParamFrag),
		burst:     uint64(full.Int(ParamBurst)),
		iters:     int(full.Int(ParamIterations)),
		ws:        uint64(full.Int(ParamWorkingSet)),
		preset:    full.Text(ParamPreset),
	}
	if s.unit == TRBE {
		c.rate = full.Float(ParamRate) * 1e6
	} else {
		c.interval = int(full.Int(ParamInterval))
		c.copyRate = full.Float(ParamCopyRate) * 1e6
		c.rate = c.copyRate / bytesPerOp / float64(c.interval) * speRecord
	}
	if pages := c.aux / mem.PageSize; c.aux%mem.PageSize != 0 || pages&(pages-1) != 0 {
		return config{}, fmt.Errorf("%s: %s is not a power-of-two number of 4KiB pages (perf requires it); e.g. 512MiB, 1GiB", ParamAUX, scenario.FormatBytes(int64(c.aux)))
	}
	if c.watermark > c.aux {
		return config{}, fmt.Errorf("%s: %s is larger than the AUX buffer (%s); allowed 0..%s", ParamWatermark,
			scenario.FormatBytes(int64(c.watermark)), scenario.FormatBytes(int64(c.aux)), scenario.FormatBytes(int64(c.aux)))
	}
	if c.burst&(c.burst-1) != 0 {
		return config{}, fmt.Errorf("%s: %s is not a power of two; allowed 64B..4KiB", ParamBurst, scenario.FormatBytes(int64(c.burst)))
	}
	if c.ws%mem.PageSize != 0 {
		return config{}, fmt.Errorf("%s: %s is not a whole number of 4KiB pages", ParamWorkingSet, scenario.FormatBytes(int64(c.ws)))
	}
	hw, err := platform.LookupWith(c.preset, full.Hardware())
	if err != nil {
		return config{}, err
	}
	if !hw.TLB.Enabled {
		return config{}, fmt.Errorf("%s: %s has no translation model", ParamPreset, c.preset)
	}
	need := c.aux + 2*c.ws
	if need > hw.MemBytes/2 {
		return config{}, fmt.Errorf("%s: %s of AUX and workload pages is more than half of %s's %s of memory",
			ParamAUX, scenario.FormatBytes(int64(need)), c.preset, scenario.FormatBytes(int64(hw.MemBytes)))
	}
	c.hw = hw
	if err := c.checkBound(); err != nil {
		return config{}, err
	}
	return c, nil
}
