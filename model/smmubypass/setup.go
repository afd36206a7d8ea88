package smmubypass

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/platform"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// setup builds the SMMU, its tables, the core and the masters.
func setup(c config, policy string, record bool) (*run, error) {
	hw, err := platform.Lookup(c.preset)
	if err != nil {
		return nil, err
	}
	hw.MemBytes = max(uint64(1)<<30, 2*c.ws+(64<<20))
	m, err := soc.New(hw, c.seed)
	if err != nil {
		return nil, err
	}
	sc := platform.LS2088ASMMU()
	sc.RegisterSlices = c.slices
	r := &run{cfg: c, m: m, rng: m.RNG().Split(), clock: sc.Clock}
	if r.agent, err = m.AddAgent(r); err != nil {
		return nil, err
	}
	if policy == PolicyOn {
		r.acr |= smmu.ACRSMTNMBTLBEN
	}
	if c.s2crb {
		r.acr |= smmu.ACRS2CRBTLBEN
	}
	regs := smmu.Regs{ACR: r.acr,
		SMR:  []smmu.SMR{{ID: engineSID, Mask: 0, Valid: true}},
		S2CR: []smmu.S2CR{{Type: smmu.Translate, CBNDX: 0}}}
	if c.s2crBypass {
		regs.SMR = append(regs.SMR, smmu.SMR{ID: nicSID, Mask: 0xff, Valid: true})
		regs.S2CR = append(regs.S2CR, smmu.S2CR{Type: smmu.Bypass})
	}
	if c.usf {
		regs.CR0 |= smmu.CR0USFCFG
	}
	switch c.setup {
	case SetupConflict: // a catch-all bypass group that also covers the engine's StreamID
		regs.SMR = append(regs.SMR, conflictSMR)
		regs.S2CR = append(regs.S2CR, smmu.S2CR{Type: smmu.Bypass})
	case SetupClientPD:
		regs.CR0 |= smmu.CR0ClientPD
	}
	if r.s, err = smmu.New(sc, regs, m, r); err != nil {
		return nil, err
	}
	// The engine's domain: ws bytes of IOVA on 4 KiB pages (io-pgtable
	// with 4 KiB granule), frames from the machine's allocator.
	tables := mmu.NewMemory()
	pt, err := mmu.NewPageTable("cb0", tables, m.Buddy(), nil, false)
	if err != nil {
		return nil, err
	}
	buf, err := m.Buddy().Alloc(0)
	if err != nil {
		return nil, err
	}
	r.wsPages = c.ws >> mmu.PageShift
	mapped := r.wsPages
	if c.setup == SetupOutside { // the window's last page is not mapped (unmapped while the engine still reads it)
		mapped--
	}
	pages := make([]uint64, mapped)
	for i := range pages { // every IOVA page on its own frame is not needed for timing: one frame aliased
		pages[i] = buf.PFN << mmu.PageShift
	}
	if _, err := pt.MapPages(engIOVA, pages, mmu.PageKernel, mmu.Size4K); err != nil {
		return nil, fmt.Errorf("ws: %w", err)
	}
	if _, err := r.s.AddContextBank(1, pt, tables); err != nil {
		return nil, err
	}
	if err := r.s.Check(); err != nil {
		return nil, err
	}
	if r.tbu, err = r.s.AddTBU("tbu0"); err != nil {
		return nil, err
	}
	// The core's route table: the tbl24 slice of 10.0.0.0/8 (2^16 4-byte
	// entries), cacheable.
	lpm, err := m.Alloc("tbl24", 256<<10, mem.Normal)
	if err != nil {
		return nil, err
	}
	r.lpm = lpm.VA
	r.flowIdx = make([]uint32, c.flows)
	for i := range r.flowIdx {
		r.flowIdx[i] = uint32(r.rng.Uint64() % (1 << 16))
	}
	r.interval = sim.Time(float64(c.packet+20) * 8 / c.rate * 1e12)
	r.work = hw.Clocks.CPUCycles(float64(c.cpuWork))
	if record {
		r.rec = newRecording(r)
	}
	return r, nil
}
