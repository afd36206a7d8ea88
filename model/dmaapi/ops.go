package dmaapi

import (
	"fmt"

	"github.com/dmaviz/dmaviz/model/soc"
)

// Dir is enum dma_data_direction (same values as Linux).
type Dir uint8

const (
	Bidirectional Dir = 0 // DMA_BIDIRECTIONAL
	ToDevice      Dir = 1 // DMA_TO_DEVICE
	FromDevice    Dir = 2 // DMA_FROM_DEVICE
)

var dirNames = [...]string{"DMA_BIDIRECTIONAL", "DMA_TO_DEVICE", "DMA_FROM_DEVICE"}

func (d Dir) String() string {
	if int(d) < len(dirNames) {
		return dirNames[d]
	}
	return fmt.Sprintf("dir(%d)", uint8(d))
}

func (d Dir) valid() bool { return d <= FromDevice }

// Op is one run of DC ops an arch hook issues: op on every line of
// [VA, VA+N). VA is line aligned and N a whole number of lines.
type Op struct {
	DC soc.DCOp
	VA uint64
	N  uint64
}

func (o Op) String() string { return fmt.Sprintf("%s %#x +%d", o.DC, o.VA, o.N) }

// Ops is the runs of DC ops one arch hook issues over one range, in
// order: at most three (a partial last line, a partial first line, the
// rest), held without allocating.
type Ops struct {
	n   int
	ops [3]Op
}

// List returns the runs (nil when there are none).
func (o *Ops) List() []Op {
	if o.n == 0 {
		return nil
	}
	return o.ops[:o.n]
}

func (o *Ops) add(op Op) { o.ops[o.n] = op; o.n++ }

// DeviceOps is arch_sync_dma_for_device on arm64 (dcache_clean_poc), for
// any direction: DC CVAC on every line [va, va+n) touches.
func DeviceOps(va, n, line uint64) []Op {
	o := deviceOps(va, n, line)
	return o.List()
}

func deviceOps(va, n, line uint64) (o Ops) {
	if n == 0 {
		return o
	}
	mask := line - 1
	s, e := va&^mask, (va+n+mask)&^mask
	o.add(Op{soc.CVAC, s, e - s})
	return o
}

// CPUOps is arch_sync_dma_for_cpu on arm64: nothing for DMA_TO_DEVICE,
// else dcache_inval_poc over [va, va+n) as arch/arm64/mm/cache.S writes
// it: DC CIVAC on a partial last line, DC CIVAC on a partial first line
// (the bytes outside the range belong to someone else and must not be
// dropped), DC IVAC on the lines between; the loop body runs at least
// once, so a range that starts on a line boundary always invalidates its
// first line.
func CPUOps(va, n, line uint64, dir Dir) []Op {
	o := cpuOps(va, n, line, dir)
	return o.List()
}

func cpuOps(va, n, line uint64, dir Dir) (o Ops) {
	if dir == ToDevice {
		return o
	}
	mask := line - 1
	s, e := va, va+n
	if e&mask != 0 {
		e &^= mask
		o.add(Op{soc.CIVAC, e, line})
	}
	if s&mask != 0 {
		s &^= mask
		o.add(Op{soc.CIVAC, s, line})
		s += line
		if s < e {
			o.add(Op{soc.IVAC, s, e - s})
		}
		return o
	}
	o.add(Op{soc.IVAC, s, max(e, s+line) - s})
	return o
}
