package smmu

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/sim"
)

// FaultKind names a fault the SMMU records.
type FaultKind uint8

// Faults.
const (
	FaultNone FaultKind = iota
	FaultUSF            // sGFSR.USF: unidentified stream (no SMR matched, USFCFG=1)
	FaultSMCF           // sGFSR.SMCF: stream match conflict (two SMRs matched)
	FaultS2CR           // the matching S2CR says fault
	FaultTF             // context bank FSR.TF: translation fault
)

var faultNames = [...]string{"none", "sGFSR.USF (unidentified stream)", "sGFSR.SMCF (stream match conflict)",
	"S2CR fault", "FSR.TF (translation fault)"}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) {
		return faultNames[k]
	}
	return fmt.Sprintf("fault(%d)", uint8(k))
}

// FaultRecord is one recorded fault: when, which stream, what, and for a
// translation fault the context bank and the faulting address.
type FaultRecord struct {
	T    sim.Time
	SID  uint16
	Kind FaultKind
	CB   int // -1 for global faults
	Addr uint64
	// Level is the walk level a translation fault stopped at.
	Level int
}

func (f FaultRecord) String() string {
	s := fmt.Sprintf("%v StreamID %#x: %v", f.T, f.SID, f.Kind)
	if f.Kind == FaultTF {
		s += fmt.Sprintf(" in context bank %d at %#x (level %d)", f.CB, f.Addr, f.Level)
	} else {
		s += fmt.Sprintf(" at %#x", f.Addr)
	}
	return s
}

// maxFaults bounds the fault list (FaultCount keeps counting).
const maxFaults = 256
