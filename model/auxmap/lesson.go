package auxmap

import "github.com/dmaviz/dmaviz/model/scenario"

// Lesson sizes: a 256 KiB AUX buffer (64 pages, one walk each with
// order-0 pages) in one pass; for SPE, a dd copy and a sampling interval
// small enough that SPE's own few translations show beside the copy's.
var (
	lessonTRBE = []scenario.Setting{{Name: ParamAUX, Value: "256KiB"}, {Name: ParamIterations, Value: "1"}}
	lessonSPE  = []scenario.Setting{{Name: ParamAUX, Value: "256KiB"}, {Name: ParamWorkingSet, Value: "1MiB"},
		{Name: ParamInterval, Value: "256"}, {Name: ParamIterations, Value: "1"}}
)

const (
	lessonNoteTRBE = "256 KiB, one pass: 64 pages the trace unit writes in order, one walk per page with order-0 pages against one per 64 KiB run."
	lessonNoteSPE  = "256 KiB AUX, a 1 MiB dd copy, a sample every 256 operations: the copy's 512 walks stay, SPE's own walks go from 9 to 1."
)
