package smmu

import "fmt"

// Register bits the model reads (arm-smmu.h; MMU-500 TRM for sACR).
const (
	CR0ClientPD = 1 << 0  // sCR0.CLIENTPD: client ports disabled, every transaction bypasses
	CR0USFCFG   = 1 << 10 // sCR0.USFCFG: an unmatched stream faults (1) or bypasses (0)

	ACRSMTNMBTLBEN = 1 << 8  // sACR.SMTNMB_TLBEN: unmatched-stream bypasses allocate TBU TLB entries
	ACRS2CRBTLBEN  = 1 << 10 // sACR.S2CRB_TLBEN: S2CR-bypass streams allocate TBU TLB entries
	ACRCacheLock   = 1 << 26 // sACR.CACHE_LOCK (kept for completeness; changes no timing)
)

// SMR is one stream-match register (ARM_SMMU_GR0_SMR(n)): it matches a
// StreamID when Valid and ((SID xor ID) and not Mask) == 0.
type SMR struct {
	ID, Mask uint16
	Valid    bool
}

// Matches reports whether the register matches sid.
func (r SMR) Matches(sid uint16) bool { return r.Valid && (sid^r.ID)&^r.Mask == 0 }

// S2CRType is an S2CR's TYPE field.
type S2CRType uint8

// S2CR types (S2CR_TYPE_TRANS, S2CR_TYPE_BYPASS, S2CR_TYPE_FAULT).
const (
	Translate S2CRType = iota
	Bypass
	Fault
)

