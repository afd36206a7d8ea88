package auxmap

import (
	"fmt"
	"strings"

	"github.com/dmaviz/dmaviz/model/mem"
	"github.com/dmaviz/dmaviz/model/scenario"
)

// memPart is one parameter's share of the pages a run allocates before
// the session: the AUX buffer, the traced program's code, its data.
type memPart struct {
	param string
	bytes uint64
}

// checkMemory refuses AUX and workload pages past half of the board's
// memory (mem.bytes: the model keeps the other half for the kernel and
// the shaped free memory the allocations come from). The error names the
// resource, each part, the shortfall and the largest value allowed of
// the parameter to change: aux, or, when not even the smallest AUX buffer
// fits, the largest part of the workload.
func (c config) checkMemory(work []memPart, minAUX uint64) error {
	half := c.hw.MemBytes / 2
	var workload uint64
	var words []string
	largest := memPart{}
	for _, p := range work {
		workload += p.bytes
		words = append(words, p.param+" "+scenario.FormatBytes(int64(p.bytes)))
		if p.bytes > largest.bytes {
			largest = p
		}
	}
	need := c.aux + workload
	if need <= half {
		return nil
	}
	head := fmt.Sprintf("AUX %s and workload %s (%s) make %s, more than half of the %s of memory %s has in the model (hw.mem.bytes; "+
		"the other half is the kernel's and the fragmented free memory the buffer is allocated from): %s short",
		scenario.FormatBytes(int64(c.aux)), scenario.FormatBytes(int64(workload)), strings.Join(words, " + "),
		scenario.FormatBytes(int64(need)), scenario.FormatBytes(int64(c.hw.MemBytes)), c.preset,
		scenario.FormatBytes(int64(need-half)))
	if workload+minAUX <= half {
		most := uint64(mem.PageSize) // the largest power-of-two number of pages that fits
		for most*2 <= half-workload {
			most *= 2
		}
		return fmt.Errorf("%s: %s; largest %s allowed here: %s", ParamAUX, head, ParamAUX, scenario.FormatBytes(int64(most)))
	}
	room := int64(half) - int64(minAUX) - int64(workload-largest.bytes)
	if room < mem.PageSize {
		return fmt.Errorf("%s: %s, even with the smallest AUX buffer (%s) and the other parts as set; raise hw.mem.bytes",
			largest.param, head, scenario.FormatBytes(int64(minAUX)))
	}
	return fmt.Errorf("%s: %s, even with the smallest AUX buffer (%s); largest %s allowed here: %s",
		largest.param, head, scenario.FormatBytes(int64(minAUX)), largest.param, scenario.FormatBytes(room/mem.PageSize*mem.PageSize))
}
