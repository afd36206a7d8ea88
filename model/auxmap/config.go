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
	ratio     float64 // the small free blocks' order ratio
	rate      float64 // trace bytes per second (TRBE: the parameter; SPE: its records')
	interval  int     // SPE sampling interval in operations
	burst     uint64
	iters     int
	code      uint64 // the traced program's code bytes (whole pages)
	ws        uint64 // trbe: the branch test's data bytes (whole pages)
	bs        uint64 // spe: dd's block size
	count     int    // spe: dd's blocks per iteration
	preset    string
	hw        soc.Config
}

// SPE's records and dd's operations (their provenance: provenance.go).
const (
	// speRecord is the bytes SPE writes per sample. PMSIDR_EL1.MaxSize
	// bounds a record (the largest rounded up to a power of two; every
	// record is exactly that when it equals PMBIDR_EL1.Align; the driver
	// reads it as max_record_sz, drivers/perf/arm_spe_pmu.c).
	speRecord = 64
	// ddSyscallOps are the operations of one dd block besides clearing
	// its buffer: read(2) of /dev/zero and write(2) of /dev/null (entry and
	// exit, vfs_read/read_zero, vfs_write/write_null) and dd's own loop.
	ddSyscallOps = 2000
	// clearOpsPer8B: read_zero clears the user buffer with clear_user
	// (drivers/char/mem.c), 3 operations per 8 bytes in
	// arch/arm64/lib/clear_user.S's loop. Later versions store 16 or 64
	// bytes per iteration: an upper bound.
	clearOpsPer8B = 3
	// opsPerCycle is the rate the core runs dd at.
	opsPerCycle = 1.0
)

// ddBlockOps is the operations one dd block of bs bytes takes.
func ddBlockOps(bs uint64) float64 {
	return ddSyscallOps + clearOpsPer8B*float64((bs+7)/8)
}

// ddBlockTime is the time one dd block takes on the preset's core.
func (c config) ddBlockTime() float64 {
	return ddBlockOps(c.bs) / (opsPerCycle * float64(c.hw.Clocks.CPU))
}

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
		ratio:     full.Float(ParamShape),
		burst:     uint64(full.Int(ParamBurst)),
		iters:     int(full.Int(ParamIterations)),
		code:      uint64(full.Int(ParamCode)),
		preset:    full.Text(ParamPreset),
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
	if c.code%mem.PageSize != 0 {
		return config{}, fmt.Errorf("%s: %s is not a whole number of 4KiB pages", ParamCode, scenario.FormatBytes(int64(c.code)))
	}
	hw, err := platform.LookupWith(c.preset, full.Hardware())
	if err != nil {
		return config{}, err
	}
	if !hw.TLB.Enabled || hw.TLB.L1I.Entries == 0 {
		return config{}, fmt.Errorf("%s: %s has no translation model for the core's data and instruction sides", ParamPreset, c.preset)
	}
	c.hw = hw
	work := []memPart{{ParamCode, c.code}}
	if s.unit == TRBE {
		c.rate = full.Float(ParamRate) * 1e6
		c.ws = uint64(full.Int(ParamWorkingSet))
		if c.ws%mem.PageSize != 0 {
			return config{}, fmt.Errorf("%s: %s is not a whole number of 4KiB pages", ParamWorkingSet, scenario.FormatBytes(int64(c.ws)))
		}
		work = append(work, memPart{ParamWorkingSet, c.ws})
	} else {
		c.interval = int(full.Int(ParamInterval))
		c.bs = uint64(full.Int(ParamBS))
		c.count = int(full.Int(ParamCount))
		// SPE writes a record per sample, a sample per interval operations.
		c.rate = ddBlockOps(c.bs) / c.ddBlockTime() / float64(c.interval) * speRecord
		work = append(work, memPart{ParamBS, c.bufPages() * mem.PageSize})
	}
	if err := c.checkMemory(work, uint64(s.Spec().Param(ParamAUX).Min)); err != nil {
		return config{}, err
	}
	if err := c.checkBound(); err != nil {
		return config{}, err
	}
	return c, nil
}

// bufPages is the pages of dd's buffer: bs bytes, page aligned (GNU dd
// allocates its input buffer page aligned and reuses it for every block).
func (c config) bufPages() uint64 { return (c.bs + mem.PageSize - 1) / mem.PageSize }

// speBytes is what SPE writes in one iteration: a record per sample, a
// sample every interval operations of count dd blocks.
func (c config) speBytes() float64 {
	return float64(c.count) * ddBlockOps(c.bs) / float64(c.interval) * speRecord
}
