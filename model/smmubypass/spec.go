// Package smmubypass is the SMMU bypass caching scenario ("smmu-bypass"):
// what does a StreamID that matches no stream-match register cost per
// transaction on an Arm MMU-500, and what does caching the bypass decision
// in the TBU TLB (sACR.SMTNMB_TLBEN, set by Linux's arm_mmu500_reset)
// trade away?
//
// The model is package smmu on one global clock (the soc machine's event
// queue holds every master's next step and the SMMU's own). The workload
// is DPDK l3fwd as it is benchmarked on the LS2088A's DPAA2 (l3fwd.go):
// the NIC (DPAA2's WRIOP, on a StreamID that matches no SMR) writes each
// frame into a buffer from a hardware buffer pool with its annotation,
// and the queue manager stashes the first line of each into the polling
// core's cluster L2; the core (the soc machine of the ls2088a preset,
// Cortex-A72) polls bursts of frames, reads the annotation and the IPv4
// destination, looks the route up in rte_lpm's tbl24 through its caches
// and rewrites the Ethernet header; the NIC then reads the frame to
// transmit it. There are no descriptor rings in DRAM: frame descriptors
// travel through the queue manager's portals, which the model leaves to
// the core's per-packet work. Frames arrive at line rate with at most
// ring of them in flight. A second master, a crypto/storage engine on a
// translated stream behind the same TBU, reads random 64-byte blocks of
// its working set through a context bank with 4 KiB pages. Both compete
// for the TBU's TLB entries and walk slots and the TCU; below the SMMU
// every read is answered by the machine's one memory system
// (soc.Machine.IOAccess): a snoop of the core's caches, the L3 or DRAM.
//
// With the bit off every NIC transaction misses in the TBU and goes to the
// TCU and back; with it on the bypass is cached as an identity entry and
// hits in 2 cycles, but those entries take ways from the engine's
// translations. The engine's context bank is stage 1, stage 2 alone or
// nested (engine-stage), and the SMMU may be programmed wrongly
// (smmu-setup: conflicting SMRs, an unmapped page, CLIENTPD) to show each
// fault as an outcome. Of the published figure, the bit-off latency is
// calibrated (the preset's TBU-TCU link is fitted to it); the bit-on
// latency, forward_pps and the engine's hit rate and latency are
// predictions.
package smmubypass

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// Policy ids.
const (
	PolicyOff = "smtnmb-tlben-off"
	PolicyOn  = "smtnmb-tlben-on"
)

// figureSource is where the published figure comes from.
const figureSource = "iommu: arm-smmu: Set SMTNMB_TLBEN in ACR to enable caching of bypass entries — NXP LS2088A, DPDK l3fwd traffic"

// smmu-setup choices: how the stream table and context bank are
// programmed.
const (
	SetupNormal   = "normal"
	SetupConflict = "conflicting-smrs"       // a second SMR (ID 0, MASK 0xff, S2CR bypass) also matches the engine
	SetupOutside  = "engine-outside-mapping" // the last page of the engine's window is not mapped
	SetupClientPD = "clientpd"               // sCR0.CLIENTPD=1
)

// engine-stage choices: the engine's context bank.
const (
	StageS1     = "s1"
	StageS2     = "s2"
	StageNested = "nested"
)

// paperDisableBypass is the published figure's arm-smmu.disable_bypass:
// 0 (false), unmatched StreamIDs bypass. The measurement (2016-17)
// predates commit 954a03be033c (v5.2), which made disable_bypass=1 the
// mainline default, and NXP's MC-based SoCs (LS2088A among them) kept
// needing disable_bypass=0 after it ("bus: fsl-mc: make mc work with smmu
// disable bypass on", 2019). It is the scenario's default so that the
// published comparison runs as measured; disable-bypass=true shows
// mainline's default (smmu.Reset's zero value).
const paperDisableBypass = false

// Limits that keep every setting within the time and memory budget.
const (
	minPackets = 100
	maxPackets = 400000
	maxWS      = 256 << 20
	minTBUTLB  = 8
	maxTBUTLB  = 4096
	// maxInFlight bounds the NIC transactions the frames in flight may
	// have issued at once (ring x transactions per frame): with the bit
	// off and the walk slots taken they all wait in the TBU, each a
	// record of the SMMU's (about 60 MB at this bound).
	maxInFlight = 300000
)

// tbuTLBChoices are the TBU TLB sizes tbu-tlb allows: powers of two (the
// TLB's sets are), minTBUTLB..maxTBUTLB.
func tbuTLBChoices() []scenario.Choice {
	var out []scenario.Choice
	for n := minTBUTLB; n <= maxTBUTLB; n *= 2 {
		out = append(out, scenario.Choice{Value: fmt.Sprint(n), Label: fmt.Sprintf("%d entries", n)})
	}
	return out
}

// Scenario is the SMMU bypass scenario. The zero value is ready to use.
type Scenario struct{}

// New returns the scenario.
func New() *Scenario { return &Scenario{} }

