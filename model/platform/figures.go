package platform

import (
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/provenance"
)

// Published figures that preset parameters are fitted to, by id
// ("<scenario>/<metric>/<policy>", or "ratio"/"change" for a figure
// about the default A/B pair: scenario.FigureID).
const (
	FigETRCoherent = "etr/update_etr_buffer_us/coherent"
	FigSGMap       = "sg-sync/map_sg_us/change"
	FigSMMUOff     = "smmu-bypass/bypass_read_latency_cycles/smtnmb-tlben-off"
)

// Short names for the tables.
var (
	measured = provenance.Measure
	derived  = provenance.Derive
	assumed  = provenance.Assume
	fitted   = provenance.Fit
)

// Sources the tables share.
const (
	srcModelLine  = "MODEL.md common hardware: 64-byte cache lines on every core modelled"
	srcLinear     = "arm64 Linux map_mem (arch/arm64/mm/mmu.c): RAM linearly mapped with 1 GiB and 2 MiB blocks where aligned, pages elsewhere (no rodata=full, no debug_pagealloc)"
	srcMaxOrder   = "Linux MAX_PAGE_ORDER = 10 for 4 KiB pages (include/linux/mmzone.h)"
	srcA76L1TLB   = "Cortex-A76 TRM (100798) A5.2.2: 'The data L1 TLB is a 48-entry fully associative TLB ... 4KB, 16KB, 64KB, 2MB, and 512MB granularity'"
	srcA76L1ITLB  = "Cortex-A76 TRM (100798) A5.2.1: the instruction L1 TLB, a '48-entry fully associative structure' holding 4KB, 16KB, 64KB, 2MB and 32MB entries"
	srcA76L2TLB   = "Cortex-A76 TRM (100798) A5.2.3 Table A5-3: '5-way, set associative, 1280-entry ... 4KB, 16KB, 64KB, 2MB, 32MB, 512MB, and 1GB block sizes ... usually takes three cycles'"
	srcA76IVAC    = "Cortex-A76 TRM (100798) A6.2.4: 'DC IVAC operations in AArch64 state are treated as DC CIVAC'; Arm ARM: at EL1 with HCR_EL2.{DC,VM} != 00 (a KVM guest) DC IVAC executes as DC CIVAC"
	whyPolicy     = "replacement policy not documented; range 0 (lru) .. 2 (random)"
	whyPolicyPR   = "replacement policy not documented; range 1 (plru) .. 2 (random)"
	whyNoCoalesce = "no coalescing documented for this core"
	whyL1IHit     = "the instruction L1 TLB's lookup time is not documented: taken inside the fetch latency (0), at most a cycle"
	whyNCBurst    = "no source says a 64-byte load issues as one non-cacheable burst"
	traceWays     = "= tlb.trace.entries (one entry: fully associative)"
	traceSizes    = "= tlb.l2.sizes (the trace unit's L1 TLB refills from the core's L2 TLB)"
	whyTraceShape = "the core has no trace unit writing through a TLB; the model's trace port keeps the C1-Ultra one-entry shape"
)

// sizes is an entry-size mask as a schema value.
func sizes(b ...uint64) float64 { return float64(mmu.Sizes(b...)) }
