// Package smmu is an SMMUv2 / Arm CoreLink MMU-500 model: stream matching
// (SMRs and S2CRs in regs.go), context banks with page tables walked by
// the mmu walker in the TCU (smmu.go), one TBU per master port with its TLB, its
// outstanding-transaction and walk limits (tbu.go), and the shared TCU
// that does the stream-match lookup and the walks.
//
// # Time
//
// Transaction level, on one global clock: the SMMU is an agent of a
// soc.Machine, its steps events on the machine's queue, and a transaction
// moves through them at the times they happen (txn.go): the master's
// Issue takes the TBU's input, a read or write slot and the TLB lookup
// (and on a hit asks the bus, the lookup's 2 clocks being part of the
// access's path); a miss takes a walk slot and asks the TCU for its
// arrival one link trip later (its pipeline, the stream match and the
// walk's start: every TBU's link is the same, so misses reach the TCU in
// the order they ask); each descriptor read goes to the bus at its own
// time; the answer comes back one link trip later, fills the TLB and asks
// the bus; the master hears when the data is back (Sink), or as soon as
// its time is known if it asked Early. So every shared
// resource (the TBU's slots and TLB, the TCU, the walk caches, DRAM) is
// asked in non-decreasing global time, and two masters behind one TBU
// compete for its TLB entries and walk slots, every TBU for the TCU, and
// all of them with the core for the memory system below: past the port to
// the interconnect (Config.Bus) the machine answers each read from where
// its line is, a snoop of the core's caches, the L3 or DRAM (its one
// channel), at times derived from the core's own latencies
// (soc.Machine.IOAccess), and a write invalidates the core's copies (its
// first lines stashed into the core's L2 if the master asks). The slots
// are earliest-free pools (sim.Pool):
// completions come back out of order (a 2-cycle hit behind a walk), and a
// slot is held until its completion is known. Cycles are platform cycles
// (Config.Clock), the clock domain the MMU-500 runs in.
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
// # Stages
//
// A context bank is stage 1 or stage 2 alone (both the LPAE format the
// walker reads: the same walk), or nested (AddNestedContextBank, stage2.go):
// the stage-1 table's descriptors sit at IPAs, so the one walker translates
// each descriptor address, and then the output IPA, through the stage-2
// table, and every descriptor read goes through the interconnect in turn
// (4 x (4 + 1) + 4 = 24 reads for a walk with no walk-cache hits). The
// TLB entry is the combined translation, at the smaller of the two
// stages' page sizes. Simplifications: each stage's walker has its own
// walk caches of Config.WalkCache (the MMU-500's are shared and sized at
// integration); stage-2 attributes and permissions are not combined (no
// permission faults); a stage-2 fault during a walk is reported as a
// translation fault of stage 2 with its level, not as the separate
// stage-2 fault syndrome.
//
// # Faults
//
// Faults are outcomes, never panics or errors: an unmatched StreamID with
// USFCFG=1 records sGFSR.USF and the transaction aborts; two matching SMRs
// record sGFSR.SMCF; a walk that finds no valid descriptor records a
// context fault (FSR.TF) with the context bank and address. Faults lists
// them with time and StreamID (bounded; FaultCount counts all).
package smmu