// Spec describes the scenario.
func (*Scenario) Spec() *scenario.Spec {
	sp := &scenario.Spec{
		ID:         "smmu-bypass",
		Lesson:     lesson,
		LessonNote: lessonNote,
		Title:      "SMMU bypass caching (MMU-500 SMTNMB_TLBEN): latency gained, TLB space lost",
		Explanation: "Every transaction a master sends through an Arm SMMU carries a StreamID. The SMMU compares it " +
			"with its stream-match registers (SMRs); the matching S2CR says translate, bypass or fault. A NIC whose " +
			"StreamID matches nothing bypasses translation when sCR0.USFCFG=0, but on an MMU-500 the TBU next to it still " +
			"looks it up in its TLB and, missing, asks the shared TCU every time. sACR.SMTNMB_TLBEN lets the TBU cache " +
			"that bypass like a translation: the NIC's reads get faster, and its entries take TLB space from the " +
			"translated master behind the same TBU. The workload is DPDK l3fwd on the LS2088A's DPAA2 as it is " +
			"benchmarked: 64-byte frames at 10 Gbit/s, bursts of 32, an LPM route lookup. Mainline Linux boots with " +
			"arm-smmu.disable_bypass=1 (since v5.2): an unmatched StreamID then faults (\"Blocked unknown Stream ID\") " +
			"and every frame is dropped. The published figure ran with disable_bypass=0 (it predates that default, and " +
			"NXP's LS2088A needed it), so that is this scenario's default; disable-bypass=true shows mainline's.",
		Params: []scenario.Param{
			{Name: "preset", Label: "Platform", Kind: scenario.KindChoice, Default: "ls2088a",
				Help:    "hardware preset: a board whose MMU-500 the model has runs it (ls2088a: its TBU-TCU link is fitted to the bit-off figure); any other says which SMMUs it has and why the scenario cannot use them",
				Choices: scenario.Choices(platform.NameTitles()...)},
			{Name: "packets", Label: "Packets", Kind: scenario.KindInt, Default: "100000",
				Help: fmt.Sprintf("frames offered (the averages settle after a few thousand); with large frames, small DMA bursts or a fast engine fewer are allowed: a run models at most about %.3g million transactions, the NIC's and the engine's, so that both sides run in a few seconds in the page", maxRunTxns/1e6), Min: minPackets, Max: maxPackets},
			{Name: "packet", Label: "Frame size", Kind: scenario.KindBytes, Unit: "B", Default: "64",
				Help: "Ethernet frame size (RFC 2544 throughput tests start at 64 B, l3fwd's usual benchmark point); the NIC writes and reads it in DMA bursts", Min: 64, Max: 9216},
			{Name: "line-rate", Label: "Line rate", Kind: scenario.KindFloat, Unit: "Gbit/s", Default: "10",
				Help: "offered load, one port (the LS2088A's DPAA2 ports are 10 Gbit/s; plus 20 B of preamble and gap per frame)", Min: 0.1, Max: 100},
			{Name: "ring", Label: "Frames in flight", Kind: scenario.KindInt, Default: "128",
				Help: "frames the NIC and core hold at once: l3fwd's nb_rxd (RTE_TEST_RX_DESC_DEFAULT 128), on DPAA2 the RX queue's tail-drop threshold in frames; the model holds further arrivals back instead of dropping them, so forward_pps is the no-loss rate", Min: 1, Max: 4096},
			{Name: "rx-burst", Label: "RX burst", Kind: scenario.KindInt, Default: "32",
				Help: "frames the core takes per poll (l3fwd's MAX_PKT_BURST 32); it processes them, then sends them together", Min: 1, Max: 256},
			{Name: "burst", Label: "DMA burst", Kind: scenario.KindBytes, Unit: "B", Default: "256",
				Help: "bytes per NIC data transaction (one TBU lookup each; assumed, 64..256 B for the DPAA2's WRIOP)", Min: 64, Max: 4096},
			{Name: "flows", Label: "Flows", Kind: scenario.KindInt, Default: "1024",
				Help: "destination addresses the tester cycles through, spread over l3fwd's 8 LPM routes (1.1.1.0/24 .. 8.1.1.0/24): the lookups read at most 8 tbl24 entries", Min: 1, Max: 65536},
			{Name: "cpu-work", Label: "Core work per packet", Kind: scenario.KindInt, Unit: "cycles", Default: "120",
				Help: "l3fwd's per-frame work besides the loads and stores modelled (the queue manager's dequeue and enqueue through its portal, the mbuf fields from the frame descriptor); assumed, 60..300 cycles", Min: 0, Max: 100000},
			{Name: "ws", Label: "Translated working set", Kind: scenario.KindBytes, Unit: "B", Default: "2MiB",
				Help: "bytes of IOVA space the engine reads at random (4 KiB pages)", Min: 16 << 10, Max: maxWS},
			{Name: "engine-rate", Label: "Engine read rate", Kind: scenario.KindFloat, Unit: "GB/s", Default: "1",
				Help: "the translated engine's offered read bandwidth (0: no second master); its reads count toward the run's bound on transactions, a read that misses the TLB or faults (engine-outside-mapping) more, and more again through a nested context bank, so such settings allow a lower rate", Min: 0, Max: 20},
			{Name: "engine-streams", Label: "Engine outstanding reads", Kind: scenario.KindInt, Default: "8",
				Help: "reads the engine keeps in flight", Min: 1, Max: 128},
			// The default is the preset's smmu.tbu.tlb_entries (its
			// provenance is the preset's table).
			{Name: "tbu-tlb", Label: "TBU TLB entries", Kind: scenario.KindChoice, Default: fmt.Sprint(platform.LS2088ASMMU().TLBEntries),
				Help:    fmt.Sprintf("entries of the TBU's TLB (%d-way; the preset's %d is assumed: the integration chooses it); a small TLB shows the cached bypass competing with the engine's translations", platform.LS2088ASMMU().TLBWays, platform.LS2088ASMMU().TLBEntries),
				Choices: tbuTLBChoices()},
			{Name: "nic-stream", Label: "NIC stream", Kind: scenario.KindChoice, Default: "unmatched",
				Help:    "unmatched: no SMR matches the NIC's StreamID; s2cr-bypass: an SMR matches and its S2CR says bypass (an identity domain; cached only with S2CRB_TLBEN)",
				Choices: scenario.Choices("unmatched", "no SMR matches (SMTNMB_TLBEN decides)", "s2cr-bypass", "matched, S2CR bypass (S2CRB_TLBEN decides)")},
			{Name: "s2crb", Label: "S2CRB_TLBEN", Kind: scenario.KindBool, Default: "true",
				Help: "sACR bit 10 (Linux sets it with SMTNMB_TLBEN): cache S2CR-bypass streams too"},
			{Name: "disable-bypass", Label: "arm-smmu.disable_bypass", Kind: scenario.KindBool, Default: fmt.Sprint(paperDisableBypass),
				Help: "true is mainline Linux's default since v5.2: an unmatched StreamID faults (sCR0.USFCFG=1, sGFSR.USF, \"Blocked unknown Stream ID\") and its frames are dropped; false (the default here) is how the published figure ran: it predates that default, and NXP's LS2088A needed disable_bypass=0"},
			{Name: "smmu-setup", Label: "SMMU programming", Kind: scenario.KindChoice, Default: SetupNormal,
				Help: "how the SMMU is programmed: normal, or a mistake whose outcome shows in the hazards list with its time and StreamID",
				Choices: scenario.Choices(
					SetupNormal, "normal: SMR 0 sends the engine to context bank 0",
					SetupConflict, "two SMRs match the engine (sGFSR.SMCF: its reads abort)",
					SetupOutside, "the engine reads a page its context bank does not map (FSR.TF)",
					SetupClientPD, "sCR0.CLIENTPD=1: SMMU off, every transaction bypasses (the engine's IOVAs go out untranslated)")},
			{Name: "engine-stage", Label: "Engine's translation", Kind: scenario.KindChoice, Default: StageS1,
				Help: "the engine's context bank: stage 1 (as Linux's DMA API uses it), stage 2 alone (the same walk in the model), or nested (a guest's stage 1 under a hypervisor's stage 2: each stage-1 descriptor address and the output are translated through stage 2, up to 24 descriptor reads a walk)",
				Choices: scenario.Choices(
					StageS1, "stage 1 (host DMA domain)",
					StageS2, "stage 2 only (same walk length)",
					StageNested, "nested: stage 1 under stage 2 (up to 24 reads a walk)")},
			{Name: "register-slices", Label: "TBU register slices", Kind: scenario.KindBool, Default: "false",
				Help: "the TBU's optional register slices: a hit takes 3 clocks instead of 2"},
			{Name: "seed", Label: "Seed", Kind: scenario.KindInt, Default: "1",
				Help: "seed for the engine's addresses and the flows", Min: 0, Max: 1 << 31},
		},
		Policies: []scenario.Policy{
			{ID: PolicyOff, Title: "SMTNMB_TLBEN off",
				Help: "sACR bit 8 clear (before the patch): every bypassed NIC transaction that misses in the TBU goes to the TCU"},
			{ID: PolicyOn, Title: "SMTNMB_TLBEN on",
				Help: "sACR bit 8 set (arm_mmu500_reset): the bypass is cached in the TBU TLB and competes with translations"},
		},
		DefaultA:      PolicyOff,
		DefaultB:      PolicyOn,
		DefaultPreset: "ls2088a",
		References: []scenario.Reference{
			{Metric: "bypass_read_latency_cycles", Policy: PolicyOff, Value: 140, Tolerance: 0.15, Source: figureSource},
			{Metric: "bypass_read_latency_cycles", Policy: PolicyOn, Value: 50, Tolerance: 0.15, Source: figureSource},
		},
		// The headline varies the working set within what the default 100,000
		// packets allow (past 2 MiB the bound asks for fewer packets; the
		// working-set chart scales its packets and goes further).
		Headline: &scenario.Headline{Metric: "translated_hit_rate", Vary: "ws=256KiB..2MiB:x2"},
	}
	return withProvenance(sp)
}
