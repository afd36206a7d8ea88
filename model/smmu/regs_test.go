package smmu

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Reset's zero value is mainline Linux: disable_bypass=1 sets
// sCR0.USFCFG, so an unmatched StreamID faults (sGFSR.USF) and a stream
// group with no domain gets S2CR FAULT; arm-smmu.disable_bypass=0 lets
// both bypass.
func TestResetIsMainlineByDefault(t *testing.T) {
	var mainline Reset
	regs := Regs{CR0: mainline.CR0(), SMR: []SMR{{ID: 0x20, Valid: true}}, S2CR: []S2CR{mainline.InitS2CR()}}
	d := regs.Decide(0x1c00)
	assert.Equal(t, RouteFault, d.Route)
	assert.Equal(t, FaultUSF, d.Fault)
	assert.Equal(t, RouteFault, regs.Decide(0x20).Route, "no domain attached: S2CR FAULT")

	bypass := Reset{AllowBypass: true}
	regs = Regs{CR0: bypass.CR0(), SMR: []SMR{{ID: 0x20, Valid: true}}, S2CR: []S2CR{bypass.InitS2CR()}}
	assert.Equal(t, RouteUnmatched, regs.Decide(0x1c00).Route)
	assert.Equal(t, RouteBypass, regs.Decide(0x20).Route)
}
