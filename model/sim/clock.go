package sim

// Clocks are the clock domains of one SoC. Each domain converts its own
// cycles to Time through its Freq, so a latency quoted in "platform cycles"
// (an SMMU, the interconnect) or "CPU cycles" (an L1 hit) is converted in one
// place and can be mixed with latencies quoted in nanoseconds.
type Clocks struct {
	// CPU is the core clock (cpu_cycles counts in it).
	CPU Freq
	// Platform is the interconnect/"platform" clock (CCI, CMN, SMMU TBU/TCU).
	Platform Freq
	// DRAM is the memory controller clock.
	DRAM Freq
}

// CPUCycles returns the duration of n CPU cycles.
func (c Clocks) CPUCycles(n float64) Time { return c.CPU.Cycles(n) }

// PlatformCycles returns the duration of n interconnect cycles.
func (c Clocks) PlatformCycles(n float64) Time { return c.Platform.Cycles(n) }

// DRAMCycles returns the duration of n memory-controller cycles.
func (c Clocks) DRAMCycles(n float64) Time { return c.DRAM.Cycles(n) }
