// Package smmubypass is the SMMU bypass caching scenario ("smmu-bypass"):
// what does a StreamID that matches no stream-match register cost per
// transaction on an Arm MMU-500, and what does caching the bypass decision
// in the TBU TLB (sACR.SMTNMB_TLBEN, set by Linux's arm_mmu500_reset)
// trade away?
//
// The model is package smmu on one global clock (the soc machine's event
// queue holds every master's next step and the SMMU's own). A NIC whose
// StreamID matches no SMR (USFCFG=0, so it bypasses) runs an l3fwd-like
// loop per packet: it reads the RX
// descriptor, writes the packet into its mbuf, writes the descriptor back;
// the core (the soc machine of the ls2088a preset, Cortex-A72) polls,
// reads the route in an rte_lpm tbl24 table through its caches and
// rewrites the header (a fixed per-packet cost, assumed); the NIC then
// reads the TX descriptor, reads the packet for transmit and writes the
// completion. Packets arrive at line rate with at most ring packets in
// flight. A second master, a crypto/storage engine on a translated stream
// behind the same TBU, reads random 64-byte blocks of its working set
// through a context bank with 4 KiB pages. Both compete for the TBU's TLB
// entries and walk slots and the TCU, and with the core's route lookups
// for the machine's DRAM channel: every agent is a step on the machine's
// event queue and asks DRAM when it gets there (smmu, soc.PortAccess).
//
// With the bit off every NIC transaction misses in the TBU and goes to the
// TCU and back; with it on the bypass is cached as an identity entry and
// hits in 2 cycles, but those entries take ways from the engine's
// translations. The engine's context bank is stage 1, stage 2 alone or
// nested (engine-stage), and the SMMU may be programmed wrongly
// (smmu-setup: conflicting SMRs, an unmapped page, CLIENTPD) to show each
// fault as an outcome. The bypass latencies are calibrated (two preset
// latencies, fitted); forward_pps and the engine's hit rate and latency
// are predictions.
package smmubypass

import (
	"fmt"

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

// Limits that keep every setting within the time and memory budget.
const (
	minPackets = 100
	maxPackets = 400000
	maxWS      = 256 << 20
)

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
			"StreamID matches nothing bypasses translation (sCR0.USFCFG=0), but on an MMU-500 the TBU next to it still " +
			"looks it up in its TLB and, missing, asks the shared TCU every time. sACR.SMTNMB_TLBEN lets the TBU cache " +
			"that bypass like a translation: the NIC's reads get faster, and its entries take TLB space from the " +
			"translated master behind the same TBU.",
		Params: []scenario.Param{
			{Name: "preset", Label: "Platform", Kind: scenario.KindChoice, Default: "ls2088a",
				Help:    "hardware preset (ls2088a is calibrated to this figure)",
				Choices: scenario.Choices("ls2088a", "NXP LS2088A (Cortex-A72, MMU-500)")},
			{Name: "packets", Label: "Packets", Kind: scenario.KindInt, Default: "100000",
				Help: fmt.Sprintf("packets forwarded (the averages settle after a few thousand); with large packets, small bursts or a fast engine fewer are allowed: a run models at most about %.3g million transactions, the NIC's and the engine's, so that both sides run in a few seconds in the page", maxRunTxns/1e6), Min: minPackets, Max: maxPackets},
			{Name: "packet", Label: "Packet size", Kind: scenario.KindBytes, Unit: "B", Default: "256",
				Help: "frame size; the payload is read and written in bursts", Min: 64, Max: 9216},
			{Name: "line-rate", Label: "Line rate", Kind: scenario.KindFloat, Unit: "Gbit/s", Default: "10",
				Help: "offered load (plus 20 B of preamble and gap per frame)", Min: 0.1, Max: 100},
			{Name: "ring", Label: "Packets in flight", Kind: scenario.KindInt, Default: "128",
				Help: "packets the NIC and core have in flight at once (RX ring entries in use)", Min: 1, Max: 4096},
			{Name: "burst", Label: "DMA burst", Kind: scenario.KindBytes, Unit: "B", Default: "256",
				Help: "bytes per NIC payload transaction (one TBU lookup each)", Min: 64, Max: 4096},
			{Name: "flows", Label: "Flows", Kind: scenario.KindInt, Default: "1024",
				Help: "distinct destination addresses (route-table entries the core reads)", Min: 1, Max: 65536},
			{Name: "cpu-work", Label: "Core work per packet", Kind: scenario.KindInt, Unit: "cycles", Default: "120",
				Help: "l3fwd's per-packet work besides the route lookup: polling, header rewrite, TX descriptor (assumed)", Min: 0, Max: 100000},
			{Name: "ws", Label: "Translated working set", Kind: scenario.KindBytes, Unit: "B", Default: "2MiB",
				Help: "bytes of IOVA space the engine reads at random (4 KiB pages)", Min: 16 << 10, Max: maxWS},
			{Name: "engine-rate", Label: "Engine read rate", Kind: scenario.KindFloat, Unit: "GB/s", Default: "1",
				Help: "the translated engine's offered read bandwidth (0: no second master); its reads count toward the run's bound on transactions, a read that misses the TLB or faults (engine-outside-mapping) more, and more again through a nested context bank, so such settings allow a lower rate", Min: 0, Max: 20},
			{Name: "engine-streams", Label: "Engine outstanding reads", Kind: scenario.KindInt, Default: "8",
				Help: "reads the engine keeps in flight", Min: 1, Max: 128},
			{Name: "nic-stream", Label: "NIC stream", Kind: scenario.KindChoice, Default: "unmatched",
				Help:    "unmatched: no SMR matches the NIC's StreamID; s2cr-bypass: an SMR matches and its S2CR says bypass (cached only with S2CRB_TLBEN)",
				Choices: scenario.Choices("unmatched", "no SMR matches (SMTNMB_TLBEN decides)", "s2cr-bypass", "matched, S2CR bypass (S2CRB_TLBEN decides)")},
			{Name: "s2crb", Label: "S2CRB_TLBEN", Kind: scenario.KindBool, Default: "true",
				Help: "sACR bit 10 (Linux sets it with SMTNMB_TLBEN): cache S2CR-bypass streams too"},
			{Name: "usfcfg", Label: "sCR0.USFCFG", Kind: scenario.KindBool, Default: "false",
				Help: "unmatched streams fault (sGFSR.USF) instead of bypassing: the NIC's transactions abort"},
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
