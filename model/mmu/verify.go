package mmu

import "fmt"

// Verify checks the whole tree against the rules the hardware relies on
// and reports the first violation: every table descriptor points at a
// table frame; block and page output addresses are aligned to their size;
// a PTE with the contiguous bit sits in a run of 16 aligned PTEs that all
// have it, with consecutive output addresses and the same attributes
// (otherwise a TLB may hold conflicting entries).
func (t *PageTable) Verify() error {
	type frame struct {
		pa    uint64
		level int
		va    uint64 // first VA the table covers
	}
	stack := []frame{{t.root, 0, 0}}
	if t.upper {
		stack[0].va = 0xffff << VABits
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := uint64(0); i < tableSlots; i++ {
			d, _ := t.mem.Read64(f.pa + i*8)
			va := f.va + i<<levelShift(f.level)
			switch KindOf(d, f.level) {
			case Table:
				next := d & oaMask
				if !t.mem.IsTable(next) {
					return fmt.Errorf("%s: level-%d descriptor for va %#x points at pa %#x, not a table", t.name, f.level, va, next)
				}
				stack = append(stack, frame{next, f.level + 1, va})
			case Block, Page:
				size := uint64(1) << levelShift(f.level)
				if d&oaMask&(size-1) != 0 {
					return fmt.Errorf("%s: level-%d leaf for va %#x has output %#x not aligned to %d", t.name, f.level, va, d&oaMask, size)
				}
				if f.level == 3 && d&dCont != 0 && i%ContigPTEs == 0 {
					if err := t.verifyContig(f.pa+i*8, va, d); err != nil {
						return err
					}
				}
				if f.level == 3 && d&dCont != 0 {
					first, _ := t.mem.Read64(f.pa + (i&^(ContigPTEs-1))*8)
					if first&dCont == 0 {
						return fmt.Errorf("%s: contiguous run at va %#x does not start with a contiguous PTE", t.name, va&^(ContigSize-1))
					}
				}
			}
		}
	}
	return nil
}

// verifyContig checks the run of 16 PTEs starting at pa (first PTE d).
func (t *PageTable) verifyContig(pa, va, d uint64) error {
	if d&oaMask&(ContigSize-1) != 0 {
		return fmt.Errorf("%s: contiguous run at va %#x starts at pa %#x, not 64 KiB aligned", t.name, va, d&oaMask)
	}
	for j := uint64(1); j < ContigPTEs; j++ {
		e, _ := t.mem.Read64(pa + j*8)
		if e != d+j*PageSize {
			return fmt.Errorf("%s: contiguous run at va %#x: PTE %d is %#x, want %#x", t.name, va, j, e, d+j*PageSize)
		}
	}
	return nil
}
