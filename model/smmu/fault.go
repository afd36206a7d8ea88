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
	// Level is the walk level a translation fault stopped at, in Stage's
	// table (1, or 2 when a nested walk's stage-2 table faulted).
	Level, Stage int
}

func (f FaultRecord) String() string { return fmt.Sprintf("%v %s at %#x", f.T, f.Cause(), f.Addr) }

// Cause is the fault in words without its time and address (a hazards
// list shows them beside it): the StreamID, the fault, and for a
// translation fault the context bank and level.
func (f FaultRecord) Cause() string {
	s := fmt.Sprintf("StreamID %#x: %v", f.SID, f.Kind)
	if f.Kind == FaultTF {
		stage := ""
		if f.Stage == 2 {
			stage = " of stage 2"
		}
		s += fmt.Sprintf(" in context bank %d (level %d%s)", f.CB, f.Level, stage)
	}
	return s
}

// maxFaults bounds the fault list (FaultCount keeps counting).
const maxFaults = 256
