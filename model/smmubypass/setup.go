package smmubypass

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/mmu"
	"github.com/dmaviz/dmaviz/model/sim"
	"github.com/dmaviz/dmaviz/model/smmu"
	"github.com/dmaviz/dmaviz/model/soc"
)

// setup builds the SMMU, its tables, the core and the masters.
func setup(c config, policy string, record bool) (*run, error) {
	board, err := board(c)
	if err != nil {
		return nil, err
	}
	hw := board.Config
	hw.MemBytes = max(uint64(1)<<30, 2*c.ws+(64<<20))
	m, err := soc.New(hw, c.seed)
	if err != nil {
		return nil, err
	}
	sc := *board.SMMU
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
	// with 4 KiB granule), frames from the machine's allocator, or for a
	// nested bank from the guest's IPA space (ipaSpace).
	alloc := m.Buddy()
	if c.stage == StageNested {
		if alloc, err = mem.NewBuddy(ipaBytes, 10); err != nil {
			return nil, err
		}
	}
	tables := mmu.NewMemory()
	pt, err := mmu.NewPageTable("cb0", tables, alloc, nil, false)
	if err != nil {
		return nil, err
	}
	buf, err := alloc.Alloc(0)
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
	if err := r.addBank(pt, tables); err != nil {
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

// ipaBytes is a nested bank's IPA space (the guest's memory): the
// stage-1 tables and the engine's frame are allocated in it, and stage 2
// maps all of it (4 KiB pages) onto one block of the machine's memory.
// 4 MiB holds the tables of the largest working set (256 MiB: about 130
// table pages).
const ipaBytes = 4 << 20

// addBank adds the engine's context bank on the chosen stage: pt (stage
// 1, or stage 2 alone: the same LPAE walk), or pt as the stage 1 of a
// nested bank over a stage-2 table of the IPA space.
func (r *run) addBank(pt *mmu.PageTable, tables *mmu.Memory) error {
	switch r.cfg.stage {
	case StageNested:
		s2mem := mmu.NewMemory()
		s2, err := mmu.NewPageTable("cb0-s2", s2mem, r.m.Buddy(), nil, false)
		if err != nil {
			return err
		}
		guest, err := r.m.Buddy().Alloc(10) // 4 MiB of the machine's memory
		if err != nil {
			return err
		}
		if _, err := s2.MapRange(0, guest.PFN<<mmu.PageShift, ipaBytes, mmu.PageKernel, mmu.Size4K); err != nil {
			return err
		}
		_, err = r.s.AddNestedContextBank(pt, tables, s2, s2mem)
		return err
	case StageS2:
		_, err := r.s.AddContextBank(2, pt, tables)
		return err
	}
	_, err := r.s.AddContextBank(1, pt, tables)
	return err
}
