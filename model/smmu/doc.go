// Package smmu is an SMMUv2 / Arm CoreLink MMU-500 model: stream matching
// (SMRs and S2CRs in regs.go), context banks with page tables walked by
// the mmu walker (tcu.go), one TBU per master port with its TLB, its
// outstanding-transaction and walk limits (tbu.go), and the shared TCU
// that does the stream-match lookup and the walks.
//
// # Time
//
// Transaction level, on one global clock: a caller (the scenario's event
// loop) hands the TBUs transactions in non-decreasing issue time, from
// every master, and each Access books the resources it passes through in
// that order: the TBU's input port, its read or write slots (earliest
// free), its TLB (an entry still being filled delays a hit on it), its
// walk slots, the TCU's request pipeline, the context bank's walker whose
// descriptor reads go through the interconnect (Bus), and finally the
// Bus access itself. So two masters behind one TBU compete for its TLB
// entries and walk slots, and every TBU competes for the TCU and for
// DRAM. Cycles are platform cycles (Config.Clock), the clock domain the
// MMU-500 runs in.
//
// # What the sACR bits change
//
// A transaction whose StreamID matches no SMR bypasses translation when
// sCR0.USFCFG is 0. Without sACR.SMTNMB_TLBEN (bit 8) the TBU never holds
// that decision: every such transaction misses in the TBU TLB and goes to
// the TCU for the stream-match lookup and back. With the bit the bypass
// is cached in the TBU TLB like a translation (an identity entry of
// Config.BypassBytes), so later transactions to that range hit in the
// TBU, and the entry takes a TLB way another stream could have used.
// sACR.S2CRB_TLBEN (bit 10) does the same for streams whose matching S2CR
// says bypass. Linux sets both in arm_mmu500_reset
// (drivers/iommu/arm/arm-smmu/arm-smmu-impl.c), only for MMU-500: the
// bits are MMU-500 implementation-defined sACR fields.
//
// # Faults
//
// Faults are outcomes, never panics or errors: an unmatched StreamID with
// USFCFG=1 records sGFSR.USF and the transaction aborts; two matching SMRs
// record sGFSR.SMCF; a walk that finds no valid descriptor records a
// context fault (FSR.TF) with the context bank and address. Faults lists
// them with time and StreamID (bounded; FaultCount counts all).
package smmu
