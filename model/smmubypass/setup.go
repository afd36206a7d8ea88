package smmubypass

import (
	"fmt"
	"math/bits"

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
	area := uint64(c.ring) * bufStride(c.packet)
	hw.MemBytes = max(uint64(1)<<30, 2*c.ws+area+(64<<20))
	m, err := soc.New(hw, c.seed)
	if err != nil {
		return nil, err
	}
	sc := *board.SMMU
	sc.RegisterSlices = c.slices
	sc.TLBEntries = c.tbuTLB
	if c.link != 0 {
		sc.LinkCycles = c.link
	}
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
	// How Linux programs sCR0 at probe: with arm-smmu.disable_bypass
	// (mainline's default) an unmatched StreamID faults.
	regs.CR0 |= smmu.Reset{AllowBypass: !c.disableBypass}.CR0()
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
	// Every slot's frame may be in flight at once (the bit off, the walk
	// slots taken), with the engine's reads (at most maxInFlight).
	r.s.Reserve(min(c.ring, c.packets)*txnsPerPacket(c) + c.streams)
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
	if err := r.allocBuffers(area); err != nil {
		return nil, err
	}
	// The core's route table: the slice of rte_lpm's tbl24 (4-byte
	// entries) that holds l3fwd's routes 1.1.1.0/24 .. 8.1.1.0/24, one
	// entry each, cacheable. Each flow's destination falls in one route
	// (flow i in route i mod 8: the lookups read those 8 entries).
	lpm, err := m.Alloc("tbl24", routes*routeStride*4, mem.Normal)
	if err != nil {
		return nil, err
	}
	r.lpm = lpm.VA
	r.flowIdx = make([]uint32, c.flows)
	for i := range r.flowIdx {
		r.flowIdx[i] = uint32(i%routes*routeStride + 0x0101)
	}
	r.interval = sim.Time(float64(c.packet+20) * 8 / c.rate * 1e12)
	r.work = hw.Clocks.CPUCycles(float64(c.cpuWork))
	if record {
		r.rec = newRecording(r)
	}
	return r, nil
}

// allocBuffers allocates the NIC's frame buffers (area bytes: one per
// packet slot) in physically contiguous blocks of at most maxChunk, each
// holding whole buffers (a power of two of pages: one buddy block, so the
// kernel's linear map covers it, as a hugepage would).
func (r *run) allocBuffers(area uint64) error {
	stride := bufStride(r.cfg.packet)
	r.perBuf = int(max(1, maxChunk/stride))
	for left := area; left > 0; {
		n := min(left, uint64(r.perBuf)*stride)
		b, err := r.m.Alloc("frame buffers", max(uint64(mem.PageSize), uint64(1)<<bits.Len64(n-1)), mem.Normal)
		if err != nil {
			return err
		}
		r.bufs = append(r.bufs, b)
		left -= n
	}
	return nil
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