func (t S2CRType) String() string {
	switch t {
	case Translate:
		return "translate"
	case Bypass:
		return "bypass"
	case Fault:
		return "fault"
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// S2CR is the stream-to-context register paired with SMR n: translate
// through context bank CBNDX, bypass, or fault.
type S2CR struct {
	Type  S2CRType
	CBNDX int
}

// Regs is the global register state the stream-match lookup reads.
// Invariant: len(SMR) == len(S2CR) (one S2CR per stream-match group).
type Regs struct {
	CR0  uint32 // sCR0
	ACR  uint32 // sACR
	SMR  []SMR
	S2CR []S2CR
}

// Route is what the stream-match lookup decided for a StreamID.
type Route uint8

// Routes.
const (
	RouteTranslate Route = iota // through a context bank
	RouteBypass                 // matched, S2CR says bypass
	RouteUnmatched              // no SMR matched, USFCFG=0: bypass
	RouteFault                  // fault: S2CR fault, USF or SMCF
	RouteDisabled               // sCR0.CLIENTPD: the SMMU is off
)

var routeNames = [...]string{"translate", "s2cr-bypass", "unmatched-bypass", "fault", "disabled"}

func (r Route) String() string {
	if int(r) < len(routeNames) {
		return routeNames[r]
	}
	return fmt.Sprintf("route(%d)", uint8(r))
}

// Bypassing reports whether the route skips translation.
func (r Route) Bypassing() bool { return r == RouteBypass || r == RouteUnmatched || r == RouteDisabled }

// Decision is the stream-match lookup's result.
type Decision struct {
	Route Route
	// SMR is the matching register (-1: none, or the first of a conflict).
	SMR int
	// CB is the context bank for RouteTranslate.
	CB int
	// Fault says which fault for RouteFault.
	Fault FaultKind
}

// Decide is the stream-match lookup for sid: every valid SMR is compared
// (a second match is a conflict), then the matching S2CR or, for no
// match, sCR0.USFCFG decides.
func (r *Regs) Decide(sid uint16) Decision {
	if r.CR0&CR0ClientPD != 0 {
		return Decision{Route: RouteDisabled, SMR: -1, CB: -1}
	}
	match, n := -1, 0
	for i, s := range r.SMR {
		if s.Matches(sid) {
			if n == 0 {
				match = i
			}
			n++
		}
	}
	switch {
	case n > 1:
		return Decision{Route: RouteFault, SMR: match, CB: -1, Fault: FaultSMCF}
	case n == 0 && r.CR0&CR0USFCFG != 0:
		return Decision{Route: RouteFault, SMR: -1, CB: -1, Fault: FaultUSF}
	case n == 0:
		return Decision{Route: RouteUnmatched, SMR: -1, CB: -1}
	}
	if match >= len(r.S2CR) {
		return Decision{Route: RouteFault, SMR: match, CB: -1, Fault: FaultS2CR}
	}
	s := r.S2CR[match]
	switch s.Type {
	case Translate:
		return Decision{Route: RouteTranslate, SMR: match, CB: s.CBNDX}
	case Bypass:
		return Decision{Route: RouteBypass, SMR: match, CB: -1}
	}
	return Decision{Route: RouteFault, SMR: match, CB: -1, Fault: FaultS2CR}
}

// Caches reports whether the TBU may allocate a TLB entry for a
// transaction routed by d: always for translations, for bypasses only
// with the sACR bit for that kind of bypass.
func (r *Regs) Caches(d Route) bool {
	switch d {
	case RouteTranslate:
		return true
	case RouteUnmatched:
		return r.ACR&ACRSMTNMBTLBEN != 0
	case RouteBypass:
		return r.ACR&ACRS2CRBTLBEN != 0
	}
	return false
}

// Validate checks the register file's shape.
func (r *Regs) Validate(banks int) error {
	if len(r.SMR) != len(r.S2CR) {
		return fmt.Errorf("smr: %d stream-match registers but %d S2CRs; they come in pairs", len(r.SMR), len(r.S2CR))
	}
	if len(r.SMR) > 128 {
		return fmt.Errorf("smr: %d stream-match registers; allowed 0..128 (ID0.NUMSMRG)", len(r.SMR))
	}
	for i, s := range r.S2CR {
		if s.Type > Fault {
			return fmt.Errorf("s2cr[%d].type: %d; allowed translate, bypass, fault", i, s.Type)
		}
		if s.Type == Translate && (s.CBNDX < 0 || s.CBNDX >= banks) {
			return fmt.Errorf("s2cr[%d].cbndx: %d is out of range; allowed 0..%d (context banks)", i, s.CBNDX, banks-1)
		}
	}
	return nil
}

// Reset is how Linux's arm-smmu driver programs the global registers at
// probe (arm_smmu_device_reset; on an MMU-500 also arm_mmu500_reset,
// whose sACR bits the caller sets). Its zero value is mainline's
// default.
type Reset struct {
	// AllowBypass is booting with arm-smmu.disable_bypass=0. Mainline's
	// default is disable_bypass=1 (drivers/iommu/Kconfig:
	// ARM_SMMU_DISABLE_BYPASS_BY_DEFAULT, "default y" since v5.2, commit
	// 954a03be033c "iommu/arm-smmu: Break insecure users by disabling
	// bypass by default"): a StreamID no SMR matches faults (sCR0.USFCFG
	// set: sGFSR.USF, logged as "Blocked unknown Stream ID ...; boot with
	// "arm-smmu.disable_bypass=0" to allow") and a stream group no
	// domain is attached to gets S2CR type FAULT (s2cr_init_val).
	AllowBypass bool
}

// CR0 is the sCR0 arm_smmu_device_reset writes: client access enabled
// (CLIENTPD clear), unmatched streams faulting (USFCFG) unless bypass is
// allowed.
func (r Reset) CR0() uint32 {
	if r.AllowBypass {
		return 0
	}
	return CR0USFCFG
}

// InitS2CR is s2cr_init_val: the S2CR of a stream group with no domain
// attached (FAULT, or BYPASS when bypass is allowed).
func (r Reset) InitS2CR() S2CR {
	if r.AllowBypass {
		return S2CR{Type: Bypass}
	}
	return S2CR{Type: Fault}
}
